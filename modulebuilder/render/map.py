"""The rendered hex map: terrain, elevation, hexside features, roads, markers, hex numbers, names, a
title above the grid and a legend below it.

The returned :class:`HexLayout` is the one the picture was drawn with (its origin includes the margin),
so hex centres in image pixels are exact and the VASSAL grid can be laid over the picture unchanged.
Drawing happens at ``SUPERSAMPLE`` times the size and is reduced at the end (screen-sized maps only):
Pillow does not anti-alias lines or polygons, and a box-filtered reduction gives clean edges at little
cost.  The supersampled canvas is never whole: the drawing is recorded and drawn strip by strip
(map_strips.py), the same pixels in the memory of one strip."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from PIL import Image

from modulebuilder.hexgrid import HexGrid, HexLayout
from modulebuilder.model import MapDef
from modulebuilder.render import map_lines as L
from modulebuilder.render import text as T
from modulebuilder.render.map_strips import Recording, Surface
from modulebuilder.render.map_style import Palette, shaded
from modulebuilder.render.stable import rng_for
from modulebuilder.render.terrain_symbols import MARKER_SYMBOLS, TERRAIN_SYMBOLS

SUPERSAMPLE = 2
# Above this many output pixels (a print-resolution map) drawing at 2x would need gigabytes; at that
# resolution the pixels are small enough that the aliasing does not show, so draw at 1x.
SUPERSAMPLE_LIMIT_PX = 25_000_000
WATER = ("river", "stream", "minor_stream")
LEGEND_ITEM_HEXES = 3.4          # width of one legend entry, in hex sizes
LINE_HEXES = 1.15                # height of a title or legend line, in hex sizes


@dataclass(frozen=True)
class Margins:
    left: float
    top: float
    right: float
    bottom: float


def legend_entries(mapdef: MapDef) -> list[tuple[str, str]]:
    """(kind, id) for every terrain, hexside feature and road kind the map uses, in a stable order."""
    terrains = sorted({mapdef.default_terrain, *mapdef.terrain.values()})
    features = sorted({s.feature for s in mapdef.hexsides})
    roads = sorted({r.kind for r in mapdef.roads})
    levels = sorted({v for v in mapdef.elevation.values() if v})
    return ([("terrain", t) for t in terrains] + [("hexside", f) for f in features]
            + [("road", r) for r in roads] + [("elevation", str(v)) for v in levels])


def margins(mapdef: MapDef, size: float, grid_width: float) -> Margins:
    """Room around the grid: the style's margin (scaled with the hex size), a title line on top and as
    many legend lines below as the entries need."""
    scaled = mapdef.style.margin * size / (mapdef.style.hex_size or size)
    side = max(scaled, 0.6 * size)
    per_line = max(1, math.floor(grid_width / (LEGEND_ITEM_HEXES * size)))
    lines = math.ceil(len(legend_entries(mapdef)) / per_line)
    return Margins(side, side + LINE_HEXES * size, side, side + lines * LINE_HEXES * size)


def map_layout(mapdef: MapDef, hex_size: float | None = None) -> tuple[HexLayout, tuple[int, int]]:
    """The layout the map is drawn with and the image size in pixels."""
    size = float(hex_size or mapdef.style.hex_size)
    grid = HexGrid.from_model(mapdef.grid)
    bare = HexLayout(grid, size)
    m = margins(mapdef, size, bare.width)
    layout = HexLayout(grid, size, (m.left, m.top))
    return layout, (math.ceil(m.left + bare.width + m.right), math.ceil(m.top + bare.height + m.bottom))


def _scaled(layout: HexLayout, k: int) -> HexLayout:
    return HexLayout(layout.grid, layout.size * k, (layout.origin[0] * k, layout.origin[1] * k))


class _Painter:
    """Draws one map onto a (supersampled) surface; one method per layer, called in stacking order."""

    def __init__(self, mapdef: MapDef, layout: HexLayout, surface: Surface):
        self.m, self.lay, self.surface = mapdef, layout, surface
        self.d = surface.draw
        self.s = layout.size
        self.pal = Palette(mapdef.style.colours)
        self.grid = layout.grid

    def check_hex(self, h: str, what: str) -> str:
        if not self.grid.contains(h):
            raise ValueError(f"map {self.m.id!r}: {what} names hex {h!r}, which is not on the map")
        return h

    def terrain(self) -> None:
        for h in self.grid.hexes():
            t = self.m.terrain_of(h)
            fill = shaded(self.pal[t], self.m.elevation.get(h, 0))
            self.d.polygon(self.lay.corners(h), fill=fill)
        for h in self.grid.hexes():
            t = self.m.terrain_of(h)
            cx, cy = self.lay.center(h)
            if not author_symbol(self, t, cx, cy, self.s, rng_for(h)):
                symbol = TERRAIN_SYMBOLS.get(t)
                if symbol:
                    symbol(self.d, cx, cy, self.s, self.pal, rng_for(h))

    def grid_lines(self) -> None:
        w = max(1, round(self.s * 0.02))
        for h in self.grid.hexes():
            pts = self.lay.corners(h)
            self.d.line(pts + [pts[0]], fill=self.pal["grid"], width=w)

    def contours(self) -> None:
        """A contour line wherever neighbouring hexes differ in elevation."""
        for h in self.grid.hexes():
            level = self.m.elevation.get(h, 0)
            for n in self.grid.neighbours(h).values():
                if n > h and self.m.elevation.get(n, 0) != level:
                    L.draw_contour(self.d, L.hexside_segment(self.lay, h, n), self.s, self.pal)

    def hexsides(self) -> None:
        sides = [(self.check_hex(s.hexes[0], "a hexside"), self.check_hex(s.hexes[1], "a hexside"), s.feature)
                 for s in self.m.hexsides]
        for a, b, f in sides:                      # water first, so fords and bridges sit on top
            if f in WATER:
                L.draw_water(self.d, L.hexside_segment(self.lay, a, b), f, self.s, self.pal)
        for a, b, f in sides:
            seg = L.hexside_segment(self.lay, a, b)
            if f == "ford":
                if not set(self.m.hexside_features(a, b)) & set(WATER):
                    L.draw_water(self.d, seg, "stream", self.s, self.pal)
                L.draw_ford(self.d, seg, self.s, self.pal)
            elif f == "steep":
                low = b if self.m.elevation.get(b, 0) <= self.m.elevation.get(a, 0) else a
                L.draw_steep(self.d, seg, self.lay.center(low), self.s, self.pal)

    def roads(self) -> None:
        for road in sorted(self.m.roads, key=lambda r: r.kind != "path"):   # paths under roads
            pts = [self.lay.center(self.check_hex(h, f"road {road.name!r}")) for h in road.hexes]
            L.draw_road(self.d, pts, road.kind, self.s, self.pal)

    def bridges(self) -> None:
        for s in self.m.hexsides:
            if s.feature == "bridge":
                a, b = s.hexes
                L.hexside_segment(self.lay, a, b)          # raises for non-adjacent hexes
                L.draw_bridge(self.d, self.lay.center(a), self.lay.center(b), self.s, self.pal)

    def markers(self) -> None:
        for mk in self.m.markers:
            if mk.type == "bridge_destroyed" and len(mk.hexes) == 2:
                (x0, y0), (x1, y1) = self.lay.center(mk.hexes[0]), self.lay.center(mk.hexes[1])
                mx, my, r = (x0 + x1) / 2, (y0 + y1) / 2, self.s * 0.18
                w = max(2, round(self.s * 0.06))
                self.d.line((mx - r, my - r, mx + r, my + r), fill=(200, 20, 20), width=w)
                self.d.line((mx - r, my + r, mx + r, my - r), fill=(200, 20, 20), width=w)
                continue
            symbol = MARKER_SYMBOLS.get(mk.type)
            for h in mk.hexes:
                if symbol:
                    cx, cy = self.lay.center(self.check_hex(h, f"marker {mk.type}"))
                    symbol(self.d, cx, cy, self.s, self.pal, rng_for(mk.type + h))

    def labels(self) -> None:
        """Hex numbers at the top of every hex; place names below the centre on a light halo."""
        num_px = max(6, round(self.s * 0.24))
        top = self.s * (0.62 if self.grid.pointy else 0.66)
        for h in self.grid.hexes():
            cx, cy = self.lay.center(h)
            T.draw_centred(self.d, (cx, cy - top), h, num_px, self.pal["hex_number"], bold=False)
        name_px = max(6, round(self.s * 0.26))
        for h, name in sorted(self.m.names.items()):
            cx, cy = self.lay.center(self.check_hex(h, f"name {name!r}"))
            size = T.fitted_size(name, self.s * 2.6, name_px)
            self.d.text((cx, cy + self.s * 0.62), name, font=T.font(size), fill=self.pal["name"], anchor="ms",
                        stroke_width=max(1, round(size * 0.12)), stroke_fill=(255, 250, 235))


class _Framer:
    """Title and legend in the margins."""

    def __init__(self, p: _Painter, m: Margins, k: int):
        self.p, self.m, self.k = p, m, k

    def title(self) -> None:
        s = self.p.s
        size = T.fitted_size(self.p.m.title, self.p.lay.width, round(s * 0.62))
        T.draw_left(self.p.d, (self.m.left * self.k, (self.m.top * self.k - LINE_HEXES * s / 2)),
                    self.p.m.title, max(1, size), self.p.pal["title"])

    def legend(self) -> None:
        p, s = self.p, self.p.s
        x0 = self.m.left * self.k
        y0 = p.lay.origin[1] + p.lay.height + s * 0.9
        per_line = max(1, math.floor(p.lay.width / (LEGEND_ITEM_HEXES * s)))
        for i, (kind, ident) in enumerate(legend_entries(p.m)):
            row, col = divmod(i, per_line)
            cx = x0 + col * LEGEND_ITEM_HEXES * s + s * 0.45
            cy = y0 + row * LINE_HEXES * s
            self.swatch(kind, ident, cx, cy, s * 0.42)
            label = ident.replace("_", " ") if kind != "elevation" else f"elevation {int(ident):+d}"
            size = T.fitted_size(label, (LEGEND_ITEM_HEXES - 1.1) * s, round(s * 0.3))
            T.draw_left(p.d, (cx + s * 0.6, cy), label, max(1, size), p.pal["title"], bold=False)

    def swatch(self, kind: str, ident: str, cx: float, cy: float, r: float) -> None:
        p = self.p
        hexagon = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                   for a in range(0, 360, 60)]
        base = p.pal[ident] if kind == "terrain" else p.pal[p.m.default_terrain]
        if kind == "elevation":
            base = shaded(base, int(ident))
        p.d.polygon(hexagon, fill=base, outline=p.pal["grid"])
        if kind == "terrain" and author_symbol(p, ident, cx, cy, r * 1.05, rng_for("legend" + ident)):
            pass
        elif kind == "terrain" and ident in TERRAIN_SYMBOLS:
            TERRAIN_SYMBOLS[ident](p.d, cx, cy, r * 1.05, p.pal, rng_for("legend" + ident))
        elif kind == "hexside":
            seg = ((cx - r, cy + r * 0.3), (cx + r, cy - r * 0.3))
            if ident in WATER:
                L.draw_water(p.d, seg, ident, r * 1.6, p.pal)
            elif ident == "ford":
                L.draw_water(p.d, seg, "stream", r * 1.6, p.pal)
                L.draw_ford(p.d, seg, r * 1.6, p.pal)
            elif ident == "bridge":
                L.draw_bridge(p.d, (cx - r * 0.9, cy), (cx + r * 0.9, cy), r * 1.6, p.pal)
            elif ident == "steep":
                L.draw_steep(p.d, seg, (cx, cy + r), r * 1.6, p.pal)
        elif kind == "road":
            L.draw_road(p.d, [(cx - r, cy), (cx + r, cy)], ident, r * 1.6, p.pal)


def terrain_symbols(mapdef: MapDef) -> Mapping[str, str]:
    """The author's terrain symbols (``style.symbols``: terrain id -> a bundled symbol's name, such as
    ``woods``, or the path of an image, relative to the map file), when the definitions carry them."""
    return getattr(mapdef.style, "symbols", None) or {}


def author_symbol(p: "_Painter", terrain: str, cx: float, cy: float, size: float, rng: object) -> bool:
    """Draw the author's symbol for ``terrain`` centred on (cx, cy); False when the author gave none."""
    spec = terrain_symbols(p.m).get(terrain)
    if not spec:
        return False
    if spec in TERRAIN_SYMBOLS:
        TERRAIN_SYMBOLS[spec](p.d, cx, cy, size, p.pal, rng)          # type: ignore[arg-type]
        return True
    path = Path(spec)
    if not path.is_absolute() and p.m.source:
        path = Path(p.m.source.split(":")[0]).parent / path
    if not path.is_file():
        raise ValueError(f"map {p.m.id!r}: symbol for terrain {terrain!r}: no image {path} "
                         f"(or a bundled symbol: {', '.join(sorted(TERRAIN_SYMBOLS))})")
    side = max(1, int(round(size * 1.1)))             # the hex's inner square, below the hex number
    art = _symbol_art(str(path), side)
    p.surface.paste(art, (int(round(cx - side / 2)), int(round(cy - side / 2))))
    return True


