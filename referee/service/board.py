"""Pictures of the board: the scenario's map drawn once by the project's map renderer, counters pasted on it.

Drawing the Borodino map takes more than a second, a counter face some milliseconds; a board picture is asked
for at every step the reader looks at.  So the map base (per scenario) and every counter face (per unit, face
and size) are rendered once per process and kept; a picture is then a copy of the base plus a paste per unit.

Two-hex units (Musket & Pike) are drawn at their true shape, two counter sides long, as the VASSAL module
draws them (modulebuilder/vassal/twohex.py): the view's ``hex`` is the left half L, the right half R is L's
neighbour at hour facing+3 (referee/rulesets/musket_and_pike/facing.py ``right_half``), the counter is centred
on the midpoint of L and R and turned so that its long axis runs from L to R.  Backs are drawn with the
scenario's ruleset's treatment (``back_treatment``: Disordered for T&G, Shaken for M&P).

What the page fetches first — the map and the sheet of every counter face, as PNG — is also kept on disk
(``art_cache_dir``), keyed by the SHA-256 of what it is drawn from: the scenario's map (or counters and back
treatment) as canonical JSON, the drawing sizes, the source of the renderer and this module, the fonts and the
Pillow version.  A fresh process then serves the first picture of a scenario drawn before (by any process, or
``warm`` at start-up) without drawing anything: the Borodino map and its 600 faces take over a second of CPU.
The map's layout (every hex centre), which placements need, comes from ``map_layout``, not from drawing.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import io
import json
import math
import os
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterable, Mapping

from PIL import Image, ImageDraw

from modulebuilder.hexgrid import add_hours
from modulebuilder.render import render_leader_face, render_map, render_unit_face
from modulebuilder.render.counters import back_treatment
from modulebuilder.render.map import map_layout

from referee.engine import registry
from referee.service.errors import ApiError

HEX_SIZE = 22.0              # pixels centre to vertex: the whole Borodino map fits a laptop screen
COUNTER_SCALE = 1.15         # counter edge / hex size: a counter a little smaller than its hex
STACK_OFFSET = 3             # pixels each unit of a stack is shifted, so a stack looks like one
FACING_INK = (200, 20, 20)
# Counter art refuses sizes where its text would be illegible (modulebuilder.render.text); a board picture is
# a thumbnail, so faces are drawn at a legible size and scaled down.
DRAW_SIZE = 64

ART_CACHE_SIZE = 8           # scenarios whose map and counter faces a process keeps, at most
ART_CACHE_BYTES = 256 * 1024 * 1024   # and at most this many bytes of pictures (maps, faces, PNGs) in all

# What one map may cost to draw (a tiny log naming a huge map would otherwise hold a worker for long, docs/service.md):
# Borodino's is 42x29 hexes, 1434x1212 pixels, 289 counters.
MAX_MAP_HEXES = 5_000
MAX_MAP_PIXELS = 12_000_000
MAX_PIECES = 2_000


def check_budget(scenario: Any) -> None:
    """422 ``map_too_large`` for a map or a counter set beyond the budget, before anything is laid out or drawn."""
    grid = scenario.map.grid
    hexes = int(grid.columns) * int(grid.rows)
    pieces = len(scenario.counters.units) + len(scenario.counters.leaders)
    problems = []
    if hexes > MAX_MAP_HEXES:
        problems.append(f"map: {grid.columns}x{grid.rows} hexes; the board is drawn for at most {MAX_MAP_HEXES}")
    else:
        # Pixels from the grid alone (pointy hexes: sqrt(3) x size wide, 1.5 x size high per hex).
        width = (int(grid.columns) + 1) * math.sqrt(3) * HEX_SIZE
        height = (int(grid.rows) * 1.5 + 1) * HEX_SIZE
        if width * height > MAX_MAP_PIXELS:
            problems.append(f"map: about {int(width)}x{int(height)} pixels; the board is drawn for at most "
                            f"{MAX_MAP_PIXELS} pixels")
    if pieces > MAX_PIECES:
        problems.append(f"counters: {pieces} pieces; the board is drawn for at most {MAX_PIECES}")
    if problems:
        raise ApiError(422, "map_too_large", "; ".join(problems) + " (check the log with `referee check`)",
                       problems=problems)


class _Art:
    """What pictures of one scenario are made of: the map's layout, the map (drawn when first needed), and the
    counter faces drawn so far."""

    def __init__(self, scenario: Any) -> None:
        check_budget(scenario)
        self.scenario = scenario          # kept, so the cache key (its id) cannot be reused by another object
        self.layout, self.size = map_layout(scenario.map, HEX_SIZE)
        self.faces: dict[tuple[str, bool, int], Image.Image | None] = {}
        self.back = back_treatment(getattr(scenario, "ruleset", None))
        self.shows_back = _shows_back(getattr(scenario, "ruleset", None))
        # Unit id -> counter sides it spans (2 for a Musket & Pike brigade or tercio), from the definitions.
        self.sizes = {u.id: int(getattr(u, "size", 1) or 1) for u in scenario.counters.units}
        self._base: Image.Image | None = None
        self._base_lock = threading.Lock()

    def weight(self) -> int:
        """Bytes of pictures kept: the map (RGB), the faces drawn (RGBA), the PNGs."""
        total = self.size[0] * self.size[1] * 3 if self._base is not None else 0
        total += sum(f.width * f.height * 4 for f in list(self.faces.values()) if f is not None)
        return total + sum(len(getattr(self, name, b"") or b"") for name in ("map_png", "sheet_png"))

    @property
    def base(self) -> Image.Image:
        """The map without counters (drawn once, on first use: a picture of the board, or the map's PNG when
        the disk cache has none)."""
        with self._base_lock:
            if self._base is None:
                drawn = getattr(self, "map_png", None)
                if drawn is not None:                             # drawn elsewhere (install): decoded, not drawn
                    self._base = Image.open(io.BytesIO(drawn)).convert("RGB")
                    return self._base
                image, layout = render_map(self.scenario.map, HEX_SIZE)
                assert image.size == self.size and layout.origin == self.layout.origin
                self._base = image.convert("RGB")
            return self._base


def _front(unit: Mapping[str, Any]) -> bool:
    return False


def _shows_back(ruleset_id: str | None) -> Any:
    """The ruleset's hook ``shows_back(unit view) -> bool`` (which face the counter shows: T&G's Disordered
    side, M&P's Shaken side); a ruleset without one shows every counter's front."""
    try:
        hook = getattr(registry.get(ruleset_id), "shows_back", None) if ruleset_id else None
    except registry.UnknownRuleset:
        hook = None
    return hook if callable(hook) else _front


_lock = threading.Lock()
_art: OrderedDict[int, _Art] = OrderedDict()


_building: dict[int, threading.Lock] = {}


def _art_for(scenario: Any) -> _Art:
    # Keyed by identity: scenarios are cached, immutable values (referee.service.scenarios).  Concurrent
    # requests for one scenario draw its map once: the others wait at its gate.
    key = id(scenario)
    with _lock:
        hit = _art.get(key)
        if hit is not None and hit.scenario is scenario:
            _art.move_to_end(key)
            return hit
        gate = _building.setdefault(key, threading.Lock())
    with gate:                            # outside the main lock: drawing a map takes a second or more
        with _lock:
            hit = _art.get(key)
        if hit is not None and hit.scenario is scenario:
            return hit
        try:
            art = _Art(scenario)
        finally:
            with _lock:
                _building.pop(key, None)
        with _lock:
            _art[key] = art
            _trim()
    return art


def _trim() -> None:
    """Drop the least recently used art past ART_CACHE_SIZE scenarios or ART_CACHE_BYTES (the newest stays)."""
    while len(_art) > ART_CACHE_SIZE:
        _art.popitem(last=False)
    while len(_art) > 1 and sum(a.weight() for a in _art.values()) > ART_CACHE_BYTES:
        _art.popitem(last=False)


def art_cache_bytes() -> int:
    """Bytes of pictures this process keeps."""
    with _lock:
        return sum(a.weight() for a in _art.values())


def has_pictures(scenario: Any) -> bool:
    """Whether this process holds the map and the sheet of ``scenario`` as PNG."""
    with _lock:
        art = _art.get(id(scenario))
        return (art is not None and art.scenario is scenario and getattr(art, "map_png", None) is not None
                and getattr(art, "sheet_png", None) is not None)


def install(scenario: Any, map_data: bytes, sheet_data: bytes) -> None:
    """Keep the map and the sheet of ``scenario`` drawn by another process (the checking workers draw the maps
    of scenarios that are not the server's own: heavy.pictures)."""
    art = _art_for(scenario)
    with _lock:
        art.map_png = map_data  # type: ignore[attr-defined]
        art.sheet_png = sheet_data  # type: ignore[attr-defined]
        _trim()


def warm(scenario: Any) -> None:
    """Draw everything the page fetches for ``scenario`` (map, counter sheet, geometry) ahead of the request."""
    map_png(scenario)
    sheet_png(scenario)
    geometry(scenario)


def _face(art: _Art, unit_id: str, disordered: bool, size: int) -> Image.Image | None:
    key = (unit_id, disordered, size)
    with _lock:
        if key in art.faces:
            return art.faces[key]
    img = _render_face(art, unit_id, "back" if disordered else "front", size)
    with _lock:
        art.faces[key] = img
    return img


def _render_face(art: _Art, unit_id: str, face: str, size: int) -> Image.Image | None:
    """The face ``size`` pixels high (and ``unit.size`` times as wide: two-hex units are double width)."""
    counters = art.scenario.counters
    unit = next((u for u in counters.units if u.id == unit_id), None)
    leader = None if unit is not None else next((ldr for ldr in counters.leaders if ldr.id == unit_id), None)
    if unit is None and leader is None:
        return None
    draw = max(size, DRAW_SIZE)
    width = size * (art.sizes.get(unit_id, 1) if unit is not None else 1)
    try:
        if unit is not None:
            ag = next(a for a in counters.activation_groups if a.id == unit.ag)
            img = render_unit_face(unit, ag, face if unit.back is not None else "front", draw,  # type: ignore[arg-type]
                                   back=art.back)
        else:
            img = render_leader_face(leader, draw)
    except Exception:  # noqa: BLE001 — art that cannot be drawn (say a name too long) becomes a plain tile
        return Image.new("RGB", (width, size), (230, 225, 210))
    return img.resize((width, size), Image.LANCZOS)


def _facing_mark(draw: ImageDraw.ImageDraw, x: float, y: float, half: float, hour: int) -> None:
    """A small triangle on the counter's edge pointing at the vertex the unit faces (clock hours, DESIGN §3)."""
    a = math.radians(hour * 30)
    dx, dy = math.sin(a), -math.cos(a)
    tip = (x + dx * (half + 4), y + dy * (half + 4))
    side = (-dy * 4, dx * 4)
    base = (x + dx * (half - 1), y + dy * (half - 1))
    draw.polygon([tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])],
                 fill=FACING_INK)


