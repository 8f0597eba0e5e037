"""The Napoleonic series symbols (a frame with a branch mark; templates' ``symbol`` items with ``set:
series``), drawn once per size and reused.  Which unit gets which symbol is the template's choice (the
``triumph-and-glory`` template picks it from kind, cavalry type and flags).

The geometry is written once against ImageDraw's methods and recorded as a drawing :class:`Layer`: the
raster backend draws it at 4x and reduces it (Pillow draws diagonal lines without anti-aliasing; the
result is cached, so each face only pastes a ready image), the PDF backend writes the same shapes as
vector paths."""
from __future__ import annotations

import math
from typing import Callable, Literal

from PIL import Image, ImageDraw

from modulebuilder.render.drawing import Layer, Recorder, Shape
from modulebuilder.render.raster import layer_image

SymbolKey = Literal["infantry", "pike_infantry", "light_infantry", "militia", "light_cavalry", "heavy_cavalry", "cossack",
                    "artillery", "horse_artillery", "commander"]
SERIES_SYMBOLS: tuple[SymbolKey, ...] = ("infantry", "pike_infantry", "light_infantry", "militia", "light_cavalry",
                                         "heavy_cavalry", "cossack", "artillery", "horse_artillery", "commander")
SUPERSAMPLE = 4
INK = (0, 0, 0, 255)
PAPER = (255, 255, 255, 255)


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


def _pike(d: ImageDraw.ImageDraw, box: Box, lw: int) -> None:
    """A pike standing in the middle of the frame, head up: pike-armed heavy infantry."""
    x0, y0, x1, y1 = box
    cx, head = (x0 + x1) / 2, (y1 - y0) * 0.28
    d.line((cx, y0 + head, cx, y1), fill=INK, width=lw)
    d.polygon([(cx, y0 + lw), (cx - head * 0.45, y0 + head * 1.1), (cx + head * 0.45, y0 + head * 1.1)], fill=INK)


def _dot(d: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    r = (y1 - y0) * 0.2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)


def _horn(d: ImageDraw.ImageDraw, box: Box, lw: int) -> None:
    """A hunting horn (the jäger badge) in the lower triangle of the X: ring and flared bell."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    cx, cy = (x0 + x1) / 2 - h * 0.12, y0 + h * 0.72
    r = h * 0.19
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PAPER, outline=INK, width=max(1, lw * 3 // 4))
    d.polygon([(cx + r * 0.8, cy - r * 0.3), (cx + r * 2.3, cy - r * 1.0), (cx + r * 2.3, cy + r * 1.0),
               (cx + r * 0.8, cy + r * 0.3)], fill=INK)


def _lance(d: ImageDraw.ImageDraw, box: Box, lw: int) -> None:
    """Cossacks: the cavalry slash as a lance, with a pennant flying from below its point."""
    x0, y0, x1, y1 = box
    _slash(d, box, lw)
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y0 - y1) / length        # unit vector up the lance
    nx, ny = uy, -ux                                       # perpendicular, pointing down and right
    size = (y1 - y0) * 0.42
    tip = (x0 + (x1 - x0) * 0.8, y1 + (y0 - y1) * 0.8)
    root = (tip[0] - ux * size, tip[1] - uy * size)
    fly = (tip[0] - ux * size * 0.35 - nx * size * 0.9, tip[1] - uy * size * 0.35 - ny * size * 0.9)
    d.polygon([tip, root, fly], fill=INK)


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
    box: Box = (0, 0, w - 1, h - 1)                # Pillow draws outlines inward from this edge
    inner: Box = (lw * 0.5, lw * 0.5, w - 1 - lw * 0.5, h - 1 - lw * 0.5)   # mark lines start mid-frame
    marks: dict[str, Callable[[], None]] = {
        "infantry": lambda: _cross(d, inner, lw),
        "pike_infantry": lambda: (_cross(d, inner, lw), _pike(d, inner, lw)),
        "light_infantry": lambda: (_cross(d, inner, lw), _horn(d, inner, lw)),
        "militia": lambda: _cross(d, inner, lw),
        "light_cavalry": lambda: _slash(d, inner, lw),
        "heavy_cavalry": lambda: (_slash(d, inner, lw, -lw * 1.7), _slash(d, inner, lw, lw * 1.7)),
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


def symbol_layer(key: SymbolKey, width: int, height: int, at: tuple[int, int] = (0, 0)) -> Layer:
    """Frame and branch marks as a drawing layer ``width`` x ``height`` at ``at``; marks that overshoot the
    frame (slash ends, pennants) are clipped to its inside and the frame drawn again on top."""
    big_w, big_h = width * SUPERSAMPLE, height * SUPERSAMPLE
    rec = Recorder()
    _draw(key, rec, big_w, big_h)                   # type: ignore[arg-type]
    if key in ("commander", "militia"):
        return Layer(rec.take(), width, height, SUPERSAMPLE, "lanczos", at)
    lw = max(SUPERSAMPLE, int(round(min(big_w, big_h) * 0.075)))
    frame = Shape("rectangle", (0, 0, big_w - 1, big_h - 1), None, INK, lw)
    return Layer(rec.take(), width, height, SUPERSAMPLE, "lanczos", at,
                 clip=(lw, lw, big_w - 1 - lw, big_h - 1 - lw), over=(frame,))


def symbol_image(key: SymbolKey, width: int, height: int) -> Image.Image:
    """The symbol ``key`` as an RGBA image of exactly ``width`` x ``height`` pixels (cached; do not modify)."""
    return layer_image(symbol_layer(key, width, height))
