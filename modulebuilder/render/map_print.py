"""The map on paper: one page at its physical size, and the same map tiled onto Letter/A4 pages.

Tiles overlap so they can be trimmed and glued; registration crosses are placed at fixed MAP positions
inside the overlaps, so the same cross appears on both neighbouring tiles and lining the crosses up
assembles the map exactly.  Every tile page shows the one embedded map image through a clip rectangle,
so the PDF holds the picture once however many tiles there are.

CMYK (``modulebuilder map --cmyk``): the map's pixels are converted the way the counter sheets convert
author art (render/cmyk.py, ``image_for``): sRGB to the output profile -- FOGRA39 unless the print shop
gives its own -- by Little CMS, relative colorimetric with black-point compensation, and the profile is the
document's output intent.  Relative colorimetric because a map is almost all pale, in-gamut tints
(parchment, fields, woods) that should print as they look on screen; a perceptual rendering would dull
all of them to make room for the few out-of-gamut blues of the rivers, which relative colorimetric clips
to the nearest printable blue instead.  Black-point compensation maps the darkest browns of the names and
contours to the press's darkest rather than clipping them.  Unlike the counters' vector colours, greys are
not moved to the black plate: the raster's anti-aliased edges blend neutral and coloured pixels, and
splitting them between plates would show as fringes.  The marks drawn around the tiles (trim lines,
crosses, captions) are vector greys on the black plate alone.  The conversion runs a band of rows at a
time and the CMYK pixels are compressed as they come, so the 300 ppi map is never held twice (the RGB
pixels too, in the same bytes as compressing them whole)."""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Union

from PIL import Image

from modulebuilder.render.pdf import RGB_SPACE, Canvas, ColourSpace, EncodedImage, PdfDocument
from modulebuilder.render.physical import POINTS_PER_INCH, paper_points
from modulebuilder.render.sheet_layout import Rect

CROSS_ARM_PT = 9.0
# A last row or column of tiles that adds less than this share of a tile's step is a sliver (a column of hexes
# on a page of its own): the tiles of that direction are then spread evenly, overlapping more, instead.
SLIVER = 0.25
# Rows of the map converted and compressed at a time (a 300 ppi Borodino is 8466 pixels wide: 9 MB a band).
BAND_ROWS = 256
MapArt = Union[Image.Image, EncodedImage]


def image_points(img: MapArt, dpi: float) -> tuple[float, float]:
    """Physical size of a raster in points."""
    return img.width / dpi * POINTS_PER_INCH, img.height / dpi * POINTS_PER_INCH


def _banded(img: Image.Image, band: Callable[[Image.Image], Image.Image], colours: int, level: int) -> EncodedImage:
    """``img``'s pixels, each band of rows passed through ``band``, compressed as they come: the same bytes
    as compressing them all at once (zlib's output does not depend on how its input is cut), without a
    second copy of a 300 ppi map in memory."""
    packer = zlib.compressobj(level)
    parts = []
    for y in range(0, img.height, BAND_ROWS):
        parts.append(packer.compress(band(img.crop((0, y, img.width, min(img.height, y + BAND_ROWS)))).tobytes()))
    parts.append(packer.flush())
    return EncodedImage(img.width, img.height, colours, b"".join(parts))


def cmyk_art(img: Image.Image, colours: ColourSpace, level: int = 3) -> EncodedImage:
    """The map's pixels in the document's CMYK (see the module docstring), compressed band by band."""
    from modulebuilder.render.cmyk import image_for
    return _banded(img, lambda part: image_for(colours, part), 4, level)


def print_art(img: Image.Image, colours: ColourSpace = RGB_SPACE) -> MapArt:
    """What the print PDFs embed, made once for both: the RGB pixels as ``pdf.encode_image`` compresses
    them (the same bytes), or the CMYK ones."""
    if colours.cmyk:
        return cmyk_art(img, colours)
    if img.mode != "RGB":
        return img
    return _banded(img, lambda part: part, 3, 3)


def full_map_pdf(img: MapArt, dpi: float, colours: ColourSpace = RGB_SPACE) -> bytes:
    """One page exactly the size of the map."""
    w, h = image_points(img, dpi)
    doc = PdfDocument(colours)
    doc.add_image("Map", _art(img, colours))
    doc.new_page(w, h).image("Map", 0, 0, w, h)
    return doc.tobytes()


def _art(img: MapArt, colours: ColourSpace) -> MapArt:
    if colours.cmyk and isinstance(img, Image.Image):
        return cmyk_art(img, colours)
    if not colours.cmyk and isinstance(img, EncodedImage) and img.colours == 4:
        raise ValueError("CMYK map pixels in an RGB document: pass the document's colours")
    return img


