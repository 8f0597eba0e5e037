"""Line work on the map: hexside features (streams, rivers, fords, bridges, steep slopes), elevation
contours and roads.  A hexside is the edge between two adjacent hexes, from the vertex one hour before the
direction to the vertex one hour after it."""
from __future__ import annotations

import math

from PIL import ImageDraw

from modulebuilder.hexgrid import HexLayout, add_hours
from modulebuilder.render.map_style import Palette

Point = tuple[float, float]


def hexside_segment(layout: HexLayout, a: str, b: str) -> tuple[Point, Point]:
    """The two end vertices of the edge shared by adjacent hexes ``a`` and ``b``."""
    hour = layout.grid.direction(a, b)
    if hour is None:
        raise ValueError(f"hexside {a}-{b}: the hexes are not adjacent")
    return layout.vertex(a, add_hours(hour, -1)), layout.vertex(a, add_hours(hour, 1))


def _wave(p0: Point, p1: Point, amplitude: float, waves: float, steps: int = 24) -> list[Point]:
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    pts = []
    for i in range(steps + 1):
        t = i / steps
        off = amplitude * math.sin(t * waves * 2 * math.pi)
        pts.append((x0 + (x1 - x0) * t + nx * off, y0 + (y1 - y0) * t + ny * off))
    return pts


def draw_water(d: ImageDraw.ImageDraw, seg: tuple[Point, Point], feature: str, s: float, pal: Palette) -> None:
    """Stream: a blue wavy line along the hexside; minor stream thinner; river thick and nearly straight."""
    width, amp = {"river": (0.17, 0.02), "minor_stream": (0.045, 0.035)}.get(feature, (0.075, 0.045))
    # One gentle wave per hexside: reads as water without turning a long stream into a row of scallops.
    d.line(_wave(*seg, s * amp, 1.0), fill=pal[feature], width=max(2, round(s * width)), joint="curve")
    r = max(1.0, s * width / 2)                   # round caps, so consecutive hexsides join without notches
    for x, y in seg:
        d.ellipse((x - r, y - r, x + r, y + r), fill=pal[feature])


def draw_ford(d: ImageDraw.ImageDraw, seg: tuple[Point, Point], s: float, pal: Palette) -> None:
    """Pale bars across the water at the middle of the hexside: the crossing place."""
    (x0, y0), (x1, y1) = seg
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    for k in (-1, 0, 1):
        cx, cy = mx + ux * k * s * 0.12, my + uy * k * s * 0.12
        d.line((cx - nx * s * 0.11, cy - ny * s * 0.11, cx + nx * s * 0.11, cy + ny * s * 0.11),
               fill=pal["ford"], width=max(2, round(s * 0.05)))


def draw_bridge(d: ImageDraw.ImageDraw, ca: Point, cb: Point, s: float, pal: Palette) -> None:
    """A plank deck across the hexside, on the line joining the two centres, with splayed ends."""
    (xa, ya), (xb, yb) = ca, cb
    mx, my = (xa + xb) / 2, (ya + yb) / 2
    length = math.hypot(xb - xa, yb - ya) or 1.0
    ux, uy = (xb - xa) / length, (yb - ya) / length
    nx, ny = -uy, ux
    half_l, half_w = s * 0.3, s * 0.1
    deck = [(mx - ux * half_l + nx * half_w, my - uy * half_l + ny * half_w),
            (mx + ux * half_l + nx * half_w, my + uy * half_l + ny * half_w),
            (mx + ux * half_l - nx * half_w, my + uy * half_l - ny * half_w),
            (mx - ux * half_l - nx * half_w, my - uy * half_l - ny * half_w)]
    d.polygon(deck, fill=(214, 190, 150), outline=pal["bridge"], width=max(2, round(s * 0.03)))
    w = max(2, round(s * 0.03))
    for sgn in (-1, 1):                                  # parapet ends splay outward
        for side in (-1, 1):
            ex, ey = mx + ux * half_l * sgn + nx * half_w * side, my + uy * half_l * sgn + ny * half_w * side
            d.line((ex, ey, ex + (ux * sgn + nx * side) * s * 0.07, ey + (uy * sgn + ny * side) * s * 0.07),
                   fill=pal["bridge"], width=w)


def draw_steep(d: ImageDraw.ImageDraw, seg: tuple[Point, Point], towards: Point, s: float, pal: Palette) -> None:
    """Hachures: short ticks along the hexside pointing downhill (towards ``towards``)."""
    (x0, y0), (x1, y1) = seg
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    if (towards[0] - mx) * nx + (towards[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    w = max(2, round(s * 0.035))
    d.line((x0, y0, x1, y1), fill=pal["steep"], width=w)
    for i in range(1, 8):
        t = i / 8
        px_, py_ = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        d.line((px_, py_, px_ + nx * s * 0.16, py_ + ny * s * 0.16), fill=pal["steep"], width=max(1, w * 2 // 3))


def draw_contour(d: ImageDraw.ImageDraw, seg: tuple[Point, Point], s: float, pal: Palette) -> None:
    d.line(seg, fill=pal["contour"], width=max(2, round(s * 0.06)))


def draw_road(d: ImageDraw.ImageDraw, pts: list[Point], kind: str, s: float, pal: Palette) -> None:
    """Road: a solid brown line through the hex centres; path: dashed and thinner."""
    if len(pts) < 2:
        return
    if kind != "path":
        w = max(2, round(s * 0.11))
        d.line(pts, fill=(60, 40, 20), width=w + max(2, round(s * 0.04)), joint="curve")   # dark casing
        d.line(pts, fill=pal["road"], width=w, joint="curve")
        for x, y in pts:                       # round the joints so the casing shows no notches
            d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=pal["road"])
        return
    w = max(2, round(s * 0.06))
    dash, gap = s * 0.18, s * 0.12
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < length:
            t1 = min(length, t + dash)
            d.line((x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length,
                    x0 + (x1 - x0) * t1 / length, y0 + (y1 - y0) * t1 / length), fill=pal["path"], width=w)
            t += dash + gap