def _right_half_centre(layout: Any, left: str, facing: int, x: float, y: float) -> tuple[float, float]:
    """Pixel centre of a two-hex unit's right half R, the neighbour of L at hour facing+3, relative to where
    L is drawn (``x``, ``y``: L's centre, shifted for stacking).  Off the map edge R has no name, so the
    hour's direction at the neighbouring-centre distance is used instead of a hex lookup."""
    lx, ly = layout.center(left)
    hour = add_hours(facing, 3)
    right = layout.grid.neighbour(left, hour)
    if right is not None:
        rx, ry = layout.center(right)
    else:
        a = math.radians(hour * 30)
        step = math.sqrt(3) * layout.size
        rx, ry = lx + step * math.sin(a), ly - step * math.cos(a)
    return x + rx - lx, y + ry - ly


def _paste_two_hex(image: Image.Image, layout: Any, face: Image.Image, left: str, facing: int,
                   x: float, y: float) -> None:
    """Paste a double-width face over L and R: centred on their midpoint, its long axis turned from east
    (the art's L->R at facing 12, twohex.py) onto the L->R direction."""
    rx, ry = _right_half_centre(layout, left, facing, x, y)
    degrees_cw = math.degrees(math.atan2(ry - y, rx - x))            # screen y grows downward: clockwise
    # PIL turns anticlockwise; expand keeps the corners, the transparent surround is left out by the mask.
    turned = face.convert("RGBA").rotate(-degrees_cw, resample=Image.BICUBIC, expand=True)
    mx, my = (x + rx) / 2, (y + ry) / 2
    image.paste(turned, (int(round(mx - turned.width / 2)), int(round(my - turned.height / 2))), turned)