@dataclass(frozen=True)
class Tiling:
    """How a map of ``map_w`` x ``map_h`` points is cut into pages (``landscape``: the paper turned)."""
    paper: str
    map_w: float
    map_h: float
    margin_in: Fraction = Fraction(3, 8)
    overlap_in: Fraction = Fraction(1, 2)
    landscape: bool = False

    @property
    def page(self) -> tuple[float, float]:
        pw, ph = paper_points(self.paper)
        return (ph, pw) if self.landscape else (pw, ph)

    @property
    def area(self) -> Rect:
        """The printable window of every page (points, page coordinates)."""
        pw, ph = self.page
        m = float(self.margin_in) * POINTS_PER_INCH
        return Rect(m, m, pw - 2 * m, ph - 2 * m)

    @property
    def overlap(self) -> float:
        """The least overlap of neighbouring tiles (more where a sliver is avoided: ``overlaps``)."""
        return float(self.overlap_in) * POINTS_PER_INCH

    def _count(self, length: float, window: float) -> int:
        return max(1, math.ceil((length - self.overlap) / (window - self.overlap) - 1e-9))

    def _step(self, length: float, window: float) -> float:
        step = window - self.overlap
        n = self._count(length, window)
        fresh = length - (n - 1) * step - self.overlap          # what the last tile adds
        if n >= 2 and fresh < SLIVER * step:
            # n windows spread evenly over the map, in whole points as the usual step is, so neighbouring
            # tiles place the map's pixels alike
            return float(math.ceil((length - window) / (n - 1)))
        return step

    @property
    def step(self) -> tuple[float, float]:
        """Map distance between the windows of neighbouring tiles."""
        return self._step(self.map_w, self.area.w), self._step(self.map_h, self.area.h)

    @property
    def overlaps(self) -> tuple[float, float]:
        """How much neighbouring tiles overlap across (x) and down (y)."""
        return self.area.w - self.step[0], self.area.h - self.step[1]

    @property
    def cols(self) -> int:
        return self._count(self.map_w, self.area.w)

    @property
    def rows(self) -> int:
        return self._count(self.map_h, self.area.h)

    def window(self, row: int, col: int) -> Rect:
        """The part of the map (map coordinates, points) shown on tile (row, col)."""
        sx, sy = self.step
        return Rect(col * sx, row * sy, self.area.w, self.area.h)

    def _seam(self, axis: int, k: int) -> float:
        """The middle of the overlap between tile ``k`` and tile ``k + 1`` across (0) or down (1), computed
        one way for both tiles so they print the same cross."""
        window = self.area.w if axis == 0 else self.area.h
        return k * self.step[axis] + (window + self.step[axis]) / 2

    def crosses(self, row: int, col: int) -> list[tuple[float, float]]:
        """Registration crosses on tile (row, col), in map coordinates: the centres of the overlap strips
        on its sides, at the quarter points of the part of each seam the map covers (the last row's and
        column's windows reach past the map, and a seam needs two crosses to be lined up square); each also
        lies on the neighbouring tile."""
        win = self.window(row, col)
        bottom, right = min(win.bottom, self.map_h), min(win.right, self.map_w)
        ys = [win.y + f * (bottom - win.y) for f in (0.25, 0.75)]
        xs = [win.x + f * (right - win.x) for f in (0.25, 0.75)]
        pts: list[tuple[float, float]] = []
        if col > 0:
            pts += [(self._seam(0, col - 1), y) for y in ys]
        if col < self.cols - 1:
            pts += [(self._seam(0, col), y) for y in ys]
        if row > 0:
            pts += [(x, self._seam(1, row - 1)) for x in xs]
        if row < self.rows - 1:
            pts += [(x, self._seam(1, row)) for x in xs]
        return sorted(p for p in pts if 0 < p[0] < self.map_w and 0 < p[1] < self.map_h)


def _cross(c: Canvas, x: float, y: float) -> None:
    c.line(x - CROSS_ARM_PT, y, x + CROSS_ARM_PT, y, width=0.5)
    c.line(x, y - CROSS_ARM_PT, x, y + CROSS_ARM_PT, width=0.5)
    c.circle(x, y, CROSS_ARM_PT * 0.45, width=0.5)


def tiled_map_pdf(img: MapArt, dpi: float, paper: str, margin_in: Fraction = Fraction(3, 8),
                  overlap_in: Fraction = Fraction(1, 2), title: str = "", colours: ColourSpace = RGB_SPACE,
                  landscape: bool = False) -> bytes:
    """The map over as many pages as it needs, row by row, each with its crosses and its place in the grid."""
    mw, mh = image_points(img, dpi)
    t = Tiling(paper, mw, mh, margin_in, overlap_in, landscape)
    pw, ph = t.page
    spread = any(abs(o - t.overlap) > 1e-6 for o in t.overlaps)
    overlap_text = f"overlap {overlap_in}\"" if not spread else \
        f"overlap {t.overlaps[0] / POINTS_PER_INCH:.2f}\" across, {t.overlaps[1] / POINTS_PER_INCH:.2f}\" down"
    doc = PdfDocument(colours)
    doc.add_image("Map", _art(img, colours))
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
                   f"({overlap_text}; align the crosses)", size=6, align="centre")
    return doc.tobytes()


def map_print_pdfs(img: Image.Image, dpi: float, paper: str, map_id: str, title: str = "",
                   colours: ColourSpace = RGB_SPACE, landscape: bool = False) -> list[tuple[str, bytes]]:
    """(file name, bytes) of the full-size map PDF and the tiled one on ``paper`` (turned with
    ``landscape``), in ``colours`` (the pixels converted once for both)."""
    art = print_art(img, colours)
    turned = "-landscape" if landscape else ""
    return [(f"{map_id}-full.pdf", full_map_pdf(art, dpi, colours)),
            (f"{map_id}-tiles-{paper}{turned}.pdf",
             tiled_map_pdf(art, dpi, paper, title=title, colours=colours, landscape=landscape))]
