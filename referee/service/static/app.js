// The page a player keeps open beside the board: an uploaded log (or a hosted game) with its rulings in words,
// the board drawn here (the map once per scenario, counters from one sprite sheet, the selected ruling marked
// on it), filters and jumps, the luck report and what-ifs.  Plain JavaScript against /api/v1 (see
// /api/v1/openapi.json and docs/page.md); no build step.  Every text from a log goes into the page as text
// (textContent, or escaped before it is put into markup).
"use strict";

const API = "/api/v1";
const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const LOG_SUFFIXES = [".json", ".yaml", ".yml", ".vlog", ".vsav"];
const MAX_BYTES = 16 * 1024 * 1024;

// What the page shows.  source: {kind: "log", id, resend} or {kind: "game", id, token}.
const S = {
  source: null, steps: 0, current: 0, rulings: [], events: [], places: [], lines: [], meta: [], shown: [], position: null,
  units: {}, geometry: null, sheet: null, sheetUrl: null, boardCache: new Map(), boardSeq: 0,
  view: { scale: 1, x: 0, y: 0, fitted: true }, side: null, illegal: [],
};
window.__page = { timing: {} };                     // read by the browser test and bench/bench_page.py

// ------------------------------------------------------------------ messages

function setStatus(text, isError = false, problems = []) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
  $("problems").replaceChildren(...problems.map((p) => { const li = document.createElement("li"); li.textContent = p; return li; }));
}

