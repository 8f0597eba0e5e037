"""Geometry of a counter sheet: a fixed grid of slots on the paper, in points from the page's top left.

Every slot sits at a position computed from its row and column directly (never by adding pitches one after
another), so the last counter on a sheet is exactly where the first one's geometry says.  A slot's position
does not depend on how many counters the sheet holds, so a partly filled sheet lines up with a cutter.

Two ways to get backs behind fronts:

* duplex: the back page is the front page turned over its long (vertical) edge, so the back of the slot
  in column ``c`` is printed in column ``cols - 1 - c`` of the same row;
* gutter fold: fronts on the left half of a page, backs on the right half mirrored about the fold line in
  the middle, so folding the page along that line puts every back behind its front.

Two-hex counters are printed on a grid of their own (``span`` 2: every cell two counter sides wide), so
both ends of every counter have crop marks at their cut lines.  (They used to take two neighbouring
slots of the one-hex grid, whose right-hand crop mark lies two bleeds beyond the counter's edge: 1/8" at
the default bleed.)  A grid cell's back is the cell mirrored, so the art is never split."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Literal

from modulebuilder.render.physical import POINTS_PER_INCH, mm_to_points, paper_points

Side = Literal["front", "back"]
# Crop marks: a short hairline beginning this far outside the outermost bleed, in points.
CROP_GAP_PT = 3.0
CROP_LENGTH_PT = 12.0
CROP_WIDTH_PT = 0.25          # a hairline
# Gutter-fold: clear space on each side of the fold line (points), enough for crop marks.
FOLD_GUTTER_PT = 2 * (CROP_GAP_PT + CROP_LENGTH_PT) + 6


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def contains(self, other: "Rect", tol: float = 1e-6) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol and other.right <= self.right + tol
                and other.bottom <= self.bottom + tol)

    def intersects(self, other: "Rect") -> bool:
        return not (other.x >= self.right or other.right <= self.x or other.y >= self.bottom or other.bottom <= self.y)


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class SheetGeometry:
    """A grid of ``rows`` x ``cols`` counter slots on one page (or one half of a gutter-fold page).
    Derived sizes are cached properties: a sheet asks for them thousands of times."""
    paper: str
    counter_in: Fraction
    bleed_in: Fraction
    margin_in: Fraction
    layout: Literal["duplex", "gutter"] = "duplex"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    span: int = 1                    # counter sides per cell: 2 for the grid of two-hex counters
    gap_in: Fraction | None = None   # between neighbouring cut lines; default 2 x bleed (bleeds abut)
    trim_pt: tuple[float, float] | None = None   # a commercial sheet's trimmed size (default: the paper)
    slug_in: Fraction = Fraction(0)  # media beyond the trim on every side (crop marks, colour bars)

    def for_span(self, span: int) -> "SheetGeometry":
        """The same sheet with cells ``span`` counter sides wide."""
        return SheetGeometry(self.paper, self.counter_in, self.bleed_in, self.margin_in, self.layout,
                             self.back_offset_mm, span, self.gap_in, self.trim_pt, self.slug_in)

    @cached_property
    def gap_pt(self) -> float:
        return float(2 * self.bleed_in if self.gap_in is None else self.gap_in) * POINTS_PER_INCH

    @cached_property
    def trim(self) -> Rect:
        """The finished sheet on the page: the whole paper for home printing, inside the slug otherwise."""
        slug = float(self.slug_in) * POINTS_PER_INCH
        w, h = self.trim_pt or paper_points(self.paper)
        return Rect(slug, slug, w, h)

    @cached_property
    def pitch_x_pt(self) -> float:
        """Horizontal distance between the same edge of neighbouring cells."""
        return float(self.span * self.counter_in) * POINTS_PER_INCH + self.gap_pt

    @cached_property
    def page(self) -> tuple[float, float]:
        if self.trim_pt is None and not self.slug_in:
            return paper_points(self.paper)
        t = self.trim
        return t.w + 2 * t.x, t.h + 2 * t.y

    @cached_property
    def counter_pt(self) -> float:
        return float(self.counter_in) * POINTS_PER_INCH

    @cached_property
    def bleed_pt(self) -> float:
        return float(self.bleed_in) * POINTS_PER_INCH

    @cached_property
    def pitch_pt(self) -> float:
        """Distance between the same edge of neighbouring slots: by default bleeds abut, so cut lines are
        ``2 * bleed`` apart and the cutter never has to hit a shared line; a die-cut template sets the gap."""
        return float(self.counter_in) * POINTS_PER_INCH + self.gap_pt

    @cached_property
    def edge_bleed_pt(self) -> float:
        """Bleed between neighbours: at most half the gap, so no face's bleed covers its neighbour."""
        return min(self.bleed_pt, self.gap_pt / 2)

    @cached_property
    def _area(self) -> Rect:
        """Where fronts may go: inside the margins (left half only for gutter fold)."""
        t = self.trim
        # Crop marks need room outside the grid: in the margin, unless the slug beyond the trim holds them.
        marks = max(0.0, CROP_GAP_PT + CROP_LENGTH_PT - float(self.slug_in) * POINTS_PER_INCH)
        m = float(self.margin_in) * POINTS_PER_INCH + marks + (self.bleed_pt - self.gap_pt / 2 if self.gap_in is not None else 0)
        if self.layout == "gutter":
            return Rect(t.x + m, t.y + m, t.w / 2 - FOLD_GUTTER_PT / 2 - m, t.h - 2 * m)
        return Rect(t.x + m, t.y + m, t.w - 2 * m, t.h - 2 * m)

    @cached_property
    def cols(self) -> int:
        return max(0, math.floor(self._area.w / self.pitch_x_pt + 1e-9))

    @cached_property
    def rows(self) -> int:
        return max(0, math.floor(self._area.h / self.pitch_pt + 1e-9))

    @cached_property
    def per_page(self) -> int:
        return self.rows * self.cols

    @cached_property
    def grid_origin(self) -> tuple[float, float]:
        """Top-left of the outer bleed of slot (0, 0).  Duplex grids are centred on the page, so the
        mirrored back grid coincides with the front grid; gutter grids hug the fold line."""
        pw, ph = self.page
        gw, gh = self.cols * self.pitch_x_pt, self.rows * self.pitch_pt
        y = (ph - gh) / 2
        if self.layout == "gutter":
            return pw / 2 - FOLD_GUTTER_PT / 2 - gw, y
        return (pw - gw) / 2, y

    def slot(self, row: int, col: int, span: int = 1) -> Rect:
        """Cut box (the counter itself, without bleed) of the front cell at ``row``, ``col``: one cell,
        ``self.span`` counter sides wide (``span`` is kept for callers that pass an item's span, which on
        its own grid is one cell)."""
        if not (0 <= row < self.rows and 0 <= col < self.cols and span >= 1):
            raise IndexError(f"slot ({row}, {col}) outside a {self.rows}x{self.cols} sheet")
        ox, oy = self.grid_origin
        half = self.gap_pt / 2
        return Rect(ox + half + col * self.pitch_x_pt, oy + half + row * self.pitch_pt,
                    self.counter_pt * self.span, self.counter_pt)

    def with_bleed(self, r: Rect) -> Rect:
        b = self.bleed_pt
        return Rect(r.x - b, r.y - b, r.w + 2 * b, r.h + 2 * b)

    def back_slot(self, row: int, col: int, span: int = 1) -> Rect:
        """Cut box of the back of front slot (row, col): mirrored about the page's vertical centre line
        (duplex, on the back page) or about the fold line (gutter, on the same page), then shifted by the
        back offset (duplex only: it corrects the printer's drift between the two sides of a sheet)."""
        f = self.slot(row, col, span)
        pw, _ = self.page
        x = pw - f.x - f.w                                   # mirror about x = page width / 2 (= fold)
        if self.layout == "gutter":
            return Rect(x, f.y, f.w, f.h)
        dx, dy = (mm_to_points(v) for v in self.back_offset_mm)
        return Rect(x + dx, f.y + dy, f.w, f.h)

    def back_column(self, col: int) -> int:
        """Column (in the back page's own grid) where the back of front column ``col`` is printed."""
        return self.cols - 1 - col

    def grid_box(self, side: Side = "front") -> Rect:
        """Outer edge of all bleeds of one grid (front or back)."""
        first = self.with_bleed(self.slot(0, 0) if side == "front" else self.back_slot(0, self.cols - 1))
        if self.gap_in is None:
            return Rect(first.x, first.y, self.cols * self.pitch_x_pt, self.rows * self.pitch_pt)
        extra = 2 * self.bleed_pt - self.gap_pt
        return Rect(first.x, first.y, self.cols * self.pitch_x_pt + extra, self.rows * self.pitch_pt + extra)

    def crop_marks(self, side: Side = "front") -> list[Segment]:
        """Hairlines continuing every cut line outward beyond the grid's outer bleed, in the margins,
        so they never touch counter art.  On a gutter sheet the marks along the fold side are omitted
        (the two halves share that gutter)."""
        box = self.grid_box(side)
        xs: list[float] = []
        ys: list[float] = []
        for c in range(self.cols):
            r = self.slot(0, c) if side == "front" else self.back_slot(0, self.back_column(c))
            xs += [r.x, r.right]
        for row in range(self.rows):
            r = self.slot(row, 0) if side == "front" else self.back_slot(row, 0)
            ys += [r.y, r.bottom]
        g, n = CROP_GAP_PT, CROP_LENGTH_PT
        marks = []
        for x in xs:
            marks.append(Segment(x, box.y - g - n, x, box.y - g))
            marks.append(Segment(x, box.bottom + g, x, box.bottom + g + n))
        fold_side = {"front": "right", "back": "left"}[side] if self.layout == "gutter" else None
        for y in ys:
            if fold_side != "left":
                marks.append(Segment(box.x - g - n, y, box.x - g, y))
            if fold_side != "right":
                marks.append(Segment(box.right + g, y, box.right + g + n, y))
        return marks

    def fold_line(self) -> Segment:
        pw, ph = self.page
        return Segment(pw / 2, 0.0, pw / 2, ph)
