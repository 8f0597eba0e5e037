"""Hex geometry: names, neighbours, facings, distance, lines and pixel layout (DESIGN §3).

Standard library only, importable on its own; everything that reasons about hexes (renderers, the VASSAL
grid, the referee's movement and line of sight) builds on this module.

Conventions
===========

Names
    A hex is named by its printed number ``CCRR``: column then row, each zero-padded to ``digits``
    (2 by default, 3 on maps that need it).  A map says its first column and first row; row (or column)
    ``00`` may exist.  Printed column numbers grow to the right, row numbers downward.

Orientation and shift
    ``pointy``: a vertex at the top; rows are straight horizontal lines and ``shifted: even|odd`` says
    which rows, by their *printed* number, sit half a hex to the right.
    ``flat``: a flat side at the top; columns are straight vertical lines and ``shifted`` says which
    columns, by printed number, sit half a hex lower.  Because the parity is that of the printed number,
    on a map whose rows start at 00 row 00 is even.

Clock hours
    Directions and facings are clock hours 1..12 (12, never 0), independent of orientation.  Pointy:
    neighbours at 1, 3, 5, 7, 9, 11 and vertices at 12, 2, 4, 6, 8, 10.  Flat: neighbours at
    12, 2, 4, 6, 8, 10 and vertices at 1, 3, 5, 7, 9, 11.

Facing
    A unit faces a vertex ``f``: front = neighbours at f-1 and f+1, flank = f-3 and f+3,
    rear = f-5 and f+5 (hours modulo 12).

Cube coordinates
    Printed (column, row) pairs map to cube coordinates (q + r + s == 0) so that distance, rings and lines
    are plain vector arithmetic.  The mapping depends on orientation and shift but the cube maths does not.
    Cube axes in screen terms (y grows downward): +q points to 3 o'clock (pointy) or 4 o'clock (flat),
    +r to 5 o'clock (pointy) or 6 o'clock (flat).

Lines
    :meth:`HexGrid.line` follows the true geometry of a thread stretched from centre to centre: every hex
    whose interior it enters, in order (so it can be longer than ``distance + 1`` when it clips corners),
    with a 2-tuple where it runs exactly along a hexside.  Computed in exact integer arithmetic.

Pixels
    :class:`HexLayout` places hexes in pixels: ``size`` is the centre-to-vertex distance and ``origin`` the
    top-left corner of the bounding box of all hexes.  Neighbouring centres are ``sqrt(3) * size`` apart.
"""
from __future__ import annotations

from dataclasses import dataclass
import math
from typing import TYPE_CHECKING, Iterable


if TYPE_CHECKING:  # keep this module importable without the rest of the package
    from modulebuilder.model import Grid

__all__ = [
    "Cube", "HexGrid", "HexLayout", "ORIENTATIONS", "SHIFTS",
    "add_hours", "opposite", "POINTY_DIRECTIONS", "FLAT_DIRECTIONS", "POINTY_VERTICES", "FLAT_VERTICES",
]

ORIENTATIONS = ("pointy", "flat")
SHIFTS = ("even", "odd")

POINTY_DIRECTIONS: tuple[int, ...] = (1, 3, 5, 7, 9, 11)
FLAT_DIRECTIONS: tuple[int, ...] = (12, 2, 4, 6, 8, 10)
POINTY_VERTICES: tuple[int, ...] = FLAT_DIRECTIONS
FLAT_VERTICES: tuple[int, ...] = POINTY_DIRECTIONS

# Axial (dq, dr) of the neighbour at each direction hour.  Axial q/r are cube q/r; s = -q - r.
_POINTY_DELTAS: dict[int, tuple[int, int]] = {
    1: (1, -1), 3: (1, 0), 5: (0, 1), 7: (-1, 1), 9: (-1, 0), 11: (0, -1)}
_FLAT_DELTAS: dict[int, tuple[int, int]] = {
    12: (0, -1), 2: (1, -1), 4: (1, 0), 6: (0, 1), 8: (-1, 1), 10: (-1, 0)}

_DIGITS = frozenset("0123456789")
_LINE_CACHE_SIZE = 200_000


# ------------------------------------------------------------------------------------------ clock hours

def add_hours(hour: int, delta: int) -> int:
    """``hour + delta`` on the clock face, in 1..12 (12 rather than 0)."""
    return (hour + delta - 1) % 12 + 1