async function failure(resp) {
  try {
    const body = await resp.json();
    if (body.error) return { text: body.error.message || body.error.code, problems: body.error.problems || [], code: body.error.code };
  } catch (_) { /* not JSON: say the status */ }
  return { text: `the server answered HTTP ${resp.status}`, problems: [] };
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const name = (id) => (S.units[id] && S.units[id].name) || id;

// ------------------------------------------------------------------ input: file, drop, paste

function checkFile(file) {
  const lower = file.name.toLowerCase();
  if (!LOG_SUFFIXES.some((s) => lower.endsWith(s))) {
    if (lower.endsWith(".vmod")) return `${file.name} is a VASSAL module: choose it as the Module, and the game's .vlog or .vsav as the Log.`;
    return `${file.name} is not a log this page reads: choose a .json or .yaml log (referee check's format), or a VASSAL .vlog/.vsav.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_BYTES) return `${file.name} is ${(file.size / 1048576).toFixed(1)} MB; the server reads logs up to 16 MB.`;
  return null;
}

// One log, or the turn files of one game played by e-mail (several .vlog files, read in the order of their names:
// turn2 before turn10), as `referee check turn1.vlog turn2.vlog` reads them; each ruling names its file.  A .vsav
// among them is the save they start from, sent first (`referee check --from SAVE.vsav turn3.vlog`).
function uploadFiles(logs, module) {
  logs = (Array.isArray(logs) ? logs : [logs]).slice().sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
  for (const log of logs) { const problem = checkFile(log); if (problem) { setStatus(problem, true); return; } }
  if (logs.length > 1) {
    const saves = logs.filter((f) => f.name.toLowerCase().endsWith(".vsav"));
    const other = logs.find((f) => !f.name.toLowerCase().endsWith(".vlog") && !saves.includes(f)) || saves[1];
    if (other) { setStatus(`${other.name}: several logs are the turns of one VASSAL game: choose only .vlog files, and at most one .vsav (the save they start from).`, true); return; }
    logs = saves.concat(logs.filter((f) => !saves.includes(f)));
  }
  if (module && !module.name.toLowerCase().endsWith(".vmod")) { setStatus(`${module.name} is not a VASSAL module (.vmod).`, true); return; }
  const send = () => {
    const form = new FormData();
    for (const log of logs) form.append("log", log, log.name);
    if (module) form.append("module", module);
    return fetch(`${API}/replays`, { method: "POST", body: form });
  };
  openReplay(send, logs.length > 1 ? `${logs.map((f) => f.name).join(", ")} (${logs.length} files, in this order)` : logs[0].name);
}

function uploadText(text) {
  const trimmed = text.trim();
  if (!trimmed) { setStatus("The paste box is empty: paste a JSON or YAML log first.", true); return; }
  const type = trimmed.startsWith("{") || trimmed.startsWith("[") ? "application/json" : "application/yaml";
  openReplay(() => fetch(`${API}/replays`, { method: "POST", headers: { "Content-Type": type }, body: trimmed }), "pasted log");
}

$("upload-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (!$("log-file").files.length) { setStatus("Choose a log file first (or drop one on the page, or paste it).", true); return; }
  uploadFiles([...$("log-file").files], $("module-file").files[0] || null);
});
$("paste-toggle").addEventListener("click", () => {
  const box = $("paste-box");
  box.hidden = !box.hidden;
  $("paste-toggle").setAttribute("aria-expanded", String(!box.hidden));
  if (!box.hidden) $("paste-text").focus();
});
$("paste-check").addEventListener("click", () => uploadText($("paste-text").value));

let dragDepth = 0;
document.addEventListener("dragenter", (ev) => { if (ev.dataTransfer && [...ev.dataTransfer.types].includes("Files")) { dragDepth++; document.body.classList.add("dragging"); } });
document.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; document.body.classList.remove("dragging"); } });
document.addEventListener("dragover", (ev) => ev.preventDefault());
document.addEventListener("drop", (ev) => {
  ev.preventDefault();
  dragDepth = 0;
  document.body.classList.remove("dragging");
  const files = [...(ev.dataTransfer ? ev.dataTransfer.files : [])];
  if (!files.length) {
    const text = ev.dataTransfer && ev.dataTransfer.getData("text/plain");
    if (text) uploadText(text); else setStatus("Nothing to read was dropped.", true);
    return;
  }
  const module = files.find((f) => f.name.toLowerCase().endsWith(".vmod")) || null;
  const logs = files.filter((f) => f !== module);
  if (!logs.length) { setStatus("Only a module was dropped: drop the game's .vlog or .vsav with it.", true); return; }
  uploadFiles(logs, module);
});

// ------------------------------------------------------------------ an uploaded log

async function openReplay(send, label) {
  const t0 = performance.now();
  window.__page.timing = { upload: t0 };
  setStatus(`Reading ${label}…`);
  let resp;
  try { resp = await send(); } catch (e) { setStatus(`Could not reach the server: ${e}`, true); return; }
  if (!resp.ok) { const f = await failure(resp); setStatus(`${label}: ${f.text}`, true, f.problems.length > 1 ? f.problems : []); return; }
  const created = await resp.json();
  window.__page.timing.created = performance.now() - t0;
  S.source = { kind: "log", id: created.id, send };
  $("tab-play").hidden = true; S.artFor = null;
  document.body.classList.add("has-source"); document.body.classList.remove("show-sources");
  $("sources-toggle").setAttribute("aria-expanded", "false");
  S.units = created.units;
  S.side = null;
  S.steps = created.steps;
  S.boardCache = new Map();
  S.rulings = []; S.lines = []; S.events = []; S.places = []; S.meta = []; S.illegal = [];
  $("title").textContent = `${created.scenario} — ${label}`;
  showWarnings(created.warnings || []);
  $("rulings").replaceChildren();
  $("explain").replaceChildren();
  window.__page.timing.listCleared = performance.now() - t0;
  fillUnitNames(); fillSides(created.sides);
  setStatus(`${created.steps} events read; ruling on them…`);
  window.__page.timing.cleared = performance.now() - t0;
  // The pictures are asked for at once, beside the geometry (not after it): one round trip less to the first picture.
  const mapUrl = `${API}/replays/${created.id}/map.png`, sheetUrl = `${API}/replays/${created.id}/counters.png`;
  const pictures = Promise.all([loadImage(mapUrl), loadImage(sheetUrl)]).catch(() => null);
  const art = await api(`${API}/replays/${created.id}/art`);
  if (!art) return;
  window.__page.timing.art = performance.now() - t0;
  await pictures;
  await loadArt(art.geometry, art.sheet, mapUrl, sheetUrl, {});
  window.__page.timing.images = performance.now() - t0;
  S.boardCache.set(0, created.board);
  enableStepper(created.steps);
  await showStep(0);
  window.__page.timing.firstPicture = performance.now() - t0;
  const body = await api(`${API}/replays/${created.id}`);
  if (!body) return;
  S.rulings = body.rulings; S.events = body.events; S.places = body.places; S.lines = body.lines;
  buildRulings();
  window.__page.timing.rulings = performance.now() - t0;
  const illegal = S.illegal.length;
  setStatus(`${body.rulings.length} events ruled on, ${illegal} illegal.` + (illegal ? " Press n for the next illegal move." : ""));
  $("luck").replaceChildren();
  if (!$("panel-luck").hidden) showLuck();
  updateWhatIfAt();
}

// What `referee check` prints as "warning: …" about the log (a die report that disagrees with the die's record, a
// file ruled from a save as it stands, another module version…), above the rulings: each once, as text.
function showWarnings(warnings) {
  const box = $("log-warnings");
  box.replaceChildren(...[...new Set(warnings)].map((w) => { const li = document.createElement("li"); li.textContent = w; return li; }));
  box.hidden = !box.childElementCount;
}

// GET/POST JSON; a replay this worker has forgotten is uploaded again once.
async function api(url, init = {}, retried = false) {
  let resp;
  try { resp = await fetch(url, init); } catch (e) { setStatus(`Could not reach the server: ${e}`, true); return null; }
  if (resp.ok) return resp.json();
  const f = await failure(resp);
  if (f.code === "replay_not_found" && !retried && S.source && S.source.kind === "log") {
    const again = await S.source.send();
    if (again.ok) { const created = await again.json(); S.source.id = created.id; return api(url, init, true); }
  }
  setStatus(f.text, true, f.problems.length > 1 ? f.problems : []);
  return null;
}

// ------------------------------------------------------------------ a hosted game

$("sources-toggle").addEventListener("click", () => {
  const open = document.body.classList.toggle("show-sources");
  $("sources-toggle").setAttribute("aria-expanded", String(open));
});

// The side's token is kept in this tab's session storage (gone when the tab closes), never in an address: a
// reload opens the game again, and the "Play" tab submits turns with it.
const SESSION_KEY = "referee.hosted-game";

$("game-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const id = $("game-id").value.trim(), token = $("game-token").value.trim();
  if (!id || !token) { setStatus("Give the game's id and your side's token.", true); return; }
  await openGame(id, token);
});

async function openGame(id, token, keepStatus = false) {
  S.source = { kind: "game", id, token };
  const auth = { headers: { Authorization: `Bearer ${token}` } };
  if (!keepStatus) setStatus("Opening…");
  const view = await api(`${API}/games/${encodeURIComponent(id)}`, auth);
  if (!view) return;
  sessionStorage.setItem(SESSION_KEY, JSON.stringify({ id, token }));
  $("game-id").value = id; $("game-token").value = "";
  document.body.classList.add("has-source"); document.body.classList.remove("show-sources");
  $("tab-play").hidden = view.status === "ended";
  $("play-side").textContent = view.side;
  const b = await api(`${API}/games/${encodeURIComponent(id)}/board`, auth);
  if (!b) return;
  S.units = b.names; S.side = view.side; S.steps = view.next_index; S.boardCache = new Map([[view.next_index, b]]);
  fillUnitNames(); fillSides(view.sides);
  const blob = async (path) => { const r = await fetch(`${API}/games/${encodeURIComponent(id)}/${path}`, auth); return URL.createObjectURL(await r.blob()); };
  if (!S.geometry || S.artFor !== id) { await loadArt(b.geometry, b.sheet, await blob("map.png"), await blob("counters.png"), {}); S.artFor = id; }
  showWarnings([]);
  $("title").textContent = `Game ${view.id} — ${view.side} — ${view.progress.turn}, ${view.progress.phase}`;
  if (!keepStatus) setStatus(`${view.next_index} events; ${view.status}. The board shows the position now, as ${view.side} sees it; step back through the game with ← or the slider.`);
  // Every event carries its ruling and words, except another side's act the rules keep secret while the game
  // goes on (T&G 5.23 orders, Musket & Pike 6.3.3 Open Order picks): its type, verdict and the rule that hides it.
  S.rulings = view.log.map((e) => e.ruling || { index: e.index, type: e.type, verdict: e.verdict, rules: [], errors: [], rolls: [], results: [] });
  S.events = view.log.map((e) => e.event || { side: e.side, type: e.type });
  S.places = view.log.map(() => ({ turn: "", phase: "" }));
  S.lines = view.log.map((e, i) => e.lines || [`[${e.index}] ${S.rulings[i].type}${e.side ? " " + e.side : ""}: ${e.verdict}` + (e.hidden ? ` (the rest is ${e.side}'s secret, ${e.hidden})` : "")]);
  buildRulings();
  enableStepper(view.next_index);
  S.current = view.next_index;
  $("step-range").value = String(view.next_index);
  await drawBoard(b, null);
  $("step-label").textContent = `now: after ${view.next_index} events — ${b.place.turn}, ${b.place.phase}`;
  updateWhatIfAt();
}

// A turn for the hosted game: the .vlog VASSAL saved (POST /games/<id>/vlog) or events (POST /games/<id>/events,
// expected at the game's next index), with the token of the side that opened it.
$("turn-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!S.source || S.source.kind !== "game") { setStatus("Open a hosted game first.", true); return; }
  const { id, token } = S.source, file = $("turn-file").files[0], text = $("turn-events").value.trim();
  let init;
  if (file) {
    if (!file.name.toLowerCase().endsWith(".vlog")) { setStatus(`${file.name} is not a VASSAL turn: send the .vlog VASSAL saved.`, true); return; }
    const form = new FormData();
    form.append("log", file, file.name);
    if ($("turn-module").files[0]) form.append("module", $("turn-module").files[0], $("turn-module").files[0].name);
    init = { method: "POST", body: form, path: "vlog" };
  } else if (text) {
    let events;
    try { events = JSON.parse(text); } catch (e) { setStatus(`The events are not JSON: ${e.message}`, true); return; }
    init = { method: "POST", headers: { "Content-Type": "application/json" }, path: "events",
      body: JSON.stringify({ expected_index: S.steps, events: Array.isArray(events) ? events : [events] }) };
  } else { setStatus("Choose your turn's .vlog, or write its events.", true); return; }
  const { path, ...rest } = init;
  rest.headers = { ...(rest.headers || {}), Authorization: `Bearer ${token}` };
  setStatus("Submitting the turn…");
  const answer = await api(`${API}/games/${encodeURIComponent(id)}/${path}`, rest);
  if (!answer) return;
  const rulings = answer.rulings || [];
  const illegal = rulings.filter((r) => r.verdict === "illegal").length;
  const notes = [...(answer.warnings || []).map((w) => typeof w === "string" ? w : JSON.stringify(w)),
    ...(answer.unreadable || []).map((u) => `step ${u.step}: cannot read ${JSON.stringify(u.line)}: ${u.why}`)];
  const said = `Turn accepted: ${rulings.length} event${rulings.length === 1 ? "" : "s"} ruled, ${illegal} illegal; the game is at ${answer.next_index} events` + (answer.status === "ended" ? " and has ended." : ".");
  $("turn-answer").textContent = said;
  $("turn-file").value = ""; $("turn-events").value = "";
  await openGame(id, token, true);
  setStatus(said, false, notes);
});
$("forget-token").addEventListener("click", () => {
  sessionStorage.removeItem(SESSION_KEY);
  if (S.source && S.source.kind === "game") S.source.token = null;
  $("tab-play").hidden = true; showTab("rulings");
  setStatus("This tab has forgotten the game's token: give it again to open the game.");
});
(() => {
  let kept = null;
  try { kept = JSON.parse(sessionStorage.getItem(SESSION_KEY) || "null"); } catch (e) { kept = null; }
  if (kept && kept.id && kept.token) openGame(kept.id, kept.token);
})();

// ------------------------------------------------------------------ the board

function loadImage(url) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`cannot load ${url}`));
    img.src = url;
  });
}