def render(scenario: Any, units: Iterable[Mapping[str, Any]]) -> Image.Image:
    """The board with ``units`` (a ruleset view's ``units``: id, hex, facing, status) on it."""
    art = _art_for(scenario)
    layout = art.layout
    image = art.base.copy()
    draw = ImageDraw.Draw(image)
    size = int(HEX_SIZE * COUNTER_SCALE)
    depth: dict[str, int] = {}
    on_map = [u for u in units if u.get("hex")]
    # Views list a stack top first; paste bottom first so the top unit ends up visible.
    for u in reversed(on_map):
        hex_id = u["hex"]
        try:
            cx, cy = layout.center(hex_id)
        except (KeyError, ValueError):
            continue
        back = art.shows_back(u)                  # the ruleset's hook: T&G's Disordered, M&P's Shaken side
        face = _face(art, u["id"], back, size)
        if face is None:
            continue
        level = depth.get(hex_id, 0)
        depth[hex_id] = level + 1
        x, y = cx - level * STACK_OFFSET, cy - level * STACK_OFFSET
        facing = u.get("facing")
        if face.width > face.height and isinstance(facing, int):
            _paste_two_hex(image, layout, face, hex_id, facing, x, y)
            mid = _right_half_centre(layout, hex_id, facing, x, y)
            _facing_mark(draw, (x + mid[0]) / 2, (y + mid[1]) / 2, size / 2, facing)
            continue
        image.paste(face, (int(x - face.width / 2), int(y - size / 2)))
        if isinstance(facing, int):
            _facing_mark(draw, x, y, size / 2, facing)
    return image