def opposite(hour: int) -> int:
    """The hour pointing the opposite way (``hour ± 6``)."""
    return add_hours(hour, 6)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_hour(hour: object) -> int:
    if isinstance(hour, bool) or not isinstance(hour, int) or not 1 <= hour <= 12:
        raise ValueError(f"not a clock hour (1..12): {hour!r}")
    return hour


# ------------------------------------------------------------------------------------------------ cube

@dataclass(frozen=True, slots=True)
class Cube:
    """Cube coordinates of a hex; ``q + r + s == 0``."""
    q: int
    r: int
    s: int

    def __post_init__(self) -> None:
        if self.q + self.r + self.s != 0:
            raise ValueError(f"cube coordinates must sum to 0: {self.q}, {self.r}, {self.s}")

    @classmethod
    def axial(cls, q: int, r: int) -> "Cube":
        return cls(q, r, -q - r)

    def __add__(self, other: "Cube") -> "Cube":
        return Cube(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: "Cube") -> "Cube":
        return Cube(self.q - other.q, self.r - other.r, self.s - other.s)

    def scale(self, k: int) -> "Cube":
        return Cube(self.q * k, self.r * k, self.s * k)

    def length(self) -> int:
        """Hex distance from the origin."""
        return max(abs(self.q), abs(self.r), abs(self.s))


def _axial_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def _round_scaled(x: int, scale: int) -> int:
    """``x / scale`` rounded to the nearest integer; callers guarantee it is never a tie."""
    return (2 * x + scale) // (2 * scale)


def _cube_round_scaled(q: int, r: int, s: int, scale: int) -> tuple[int, int]:
    """Nearest hex (axial) to the point ``(q, r, s) / scale``, in exact integer arithmetic.

    The usual cube rounding: round each coordinate, then recompute the one that moved furthest so the
    three still sum to zero.  The caller nudges points so no comparison here is ever a tie.
    """
    rq, rr, rs = _round_scaled(q, scale), _round_scaled(r, scale), _round_scaled(s, scale)
    dq, dr, ds = abs(q - rq * scale), abs(r - rr * scale), abs(s - rs * scale)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr


Cell = tuple[tuple[int, int], ...]  # the hexes (axial) whose closed cell holds a point: 1, 2 or 3 of them


def _trace_axial(a: tuple[int, int], b: tuple[int, int]) -> tuple[list[Cell], list[Cell]]:
    """Walk segment a-b: the hexes along it piece by piece, and the hexsides it crosses.

    Work in the edge coordinates u = q-r, v = r-s, w = s-q: a hex's cell is the set of points within 1
    of its centre in all three, so every hex edge lies on a line where u, v or w is an integer.  Since a
    and b are hex centres (integer u, v, w) those lines cut the segment at t = i/|du| (and likewise for
    v, w); each piece between cuts lies inside one hex or runs along one hexside.  Parameters are scaled
    by ``big`` (twice a common multiple of |du|, |dv|, |dw|) so cuts and piece midpoints are integers.

    Returns ``(pieces, crossings)``: for each piece the hexes holding its midpoint (2 = along a hexside),
    and for each cut point lying inside a hexside (exactly 2 hexes) the pair it crosses into.  Cut points
    at vertices (3 hexes) or on a hex's internal spokes (1 hex) cross no hexside.
    """
    qa, ra = a
    dq, dr = b[0] - qa, b[1] - ra
    du, dv, dw = dq - dr, 2 * dr + dq, -2 * dq - dr      # q-r, r-s, s-q of (dq, dr, -dq-dr)
    big = 2 * math.lcm(*(abs(d) for d in (du, dv, dw) if d))
    cuts = {0, big}
    for d in (du, dv, dw):
        if d:
            step = big // abs(d)
            cuts.update(step * i for i in range(1, abs(d)))
    ordered = sorted(cuts)
    pieces: list[Cell] = []
    crossings: list[Cell] = []
    for t0, t1 in zip(ordered, ordered[1:]):
        if t0:
            at_cut = _cells_containing(big * qa + dq * t0, big * ra + dr * t0, big)
            if len(at_cut) == 2:
                crossings.append(at_cut)
        tm = (t0 + t1) // 2      # exact: every cut is even
        pieces.append(_cells_containing(big * qa + dq * tm, big * ra + dr * tm, big))
    return pieces, crossings