async function loadArt(geometry, sheet, mapUrl, sheetUrl) {
  S.geometry = geometry; S.sheet = sheet; S.sheetUrl = sheetUrl;
  const map = $("board-map");
  const world = $("board-world");
  const [mapImg] = await Promise.all([loadImage(mapUrl), loadImage(sheetUrl)]);
  map.src = mapImg.src;
  map.width = geometry.width; map.height = geometry.height;
  world.style.width = `${geometry.width}px`; world.style.height = `${geometry.height}px`;
  const svg = $("marks");
  svg.setAttribute("width", geometry.width); svg.setAttribute("height", geometry.height);
  svg.setAttribute("viewBox", `0 0 ${geometry.width} ${geometry.height}`);
  if (!svg.querySelector("defs")) {
    svg.insertAdjacentHTML("afterbegin", '<defs><marker id="arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>');
  }
  $("counters").replaceChildren();
  S.pieces = null;
  S.area = null; S.areaPending = true; S.focus = null;
  S.view.fitted = true;
  fit();
}

function applyView() {
  $("board-world").style.transform = `translate(${S.view.x}px, ${S.view.y}px) scale(${S.view.scale})`;
  $("board-world").dataset.scale = S.view.scale.toFixed(4);
}

// "fit" shows the scenario's area: the box of the units on the map at the first position drawn, three hexes
// around it (Schevardino's strip of the Borodino map, not the whole map), or the whole map when the area is half
// of it or more, or when the whole map fits at a scale its counters can be read at.
function fit() {
  if (!S.geometry) return;
  const box = $("board-view").getBoundingClientRect();
  const whole = Math.min(box.width / S.geometry.width, box.height / S.geometry.height);
  // The area only where the whole map would be drawn too small to read its counters (a small map is shown whole).
  const a = (whole * S.geometry.hex_size < 16 && S.area) || { x: 0, y: 0, w: S.geometry.width, h: S.geometry.height };
  const scale = Math.min(box.width / a.w, box.height / a.h);
  S.view = { scale, x: (box.width - a.w * scale) / 2 - a.x * scale, y: (a === S.area ? (box.height - a.h * scale) / 2 : 0) - a.y * scale, fitted: true };
  applyView();
}