def png(scenario: Any, units: Iterable[Mapping[str, Any]]) -> bytes:
    buf = io.BytesIO()
    # compress_level 1: a board picture is made per request; size matters less than time here.
    render(scenario, units).save(buf, "PNG", compress_level=1)
    return buf.getvalue()


# ------------------------------------------------------------------ the page's board: drawn in the browser
#
# The page draws the board itself: the map once per scenario (``map_png``), every counter face once on one
# sprite sheet (``sheet_png``, ``sheet_index``), and at each step only where each counter goes
# (``placements``), so stepping costs an engine step and a few kilobytes of JSON instead of a picture.
# The placements follow ``render`` exactly (same stacking offsets and order, two-hex units over L and R).

SHEET_SCALE = 2              # the sheet holds faces at twice the board's size: sharp when the reader zooms in
SHEET_COLUMNS = 24


def map_png(scenario: Any) -> bytes:
    """The map without counters, encoded once per scenario and process (and kept on disk, see the module)."""
    art = _art_for(scenario)
    with _lock:
        data = getattr(art, "map_png", None)
    if data is None:
        key = art_key("map", _canonical(scenario.map))
        data = _disk_get(key)
        if data is None:
            buf = io.BytesIO()
            art.base.save(buf, "PNG", compress_level=1)
            data = buf.getvalue()
            _disk_put(key, data)
        with _lock:
            art.map_png = data  # type: ignore[attr-defined]
            _trim()
    return data


# ------------------------------------------------------------------ the art kept on disk

ART_CACHE_ENV = "REFEREE_ART_CACHE"      # a directory; "off" keeps nothing on disk
ART_CACHE_FILES = 32                      # pictures kept there (the oldest go: a renderer change makes new keys)


