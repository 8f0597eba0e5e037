"""The map on paper: one page at its physical size, and the same map tiled onto Letter/A4 pages.

Tiles overlap so they can be trimmed and glued; registration crosses are placed at fixed MAP positions
inside the overlaps, so the same cross appears on both neighbouring tiles and lining the crosses up
assembles the map exactly.  Every tile page shows the one embedded map image through a clip rectangle,
so the PDF holds the picture once however many tiles there are."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image

from modulebuilder.render.pdf import Canvas, PdfDocument
from modulebuilder.render.physical import POINTS_PER_INCH, paper_points
from modulebuilder.render.sheet_layout import Rect

CROSS_ARM_PT = 9.0


def image_points(img: Image.Image, dpi: float) -> tuple[float, float]:
    """Physical size of a raster in points."""
    return img.width / dpi * POINTS_PER_INCH, img.height / dpi * POINTS_PER_INCH


def full_map_pdf(img: Image.Image, dpi: float) -> bytes:
    """One page exactly the size of the map."""
    w, h = image_points(img, dpi)
    doc = PdfDocument()
    doc.add_image("Map", img)
    doc.new_page(w, h).image("Map", 0, 0, w, h)
    return doc.tobytes()


@dataclass(frozen=True)
class Tiling:
    """How a map of ``map_w`` x ``map_h`` points is cut into pages."""
    paper: str
    map_w: float
    map_h: float
    margin_in: Fraction = Fraction(3, 8)
    overlap_in: Fraction = Fraction(1, 2)

    @property
    def area(self) -> Rect:
        """The printable window of every page (points, page coordinates)."""
        pw, ph = paper_points(self.paper)
        m = float(self.margin_in) * POINTS_PER_INCH
        return Rect(m, m, pw - 2 * m, ph - 2 * m)

    @property
    def overlap(self) -> float:
        return float(self.overlap_in) * POINTS_PER_INCH

    @property
    def step(self) -> tuple[float, float]:
        """Map distance between the windows of neighbouring tiles."""
        return self.area.w - self.overlap, self.area.h - self.overlap

    @property
    def cols(self) -> int:
        return max(1, math.ceil((self.map_w - self.overlap) / self.step[0] - 1e-9))

    @property
    def rows(self) -> int:
        return max(1, math.ceil((self.map_h - self.overlap) / self.step[1] - 1e-9))

    def window(self, row: int, col: int) -> Rect:
        """The part of the map (map coordinates, points) shown on tile (row, col)."""
        sx, sy = self.step
        return Rect(col * sx, row * sy, self.area.w, self.area.h)

    def crosses(self, row: int, col: int) -> list[tuple[float, float]]:
        """Registration crosses on tile (row, col), in map coordinates: the centres of the overlap strips
        on its sides, at the tile's quarter points; each also lies on the neighbouring tile."""
        win = self.window(row, col)
        half = self.overlap / 2
        pts: list[tuple[float, float]] = []
        if col > 0:
            pts += [(win.x + half, win.y + f * win.h) for f in (0.25, 0.75)]
        if col < self.cols - 1:
            pts += [(win.right - half, win.y + f * win.h) for f in (0.25, 0.75)]
        if row > 0:
            pts += [(win.x + f * win.w, win.y + half) for f in (0.25, 0.75)]
        if row < self.rows - 1:
            pts += [(win.x + f * win.w, win.bottom - half) for f in (0.25, 0.75)]
        return sorted(p for p in pts if 0 < p[0] < self.map_w and 0 < p[1] < self.map_h)


def _cross(c: Canvas, x: float, y: float) -> None:
    c.line(x - CROSS_ARM_PT, y, x + CROSS_ARM_PT, y, width=0.5)
    c.line(x, y - CROSS_ARM_PT, x, y + CROSS_ARM_PT, width=0.5)
    c.circle(x, y, CROSS_ARM_PT * 0.45, width=0.5)


def tiled_map_pdf(img: Image.Image, dpi: float, paper: str, margin_in: Fraction = Fraction(3, 8),
                  overlap_in: Fraction = Fraction(1, 2), title: str = "") -> bytes:
    """The map over as many pages as it needs, row by row, each with its crosses and its place in the grid."""
    mw, mh = image_points(img, dpi)
    t = Tiling(paper, mw, mh, margin_in, overlap_in)
    pw, ph = paper_points(paper)
    doc = PdfDocument()
    doc.add_image("Map", img)
    a = t.area
    for row in range(t.rows):
        for col in range(t.cols):
            c = doc.new_page(pw, ph)
            win = t.window(row, col)
            ox, oy = a.x - win.x, a.y - win.y              # page position of the map's top-left corner
            c.image_clipped("Map", (a.x, a.y, a.w, a.h), ox, oy, mw, mh)
            c.rect(a.x, a.y, min(a.w, mw - win.x), min(a.h, mh - win.y), width=0.25, grey=0.5)
            # Where the neighbour's window starts: trim one tile along this line and lay it on the other.
            if col < t.cols - 1:
                x = a.x + t.step[0]
                c.line(x, a.y - 8, x, a.y - 2, width=0.5)
                c.line(x, a.bottom + 2, x, a.bottom + 8, width=0.5)
            if row < t.rows - 1:
                y = a.y + t.step[1]
                c.line(a.x - 8, y, a.x - 2, y, width=0.5)
                c.line(a.right + 2, y, a.right + 8, y, width=0.5)
            for x, y in t.crosses(row, col):
                _cross(c, ox + x, oy + y)
            c.text(pw / 2, ph - 10, f"{title}  tile row {row + 1}/{t.rows}, column {col + 1}/{t.cols}  "
                   f"(overlap {overlap_in}\"; align the crosses)", size=6, align="centre")
    return doc.tobytes()