function scenarioArea(placements) {
  const g = S.geometry, pad = g.hex_size * 3;
  const on = placements.filter((p) => p.hex && Number.isFinite(p.x) && Number.isFinite(p.y));
  if (on.length < 2) return null;
  const x0 = Math.max(0, Math.min(...on.map((p) => p.x)) - pad), x1 = Math.min(g.width, Math.max(...on.map((p) => p.x)) + pad);
  const y0 = Math.max(0, Math.min(...on.map((p) => p.y)) - pad), y1 = Math.min(g.height, Math.max(...on.map((p) => p.y)) + pad);
  if ((x1 - x0) * (y1 - y0) > 0.5 * g.width * g.height) return null;      // half the map or more: fit it whole
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

function zoomAt(factor, cx, cy) {
  const v = S.view;
  const scale = Math.max(0.1, Math.min(8, v.scale * factor));
  v.x = cx - (cx - v.x) * (scale / v.scale);
  v.y = cy - (cy - v.y) * (scale / v.scale);
  v.scale = scale; v.fitted = false;
  applyView();
}
// Zooming with the buttons or keys keeps the selected ruling's unit where it is on the screen when it is in view,
// and brings it into view when it is not (zooming about the frame's centre pushed it off the edge).
function zoomCentre(factor) {
  const b = $("board-view").getBoundingClientRect();
  const f = S.focus, v = S.view;
  if (f) {
    const sx = v.x + f[0] * v.scale, sy = v.y + f[1] * v.scale;
    const inView = sx >= 0 && sy >= 0 && sx <= b.width && sy <= b.height;
    if (inView) { zoomAt(factor, sx, sy); return; }
    zoomAt(factor, b.width / 2, b.height / 2);
    S.view.x = b.width / 2 - f[0] * S.view.scale; S.view.y = b.height / 2 - f[1] * S.view.scale; applyView();
    return;
  }
  zoomAt(factor, b.width / 2, b.height / 2);
}

function centreOn(x, y) {
  // Keep a mark in view when zoomed in (at fit scale everything is in view already).
  if (S.view.fitted) return;
  const b = $("board-view").getBoundingClientRect();
  const sx = S.view.x + x * S.view.scale, sy = S.view.y + y * S.view.scale;
  if (sx < 20 || sy < 20 || sx > b.width - 20 || sy > b.height - 20) {
    S.view.x = b.width / 2 - x * S.view.scale; S.view.y = b.height / 2 - y * S.view.scale; applyView();
  }
}

$("zoom-in").addEventListener("click", () => zoomCentre(1.25));
$("zoom-out").addEventListener("click", () => zoomCentre(0.8));
$("zoom-fit").addEventListener("click", fit);
// The frame changes size with the window and with the explanation above it: a fitted board stays fitted.
new ResizeObserver(() => { if (S.view.fitted) fit(); }).observe($("board-view"));
$("board-view").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const b = $("board-view").getBoundingClientRect();
  zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - b.left, ev.clientY - b.top);
}, { passive: false });
let pan = null;
$("board-view").addEventListener("pointerdown", (ev) => {
  pan = { x: ev.clientX, y: ev.clientY, vx: S.view.x, vy: S.view.y, moved: false };
  $("board-view").setPointerCapture(ev.pointerId);
});
$("board-view").addEventListener("pointermove", (ev) => {
  if (!pan) return;
  const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
  if (!pan.moved && Math.hypot(dx, dy) < 4) return;
  pan.moved = true;
  $("board-view").classList.add("panning");
  S.view.x = pan.vx + dx; S.view.y = pan.vy + dy; S.view.fitted = false;
  applyView();
});
$("board-view").addEventListener("pointerup", (ev) => {
  const wasClick = pan && !pan.moved;
  pan = null;
  $("board-view").classList.remove("panning");
  if (wasClick) boardClick(ev);
});

function hexAt(clientX, clientY) {
  if (!S.geometry) return null;
  const b = $("board-view").getBoundingClientRect();
  const x = (clientX - b.left - S.view.x) / S.view.scale, y = (clientY - b.top - S.view.y) / S.view.scale;
  let best = null, dist = Infinity;
  for (const [h, [hx, hy]] of Object.entries(S.geometry.hexes)) {
    const d = (hx - x) ** 2 + (hy - y) ** 2;
    if (d < dist) { dist = d; best = h; }
  }
  return dist <= (S.geometry.hex_size * 1.05) ** 2 ? best : null;
}

