// The page: check an uploaded log (or open a hosted game) and show its rulings beside the board at any step.
// Plain JavaScript against /api/v1 (see /api/v1/openapi.json); no build step.
"use strict";

const API = "/api/v1";
const $ = (id) => document.getElementById(id);

// What the board pictures are made from: an uploaded log (re-sent with every picture, so any server worker
// can answer) or a hosted game (id and token).
let source = null;
let steps = 0;
let current = 0;
let boardUrl = null;
let boardRequest = 0;

function setStatus(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function failure(resp) {
  try {
    const body = await resp.json();
    return body.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${resp.status}`;
  } catch (_) {
    return `HTTP ${resp.status}`;
  }
}

function uploadForm() {
  const form = new FormData();
  form.append("log", $("log-file").files[0]);
  if ($("module-file").files.length) form.append("module", $("module-file").files[0]);
  return form;
}

function describeRoll(roll) {
  const n = roll.natural === null ? "owed" : roll.natural;
  const mods = (roll.modifiers || []).map((m) => `${m.value > 0 ? "+" : ""}${m.value} (${m.rule} ${m.reason})`);
  let text = `${roll.purpose}${roll.unit ? " " + roll.unit : ""}: d10 ${n}`;
  if (roll.pass_max !== undefined) text += `, passes on ≤ ${roll.pass_max} (p=${roll.p_success})`;
  if (roll.outcome) text += ` → ${roll.outcome}`;
  if (roll.result !== undefined && roll.result !== null) text += ` → ${JSON.stringify(roll.result)}`;
  if (mods.length) text += `; ${mods.join(", ")}`;
  return text;
}

function rulingItem(r, event, place) {
  const li = document.createElement("li");
  li.value = r.index;
  li.dataset.index = r.index;
  li.className = r.verdict;
  const head = document.createElement("div");
  const who = event && event.side ? ` (${event.side})` : "";
  head.innerHTML = `<span class="type"></span> <span class="verdict"></span> <span class="rules"></span>`;
  head.querySelector(".type").textContent = r.type + who;
  head.querySelector(".verdict").textContent = r.verdict;
  head.querySelector(".rules").textContent = (r.rules || []).join(", ") + (place ? ` — ${place.turn}, ${place.phase}` : "");
  li.appendChild(head);
  const lines = [];
  for (const e of r.errors || []) lines.push(["error", `${e.rule} ${e.code}: ${e.message}`]);
  for (const roll of r.rolls || []) lines.push(["detail", describeRoll(roll)]);
  for (const res of r.results || []) lines.push(["detail", `${res.unit || res.ag || ""} ${res.effect}${res.to ? " → " + res.to : ""} (${res.rule || ""})`]);
  for (const a of r.awaiting || []) lines.push(["detail", `awaiting ${a.type} (${a.side || "either side"}${a.unit ? ", " + a.unit : ""}) ${a.rule}`]);
  for (const [cls, text] of lines) {
    const div = document.createElement("div");
    div.className = cls;
    div.textContent = text;
    li.appendChild(div);
  }
  li.addEventListener("click", () => showStep(r.index + 1));
  return li;
}

function showRulings(rulings, events, places) {
  const list = $("rulings");
  list.replaceChildren(...rulings.map((r, i) => rulingItem(r, events ? events[i] : null, places ? places[i] : null)));
}

function enableStepper(n) {
  steps = n;
  $("step-range").max = String(n);
  for (const id of ["prev", "next", "step-range"]) $(id).disabled = n === 0;
}

async function showStep(n) {
  current = Math.max(0, Math.min(n, steps));
  $("step-range").value = String(current);
  $("step-label").textContent = `after ${current} of ${steps} events`;
  for (const li of $("rulings").children) li.classList.toggle("current", Number(li.dataset.index) === current - 1);
  const mine = ++boardRequest;
  let resp;
  if (source.kind === "log") {
    resp = await fetch(`${API}/replay/board.png?step=${current}`, { method: "POST", body: uploadForm() });
  } else {
    resp = await fetch(`${API}/games/${encodeURIComponent(source.id)}/board.png`,
                       { headers: { Authorization: `Bearer ${source.token}` } });
  }
  if (mine !== boardRequest) return;          // a later step was asked for meanwhile
  if (!resp.ok) { setStatus(await failure(resp), true); return; }
  const blob = await resp.blob();
  if (boardUrl) URL.revokeObjectURL(boardUrl);
  boardUrl = URL.createObjectURL(blob);
  $("board").src = boardUrl;
  $("board").dataset.step = String(current);
}

$("upload-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!$("log-file").files.length) return;
  source = { kind: "log" };
  setStatus("Checking…");
  const resp = await fetch(`${API}/replay`, { method: "POST", body: uploadForm() });
  if (!resp.ok) { setStatus(await failure(resp), true); return; }
  const body = await resp.json();
  const illegal = body.rulings.filter((r) => r.verdict === "illegal").length;
  $("title").textContent = `Rulings — ${$("log-file").files[0].name}`;
  setStatus(`${body.rulings.length} events ruled on, ${illegal} illegal.`);
  showRulings(body.rulings, body.events, body.places);
  enableStepper(body.steps);
  await showStep(0);
});

$("game-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  source = { kind: "game", id: $("game-id").value.trim(), token: $("game-token").value.trim() };
  setStatus("Opening…");
  const resp = await fetch(`${API}/games/${encodeURIComponent(source.id)}`,
                           { headers: { Authorization: `Bearer ${source.token}` } });
  if (!resp.ok) { setStatus(await failure(resp), true); return; }
  const view = await resp.json();
  $("title").textContent = `Game ${view.id} — ${view.side} — ${view.progress.turn}, ${view.progress.phase}`;
  setStatus(`${view.next_index} events; ${view.status}.`);
  // Only the caller's own events carry their rulings (the other side's may hold hidden orders, 5.23).
  const rulings = view.log.map((e) => e.ruling || { index: e.index, type: e.type, verdict: e.verdict, rules: [] });
  showRulings(rulings, view.log.map((e) => e.event || { side: e.side }), null);
  enableStepper(0);               // a hosted game's picture is its current position
  steps = view.next_index;
  await showStep(view.next_index);
});

$("prev").addEventListener("click", () => showStep(current - 1));
$("next").addEventListener("click", () => showStep(current + 1));
$("step-range").addEventListener("change", () => showStep(Number($("step-range").value)));
