"""Pictures of the board: the scenario's map drawn once by the project's map renderer, counters pasted on it.

Drawing the Borodino map takes more than a second, a counter face some milliseconds; a board picture is asked
for at every step the reader looks at.  So the map base (per scenario) and every counter face (per unit, face
and size) are rendered once per process and kept; a picture is then a copy of the base plus a paste per unit.
"""
from __future__ import annotations

import io
import math
import threading
from typing import Any, Iterable, Mapping

from PIL import Image, ImageDraw

from modulebuilder.render import render_leader_face, render_map, render_unit_face

HEX_SIZE = 22.0              # pixels centre to vertex: the whole Borodino map fits a laptop screen
COUNTER_SCALE = 1.15         # counter edge / hex size: a counter a little smaller than its hex
STACK_OFFSET = 3             # pixels each unit of a stack is shifted, so a stack looks like one
FACING_INK = (200, 20, 20)

_lock = threading.Lock()
_bases: dict[int, tuple[Image.Image, Any]] = {}
_faces: dict[tuple[str, str, int], Image.Image] = {}


def _base(scenario: Any) -> tuple[Image.Image, Any]:
    key = id(scenario.map)           # scenarios are cached and immutable (referee.service.scenarios)
    with _lock:
        hit = _bases.get(key)
    if hit is None:
        image, layout = render_map(scenario.map, HEX_SIZE)
        hit = (image.convert("RGB"), layout)
        with _lock:
            _bases[key] = hit
    return hit


def _face(scenario: Any, unit_id: str, disordered: bool, size: int) -> Image.Image | None:
    face = "back" if disordered else "front"
    key = (f"{scenario.id}:{id(scenario)}:{unit_id}", face, size)
    with _lock:
        hit = _faces.get(key)
    if hit is not None:
        return hit
    img = _render_face(scenario, unit_id, face, size)
    if img is not None:
        with _lock:
            _faces[key] = img
    return img


def _render_face(scenario: Any, unit_id: str, face: str, size: int) -> Image.Image | None:
    counters = scenario.counters
    unit = next((u for u in counters.units if u.id == unit_id), None)
    try:
        if unit is not None:
            ag = next(a for a in counters.activation_groups if a.id == unit.ag)
            return render_unit_face(unit, ag, face if unit.back is not None else "front", size)
        leader = next((ldr for ldr in counters.leaders if ldr.id == unit_id), None)
        if leader is not None:
            return render_leader_face(leader, size)
    except Exception:  # noqa: BLE001 — a face that does not render (text too long at this size) becomes a plain tile
        return Image.new("RGB", (size, size), (230, 225, 210))
    return None


def _facing_mark(draw: ImageDraw.ImageDraw, x: float, y: float, half: float, hour: int) -> None:
    """A small triangle on the counter's edge pointing at the vertex the unit faces (clock hours, DESIGN §3)."""
    a = math.radians(hour * 30)
    dx, dy = math.sin(a), -math.cos(a)
    tip = (x + dx * (half + 4), y + dy * (half + 4))
    side = (-dy * 4, dx * 4)
    base = (x + dx * (half - 1), y + dy * (half - 1))
    draw.polygon([tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])],
                 fill=FACING_INK)


def render(scenario: Any, units: Iterable[Mapping[str, Any]]) -> Image.Image:
    """The board with ``units`` (a ruleset view's ``units``: id, hex, facing, status) on it."""
    base, layout = _base(scenario)
    image = base.copy()
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
        face = _face(scenario, u["id"], u.get("status") == "disordered", size)
        if face is None:
            continue
        level = depth.get(hex_id, 0)
        depth[hex_id] = level + 1
        x, y = cx - level * STACK_OFFSET, cy - level * STACK_OFFSET
        image.paste(face, (int(x - size / 2), int(y - size / 2)))
        if isinstance(u.get("facing"), int):
            _facing_mark(draw, x, y, size / 2, u["facing"])
    return image


def png(scenario: Any, units: Iterable[Mapping[str, Any]]) -> bytes:
    buf = io.BytesIO()
    # compress_level 1: a board picture is made per request; size matters less than time here.
    render(scenario, units).save(buf, "PNG", compress_level=1)
    return buf.getvalue()