function hexPoints(h) {
  const c = S.geometry.hexes[h];
  if (!c) return null;
  const r = S.geometry.hex_size, pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k + (S.geometry.pointy ? -90 : 0));
    pts.push(`${(c[0] + r * Math.cos(a)).toFixed(1)},${(c[1] + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function facingMark(x, y, half, hour) {
  const a = (hour * 30 * Math.PI) / 180, dx = Math.sin(a), dy = -Math.cos(a);
  const tip = [x + dx * (half + 4), y + dy * (half + 4)], base = [x + dx * (half - 1), y + dy * (half - 1)], side = [-dy * 4, dx * 4];
  return `${tip[0].toFixed(1)},${tip[1].toFixed(1)} ${(base[0] + side[0]).toFixed(1)},${(base[1] + side[1]).toFixed(1)} ${(base[0] - side[0]).toFixed(1)},${(base[1] - side[1]).toFixed(1)}`;
}

// Counters: one div per piece, kept between steps (only what changed is touched), stacked by z-index in the
// server's drawing order (bottom of each stack first), so a step costs a few style writes, not a rebuild.
function drawCounters(placements) {
  const layer = $("counters");
  if (!S.pieces || S.pieces.layer !== layer || S.pieces.sheetUrl !== S.sheetUrl) S.pieces = { layer, sheetUrl: S.sheetUrl, divs: new Map() };
  const divs = S.pieces.divs, seen = new Set();
  const sheet = S.sheet, k = 1 / sheet.scale;
  let facings = "";
  placements.forEach((p, order) => {
    seen.add(p.id);
    let div = divs.get(p.id);
    if (!div) {
      div = document.createElement("div");
      div.className = "counter";
      div.dataset.unit = p.id;
      div.style.backgroundImage = `url("${S.sheetUrl}")`;
      div.style.backgroundSize = `${sheet.width * k}px ${sheet.height * k}px`;
      div.style.width = `${p.w}px`; div.style.height = `${p.h}px`;
      div.title = name(p.id);
      div._p = {};
      divs.set(p.id, div);
      layer.appendChild(div);
    }
    const old = div._p, st = div.style;
    if (old.x !== p.x || old.y !== p.y) { st.left = `${p.x - p.w / 2}px`; st.top = `${p.y - p.h / 2}px`; div.dataset.hex = p.hex; }
    if (old.angle !== p.angle) st.transform = p.angle ? `rotate(${p.angle}deg)` : "";
    if (old.back !== p.back || old.x === undefined) {
      const faces = sheet.faces[p.id];
      const spot = faces ? (p.back && faces.back ? faces.back : faces.front) : null;
      if (spot) st.backgroundPosition = `${-spot[0] * k}px ${-spot[1] * k}px`;
    }
    if (old.order !== order) st.zIndex = String(order);
    if (div.hidden) div.hidden = false;
    div._p = { x: p.x, y: p.y, angle: p.angle, back: p.back, order };
    if (p.facing !== null && p.facing !== undefined) facings += `<polygon points="${facingMark(p.x, p.y, p.h / 2, p.facing)}"/>`;
  });
  for (const [id, div] of divs) if (!seen.has(id) && !div.hidden) { div.hidden = true; div._p = {}; }
  $("facings").innerHTML = facings;   // numbers only
}

function enableStepper(n) {
  S.steps = n;
  $("step-range").max = String(n);
  for (const id of ["prev", "next", "step-range"]) $(id).disabled = n === 0;
}

async function boardAt(n) {
  if (S.boardCache.has(n)) return S.boardCache.get(n);
  // A hosted game's board at any step is the caller's view there (the server's filter, as GET /games/<id>).
  const b = S.source.kind === "game"
    ? await api(`${API}/games/${encodeURIComponent(S.source.id)}/board?step=${n}`, { headers: { Authorization: `Bearer ${S.source.token}` } })
    : await api(`${API}/replays/${S.source.id}/board?step=${n}`);
  if (b) {
    S.boardCache.set(n, b);
    if (S.boardCache.size > 400) S.boardCache.delete(S.boardCache.keys().next().value);
  }
  return b;
}

async function showStep(n, focusRuling = false) {
  if (!S.source) return;
  n = Math.max(0, Math.min(n, S.steps));
  S.current = n;
  $("step-range").value = String(n);
  const seq = ++S.boardSeq;
  const t0 = performance.now();
  const b = await boardAt(n);
  if (!b || seq !== S.boardSeq) return;           // a later step was asked for meanwhile
  const t1 = performance.now();
  await drawBoard(b, n > 0 ? n - 1 : null);
  const t2 = performance.now();
  $("step-label").textContent = `after ${n} of ${S.steps} events — ${b.place.turn}, ${b.place.phase}`;
  markCurrent(n - 1, focusRuling);
  updateWhatIfAt();
  const t3 = performance.now();
  Object.assign(window.__page.timing, { lastStep: t3 - t0, stepFetch: t1 - t0, stepDraw: t2 - t1, stepList: t3 - t2 });
  if (n < S.steps && !S.boardCache.has(n + 1)) boardAt(n + 1);    // the next step is usually asked for next
}

async function drawBoard(b, rulingIndex) {
  if (S.areaPending) { S.areaPending = false; S.area = scenarioArea(b.units); if (S.view.fitted) fit(); }
  drawCounters(b.units);
  drawMarks(rulingIndex, b);
  $("board-world").dataset.step = String(b.step);
}

// ------------------------------------------------------------------ the selected ruling on the board

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function eventUnits(e) {
  const out = [];
  if (!e) return out;
  if (typeof e.unit === "string") out.push(e.unit);
  for (const u of e.units || []) if (typeof u === "string") out.push(u);
  for (const a of e.assaults || []) for (const u of a.attackers || []) out.push(u);
  return out;
}

function asList(v) { return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]; }

function drawMarks(i, b) {
  const g = $("sel");
  g.replaceChildren();
  S.focus = null;
  if (i === null || i === undefined || i < 0 || !S.geometry) return;
  const e = S.events[i], r = S.rulings[i];
  if (!e || !r) return;
  const hexes = S.geometry.hexes;
  const where = new Map(b.units.map((p) => [p.id, p]));
  const illegal = r.verdict === "illegal";
  // The hexes it could have reached (an illegal move's alternatives), under everything else.
  for (const err of r.errors || []) {
    for (const alt of err.alternatives || []) {
      const pts = typeof alt === "string" && hexPoints(alt);
      if (pts) g.appendChild(svgEl("polygon", { points: pts, class: "mark-reach", "data-hex": alt }));
    }
  }
  // Targets: a fire's or a charge's hex, each assault's hexes.
  const targets = [...asList(e.target)];
  for (const a of e.assaults || []) targets.push(...asList(a.target));
  for (const t of targets) {
    const pts = typeof t === "string" && hexPoints(t);
    if (pts) g.appendChild(svgEl("polygon", { points: pts, class: "mark-target", "data-hex": t }));
  }
  // The path, from where the unit stood before the event.
  const units = eventUnits(e);
  if (Array.isArray(e.path) && e.path.length) {
    const start = (b.before || {})[units[0]];
    const route = [start, ...e.path].filter((h) => h && hexes[h]);
    if (route.length > 1) g.appendChild(svgEl("polyline", { points: route.map((h) => hexes[h].join(",")).join(" "), class: "mark-path" + (illegal ? " illegal" : "") }));
  }
  // Retreats and advances the rules produced.
  for (const res of r.results || []) {
    if (!["retreated", "advanced"].includes(res.effect) || !res.to) continue;
    const to = asList(res.to);
    const from = (b.before || {})[res.unit] || (res.unit && where.get(res.unit) && where.get(res.unit).hex);
    const route = [from, ...to].filter((h) => h && hexes[h]);
    if (route.length > 1) g.appendChild(svgEl("polyline", { points: route.map((h) => hexes[h].join(",")).join(" "), class: res.effect === "retreated" ? "mark-retreat" : "mark-advance", "data-unit": res.unit || "" }));
  }
  if (e.type === "advance" && e.to) {
    for (const u of units) {
      const from = (b.before || {})[u], route = [from, ...asList(e.to)].filter((h) => h && hexes[h]);
      if (route.length > 1) g.appendChild(svgEl("polyline", { points: route.map((h) => hexes[h].join(",")).join(" "), class: "mark-advance", "data-unit": u }));
    }
  }
  // The unit(s): a ring where each stands now (or stood, if the event moved it off the map).
  const rollUnits = (r.rolls || []).map((ro) => ro.unit).filter(Boolean);
  let first = null;
  for (const u of [...new Set([...units, ...rollUnits])]) {
    const p = where.get(u);
    const h = p ? p.hex : (b.before || {})[u];
    const c = p ? [p.x, p.y] : h && hexes[h];
    if (!c) continue;
    const rad = S.geometry.hex_size * 0.95;
    g.appendChild(svgEl("circle", { cx: c[0], cy: c[1], r: rad + 2, class: "mark-unit-edge" }));
    g.appendChild(svgEl("circle", { cx: c[0], cy: c[1], r: rad, class: "mark-unit", "data-unit": u, "data-hex": h || "" }));
    if (!first) first = c;
  }
  if (first) { S.focus = first; centreOn(first[0], first[1]); }
}

// ------------------------------------------------------------------ the rulings list, filters, outline

function lineClass(line) {
  const t = line.trimStart();
  if (t.startsWith("✗") || t.startsWith("legal instead")) return "detail err";
  if (/^(against|natural|\d*d\d+|total|[+−±]\d)/.test(t) || / on a \d*d\d+| \d*d\d+ /.test(line)) return "detail roll";
  return "detail";
}

function rulingMeta(r, e, place) {
  const units = new Set(eventUnits(e));
  for (const ro of r.rolls || []) if (ro.unit) units.add(ro.unit);
  for (const res of r.results || []) if (res.unit) units.add(res.unit);
  return { illegal: r.verdict === "illegal", rolls: (r.rolls || []).length > 0, side: e.side || null, turn: place.turn, phase: place.phase, units };
}

function buildRulings() {
  S.meta = S.rulings.map((r, i) => rulingMeta(r, S.events[i] || {}, S.places[i] || {}));
  S.illegal = S.meta.map((m, i) => (m.illegal ? i : -1)).filter((i) => i >= 0);
  // Turn filter and the outline: turns, then phases (with the number of events), as a table of contents.
  const turns = [], outline = [];
  S.meta.forEach((m, i) => {
    if (!turns.includes(m.turn)) turns.push(m.turn);
    const last = outline[outline.length - 1];
    if (!last || last.turn !== m.turn) outline.push({ turn: m.turn, first: i, phases: [] });
    const t = outline[outline.length - 1], ph = t.phases[t.phases.length - 1];
    if (!ph || ph.phase !== m.phase) t.phases.push({ phase: m.phase, first: i, count: 1, illegal: m.illegal ? 1 : 0 });
    else { ph.count++; if (m.illegal) ph.illegal++; }
  });
  $("f-turn").replaceChildren(new Option("every turn", ""), ...turns.filter(Boolean).map((t) => new Option(t, t)));
  const nav = document.createElement("ul");
  for (const t of outline) {
    if (!t.turn) continue;
    const li = document.createElement("li");
    li.appendChild(jumpLink(t.turn, t.first));
    const sub = document.createElement("ul");
    for (const ph of t.phases) {
      const s = document.createElement("li");
      s.appendChild(jumpLink(`${ph.phase.replace(t.turn, "").trim() || ph.phase} (${ph.count}${ph.illegal ? `, ${ph.illegal} illegal` : ""})`, ph.first));
      sub.appendChild(s);
    }
    li.appendChild(sub);
    nav.appendChild(li);
  }
  $("outline").replaceChildren(nav);
  applyFilters();
}

function jumpLink(text, i) {
  const a = document.createElement("a");
  a.href = `#ruling-${i}`;
  a.textContent = text;
  a.addEventListener("click", (ev) => { ev.preventDefault(); select(i); });
  return a;
}