@lru_cache(maxsize=64)
def _symbol_art(path: str, side: int) -> Image.Image:
    with Image.open(path) as src:
        art = src.convert("RGBA")
    art.thumbnail((side, side), Image.Resampling.LANCZOS)
    return art


def supersampling(mapdef: MapDef, hex_size: float | None = None) -> int:
    """The factor the map at ``hex_size`` is drawn at (1 for print-resolution maps)."""
    _, (w, h) = map_layout(mapdef, hex_size)
    return SUPERSAMPLE if w * h <= SUPERSAMPLE_LIMIT_PX else 1


def paint_map(mapdef: MapDef, layout: HexLayout, k: int, surface: Surface) -> None:
    """Every layer of the map, the title and the legend, drawn onto ``surface`` at ``k`` times ``layout``."""
    painter = _Painter(mapdef, _scaled(layout, k), surface)
    for layer in (painter.terrain, painter.grid_lines, painter.contours, painter.hexsides, painter.roads,
                  painter.bridges, painter.markers, painter.labels):
        layer()
    m = margins(mapdef, layout.size, HexLayout(layout.grid, layout.size).width)
    framer = _Framer(painter, m, k)
    framer.title()
    framer.legend()


def render_map(mapdef: MapDef, hex_size: float | None = None,
               strip_rows: int | None = None) -> tuple[Image.Image, HexLayout]:
    """The map as an RGB image at ``hex_size`` (centre-to-vertex pixels; default the map's style) and the
    layout that gives every hex centre in that image's pixels.  ``strip_rows``: rows of the supersampled
    canvas drawn at a time (default: map_strips' budget); any value gives the same image."""
    layout, (w, h) = map_layout(mapdef, hex_size)
    k = supersampling(mapdef, hex_size)
    recording = Recording()
    paint_map(mapdef, layout, k, recording)
    img = recording.render((w * k, h * k), Palette(mapdef.style.colours)["background"], k, strip_rows)
    return img, layout
