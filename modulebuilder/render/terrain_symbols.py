"""Terrain symbols drawn inside a hex: trees, buildings, earthworks, marsh tufts, rocks, furrows, and the
map markers (rubble, fire).  Each draws around a hex centre ``(cx, cy)`` scaled by the hex ``size``
(centre to vertex), leaving the top of the hex for its number and the bottom for a place name.

Positions come from a generator seeded by the hex id, so the art looks hand-placed yet is identical on
every build."""
from __future__ import annotations

import math
import random
from typing import Callable

from PIL import ImageDraw

from modulebuilder.render.map_style import Palette

Draw = ImageDraw.ImageDraw
Symbol = Callable[[Draw, float, float, float, Palette, random.Random], None]


def _scatter(rng: random.Random, n: int, radius: float, min_gap: float) -> list[tuple[float, float]]:
    """Up to ``n`` points in a disc, at least ``min_gap`` apart (rejection sampling, bounded tries)."""
    pts: list[tuple[float, float]] = []
    for _ in range(n * 12):
        if len(pts) == n:
            break
        a, d = rng.uniform(0, 2 * math.pi), radius * math.sqrt(rng.random())
        p = (d * math.cos(a), d * math.sin(a) * 0.85)
        if all(math.dist(p, q) >= min_gap for q in pts):
            pts.append(p)
    return sorted(pts, key=lambda p: p[1])          # back to front: lower trees overlap higher ones


def woods(d: Draw, cx: float, cy: float, s: float, pal: Palette, rng: random.Random) -> None:
    r = s * 0.16
    outline = max(1, round(s * 0.025))
    for x, y in _scatter(rng, 7, s * 0.5, r * 1.3):
        tx, ty = cx + x, cy + y
        d.rectangle((tx - r * 0.12, ty, tx + r * 0.12, ty + r * 1.1), fill=pal["tree_dark"])
        d.ellipse((tx - r, ty - r * 1.2, tx + r, ty + r * 0.5), fill=pal["tree"], outline=pal["tree_dark"],
                  width=outline)


def village(d: Draw, cx: float, cy: float, s: float, pal: Palette, rng: random.Random) -> None:
    w, h = s * 0.22, s * 0.16
    spots = [(-0.28, -0.1), (0.12, -0.22), (0.26, 0.12), (-0.12, 0.2)]
    for i, (fx, fy) in enumerate(spots):
        x, y = cx + fx * s + rng.uniform(-0.03, 0.03) * s, cy + fy * s
        bw = w * (1.0 if i % 2 == 0 else 0.8)
        d.rectangle((x - bw / 2, y - h / 2, x + bw / 2, y + h / 2), fill=pal["roof"], outline=pal["building"],
                    width=max(1, round(s * 0.02)))
        d.line((x - bw / 2, y, x + bw / 2, y), fill=pal["building"], width=max(1, round(s * 0.02)))


def redoubt(d: Draw, cx: float, cy: float, s: float, pal: Palette, _rng: random.Random) -> None:
    """An earthwork: a closed five-sided work with its ditch shown by short ticks outside."""
    r = s * 0.42
    pts = [(cx + r * math.cos(a), cy + r * 0.85 * math.sin(a))
           for a in (math.radians(-90 + k * 72) for k in range(5))]
    w = max(2, round(s * 0.07))
    d.line(pts + [pts[0]], fill=pal["earthwork"], width=w, joint="curve")
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]):
        nx, ny = (y1 - y0), -(x1 - x0)
        n = math.hypot(nx, ny) or 1.0
        nx, ny = nx / n, ny / n
        for t in (0.2, 0.4, 0.6, 0.8):
            px_, py_ = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            d.line((px_ + nx * w * 0.6, py_ + ny * w * 0.6, px_ + nx * w * 1.8, py_ + ny * w * 1.8),
                   fill=pal["earthwork"], width=max(1, w // 3))


def marsh(d: Draw, cx: float, cy: float, s: float, pal: Palette, rng: random.Random) -> None:
    w = max(1, round(s * 0.025))
    for x, y in _scatter(rng, 6, s * 0.5, s * 0.22):
        tx, ty = cx + x, cy + y
        d.line((tx - s * 0.1, ty, tx + s * 0.1, ty), fill=pal["marsh_tuft"], width=w)
        for dx in (-0.05, 0.0, 0.05):
            d.line((tx + dx * s, ty, tx + dx * s * 1.8, ty - s * 0.08), fill=pal["marsh_tuft"], width=w)


def rough(d: Draw, cx: float, cy: float, s: float, pal: Palette, rng: random.Random) -> None:
    for x, y in _scatter(rng, 9, s * 0.55, s * 0.14):
        r = s * rng.uniform(0.03, 0.055)
        d.ellipse((cx + x - r, cy + y - r, cx + x + r, cy + y + r), fill=pal["rubble"])


def cultivated(d: Draw, cx: float, cy: float, s: float, pal: Palette, _rng: random.Random) -> None:
    """Furrows: short parallel strokes, the usual sign of fields."""
    w = max(1, round(s * 0.02))
    colour = pal["contour"]
    for k in range(-2, 3):
        y = cy + k * s * 0.13
        half = s * (0.42 - 0.06 * abs(k))
        d.line((cx - half, y, cx + half, y - s * 0.05), fill=colour, width=w)


def rubble(d: Draw, cx: float, cy: float, s: float, pal: Palette, rng: random.Random) -> None:
    for x, y in _scatter(rng, 10, s * 0.3, s * 0.06):
        r = s * 0.06
        d.polygon([(cx + x - r, cy + y + r * 0.6), (cx + x, cy + y - r), (cx + x + r, cy + y + r * 0.6)],
                  fill=pal["rubble"], outline=(40, 35, 30))


def on_fire(d: Draw, cx: float, cy: float, s: float, pal: Palette, _rng: random.Random) -> None:
    for dx, hgt in ((-0.15, 0.35), (0.0, 0.5), (0.15, 0.3)):
        x = cx + dx * s
        d.polygon([(x - s * 0.1, cy + s * 0.15), (x, cy + s * 0.15 - hgt * s), (x + s * 0.1, cy + s * 0.15)],
                  fill=pal["fire"], outline=(150, 30, 0))


TERRAIN_SYMBOLS: dict[str, Symbol] = {
    "woods": woods, "forest": woods, "village": village, "town": village, "redoubt": redoubt,
    "marsh": marsh, "swamp": marsh, "rough": rough, "cultivated": cultivated,
}
MARKER_SYMBOLS: dict[str, Symbol] = {"rubble": rubble, "on_fire": on_fire}