function fillUnitNames() {
  const opts = Object.values(S.units).map((u) => u.name).filter((v, i, a) => a.indexOf(v) === i).sort();
  $("unit-names").replaceChildren(...opts.map((n) => { const o = document.createElement("option"); o.value = n; return o; }));
}
function fillSides(sides) {
  $("f-side").replaceChildren(new Option("both sides", ""), ...(sides || []).map((s) => new Option(s, s)));
}

function unitIdsMatching(text) {
  const q = text.trim().toLowerCase();
  if (!q) return null;
  return new Set(Object.entries(S.units).filter(([id, u]) => u.name.toLowerCase().includes(q) || id.toLowerCase() === q).map(([id]) => id));
}

function rulingHtml(i) {
  const r = S.rulings[i], lines = S.lines[i] || [];
  const head = (lines[0] || `[${r.index}] ${r.type}: ${r.verdict}`).replace(/^\[\d+\] /, "");
  let html = `<div role="listitem" tabindex="${i === S.current - 1 ? 0 : -1}" id="ruling-${i}" data-index="${i}" class="ruling ${r.verdict === "illegal" ? "illegal" : "legal"}${i === S.current - 1 ? " current" : ""}"><div class="head"><span class="num">${r.index}</span> ${esc(head)}</div>`;
  for (const l of lines.slice(1)) html += `<div class="${lineClass(l)}">${esc(l.trim())}</div>`;
  return html + "</div>";
}

// The list holds thousands of rulings; laying them all out costs seconds, so it is cut into chunks of CHUNK
// that are filled when they come near the visible part (an IntersectionObserver) and are empty, with an
// estimated height, until then.
const CHUNK = 80;
let chunkObserver = null;

function fillChunk(div) {
  if (div.dataset.filled) return;
  div.dataset.filled = "1";
  const from = Number(div.dataset.from), to = Number(div.dataset.to);
  div.innerHTML = S.shown.slice(from, to).map(rulingHtml).join("");
  div.style.height = "";
}

function renderList() {
  const list = $("rulings");
  if (chunkObserver) chunkObserver.disconnect();
  chunkObserver = new IntersectionObserver((entries) => {
    let filled = false;
    for (const e of entries) if (e.isIntersecting && !e.target.dataset.filled) { fillChunk(e.target); filled = true; }
    // Chunks filled above a ruling just jumped to change the heights above it: keep it where it was put.
    if (filled && S.pin && performance.now() < S.pin.until) { const el = rulingElement(S.pin.i); if (el) scrollListTo(el); }
  }, { root: list, rootMargin: "800px 0px" });
  const chunks = [];
  for (let from = 0; from < S.shown.length; from += CHUNK) {
    const div = document.createElement("div");
    div.className = "chunk";
    div.setAttribute("role", "presentation");
    div.dataset.from = String(from);
    div.dataset.to = String(Math.min(from + CHUNK, S.shown.length));
    div.style.height = `${(Math.min(CHUNK, S.shown.length - from)) * 2.9}em`;
    chunks.push(div);
  }
  list.replaceChildren(...chunks);
  for (const c of chunks) chunkObserver.observe(c);
  S.position = new Map(S.shown.map((i, k) => [i, k]));
}

// Scroll the list (not the page: on a phone the board sits above it) so that el is in its middle.
function scrollListTo(el) {
  const list = $("rulings");
  const top = el.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  list.scrollTop = Math.max(0, top - list.clientHeight / 2 + el.offsetHeight / 2);
}

// The element of ruling i, filling its chunk first; null when the filters hide it.
function rulingElement(i) {
  const k = S.position ? S.position.get(i) : undefined;
  if (k === undefined) return null;
  const chunk = $("rulings").children[Math.floor(k / CHUNK)];
  if (!chunk) return null;
  fillChunk(chunk);
  return chunk.querySelector(`[data-index="${i}"]`);
}

function applyFilters() {
  const onlyIllegal = $("f-illegal").checked, onlyRolls = $("f-rolls").checked, side = $("f-side").value, turn = $("f-turn").value;
  const ids = unitIdsMatching($("f-unit").value);
  S.shown = [];
  S.meta.forEach((m, i) => {
    if ((!onlyIllegal || m.illegal) && (!onlyRolls || m.rolls) && (!side || m.side === side) && (!turn || m.turn === turn)
      && (!ids || [...m.units].some((u) => ids.has(u)))) S.shown.push(i);
  });
  renderList();
  $("filter-count").textContent = `${S.shown.length} of ${S.meta.length} shown`;
  const cur = rulingElement(S.current - 1);
  if (cur) scrollListTo(cur);
}
for (const id of ["f-illegal", "f-rolls", "f-side", "f-turn"]) $(id).addEventListener("change", applyFilters);
$("f-unit").addEventListener("input", applyFilters);

// In the list, ↑/↓ select the previous/next ruling shown (under the filters), Enter the focused one.
$("rulings").addEventListener("keydown", (ev) => {
  const el = ev.target.closest(".ruling");
  if (!el) return;
  const i = Number(el.dataset.index), k = S.position ? S.position.get(i) : undefined;
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(i); return; }
  if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && k !== undefined) {
    ev.preventDefault();
    const next = S.shown[k + (ev.key === "ArrowDown" ? 1 : -1)];
    if (next !== undefined) select(next);
  }
});
$("rulings").addEventListener("click", (ev) => {
  const li = ev.target.closest(".ruling");
  if (li) select(Number(li.dataset.index));
});