def _cells_containing(pq: int, pr: int, scale: int) -> tuple[tuple[int, int], ...]:
    """The hexes (axial) whose closed cell contains the point ``(pq, pr) / scale``."""
    ps = -pq - pr
    cq, cr = _cube_round_scaled(pq, pr, ps, scale)
    eq, er = pq - cq * scale, pr - cr * scale
    es = -eq - er
    if max(abs(eq - er), abs(er - es), abs(es - eq)) < scale:
        return ((cq, cr),)  # strictly inside the nearest hex: the usual case
    found = []
    for hq, hr in ((cq, cr), (cq + 1, cr), (cq - 1, cr), (cq, cr + 1), (cq, cr - 1),
                   (cq + 1, cr - 1), (cq - 1, cr + 1)):
        eq, er = pq - hq * scale, pr - hr * scale
        es = -eq - er
        if max(abs(eq - er), abs(er - es), abs(es - eq)) <= scale:
            found.append((hq, hr))
    return tuple(found)


# ------------------------------------------------------------------------------------------------ grid

class HexGrid:
    """The hexes of one map: naming, neighbours, facings, distance, rings and lines.

    Lookup tables are built once per grid (names, cube coordinates) or lazily (neighbours), because the
    referee calls :meth:`neighbour` and :meth:`distance` millions of times.
    """

    def __init__(self, orientation: str, shifted: str, first_column: int = 1, first_row: int = 1,
                 columns: int = 10, rows: int = 10, digits: int = 2) -> None:
        if orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {orientation!r}")
        if shifted not in SHIFTS:
            raise ValueError(f"shifted must be one of {SHIFTS}, not {shifted!r}")
        for label, value, low in (("first_column", first_column, 0), ("first_row", first_row, 0),
                                  ("columns", columns, 1), ("rows", rows, 1), ("digits", digits, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{label} must be an integer >= {low}, not {value!r}")
        limit = 10 ** digits
        if first_column + columns > limit or first_row + rows > limit:
            raise ValueError(f"column/row numbers up to {first_column + columns - 1}/{first_row + rows - 1}"
                             f" do not fit in {digits} digits")
        self.orientation = orientation
        self.shifted = shifted
        self.first_column = first_column
        self.first_row = first_row
        self.columns = columns
        self.rows = rows
        self.digits = digits
        self.last_column = first_column + columns - 1
        self.last_row = first_row + rows - 1
        self.pointy = orientation == "pointy"
        # Printed parity of the rows (pointy) or columns (flat) that sit half a hex right/lower.
        self.shift_parity = 0 if shifted == "even" else 1

        deltas = _POINTY_DELTAS if self.pointy else _FLAT_DELTAS
        self.direction_hours: tuple[int, ...] = POINTY_DIRECTIONS if self.pointy else FLAT_DIRECTIONS
        self.vertex_hours: tuple[int, ...] = POINTY_VERTICES if self.pointy else FLAT_VERTICES
        self._deltas = deltas
        self._hour_of_delta = {d: h for h, d in deltas.items()}

        # Column-major list of names and the two-way name <-> axial tables.
        self._names: tuple[str, ...] = tuple(
            self.name(c, r) for c in range(first_column, self.last_column + 1)
            for r in range(first_row, self.last_row + 1))
        self._index = {n: i for i, n in enumerate(self._names)}
        self._axial: dict[str, tuple[int, int]] = {}
        self._by_axial: dict[tuple[int, int], str] = {}
        for c in range(first_column, self.last_column + 1):
            for r in range(first_row, self.last_row + 1):
                n = self.name(c, r)
                a = self._offset_to_axial(c, r)
                self._axial[n] = a
                self._by_axial[a] = n
        self._neighbour_table: dict[str, dict[int, str]] | None = None
        self._line_cache: dict[tuple[int, int, int, int],
                               tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, str], ...]]] = {}

    @classmethod
    def from_model(cls, grid: "Grid") -> "HexGrid":
        """The geometry of a map's ``grid`` (a :class:`modulebuilder.model.Grid`)."""
        last = max(grid.first_column + grid.columns, grid.first_row + grid.rows) - 1
        # "3 digits when the map needs it" (DESIGN §3): widen rather than refuse a big map.
        digits = max(getattr(grid, "digits", 2), len(str(last)))
        return cls(grid.orientation, grid.shifted, grid.first_column, grid.first_row,
                   grid.columns, grid.rows, digits)

    def _key(self) -> tuple[object, ...]:
        return (self.orientation, self.shifted, self.first_column, self.first_row,
                self.columns, self.rows, self.digits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HexGrid) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return ("HexGrid({!r}, {!r}, first_column={}, first_row={}, columns={}, rows={}, digits={})"
                .format(*self._key()))

    # --------------------------------------------------------------------------------------- naming

    def name(self, col: int, row: int) -> str:
        """``"CCRR"`` for printed column and row numbers (on the map or not)."""
        d = self.digits
        if col < 0 or row < 0 or col >= 10 ** d or row >= 10 ** d:
            raise ValueError(f"column {col}, row {row} cannot be named with {d} digits each")
        return f"{col:0{d}d}{row:0{d}d}"

    def parse(self, name: str) -> tuple[int, int]:
        """Printed ``(column, row)`` of a hex name (on the map or not)."""
        a = self._axial.get(name) if isinstance(name, str) else None
        if a is not None:  # fast path for the map's own hexes
            i = self._index[name]
            return self.first_column + i // self.rows, self.first_row + i % self.rows
        d = self.digits
        if not isinstance(name, str) or len(name) != 2 * d or not set(name) <= _DIGITS:
            raise ValueError(f"bad hex name {name!r}: expected {2 * d} digits, column then row (CCRR)")
        return int(name[:d]), int(name[d:])

    def contains(self, name: str) -> bool:
        """True if ``name`` is a hex of this map."""
        return isinstance(name, str) and name in self._axial

    def hexes(self) -> list[str]:
        """All hexes of the map, column by column, rows in order within a column."""
        return list(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._axial

    def __iter__(self):
        return iter(self._names)

    # ----------------------------------------------------------------------------------------- cube

    def _is_shifted(self, number: int) -> bool:
        return number % 2 == self.shift_parity

    def _offset_to_axial(self, col: int, row: int) -> tuple[int, int]:
        # The shifted lines sit half a hex further along, so they need half a step less of the
        # cube axis that slants across them; `number & 1` and floor division keep this exact for 0.
        if self.pointy:
            half = (row - (row & 1)) // 2 if self.shift_parity else (row + (row & 1)) // 2
            return col - half, row
        half = (col - (col & 1)) // 2 if self.shift_parity else (col + (col & 1)) // 2
        return col, row - half

    def _axial_to_offset(self, q: int, r: int) -> tuple[int, int]:
        if self.pointy:
            half = (r - (r & 1)) // 2 if self.shift_parity else (r + (r & 1)) // 2
            return q + half, r
        half = (q - (q & 1)) // 2 if self.shift_parity else (q + (q & 1)) // 2
        return q, r + half

    def _axial_of(self, name: str) -> tuple[int, int]:
        a = self._axial.get(name)
        if a is None:
            a = self._offset_to_axial(*self._parse_label(name))
        return a

    def _parse_label(self, name: str) -> tuple[int, int]:
        """:meth:`parse`, also taking the signed labels :meth:`line` gives hexes just beyond column or row 0
        (``"-102"``: column -1, row 2), so that the geometry (``adjacent``, ``distance``) works on every step
        of a line.  ``parse`` itself stays strict: a signed label is no hex a player can name."""
        d = self.digits
        if isinstance(name, str) and len(name) == 2 * d and "-" in name:
            col, row = name[:d], name[d:]
            if all(p.lstrip("-").isdigit() and set(p.lstrip("-")) <= _DIGITS and p.count("-") <= 1
                   and not p.endswith("-") for p in (col, row)) and (col[0] == "-" or row[0] == "-"):
                return int(col), int(row)
        return self.parse(name)

    def _name_of_axial(self, a: tuple[int, int]) -> str:
        n = self._by_axial.get(a)
        if n is None:
            n = self.name(*self._axial_to_offset(*a))
        return n

    def to_cube(self, name: str) -> Cube:
        """Cube coordinates of a hex (any well-formed name, on the map or not)."""
        q, r = self._axial_of(name)
        return Cube(q, r, -q - r)

    def from_cube(self, c: Cube) -> str:
        """The name at cube ``c``; it may be off the map (check with :meth:`contains`).

        Raises ValueError when the printed numbers would be negative or too wide to name.
        """
        return self._name_of_axial((c.q, c.r))

    def offset_from_cube(self, c: Cube) -> tuple[int, int]:
        """Printed ``(column, row)`` at cube ``c``, even where no name can be formed."""
        return self._axial_to_offset(c.q, c.r)

    # ----------------------------------------------------------------------------------- directions

    def is_vertex(self, hour: int) -> bool:
        """True if ``hour`` is a vertex hour (a legal facing); False for a hexside or anything else."""
        return _is_int(hour) and hour in self.vertex_hours

    def is_direction(self, hour: int) -> bool:
        """True if ``hour`` points across a hexside at a neighbour; False otherwise."""
        return _is_int(hour) and hour in self._deltas

    def _delta(self, hour: int) -> tuple[int, int]:
        d = self._deltas.get(hour) if isinstance(hour, int) and not isinstance(hour, bool) else None
        if d is None:
            raise ValueError(f"{hour!r} is not a direction hour on a {self.orientation} grid "
                             f"(use one of {self.direction_hours})")
        return d

    def _neighbours_table(self) -> dict[str, dict[int, str]]:
        if self._neighbour_table is None:
            table: dict[str, dict[int, str]] = {}
            by_axial = self._by_axial
            for n, (q, r) in self._axial.items():
                row: dict[int, str] = {}
                for h in self.direction_hours:
                    dq, dr = self._deltas[h]
                    m = by_axial.get((q + dq, r + dr))
                    if m is not None:
                        row[h] = m
                table[n] = row
            self._neighbour_table = table
        return self._neighbour_table

    def neighbour(self, name: str, hour: int) -> str | None:
        """The on-map neighbour of ``name`` at direction ``hour``, or None off the map."""
        dq, dr = self._delta(hour)
        row = self._neighbours_table().get(name)
        if row is not None:
            return row.get(hour)
        q, r = self._axial_of(name)  # off-map start: still answer for on-map targets
        return self._by_axial.get((q + dq, r + dr))

    def neighbours(self, name: str) -> dict[int, str]:
        """On-map neighbours of ``name`` keyed by direction hour (in clockwise hour order)."""
        row = self._neighbours_table().get(name)
        if row is not None:
            return dict(row)
        q, r = self._axial_of(name)
        out: dict[int, str] = {}
        for h in self.direction_hours:
            dq, dr = self._deltas[h]
            m = self._by_axial.get((q + dq, r + dr))
            if m is not None:
                out[h] = m
        return out

    def direction(self, a: str, b: str) -> int | None:
        """The hour from ``a`` to the adjacent hex ``b``; None if they are not adjacent."""
        qa, ra = self._axial_of(a)
        qb, rb = self._axial_of(b)
        return self._hour_of_delta.get((qb - qa, rb - ra))

    def adjacent(self, a: str, b: str) -> bool:
        """True if ``a`` and ``b`` share a hexside."""
        return self.direction(a, b) is not None

    # --------------------------------------------------------------------------------------- facing

    def _check_facing(self, facing: int) -> int:
        if _check_hour(facing) not in self.vertex_hours:
            raise ValueError(f"facing {facing} is a hexside on a {self.orientation} grid; a facing must be"
                             f" a vertex hour {self.vertex_hours}")
        return facing

    def front_hours(self, facing: int) -> tuple[int, int]:
        """Hours of the two front hexes (f-1, f+1)."""
        f = self._check_facing(facing)
        return add_hours(f, -1), add_hours(f, 1)

    def flank_hours(self, facing: int) -> tuple[int, int]:
        """Hours of the two flank hexes (f-3, f+3)."""
        f = self._check_facing(facing)
        return add_hours(f, -3), add_hours(f, 3)

    def rear_hours(self, facing: int) -> tuple[int, int]:
        """Hours of the two rear hexes (f-5, f+5)."""
        f = self._check_facing(facing)
        return add_hours(f, -5), add_hours(f, 5)

    def _at_hours(self, name: str, hours: Iterable[int]) -> tuple[str, ...]:
        return tuple(n for n in (self.neighbour(name, h) for h in hours) if n is not None)

    def front(self, name: str, facing: int) -> tuple[str, ...]:
        """On-map front hexes of a unit in ``name`` facing vertex ``facing``."""
        return self._at_hours(name, self.front_hours(facing))

    def flank(self, name: str, facing: int) -> tuple[str, ...]:
        """On-map flank hexes of a unit in ``name`` facing vertex ``facing``."""
        return self._at_hours(name, self.flank_hours(facing))

    def rear(self, name: str, facing: int) -> tuple[str, ...]:
        """On-map rear hexes of a unit in ``name`` facing vertex ``facing``."""
        return self._at_hours(name, self.rear_hours(facing))

    def facing_between(self, hour_a: int, hour_b: int) -> int:
        """The vertex hour between two adjacent direction hours (in either order)."""
        self._delta(hour_a)
        self._delta(hour_b)
        if add_hours(hour_a, 2) == hour_b:
            return add_hours(hour_a, 1)
        if add_hours(hour_b, 2) == hour_a:
            return add_hours(hour_b, 1)
        raise ValueError(f"hours {hour_a} and {hour_b} are not adjacent directions")

    # ------------------------------------------------------------------------------ distance, areas

    def distance(self, a: str, b: str) -> int:
        """Hex distance (adjacent = 1)."""
        return _axial_distance(self._axial_of(a), self._axial_of(b))

    def _ring_axial(self, centre: tuple[int, int], radius: int) -> list[tuple[int, int]]:
        if radius == 0:
            return [centre]
        hours = self.direction_hours
        # Start `radius` steps out in the first direction, then walk the six sides clockwise.
        sq, sr = self._deltas[hours[0]]
        q, r = centre[0] + sq * radius, centre[1] + sr * radius
        out = []
        for k in range(6):
            dq, dr = self._deltas[hours[(k + 2) % 6]]
            for _ in range(radius):
                out.append((q, r))
                q, r = q + dq, r + dr
        return out

    def ring(self, name: str, radius: int) -> list[str]:
        """On-map hexes exactly ``radius`` from ``name`` (clockwise order)."""
        if radius < 0:
            raise ValueError(f"radius must be >= 0, not {radius}")
        by_axial = self._by_axial
        return [by_axial[a] for a in self._ring_axial(self._axial_of(name), radius) if a in by_axial]

    def within(self, name: str, radius: int) -> list[str]:
        """On-map hexes at most ``radius`` from ``name``, centre included, in map (column-major) order."""
        if radius < 0:
            raise ValueError(f"radius must be >= 0, not {radius}")
        cq, cr = self._axial_of(name)
        if 3 * radius * (radius + 1) + 1 >= len(self._names):
            # A big radius on a small map: scanning the map is cheaper than generating the disc.
            return [n for n in self._names if _axial_distance(self._axial[n], (cq, cr)) <= radius]
        by_axial = self._by_axial
        found = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                n = by_axial.get((cq + dq, cr + dr))
                if n is not None:
                    found.append(n)
        index = self._index
        found.sort(key=index.__getitem__)
        return found

    def line(self, a: str, b: str) -> list[tuple[str, ...]]:
        """The hexes a straight line from the centre of ``a`` to the centre of ``b`` passes through, in order.

        Each step is a 1-tuple, or a 2-tuple of both hexes (sorted by name) where the line runs exactly
        along the hexside between them, so a line-of-sight rule can decide how to treat it ("the hexside
        counts as an intervening hex", "blocked only if both block", ...).  Names may be off the map, and
        so may the hexes the line passes along a map edge: check :meth:`contains`.  Off-map hexes beyond
        column or row 0 have no name and are given signed labels such as ``"01-1"``.

        This is the true geometry, as a thread stretched across the printed map would show it: every hex
        whose interior the line enters is listed, including hexes whose corner it only clips, so a line
        may take *more* than ``distance + 1`` steps.  It takes exactly ``distance + 1`` along the six
        directions and along the six "spines" between them (the lines that run along hexsides).  A hex
        touched only at a single point (the line passing exactly through a vertex) is not listed.
        Consecutive steps are adjacent hexes.

        Exact: in cube coordinates every hex edge lies on a line where q-r, r-s or s-q is an integer, so
        the segment is cut at the parameters where one of those crosses an integer, and each piece is
        classified at its midpoint, all in scaled integer arithmetic.
        """
        qa, ra = self._axial_of(a)
        qb, rb = self._axial_of(b)
        if (qa, ra) == (qb, rb):
            return [(a,)]
        return list(self._trace(qa, ra, qb, rb)[0])

    def hexsides_crossed(self, a: str, b: str) -> list[tuple[str, str]]:
        """Hexsides that the centre-to-centre line from ``a`` to ``b`` crosses, in order.

        Each is the pair of hexes either side, sorted by name (as :meth:`hexside`).  A hexside the line
        merely runs along is not crossed (it shows as a 2-tuple step of :meth:`line`), nor is one the line
        only touches at a vertex.  Names may be off the map.
        """
        qa, ra = self._axial_of(a)
        qb, rb = self._axial_of(b)
        if (qa, ra) == (qb, rb):
            return []
        return list(self._trace(qa, ra, qb, rb)[1])

    def _trace(self, qa: int, ra: int, qb: int, rb: int) -> tuple[tuple[tuple[str, ...], ...],
                                                                   tuple[tuple[str, str], ...]]:
        key = (qa, ra, qb, rb)
        cached = self._line_cache.get(key)
        if cached is None:
            pieces, crossings = _trace_axial((qa, ra), (qb, rb))
            steps: list[tuple[str, ...]] = []
            for cell in pieces:
                step = tuple(sorted(self._label(h) for h in cell))
                if not steps or steps[-1] != step:   # consecutive pieces inside the same hex
                    steps.append(step)
            sides = tuple(tuple(sorted(self._label(h) for h in cell)) for cell in crossings)
            if len(self._line_cache) >= _LINE_CACHE_SIZE:
                self._line_cache.clear()  # crude bound; lines are cheap to recompute
            self._line_cache[key] = cached = (tuple(steps), sides)  # type: ignore[assignment]
        return cached

    def _label(self, a: tuple[int, int]) -> str:
        """Name of axial ``a``, or for a hex beyond the numbering a label such as ``"01-1"``."""
        n = self._by_axial.get(a)
        if n is None:
            col, row = self._axial_to_offset(*a)
            try:
                n = self.name(col, row)
            except ValueError:  # beyond the numbering: still say where it is
                d = self.digits
                n = f"{col:0{d}d}{row:0{d}d}"
        return n

    def hexside(self, a: str, b: str) -> tuple[str, str]:
        """A canonical key for the hexside between adjacent ``a`` and ``b`` (the names sorted)."""
        if not self.adjacent(a, b):
            raise ValueError(f"{a} and {b} are not adjacent")
        return (a, b) if a < b else (b, a)


# ---------------------------------------------------------------------------------------------- pixels

_H = math.sqrt(3) / 2
# Unit vector towards each clock hour in screen coordinates (y grows downward), using exact constants.
_HOUR_VECTORS: dict[int, tuple[float, float]] = {
    12: (0.0, -1.0), 1: (0.5, -_H), 2: (_H, -0.5), 3: (1.0, 0.0), 4: (_H, 0.5), 5: (0.5, _H),
    6: (0.0, 1.0), 7: (-0.5, _H), 8: (-_H, 0.5), 9: (-1.0, 0.0), 10: (-_H, -0.5), 11: (-0.5, -_H),
}


def size_across_flats(across: float) -> float:
    """The size (centre to vertex) of hexes ``across`` wide across the flats, as printed hexes are measured."""
    return across / math.sqrt(3)


def across_flats(size: float) -> float:
    """The width across the flats of hexes of ``size`` (centre to vertex): the centre-to-centre distance."""
    return size * math.sqrt(3)


class HexLayout:
    """Pixel geometry of a :class:`HexGrid` for rendering and the VASSAL grid.

    ``size`` is the centre-to-vertex distance; ``origin`` is the top-left corner of the bounding box of
    all hexes, so a map image drawn from ``origin`` holds the whole grid.  Straight lines of hexes
    (rows when pointy, columns when flat) are ``col_spacing``/``row_spacing`` apart.
    """

    def __init__(self, grid: HexGrid, size: float, origin: tuple[float, float] = (0, 0)) -> None:
        if not size > 0:
            raise ValueError(f"size must be > 0, not {size!r}")
        self.grid = grid
        self.size = float(size)
        self.origin = (float(origin[0]), float(origin[1]))
        g = grid
        if g.pointy:
            self._dx, self._dy = math.sqrt(3) * self.size, 1.5 * self.size
            lines = range(g.first_row, g.last_row + 1)
        else:
            self._dx, self._dy = 1.5 * self.size, math.sqrt(3) * self.size
            lines = range(g.first_column, g.last_column + 1)
        # When every line is shifted (a one-row/one-column map) the box starts at the shifted line.
        self._min_shift = min(1 if g._is_shifted(k) else 0 for k in lines)
        self._both_shifts = len(lines) >= 2
        if g.pointy:
            self._x0 = self.origin[0] + self._dx / 2
            self._y0 = self.origin[1] + self.size
        else:
            self._x0 = self.origin[0] + self.size
            self._y0 = self.origin[1] + self._dy / 2
        # Centre of axial (0, 0), so that the inverse (pixel -> hex) is a linear map plus rounding.
        fq, fr = g._offset_to_axial(g.first_column, g.first_row)
        cx, cy = self._center_of(g.first_column, g.first_row)
        ax, ay = self._axial_pixel(fq, fr)
        self._base = (cx - ax, cy - ay)

    # ----------------------------------------------------------------------------------- spacing

    @property
    def col_spacing(self) -> float:
        """Horizontal distance between centres of consecutive columns (``dx``)."""
        return self._dx

    @property
    def row_spacing(self) -> float:
        """Vertical distance between centres of consecutive rows (``dy``)."""
        return self._dy

    dx = col_spacing
    dy = row_spacing

    @property
    def first_center(self) -> tuple[float, float]:
        """Centre of the hex at the first column and first row."""
        return self._center_of(self.grid.first_column, self.grid.first_row)

    @property
    def width(self) -> float:
        """Width of the bounding box of all hexes."""
        g = self.grid
        if g.pointy:
            return g.columns * self._dx + (self._dx / 2 if self._both_shifts else 0.0)
        return (g.columns - 1) * self._dx + 2 * self.size

    @property
    def height(self) -> float:
        """Height of the bounding box of all hexes."""
        g = self.grid
        if g.pointy:
            return (g.rows - 1) * self._dy + 2 * self.size
        return g.rows * self._dy + (self._dy / 2 if self._both_shifts else 0.0)

    # ----------------------------------------------------------------------------------- hexes

    def _center_of(self, col: int, row: int) -> tuple[float, float]:
        g = self.grid
        if g.pointy:
            shift = (1 if g._is_shifted(row) else 0) - self._min_shift
            return (self._x0 + (col - g.first_column) * self._dx + shift * self._dx / 2,
                    self._y0 + (row - g.first_row) * self._dy)
        shift = (1 if g._is_shifted(col) else 0) - self._min_shift
        return (self._x0 + (col - g.first_column) * self._dx,
                self._y0 + (row - g.first_row) * self._dy + shift * self._dy / 2)

    def _axial_pixel(self, q: float, r: float) -> tuple[float, float]:
        if self.grid.pointy:
            return self._dx * (q + r / 2), self._dy * r
        return self._dx * q, self._dy * (r + q / 2)

    def center(self, name: str) -> tuple[float, float]:
        """Pixel centre of a hex (any well-formed name)."""
        return self._center_of(*self.grid.parse(name))

    def corners(self, name: str) -> list[tuple[float, float]]:
        """The six vertices, clockwise from 12 o'clock (pointy) or 1 o'clock (flat)."""
        return [self.vertex(name, h) for h in self.grid.vertex_hours]

    def vertex(self, name: str, hour: int) -> tuple[float, float]:
        """The corner at vertex hour ``hour``."""
        if not self.grid.is_vertex(hour):
            raise ValueError(f"{hour} is not a vertex hour on a {self.grid.orientation} grid")
        x, y = self.center(name)
        ux, uy = _HOUR_VECTORS[hour]
        return x + ux * self.size, y + uy * self.size

    def edge_midpoint(self, name: str, hour: int) -> tuple[float, float]:
        """Midpoint of the hexside at direction hour ``hour`` (half-way to that neighbour's centre)."""
        self.grid._delta(hour)
        x, y = self.center(name)
        ux, uy = _HOUR_VECTORS[hour]
        apothem = self.size * _H
        return x + ux * apothem, y + uy * apothem

    def hex_at(self, x: float, y: float) -> str | None:
        """The on-map hex containing pixel ``(x, y)``, or None (points on a boundary go either way)."""
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        px, py = x - self._base[0], y - self._base[1]
        if self.grid.pointy:
            r = py / self._dy
            q = px / self._dx - r / 2
        else:
            q = px / self._dx
            r = py / self._dy - q / 2
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        return self.grid._by_axial.get((rq, rr))
