"""Pictures of the board: the scenario's map drawn once by the project's map renderer, counters pasted on it.

Drawing the Borodino map takes more than a second, a counter face some milliseconds; a board picture is asked
for at every step the reader looks at.  So the map base (per scenario) and every counter face (per unit, face
and size) are rendered once per process and kept; a picture is then a copy of the base plus a paste per unit.

Two-hex units (Musket & Pike) are drawn at their true shape, two counter sides long, as the VASSAL module
draws them (modulebuilder/vassal/twohex.py): the view's ``hex`` is the left half L, the right half R is L's
neighbour at hour facing+3 (referee/rulesets/musket_and_pike/facing.py ``right_half``), the counter is centred
on the midpoint of L and R and turned so that its long axis runs from L to R.  Backs are drawn with the
scenario's ruleset's treatment (``back_treatment``: Disordered for T&G, Shaken for M&P).
"""
from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from typing import Any, Iterable, Mapping

from PIL import Image, ImageDraw

from modulebuilder.hexgrid import add_hours
from modulebuilder.render import render_leader_face, render_map, render_unit_face
from modulebuilder.render.counters import back_treatment

HEX_SIZE = 22.0              # pixels centre to vertex: the whole Borodino map fits a laptop screen
COUNTER_SCALE = 1.15         # counter edge / hex size: a counter a little smaller than its hex
STACK_OFFSET = 3             # pixels each unit of a stack is shifted, so a stack looks like one
FACING_INK = (200, 20, 20)
# Counter art refuses sizes where its text would be illegible (modulebuilder.render.text); a board picture is
# a thumbnail, so faces are drawn at a legible size and scaled down.
DRAW_SIZE = 64

ART_CACHE_SIZE = 8           # scenarios whose map and counter faces a process keeps


class _Art:
    """What pictures of one scenario are made of: the map, its layout, and the counter faces drawn so far."""

    def __init__(self, scenario: Any) -> None:
        self.scenario = scenario          # kept, so the cache key (its id) cannot be reused by another object
        image, self.layout = render_map(scenario.map, HEX_SIZE)
        self.base = image.convert("RGB")
        self.faces: dict[tuple[str, bool, int], Image.Image | None] = {}
        self.back = back_treatment(getattr(scenario, "ruleset", None))
        # Unit id -> counter sides it spans (2 for a Musket & Pike brigade or tercio), from the definitions.
        self.sizes = {u.id: int(getattr(u, "size", 1) or 1) for u in scenario.counters.units}


_lock = threading.Lock()
_art: OrderedDict[int, _Art] = OrderedDict()


def _art_for(scenario: Any) -> _Art:
    # Keyed by identity: scenarios are cached, immutable values (referee.service.scenarios).
    with _lock:
        hit = _art.get(id(scenario))
        if hit is not None and hit.scenario is scenario:
            _art.move_to_end(id(scenario))
            return hit
    art = _Art(scenario)                  # outside the lock: drawing a map takes a second or more
    with _lock:
        _art[id(scenario)] = art
        while len(_art) > ART_CACHE_SIZE:
            _art.popitem(last=False)
    return art


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
        # The back: T&G views say status "disordered"; M&P views say formation "shaken" (the back is Shaken).
        back = u.get("status") == "disordered" or u.get("formation") == "shaken"
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