function select(i) {
  if (i === null || i < 0 || i >= S.rulings.length) return;
  showStep(i + 1, true);
}

function markCurrent(i, scroll) {
  const list = $("rulings");
  for (const old of list.querySelectorAll(".ruling.current")) { old.classList.remove("current"); old.removeAttribute("aria-current"); old.tabIndex = -1; }
  const box = $("explain");
  if (i < 0 || i >= S.rulings.length) { box.replaceChildren(); return; }
  const li = rulingElement(i);
  if (li) {
    li.classList.add("current");
    li.setAttribute("aria-current", "true");
    li.tabIndex = 0;                    // the one tab stop of the list (roving tabindex)
    if (list.contains(document.activeElement) && document.activeElement !== li) li.focus({ preventScroll: true });
    if (scroll) { S.pin = { i, until: performance.now() + 1500 }; scrollListTo(li); }
  }
  const lines = S.lines[i] || [];
  const place = S.places[i] || {};
  const head = document.createElement("div");
  head.className = "head";
  head.textContent = `${lines[0] || ""}${place.turn ? ` — ${place.turn}, ${place.phase}` : ""}`;
  box.replaceChildren(head, ...lines.slice(1).map((l) => { const d = document.createElement("div"); d.className = lineClass(l); d.textContent = l.trim(); return d; }));
  box.dataset.index = String(i);
}

function jumpIllegal(direction) {
  if (!S.illegal.length) { setStatus("No illegal move in this game."); return; }
  const cur = S.current - 1;
  const next = direction > 0 ? S.illegal.find((i) => i > cur) : [...S.illegal].reverse().find((i) => i < cur);
  const target = next !== undefined ? next : direction > 0 ? S.illegal[0] : S.illegal[S.illegal.length - 1];
  select(target);
}
$("next-illegal").addEventListener("click", () => jumpIllegal(1));
$("prev-illegal").addEventListener("click", () => jumpIllegal(-1));

$("prev").addEventListener("click", () => showStep(S.current - 1, true));
$("next").addEventListener("click", () => showStep(S.current + 1, true));
$("step-range").addEventListener("input", () => showStep(Number($("step-range").value), true));

document.addEventListener("keydown", (ev) => {
  const tag = (ev.target.tagName || "").toLowerCase();
  if (["input", "textarea", "select"].includes(tag) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const keys = {
    ArrowRight: () => showStep(S.current + 1, true), ArrowLeft: () => showStep(S.current - 1, true),
    n: () => jumpIllegal(1), p: () => jumpIllegal(-1), "+": () => zoomCentre(1.25), "=": () => zoomCentre(1.25),
    "-": () => zoomCentre(0.8), 0: fit, Home: () => showStep(0, true), End: () => showStep(S.steps, true),
  };
  const act = keys[ev.key];
  if (act && S.source) { ev.preventDefault(); act(); }
});

// ------------------------------------------------------------------ tabs

const TABS = ["rulings", "luck", "whatif", "play"];
function showTab(which) {
  for (const t of TABS) {
    const on = t === which;
    $(`tab-${t}`).setAttribute("aria-selected", String(on));
    $(`tab-${t}`).tabIndex = on ? 0 : -1;
    $(`panel-${t}`).hidden = !on;
  }
  if (which === "luck") showLuck();
  if (which !== "whatif") $("probe").replaceChildren();
}
for (const t of TABS) $(`tab-${t}`).addEventListener("click", () => showTab(t));
$("tabs").addEventListener("keydown", (ev) => {
  const order = TABS.filter((t) => !$(`tab-${t}`).hidden);
  const i = order.findIndex((t) => $(`tab-${t}`).getAttribute("aria-selected") === "true");
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    const j = (i + (ev.key === "ArrowRight" ? 1 : order.length - 1)) % order.length;
    showTab(order[j]); $(`tab-${order[j]}`).focus(); ev.preventDefault();
  }
});

// ------------------------------------------------------------------ luck

