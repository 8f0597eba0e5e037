"""NATO-style unit symbols (a frame with a branch mark), drawn once per size and reused.

Symbols are drawn at 4x and reduced, because Pillow draws diagonal lines without anti-aliasing; the result
is cached, so each counter face only pastes a ready image."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable, Literal

from PIL import Image, ImageDraw

from modulebuilder.model import Unit

SymbolKey = Literal["infantry", "light_infantry", "militia", "light_cavalry", "heavy_cavalry", "cossack",
                    "artillery", "horse_artillery", "commander"]
SUPERSAMPLE = 4
INK = (0, 0, 0, 255)
PAPER = (255, 255, 255, 255)


def unit_symbol_key(unit: Unit) -> SymbolKey:
    """The symbol for a unit, from its kind, cavalry type and flags."""
    if unit.kind == "artillery":
        return "horse_artillery" if unit.horse_artillery else "artillery"
    if unit.kind == "cavalry":
        return {"H": "heavy_cavalry", "C": "cossack"}.get(unit.cav_type or "L", "light_cavalry")  # type: ignore[return-value]
    if "militia" in unit.flags:
        return "militia"
    if unit.flags & {"jaeger", "skirmisher", "light"}:
        return "light_infantry"
    return "infantry"


Box = tuple[float, float, float, float]


def _frame(d: ImageDraw.ImageDraw, box: Box, lw: int, dashed: bool = False) -> None:
    x0, y0, x1, y1 = box
    d.rectangle(box, fill=PAPER)
    if not dashed:
        d.rectangle(box, outline=INK, width=lw)
        return
    # Militia: a broken frame, the conventional mark of irregular troops, unmistakable even when small.
    dash = (x1 - x0) / 7
    for i in range(0, 7, 2):
        d.rectangle((x0 + i * dash, y0, x0 + (i + 1) * dash, y0 + lw), fill=INK)
        d.rectangle((x0 + i * dash, y1 - lw, x0 + (i + 1) * dash, y1), fill=INK)
    vdash = (y1 - y0) / 5
    for i in range(0, 5, 2):
        d.rectangle((x0, y0 + i * vdash, x0 + lw, y0 + (i + 1) * vdash), fill=INK)
        d.rectangle((x1 - lw, y0 + i * vdash, x1, y0 + (i + 1) * vdash), fill=INK)


def _cross(d: ImageDraw.ImageDraw, box: Box, lw: int) -> None:
    x0, y0, x1, y1 = box
    d.line((x0, y0, x1, y1), fill=INK, width=lw)
    d.line((x0, y1, x1, y0), fill=INK, width=lw)


def _slash(d: ImageDraw.ImageDraw, box: Box, lw: int, offset: float = 0.0) -> None:
    x0, y0, x1, y1 = box
    d.line((x0 + offset, y1, x1 + offset, y0), fill=INK, width=lw)


def _dot(d: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    r = (y1 - y0) * 0.2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)


def _horn(d: ImageDraw.ImageDraw, box: Box, lw: int) -> None:
    """A hunting horn (the jäger badge) in the lower triangle of the X."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, top = (x0 + x1) / 2, y0 + h * 0.55
    r = h * 0.2
    d.arc((cx - r, top, cx + r, top + 2 * r), 200, 340 + 360, fill=INK, width=max(1, lw * 3 // 4))
    d.arc((cx - r, top, cx + r, top + 2 * r), 0, 200, fill=INK, width=max(1, lw * 3 // 4))
    bell = [(cx + r * 0.9, top + r * 0.6), (cx + r * 1.9, top + r * 0.1), (cx + r * 1.9, top + r * 1.5)]
    d.polygon(bell, fill=INK)
    del w


def _lance(d: ImageDraw.ImageDraw, box: Box, lw: int) -> None:
    """Cossacks: the slash becomes a lance with a pennant at its head."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    _slash(d, box, lw)
    ang = math.atan2(y0 - y1, x1 - x0)
    hx, hy = x0 + (x1 - x0) * 0.78, y1 + (y0 - y1) * 0.78
    px_, py_ = math.cos(ang - math.pi / 2), -math.sin(ang - math.pi / 2)
    d.polygon([(hx, hy), (hx - h * 0.28 * math.cos(ang), hy + h * 0.28 * math.sin(ang)),
               (hx + px_ * h * 0.25 - h * 0.05 * math.cos(ang), hy + py_ * h * 0.25)], fill=INK)


def _star(d: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + (y1 - y0) * 0.04
    r_out = min(x1 - x0, y1 - y0) * 0.55
    pts = []
    for i in range(10):
        r = r_out if i % 2 == 0 else r_out * 0.42
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=INK)


def _draw(key: SymbolKey, d: ImageDraw.ImageDraw, w: int, h: int) -> None:
    lw = max(SUPERSAMPLE, int(round(min(w, h) * 0.075)))
    half = lw / 2
    box: Box = (half, half, w - 1 - half, h - 1 - half)
    inner: Box = (lw * 0.9, lw * 0.9, w - 1 - lw * 0.9, h - 1 - lw * 0.9)
    marks: dict[str, Callable[[], None]] = {
        "infantry": lambda: _cross(d, inner, lw),
        "light_infantry": lambda: (_cross(d, inner, lw), _horn(d, inner, lw)),
        "militia": lambda: _cross(d, inner, lw),
        "light_cavalry": lambda: _slash(d, inner, lw),
        "heavy_cavalry": lambda: (_slash(d, inner, lw, -lw * 1.2), _slash(d, inner, lw, lw * 1.2)),
        "cossack": lambda: _lance(d, inner, lw),
        "artillery": lambda: _dot(d, inner),
        "horse_artillery": lambda: (_slash(d, inner, lw), _dot(d, inner)),
        "commander": lambda: _star(d, inner),
    }
    if key == "commander":
        marks[key]()
        return
    _frame(d, box, lw, dashed=(key == "militia"))
    marks[key]()
    if key != "militia":                   # redraw the frame over line ends that overshoot it
        d.rectangle(box, outline=INK, width=lw)


@lru_cache(maxsize=256)
def symbol_image(key: SymbolKey, width: int, height: int) -> Image.Image:
    """The symbol ``key`` as an RGBA image of exactly ``width`` x ``height`` pixels (cached; do not modify)."""
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    _draw(key, ImageDraw.Draw(big), big.width, big.height)
    return big.resize((width, height), Image.Resampling.LANCZOS)
