"""Our hex grid (DESIGN §3) as VASSAL ``HexGrid`` + ``HexGridNumbering`` attributes.

VASSAL's model (vassal.md §6, HexGridNumbering.java): hexes lie on straight *lines* ``dx`` apart, hexes
on a line are ``dy`` apart, line 0 / position 0 is centred at ``(x0, y0)``, and **odd raw lines sit half
a hex further along** (``+dy/2``).  For a flat grid the lines are screen columns; ``sideways="true"``
(pointy grid) transposes every computation, so the lines become screen rows and ``x0`` is a *y* offset.
The location name is ``pad(rawLine + hOff)`` and ``pad(rawPosition + vOff)``, line part first when
``first="H"``.

Our maps: lines are printed columns (flat) or rows (pointy); the lines whose printed number has the
``shifted`` parity sit half a hex lower (flat) or to the right (pointy).  So:

* raw line = printed line number - hOff, with hOff chosen so that exactly the shifted lines are odd
  (first line shifted -> it is raw line 1 and ``x0`` lies one line before it, possibly negative);
* raw position = printed number along the line - vOff, vOff = the first printed number (row 00 ok);
* the name must read column-then-row: flat -> ``first="H"`` (line = column); pointy -> ``first="V"``
  (the "row" part is the printed column).

The attributes are derived from the rendered layout's own centres, so the module follows the image even
where its origin is fractional (``x0``/``y0`` are ints in VASSAL: the grid is then at most half a pixel
off, far from any hex boundary).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from ..model import Grid

Centre = Callable[[str], tuple[float, float]]


@dataclass(frozen=True)
class VassalHexGrid:
    dx: float          # distance between lines (in transposed space when sideways)
    dy: float          # distance between hexes along a line
    x0: int
    y0: int
    sideways: bool
    h_off: int         # printed number of raw line 0
    v_off: int         # printed number of raw position 0
    first: str         # "H": line part first in the name, "V": position part first
    leading: int       # zero padding: digits - 1

    def grid_attributes(self) -> dict[str, str]:
        """Attributes of ``VASSAL.build.module.map.boardPicker.board.HexGrid``."""
        return {
            "color": "0,0,0", "cornersLegal": "false", "dotsVisible": "false", "edgesLegal": "false",
            "dx": repr(self.dx), "dy": repr(self.dy), "sideways": _bool(self.sideways), "snapTo": "true",
            # The rendered map already draws the hexes; VASSAL's own outline would double them.
            "visible": "false", "x0": str(self.x0), "y0": str(self.y0),
        }

    def numbering_attributes(self) -> dict[str, str]:
        """Attributes of ``...board.mapgrid.HexGridNumbering``."""
        lead = str(self.leading)
        return {
            "color": "0,0,0", "first": self.first, "fontSize": "9", "hDescend": "false", "hDrawOff": "0",
            "hLeading": lead, "hOff": str(self.h_off), "hType": "N", "locationFormat": "$gridLocation$",
            "rotateText": "0", "sep": "", "stagger": "false", "vDescend": "false", "vDrawOff": "0",
            "vLeading": lead, "vOff": str(self.v_off), "vType": "N", "visible": "false",
        }


def _bool(b: bool) -> str:
    return "true" if b else "false"


def _name(grid: Grid, col: int, row: int) -> str:
    d = grid.digits
    return f"{col:0{d}d}{row:0{d}d}"


def vassal_grid(grid: Grid, centre: Centre) -> VassalHexGrid:
    """The VASSAL grid whose hexes coincide with ``centre`` (name -> pixel) of the rendered map."""
    sideways = grid.orientation == "pointy"

    def t_centre(line: int, pos: int) -> tuple[float, float]:
        # Transposed space: x across lines, y along a line.
        if sideways:
            x, y = centre(_name(grid, pos, line))
            return y, x
        return centre(_name(grid, line, pos))

    if sideways:
        first_line, n_lines, first_pos, n_pos = grid.first_row, grid.rows, grid.first_column, grid.columns
    else:
        first_line, n_lines, first_pos, n_pos = grid.first_column, grid.columns, grid.first_row, grid.rows
    ax, ay = t_centre(first_line, first_pos)
    dx = dy = None
    if n_lines >= 2:
        bx, by = t_centre(first_line + 1, first_pos)
        dx = bx - ax
    if n_pos >= 2:
        dy = t_centre(first_line, first_pos + 1)[1] - ay
    # One-line or one-position maps: regular hexes fix the missing spacing.
    if dx is None and dy is None:
        raise ValueError("a one-hex map has no spacing to derive a VASSAL grid from")
    dx = dx if dx is not None else dy * math.sqrt(3) / 2
    dy = dy if dy is not None else dx * 2 / math.sqrt(3)
    if n_lines >= 2:
        first_is_low = by < ay    # the second line is higher, so the first one is the shifted one
    else:
        first_is_low = (first_line % 2) == (0 if grid.shifted == "even" else 1)
    h_off = first_line - 1 if first_is_low else first_line
    x0 = ax - dx * (first_line - h_off)
    y0 = ay - (dy / 2 if first_is_low else 0.0)
    return VassalHexGrid(dx=dx, dy=dy, x0=_java_round(x0), y0=_java_round(y0), sideways=sideways,
                         h_off=h_off, v_off=first_pos, first="V" if sideways else "H",
                         leading=grid.digits - 1)


def _java_round(v: float) -> int:
    return math.floor(v + 0.5)


def location_name(g: VassalHexGrid, x: float, y: float) -> str:
    """The name VASSAL's ``Map.locationName`` gives board point (x, y) (HexGridNumbering, no descend)."""
    if g.sideways:
        x, y = y, x
    line = math.floor((x - g.x0) / g.dx + 0.5)
    pos = _java_round((y - g.y0) / g.dy) if line % 2 == 0 else _java_round((y - g.y0 - g.dy / 2) / g.dy)
    line_part, pos_part = _pad(line + g.h_off, g.leading), _pad(pos + g.v_off, g.leading)
    return line_part + pos_part if g.first == "H" else pos_part + line_part


def _pad(v: int, leading: int) -> str:
    # RegularGridNumbering.getName: a '-' for negatives, then zeros while v < 10**leading (leading counts down).
    s = "-" if v < 0 else ""
    v = abs(v)
    while leading > 0 and v < 10 ** leading:
        s += "0"
        leading -= 1
    return s + str(v)


def centre_point(g: VassalHexGrid, name: str, digits: int) -> tuple[int, int]:
    """The engine's own centre of hex ``name`` (HexGridNumbering.getCenterPoint), where its snap lands."""
    col, row = int(name[:digits]), int(name[digits:])
    line, pos = (row, col) if g.sideways else (col, row)
    raw_line, raw_pos = line - g.h_off, pos - g.v_off
    tx = int(g.dx * raw_line) + g.x0
    ty = int(g.dy * raw_pos) if raw_line % 2 == 0 else int(raw_pos * g.dy + g.dy / 2)
    ty += g.y0
    return (ty, tx) if g.sideways else (tx, ty)