async function showLuck() {
  const box = $("luck");
  if (!S.source || S.source.kind !== "log") { box.textContent = "The luck report is made from an uploaded log (a hosted game: upload its export's log once it has ended)."; return; }
  if (box.childElementCount) return;
  box.textContent = "Counting…";
  const L = await api(`${API}/replays/${S.source.id}/luck`);
  if (!L) return;
  const sides = Object.keys(L.sides);
  const table = (head, rows) => `<table><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
  const fmt = (t) => [t.rolls, t.expected.toFixed(1), t.actual, (t.difference > 0 ? "+" : "") + t.difference.toFixed(1), t.z.toFixed(2)];
  let html = "<h3>Per side</h3>" + table(["side", "rolls", "expected", "actual", "actual − expected", "z"], sides.map((s) => [s, ...fmt(L.sides[s])]));
  html += `<h3>Per turn (actual − expected successes)</h3>${chart(L, sides)}`;
  html += "<h3>Per roll type</h3>" + table(["side / roll", "rolls", "expected", "actual", "actual − expected", "z"],
    sides.flatMap((s) => Object.entries(L.by_purpose[s] || {}).map(([p, t]) => [`${s}: ${p.replace(/_/g, " ")}`, ...fmt(t)])));
  html += "<details><summary>Per turn, in numbers</summary>" + table(["turn / side", "rolls", "expected", "actual", "actual − expected", "z"], L.by_turn.map((t) => [`${t.turn} ${t.side}`, ...fmt(t)])) + "</details>";
  const tr = Object.entries(L.table_rolls);
  if (tr.length) html += "<h3>Table rolls</h3>" + table(["side", "dice", "rolls", "mean natural", "fair dice's mean"], tr.map(([s, t]) => [s, (t.dice || ["d10"]).join(", "), t.rolls, t.mean_natural.toFixed(2), (t.fair_mean ?? 4.5).toFixed(2)]));
  box.innerHTML = html;
}

function chart(L, sides) {
  const turns = [...new Set(L.by_turn.map((t) => t.turn))];
  if (!turns.length) return "<p>No pass/fail roll yet.</p>";
  const W = 360, H = 170, pad = 24, barW = (W - 2 * pad) / turns.length / (sides.length + 0.5);
  const vals = L.by_turn.map((t) => Math.abs(t.difference));
  const max = Math.max(1, ...vals), y0 = H / 2;
  let s = `<svg viewBox="0 0 ${W} ${H + 30}" role="img" aria-label="Per turn, actual minus expected successes for each side"><line x1="${pad}" x2="${W - pad}" y1="${y0}" y2="${y0}" stroke="#888"/>`;
  s += `<text x="2" y="12" class="legend">+${max.toFixed(1)}</text><text x="2" y="${H}" class="legend">−${max.toFixed(1)}</text>`;
  turns.forEach((turn, ti) => {
    sides.forEach((side, si) => {
      const t = L.by_turn.find((x) => x.turn === turn && x.side === side);
      if (!t) return;
      const h = (Math.abs(t.difference) / max) * (H / 2 - 14);
      const x = pad + ti * (W - 2 * pad) / turns.length + si * barW;
      const y = t.difference >= 0 ? y0 - h : y0;
      s += `<rect class="bar-${esc(side)}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(barW * 0.9).toFixed(1)}" height="${Math.max(h, 0.5).toFixed(1)}"><title>${esc(turn)} ${esc(side)}: ${t.actual} successes, ${t.expected} expected</title></rect>`;
    });
    const label = (turn.match(/\d+/) || [String(ti + 1)])[0];
    s += `<text x="${(pad + (ti + 0.3) * (W - 2 * pad) / turns.length).toFixed(1)}" y="${H + 12}" class="legend">${esc(label)}</text>`;
  });
  sides.forEach((side, si) => { s += `<rect class="bar-${esc(side)}" x="${pad + si * 90}" y="${H + 18}" width="10" height="10"/><text x="${pad + si * 90 + 14}" y="${H + 27}" class="legend">${esc(side)}</text>`; });
  return s + "</svg>";
}

// ------------------------------------------------------------------ what if

function updateWhatIfAt() {
  if (!S.source) return;
  $("whatif-at").textContent = S.source.kind === "game"
    ? `after ${S.current} of ${S.steps} events${S.current === S.steps ? " (now)" : ""}, with only what ${S.side} knows there`
    : `after ${S.current} of ${S.steps} events`;
}

function unitFromInput() {
  const q = $("w-unit").value.trim().toLowerCase();
  if (!q) return null;
  const hit = Object.entries(S.units).find(([id, u]) => u.name.toLowerCase() === q || id === q)
    || Object.entries(S.units).find(([, u]) => u.name.toLowerCase().includes(q));
  return hit ? hit[0] : null;
}

function templateFor(kind, unit) {
  const side = (S.units[unit] || {}).side;
  switch (kind) {
    case "move": return { type: "move", side, unit, path: [] };
    case "fire": return { type: "fire", side, units: [unit], target: "" };
    case "assaults": return { type: "assaults", side, assaults: [{ attackers: [unit], target: [], charge: false }] };
    case "commitment": return { type: "commitment", side, unit };
    default: return { type: kind, side, unit };
  }
}

for (const b of document.querySelectorAll("[data-template]")) {
  b.addEventListener("click", () => {
    const unit = unitFromInput();
    if (!unit) { $("w-answer").textContent = "Name a unit first."; return; }
    $("w-event").value = JSON.stringify(templateFor(b.dataset.template, unit));
  });
}

function boardClick(ev) {
  if ($("panel-whatif").hidden) return;
  const h = hexAt(ev.clientX, ev.clientY);
  if (!h) return;
  let e;
  try { e = JSON.parse($("w-event").value); } catch (_) { return; }
  if (Array.isArray(e) || !e) return;
  if (e.type === "move") e.path = [...(e.path || []), h];
  else if (e.type === "fire") e.target = h;
  else if (e.type === "assaults" && e.assaults && e.assaults[0]) e.assaults[0].target = [...(e.assaults[0].target || []), h];
  else return;
  $("w-event").value = JSON.stringify(e);
}

async function whatIfPost(path, body) {
  const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  if (S.source.kind === "game") {
    init.headers.Authorization = `Bearer ${S.source.token}`;
    return fetch(`${API}/games/${encodeURIComponent(S.source.id)}/${path}`, init);
  }
  return fetch(`${API}/replays/${S.source.id}/${path}`, init);
}

$("w-ask").addEventListener("click", async () => {
  const out = $("w-answer");
  if (!S.source) { out.textContent = "Open a log or a game first."; return; }
  let parsed;
  try { parsed = JSON.parse($("w-event").value); } catch (e) { out.textContent = `Not JSON: ${e.message}`; return; }
  const body = Array.isArray(parsed) ? { events: parsed } : { event: parsed };
  body.step = S.current;
  const resp = await whatIfPost("whatif", body);
  if (!resp.ok) { const f = await failure(resp); out.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: [f.text, ...f.problems.slice(1)].join("\n") })); return; }
  const ans = await resp.json();
  const answers = ans.answers || [ans];
  const div = document.createElement("div");
  div.className = "lines";
  for (const a of answers) {
    for (const l of a.lines) { const d = document.createElement("div"); d.className = lineClass(l); d.textContent = l.trim(); div.appendChild(d); }
  }
  out.replaceChildren(div);
  out.dataset.verdict = answers[answers.length - 1].ruling.verdict;
});

$("w-actions").addEventListener("click", async () => {
  const out = $("w-list");
  const unit = unitFromInput();
  if (!S.source) { $("w-answer").textContent = "Open a log or a game first."; return; }
  if (!unit) { $("w-answer").textContent = "No unit of that name."; return; }
  let resp;
  if (S.source.kind === "game") resp = await fetch(`${API}/games/${encodeURIComponent(S.source.id)}/actions?step=${S.current}&unit=${encodeURIComponent(unit)}`, { headers: { Authorization: `Bearer ${S.source.token}` } });
  else resp = await fetch(`${API}/replays/${S.source.id}/actions?step=${S.current}&unit=${encodeURIComponent(unit)}`);
  if (!resp.ok) { const f = await failure(resp); $("w-answer").textContent = f.text; return; }
  const a = await resp.json();
  $("w-answer").textContent = `${name(unit)}: ${a.count} legal action${a.count === 1 ? "" : "s"} after ${a.step} events` + (a.count > a.actions.length ? ` (the first ${a.actions.length} listed)` : "") + (a.reach.length ? `; its moves reach ${a.reach.length} hexes (shaded on the board).` : ".");
  out.replaceChildren(...a.actions.map((x) => {
    const li = document.createElement("li");
    li.textContent = x.summary;
    li.tabIndex = 0;
    const use = () => { $("w-event").value = JSON.stringify(x.event); $("w-ask").click(); };
    li.addEventListener("click", use);
    li.addEventListener("keydown", (ev) => { if (ev.key === "Enter") use(); });
    return li;
  }));
  const g = $("probe");
  g.replaceChildren(...a.reach.map((h) => svgEl("polygon", { points: hexPoints(h), class: "mark-probe", "data-hex": h })));
});
