"""The author's map art: where the hex grid lies on a painted map, from the pixel centres of two hexes.

The grid's orientation, numbering and extent are the map's (``grid:``); the art only fixes the scale and
the offset.  A hex centre is linear in both: ``centre(h) = origin + size * unit(h)``, where ``unit`` is the
centre of ``h`` in the layout of hexes of size 1 with its box at (0, 0).  Two centres give the size (the
least-squares scale along the line between them) and the origin; what is left over says whether the two
points can be centres of regular hexes at all (a typo in a pixel, or the wrong hex named).
"""
from __future__ import annotations

import math
from typing import Sequence

from .hexgrid import HexGrid, HexLayout

Point = tuple[float, float]

# How far (pixels, or this fraction of a hex) the second centre may be from where regular hexes put it: a
# painted grid is measured by hand, to a pixel or two.
TOLERANCE_PX = 2.0
TOLERANCE_HEX = 0.05


class ArtFitError(ValueError):
    """The two centres cannot place the grid (same hex, reversed, or not regular hexes)."""


def fit_layout(grid: HexGrid, hexes: Sequence[tuple[str, Point]]) -> HexLayout:
    """The layout whose hex centres are the art's: ``hexes`` is ((hex, (x, y)), (hex, (x, y)))."""
    (ha, pa), (hb, pb) = hexes
    if ha == hb:
        raise ArtFitError(f"the two hexes must differ (both are {ha!r})")
    unit = HexLayout(grid, 1.0)
    ua, ub = unit.center(ha), unit.center(hb)
    du = (ub[0] - ua[0], ub[1] - ua[1])
    dp = (pb[0] - pa[0], pb[1] - pa[1])
    size = (du[0] * dp[0] + du[1] * dp[1]) / (du[0] ** 2 + du[1] ** 2)
    if size <= 0:
        raise ArtFitError(f"hex {hb!r} lies the other way from {ha!r} on the grid than on the art "
                          "(x grows to the right, y down from the image's top-left corner)")
    expected = (pa[0] + size * du[0], pa[1] + size * du[1])
    off = math.hypot(pb[0] - expected[0], pb[1] - expected[1])
    if off > max(TOLERANCE_PX, TOLERANCE_HEX * size):
        raise ArtFitError(f"regular hexes of {size:.1f} px (centre to corner) through {ha!r} at "
                          f"{_px(pa)} would put {hb!r} at {_px(expected)}, {off:.0f} px from {_px(pb)}: check "
                          "the pixels and the hex numbers")
    origin = ((pa[0] + pb[0] - size * (ua[0] + ub[0])) / 2, (pa[1] + pb[1] - size * (ua[1] + ub[1])) / 2)
    return HexLayout(grid, size, origin)


def scaled(layout: HexLayout, factor: float) -> HexLayout:
    """The same layout on the art resized by ``factor``."""
    return HexLayout(layout.grid, layout.size * factor, (layout.origin[0] * factor, layout.origin[1] * factor))


def outside(layout: HexLayout, width: int, height: int) -> list[str]:
    """Hexes whose centres lie outside an image of ``width`` x ``height`` pixels."""
    out = []
    for h in layout.grid.hexes():
        x, y = layout.center(h)
        if not (0 <= x < width and 0 <= y < height):
            out.append(h)
    return out


def _px(p: Point) -> str:
    return f"({p[0]:.0f}, {p[1]:.0f})"