def art_cache_dir() -> Path | None:
    """Where drawn maps and sheets are kept: ``$REFEREE_ART_CACHE``, else ``$XDG_CACHE_HOME/referee/art``
    (``~/.cache/referee/art``); None when the variable says ``off``."""
    env = os.environ.get(ART_CACHE_ENV)
    if env == "off":
        return None
    if env:
        return Path(env)
    try:
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "referee" / "art"
    except RuntimeError:                  # no home directory to be found: keep nothing on disk
        return None


def _canonical(value: Any) -> Any:
    """A JSON-able form of definitions (frozen dataclasses, tuples, mappings, sets, enums) that is the same in
    every process: sets sorted, mappings by key (``repr`` would order a frozenset by this process's hashes)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}]
    if isinstance(value, enum.Enum):
        return _canonical(value.value)
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


@functools.cache
def _drawer_fingerprint() -> str:
    """What else the pictures depend on: the renderer's and this module's source, the fonts, Pillow."""
    import PIL
    import modulebuilder.render as render        # the module-level name is this module's render()
    h = hashlib.sha256(f"Pillow {PIL.__version__}".encode())
    roots = [Path(render.__file__).parent, Path(render.__file__).parents[1] / "fonts", Path(__file__)]
    for root in roots:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file()
                                                      and "__pycache__" not in p.parts)
        for f in files:
            h.update(str(f.relative_to(root.parent)).encode())
            # Source is hashed whole; a font (large, binary) by its size and first and last 64 KiB.
            data = f.read_bytes() if f.suffix == ".py" else _font_sample(f)
            h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def _font_sample(path: Path) -> bytes:
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(65536)
        fh.seek(max(0, size - 65536))
        return str(size).encode() + head + fh.read()


def art_key(kind: str, source: Any) -> str:
    """The disk cache's key of a picture: what it is, what it is drawn from, at which sizes, by which code."""
    body = json.dumps([kind, source, HEX_SIZE, COUNTER_SCALE, SHEET_SCALE, SHEET_COLUMNS, DRAW_SIZE,
                       _drawer_fingerprint()], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _disk_get(key: str) -> bytes | None:
    where = art_cache_dir()
    if where is None:
        return None
    try:
        data = (where / f"{key}.png").read_bytes()
    except OSError:
        return None
    return data if data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82") else None


def _disk_put(key: str, data: bytes) -> None:
    """Written whole or not at all (a temporary file renamed): a reader never sees half a picture.  A cache
    that cannot be written (read-only home, full disk) is no error: the picture is served all the same."""
    where = art_cache_dir()
    if where is None:
        return
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=f".{key}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, where / f"{key}.png")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        kept = sorted(where.glob("*.png"), key=lambda f: f.stat().st_mtime)
        for old in kept[:-ART_CACHE_FILES]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def _pieces(scenario: Any) -> list[tuple[str, int, bool]]:
    """(id, width in counter sides, has a back) of every unit and leader, in the scenario's order."""
    counters = scenario.counters
    out = [(u.id, int(getattr(u, "size", 1) or 1), getattr(u, "back", None) is not None) for u in counters.units]
    out += [(ldr.id, 1, False) for ldr in counters.leaders]
    return out


def sheet_index(scenario: Any) -> dict[str, Any]:
    """Where each face sits on the sprite sheet, in sheet pixels: ``{id: {"front": [x, y], "back": [x, y]}}``
    (no ``back`` for a piece without one), with the cell size; computed without drawing anything."""
    cell = int(HEX_SIZE * COUNTER_SCALE) * SHEET_SCALE
    faces: dict[str, dict[str, list[int]]] = {}
    col = row = 0
    for pid, width, has_back in _pieces(scenario):
        entry = {}
        for face in ("front", "back") if has_back else ("front",):
            if col + width > SHEET_COLUMNS:
                col, row = 0, row + 1
            entry[face] = [col * cell, row * cell]
            col += width
        faces[pid] = entry
    rows = row + 1 if faces else 0
    return {"cell": cell, "scale": SHEET_SCALE, "width": SHEET_COLUMNS * cell, "height": rows * cell,
            "faces": faces}


def sheet_png(scenario: Any) -> bytes:
    """Every counter face of the scenario on one picture, laid out as ``sheet_index`` says."""
    art = _art_for(scenario)
    with _lock:
        data = getattr(art, "sheet_png", None)
    if data is not None:
        return data
    with _sheet_gate(art):                # two requests at once draw the sheet once
        with _lock:
            data = getattr(art, "sheet_png", None)
        if data is not None:
            return data
        key = art_key("sheet", [_canonical(scenario.counters), art.back])
        data = _disk_get(key)
        if data is None:
            data = _draw_sheet(art, scenario)
            _disk_put(key, data)
        with _lock:
            art.sheet_png = data  # type: ignore[attr-defined]
            _trim()
    return data


def _sheet_gate(art: _Art) -> threading.Lock:
    with _lock:
        gate = getattr(art, "sheet_gate", None)
        if gate is None:
            gate = art.sheet_gate = threading.Lock()  # type: ignore[attr-defined]
    return gate


def _draw_sheet(art: _Art, scenario: Any) -> bytes:
    index = sheet_index(scenario)
    cell = index["cell"]
    sheet = Image.new("RGBA", (max(1, index["width"]), max(1, index["height"])), (0, 0, 0, 0))
    for pid, spots in index["faces"].items():
        for face, (x, y) in spots.items():
            img = _face(art, pid, face == "back", cell)
            if img is not None:
                sheet.paste(img, (x, y))
    buf = io.BytesIO()
    sheet.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def geometry(scenario: Any) -> dict[str, Any]:
    """What the page needs to draw on the map: its size, the hexes' centres and the counters' size."""
    art = _art_for(scenario)
    with _lock:
        cached = getattr(art, "geometry", None)
    if cached is not None:
        return cached
    layout = art.layout
    grid = layout.grid
    d = grid.digits
    hexes = {}
    for c in range(grid.first_column, grid.first_column + grid.columns):
        for r in range(grid.first_row, grid.first_row + grid.rows):
            name = f"{c:0{d}d}{r:0{d}d}"
            x, y = layout.center(name)
            hexes[name] = [round(x, 1), round(y, 1)]
    out = {"width": art.size[0], "height": art.size[1], "hex_size": layout.size,
           "pointy": bool(grid.pointy), "counter": int(HEX_SIZE * COUNTER_SCALE), "stack_offset": STACK_OFFSET,
           "hexes": hexes}
    with _lock:
        art.geometry = out  # type: ignore[attr-defined]
    return out


def placements(scenario: Any, units: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Where ``render`` would paste each counter, bottom of each stack first (the order to draw in):
    ``{id, hex, x, y (the counter's centre), w, h, angle (degrees clockwise), back, facing, level}``."""
    art = _art_for(scenario)
    layout = art.layout
    size = int(HEX_SIZE * COUNTER_SCALE)
    depth: dict[str, int] = {}
    out = []
    for u in reversed([u for u in units if u.get("hex")]):
        hex_id = u["hex"]
        try:
            cx, cy = layout.center(hex_id)
        except (KeyError, ValueError):
            continue
        level = depth.get(hex_id, 0)
        depth[hex_id] = level + 1
        x, y = cx - level * STACK_OFFSET, cy - level * STACK_OFFSET
        facing = u.get("facing")
        width = art.sizes.get(u["id"], 1)
        angle = 0.0
        if width > 1 and isinstance(facing, int):
            rx, ry = _right_half_centre(layout, hex_id, facing, x, y)
            angle = math.degrees(math.atan2(ry - y, rx - x))
            x, y = (x + rx) / 2, (y + ry) / 2
        out.append({"id": u["id"], "hex": hex_id, "x": round(x, 1), "y": round(y, 1), "w": size * width, "h": size,
                    "angle": round(angle, 1),
                    "back": art.shows_back(u),
                    "facing": facing if isinstance(facing, int) else None, "level": level,
                    **({"status": u["status"]} if u.get("status") else {}),
                    **({"formation": u["formation"]} if u.get("formation") else {})})
    return out
