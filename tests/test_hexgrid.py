"""Hex geometry (DESIGN §3): naming, cube coordinates, clock-hour directions, facing, distance, areas,
exact lines and the pixel layout, for both orientations, both shifts and maps starting at 0..5."""
from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from modulebuilder.hexgrid import Cube, HexGrid, HexLayout, add_hours, opposite

SQRT3 = math.sqrt(3)
COMBOS = [(o, s) for o in ("pointy", "flat") for s in ("even", "odd")]
HOUR_VECTORS = {h: (math.sin(math.radians(30 * h)), -math.cos(math.radians(30 * h))) for h in range(1, 13)}

settings.register_profile("hexgrid", deadline=None, max_examples=60)
settings.load_profile("hexgrid")


@st.composite
def grids(draw, min_size: int = 1, max_size: int = 12) -> HexGrid:
    orientation, shifted = draw(st.sampled_from(COMBOS))
    return HexGrid(orientation, shifted,
                   first_column=draw(st.integers(0, 5)), first_row=draw(st.integers(0, 5)),
                   columns=draw(st.integers(min_size, max_size)), rows=draw(st.integers(min_size, max_size)))


@st.composite
def grid_and_hexes(draw, count: int = 1, min_size: int = 1, max_size: int = 12):
    g = draw(grids(min_size, max_size))
    names = g.hexes()
    return (g, *(draw(st.sampled_from(names)) for _ in range(count)))


def big_grid(orientation: str, shifted: str, first: int = 0) -> HexGrid:
    return HexGrid(orientation, shifted, first, first, 40, 40)


def centre_of(g: HexGrid) -> str:
    return g.name(g.first_column + g.columns // 2, g.first_row + g.rows // 2)


# ------------------------------------------------------------------------------------------- naming

@given(st.sampled_from(COMBOS), st.integers(0, 5), st.integers(0, 5), st.sampled_from([2, 3]))
def test_name_parse_round_trip(combo, c0, r0, digits):
    g = HexGrid(*combo, first_column=c0, first_row=r0, columns=7, rows=6, digits=digits)
    for name in g.hexes():
        assert len(name) == 2 * digits
        assert g.name(*g.parse(name)) == name
        assert g.contains(name)


def test_names_are_column_then_row_zero_padded():
    g = HexGrid("pointy", "even", first_column=1, first_row=0, columns=3, rows=2)
    assert g.hexes() == ["0100", "0101", "0200", "0201", "0300", "0301"]
    assert g.parse("0301") == (3, 1)
    h3 = HexGrid("flat", "odd", first_column=98, first_row=99, columns=3, rows=2, digits=3)
    assert h3.hexes()[:2] == ["098099", "098100"]
    assert h3.parse("100100") == (100, 100)


@pytest.mark.parametrize("junk", ["", "010", "01011", "01a1", "-101", "01-1", " 101", "0１01", "٠١٠١",
                                  "01.1", None, 101])
def test_parse_rejects_malformed_names(junk):
    g = HexGrid("pointy", "odd")
    with pytest.raises(ValueError, match="hex name"):
        g.parse(junk)
    assert not g.contains(junk)


def test_parse_accepts_off_map_names_but_contains_says_no():
    g = HexGrid("pointy", "odd", columns=5, rows=5)
    assert g.parse("9999") == (99, 99)
    assert not g.contains("9999") and not g.contains("0000") and g.contains("0505")
    assert not g.contains("0606")


def test_name_rejects_unnameable_numbers():
    g = HexGrid("flat", "even")
    for col, row in [(-1, 1), (1, -1), (100, 1)]:
        with pytest.raises(ValueError):
            g.name(col, row)


@pytest.mark.parametrize("kwargs", [
    {"orientation": "sideways", "shifted": "odd"}, {"orientation": "flat", "shifted": "both"},
    {"orientation": "flat", "shifted": "odd", "columns": 0},
    {"orientation": "flat", "shifted": "odd", "first_row": -1},
    {"orientation": "flat", "shifted": "odd", "first_column": 95, "columns": 10},  # 104 needs 3 digits
])
def test_constructor_rejects_bad_grids(kwargs):
    with pytest.raises(ValueError):
        HexGrid(**kwargs)


def test_from_model():
    from modulebuilder.model import Grid
    g = HexGrid.from_model(Grid("flat", "even", 0, 1, 4, 3))
    assert g == HexGrid("flat", "even", 0, 1, 4, 3)
    assert len(g.hexes()) == 12 and g.contains("0003") and not g.contains("0000")
    wide = HexGrid.from_model(Grid("pointy", "odd", 1, 1, 120, 5))     # needs 3 digits
    assert wide.digits == 3 and wide.contains("120005")


# ---------------------------------------------------------------------------------------------- cube

@given(grid_and_hexes())
def test_cube_round_trip(args):
    g, h = args
    c = g.to_cube(h)
    assert c.q + c.r + c.s == 0
    assert g.from_cube(c) == h


@given(grids())
def test_cube_coordinates_are_distinct(g):
    assert len({g.to_cube(h) for h in g.hexes()}) == len(g.hexes())


def test_cube_rejects_bad_sum():
    with pytest.raises(ValueError):
        Cube(1, 1, 1)


def test_from_cube_off_the_map():
    g = HexGrid("pointy", "odd", columns=3, rows=3)
    far = g.to_cube("0303") + Cube(2, 0, -2)
    assert g.from_cube(far) == "0503" and not g.contains("0503")
    with pytest.raises(ValueError):
        g.from_cube(g.to_cube("0101") + Cube(-5, 0, 5))  # column below zero cannot be named


# ------------------------------------------------------------------------------------------ distance

@given(grid_and_hexes(count=3))
def test_distance_is_a_metric(args):
    g, a, b, c = args
    assert g.distance(a, b) == g.distance(b, a)
    assert (g.distance(a, b) == 0) == (a == b)
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


def test_distance_known_values():
    g = HexGrid("pointy", "odd")
    assert g.distance("0101", "0501") == 4      # along a row
    assert g.distance("0101", "0105") == 4      # zig-zag down a column, rows 1..5 shifted alternately
    f = HexGrid("flat", "even")
    assert f.distance("0101", "0105") == 4      # along a column
    assert f.distance("0101", "0501") == 4


# ------------------------------------------------------------------------------------------ directions

def test_direction_and_vertex_hours():
    p, f = HexGrid("pointy", "odd"), HexGrid("flat", "odd")
    assert p.direction_hours == (1, 3, 5, 7, 9, 11) and p.vertex_hours == (12, 2, 4, 6, 8, 10)
    assert f.direction_hours == (12, 2, 4, 6, 8, 10) and f.vertex_hours == (1, 3, 5, 7, 9, 11)
    assert p.is_vertex(12) and not p.is_vertex(1) and f.is_vertex(1) and not f.is_vertex(12)
    assert not p.is_vertex(0) and not p.is_vertex(14) and not p.is_vertex("12") and not p.is_vertex(True)
    assert p.is_direction(1) and not p.is_direction(12) and f.is_direction(12)
    with pytest.raises(ValueError):
        p.neighbour("0505", 12)      # a vertex hour, not a direction
    with pytest.raises(ValueError):
        f.neighbour("0505", 13)


@given(grid_and_hexes())
def test_neighbours_are_adjacent_both_ways(args):
    g, a = args
    for hour, n in g.neighbours(a).items():
        assert g.contains(n)
        assert g.neighbour(a, hour) == n
        assert g.distance(a, n) == 1 and g.adjacent(a, n)
        assert g.direction(a, n) == hour
        assert g.direction(n, a) == opposite(hour) == add_hours(hour, 6)
    missing = set(g.direction_hours) - set(g.neighbours(a))
    assert all(g.neighbour(a, h) is None for h in missing)
    assert g.direction(a, a) is None


@given(grid_and_hexes(count=2))
def test_direction_only_between_adjacent_hexes(args):
    g, a, b = args
    assert (g.direction(a, b) is not None) == (g.distance(a, b) == 1)


@pytest.mark.parametrize("orientation,shifted", COMBOS)
def test_interior_hexes_have_six_neighbours(orientation, shifted):
    g = HexGrid(orientation, shifted, 0, 0, 6, 6)
    for h in g.hexes():
        col, row = g.parse(h)
        if 0 < col < 5 and 0 < row < 5:
            assert len(g.neighbours(h)) == 6
        else:
            assert 2 <= len(g.neighbours(h)) < 6


# Neighbours by printed numbers, worked out on paper from the convention (shifted lines sit half a hex
# right / lower), for a hex on a shifted line and one on an unshifted line of each kind of grid.
KNOWN_NEIGHBOURS = [
    # pointy, odd rows shifted right: row 3 is shifted, row 2 is not
    ("pointy", "odd", 1, "0303", {1: "0402", 3: "0403", 5: "0404", 7: "0304", 9: "0203", 11: "0302"}),
    ("pointy", "odd", 1, "0302", {1: "0301", 3: "0402", 5: "0303", 7: "0203", 9: "0202", 11: "0201"}),
    # pointy, even rows shifted right; on a map starting at row 00, row 00 is even, so shifted
    ("pointy", "even", 0, "0202", {1: "0301", 3: "0302", 5: "0303", 7: "0203", 9: "0102", 11: "0201"}),
    ("pointy", "even", 0, "0201", {1: "0200", 3: "0301", 5: "0202", 7: "0102", 9: "0101", 11: "0100"}),
    # flat, odd columns shifted down
    ("flat", "odd", 1, "0303", {12: "0302", 2: "0403", 4: "0404", 6: "0304", 8: "0204", 10: "0203"}),
    ("flat", "odd", 1, "0203", {12: "0202", 2: "0302", 4: "0303", 6: "0204", 8: "0103", 10: "0102"}),
    # flat, even columns shifted down; column 00 is even
    ("flat", "even", 0, "0202", {12: "0201", 2: "0302", 4: "0303", 6: "0203", 8: "0103", 10: "0102"}),
    ("flat", "even", 0, "0101", {12: "0100", 2: "0200", 4: "0201", 6: "0102", 8: "0001", 10: "0000"}),
]


@pytest.mark.parametrize("orientation,shifted,first,hex_,expected", KNOWN_NEIGHBOURS)
def test_known_neighbours(orientation, shifted, first, hex_, expected):
    g = HexGrid(orientation, shifted, first, first, 8, 8)
    assert g.neighbours(hex_) == expected


def test_neighbours_off_the_map_edge_are_none():
    g = HexGrid("pointy", "odd", 1, 1, 5, 5)
    assert g.neighbours("0101") == {3: "0201", 5: "0202", 7: "0102"}
    assert g.neighbour("0101", 11) is None


# --------------------------------------------------------------------------------------------- facing

def test_clock_arithmetic_wraps_to_twelve():
    assert add_hours(11, 1) == 12 and add_hours(12, 1) == 1 and add_hours(1, -1) == 12
    assert add_hours(2, -5) == 9 and opposite(12) == 6 and opposite(3) == 9


def test_facing_hours():
    p, f = HexGrid("pointy", "odd"), HexGrid("flat", "even")
    assert p.front_hours(12) == (11, 1) and p.flank_hours(12) == (9, 3) and p.rear_hours(12) == (7, 5)
    assert f.front_hours(1) == (12, 2) and f.flank_hours(1) == (10, 4) and f.rear_hours(1) == (8, 6)
    assert p.front_hours(2) == (1, 3) and p.rear_hours(2) == (9, 7)
    for grid, bad in ((p, 1), (p, 3), (f, 12), (f, 0)):
        with pytest.raises(ValueError):
            grid.front(grid.hexes()[20], bad)


@given(st.sampled_from(COMBOS), st.data())
def test_front_flank_rear_partition_the_neighbours(combo, data):
    g = big_grid(*combo)
    a = centre_of(g)
    facing = data.draw(st.sampled_from(g.vertex_hours))
    front, flank, rear = g.front(a, facing), g.flank(a, facing), g.rear(a, facing)
    assert len(front) == len(flank) == len(rear) == 2
    assert sorted(front + flank + rear) == sorted(g.neighbours(a).values())
    # The front hexes lie either side of the faced vertex; the rear either side of the opposite one.
    assert g.facing_between(g.direction(a, front[0]), g.direction(a, front[1])) == facing
    assert g.facing_between(g.direction(a, rear[0]), g.direction(a, rear[1])) == opposite(facing)


def test_facing_on_the_map_edge_drops_off_map_hexes():
    g = HexGrid("pointy", "odd", 1, 1, 5, 5)
    assert g.front("0101", 12) == ()
    assert g.rear("0101", 12) == ("0102", "0202")


def test_facing_between():
    p = HexGrid("pointy", "odd")
    assert p.facing_between(11, 1) == 12 == p.facing_between(1, 11)
    assert p.facing_between(3, 5) == 4
    with pytest.raises(ValueError):
        p.facing_between(1, 5)
    with pytest.raises(ValueError):
        p.facing_between(12, 2)          # vertex hours on a pointy grid


# ------------------------------------------------------------------------------------------ areas

@given(st.sampled_from(COMBOS), st.integers(0, 6))
def test_rings_and_discs_in_the_open(combo, radius):
    g = big_grid(*combo)
    a = centre_of(g)
    ring = g.ring(a, radius)
    assert len(ring) == (6 * radius if radius else 1) == len(set(ring))
    assert all(g.distance(a, h) == radius for h in ring)
    # Consecutive ring hexes are adjacent, all the way round.
    if radius:
        assert all(g.adjacent(x, y) for x, y in zip(ring, ring[1:] + ring[:1]))
    disc = g.within(a, radius)
    assert len(disc) == 3 * radius * (radius + 1) + 1
    assert set(disc) == {h for r in range(radius + 1) for h in g.ring(a, r)}


@given(grid_and_hexes(), st.integers(0, 14))
def test_within_and_ring_on_the_map(args, radius):
    g, a = args
    expected = [h for h in g.hexes() if g.distance(a, h) <= radius]
    assert g.within(a, radius) == expected          # map order, on-map only
    assert sorted(g.ring(a, radius)) == sorted(h for h in expected if g.distance(a, h) == radius)


@given(grid_and_hexes())
def test_ring_one_is_the_neighbours(args):
    g, a = args
    assert sorted(g.ring(a, 1)) == sorted(g.neighbours(a).values())


# ---------------------------------------------------------------------------------------------- lines

def _float_trace(g: HexGrid, a: str, b: str, samples: int = 3000) -> list[str]:
    """Independent oracle: walk the segment in tiny float steps (odd offsets avoid exact boundaries)."""
    layout = HexLayout(g, 10.0)
    (xa, ya), (xb, yb) = layout.center(a), layout.center(b)
    seen: list[str] = []
    for k in range(samples + 1):
        t = (k + 0.3731) / (samples + 1.0)
        h = layout.hex_at(xa + (xb - xa) * t, ya + (yb - ya) * t)
        if h is not None and (not seen or seen[-1] != h):
            seen.append(h)
    return seen


def _is_spine(g: HexGrid, a: str, b: str) -> bool:
    """True if b lies along a line from a that runs along hexsides (a vertex direction)."""
    d = g.to_cube(b) - g.to_cube(a)
    return d.q == d.r or d.r == d.s or d.s == d.q


@given(grid_and_hexes(count=2, max_size=10))
def test_line_is_a_chain_of_adjacent_hexes(args):
    g, a, b = args
    steps = g.line(a, b)
    assert steps[0] == (a,) and steps[-1] == (b,)
    assert len(steps) >= g.distance(a, b) + 1
    for s, t in zip(steps, steps[1:]):
        assert s != t
        assert all(g.adjacent(x, y) for x in s for y in t)
    for s in steps:
        assert len(s) in (1, 2)
        if len(s) == 2:
            assert g.adjacent(*s) and list(s) == sorted(s)
    assert any(len(s) == 2 for s in steps) == (a != b and _is_spine(g, a, b))
    assert g.line(b, a) == steps[::-1]


@given(grid_and_hexes(count=2, min_size=4, max_size=9))
@settings(max_examples=25)
def test_line_matches_a_fine_float_walk(args):
    g, a, b = args
    assume(not _is_spine(g, a, b))            # along hexsides the float walk wobbles between both sides
    assert [s[0] for s in g.line(a, b)] == _float_trace(g, a, b)


@pytest.mark.parametrize("orientation,shifted", COMBOS)
def test_straight_and_spine_lines_take_distance_plus_one_steps(orientation, shifted):
    g = big_grid(orientation, shifted)
    a = centre_of(g)
    for hour in g.direction_hours:
        b = a
        for _ in range(5):
            b = g.neighbour(b, hour)
        steps = g.line(a, b)
        assert len(steps) == 6 and all(len(s) == 1 for s in steps)
        assert [s[0] for s in steps[1:]] == [h for h in _walk(g, a, hour, 5)]
    for facing in g.vertex_hours:
        h1, h2 = g.front_hours(facing)
        b = g.neighbour(g.neighbour(g.neighbour(g.neighbour(a, h1), h2), h1), h2)   # 4 hexes along the spine
        steps = g.line(a, b)
        assert [len(s) for s in steps] == [1, 2, 1, 2, 1]
        assert set(steps[1]) == {g.neighbour(a, h1), g.neighbour(a, h2)}


def _walk(g: HexGrid, a: str, hour: int, n: int) -> list[str]:
    out = []
    for _ in range(n):
        a = g.neighbour(a, hour)
        out.append(a)
    return out


def test_lines_along_hexsides_known_cases():
    # Pointy: the spine at 12 o'clock is vertical, same column two rows up.
    p = HexGrid("pointy", "odd")
    assert p.line("0303", "0301") == [("0303",), ("0302", "0402"), ("0301",)]
    p0 = HexGrid("pointy", "even", 0, 0)
    assert p0.line("0200", "0204") == [("0200",), ("0201", "0301"), ("0202",), ("0203", "0303"), ("0204",)]
    # Flat: the spine at 3 o'clock is horizontal, same row two columns right.
    f = HexGrid("flat", "even")
    assert f.line("0303", "0503") == [("0303",), ("0402", "0403"), ("0503",)]
    f0 = HexGrid("flat", "even", 0, 0)   # column 00 sits lower than 01
    assert f0.line("0000", "0400") == [("0000",), ("0100", "0101"), ("0200",), ("0300", "0301"), ("0400",)]


def test_line_includes_hexes_whose_corner_it_clips():
    # A shallow line (7 hexes long, dropping one row) crosses the zig-zag between two rows three times,
    # clipping corners of hexes that the one-hex-per-step approximation would miss.
    g = HexGrid("pointy", "odd", 1, 1, 12, 12)
    a = "0303"
    b = g.from_cube(g.to_cube(a) + Cube(6, 1, -7))
    steps = g.line(a, b)
    assert g.distance(a, b) == 7 and len(steps) == 10
    assert [s[0] for s in steps] == _float_trace(g, a, b, samples=20000)


def test_line_to_itself():
    g = HexGrid("flat", "odd")
    assert g.line("0505", "0505") == [("0505",)]


# --------------------------------------------------------------------------------------------- pixels

@st.composite
def layouts(draw):
    g = draw(grids(max_size=8))
    size = draw(st.sampled_from([1.0, 10.0, 37.5, 64.0]))
    origin = draw(st.sampled_from([(0.0, 0.0), (12.5, 30.0)]))
    return HexLayout(g, size, origin)


@given(layouts(), st.data())
def test_pixel_round_trip_and_corners(layout, data):
    g = layout.grid
    h = data.draw(st.sampled_from(g.hexes()))
    cx, cy = layout.center(h)
    assert layout.hex_at(cx, cy) == h
    for x, y in layout.corners(h) + [layout.edge_midpoint(h, d) for d in g.direction_hours]:
        # Slightly inside each corner and each hexside midpoint still belongs to h.
        assert layout.hex_at(cx + 0.98 * (x - cx), cy + 0.98 * (y - cy)) == h


@given(layouts(), st.data())
def test_neighbour_centres_lie_at_their_clock_hour(layout, data):
    g = layout.grid
    h = data.draw(st.sampled_from(g.hexes()))
    cx, cy = layout.center(h)
    step = SQRT3 * layout.size
    for hour, n in g.neighbours(h).items():
        nx, ny = layout.center(n)
        ux, uy = HOUR_VECTORS[hour]
        assert math.isclose(math.hypot(nx - cx, ny - cy), step, rel_tol=1e-12)
        assert math.isclose(nx - cx, ux * step, abs_tol=1e-9 * step)
        assert math.isclose(ny - cy, uy * step, abs_tol=1e-9 * step)
        # The shared hexside's midpoint is halfway between the centres.
        mx, my = layout.edge_midpoint(h, hour)
        assert math.isclose(mx, (cx + nx) / 2, abs_tol=1e-9 * step)
        assert math.isclose(my, (cy + ny) / 2, abs_tol=1e-9 * step)


@given(layouts())
def test_bounding_box_is_tight(layout):
    xs, ys = [], []
    for h in layout.grid.hexes():
        for x, y in layout.corners(h):
            xs.append(x)
            ys.append(y)
    ox, oy = layout.origin
    tol = 1e-9 * layout.size * 100
    assert math.isclose(min(xs), ox, abs_tol=tol) and math.isclose(min(ys), oy, abs_tol=tol)
    assert math.isclose(max(xs), ox + layout.width, abs_tol=tol)
    assert math.isclose(max(ys), oy + layout.height, abs_tol=tol)
    assert layout.hex_at(ox - layout.size, oy - layout.size) is None
    assert layout.hex_at(math.nan, oy) is None
    assert layout.hex_at(ox + layout.width + layout.size, oy + layout.height / 2) is None


def test_vertex_geometry():
    layout = HexLayout(HexGrid("pointy", "odd"), 10.0)
    cx, cy = layout.center("0303")
    assert layout.vertex("0303", 12) == pytest.approx((cx, cy - 10.0))
    assert layout.vertex("0303", 6) == pytest.approx((cx, cy + 10.0))
    assert layout.corners("0303")[0] == layout.vertex("0303", 12)
    with pytest.raises(ValueError):
        layout.vertex("0303", 1)
    flat = HexLayout(HexGrid("flat", "odd"), 10.0)
    fx, fy = flat.center("0303")
    assert flat.vertex("0303", 3) == pytest.approx((fx + 10.0, fy))
    assert flat.corners("0303")[0] == flat.vertex("0303", 1)
    # A vertex is shared by the hex and its two neighbours either side of it.
    g = flat.grid
    v = flat.vertex("0303", 1)
    assert v == pytest.approx(flat.vertex(g.neighbour("0303", 12), 5))
    assert v == pytest.approx(flat.vertex(g.neighbour("0303", 2), 9))


# The shift convention in pixels, with printed numbers.  dx/dy are the spacings along the straight lines.
@pytest.mark.parametrize("shifted,first_row,right,left", [
    ("odd", 1, "0101", "0102"),      # odd rows half a hex right: 0101 is right of 0102
    ("odd", 0, "0101", "0100"),      # row 00 is even, so not shifted
    ("even", 1, "0102", "0101"),
    ("even", 0, "0100", "0101"),     # row 00 is even, so shifted right
])
def test_pointy_shifted_rows_sit_half_a_hex_right(shifted, first_row, right, left):
    layout = HexLayout(HexGrid("pointy", shifted, 1, first_row, 4, 4), 10.0)
    (rx, ry), (lx, ly) = layout.center(right), layout.center(left)
    assert layout.col_spacing == pytest.approx(SQRT3 * 10) and layout.row_spacing == pytest.approx(15.0)
    assert rx - lx == pytest.approx(layout.col_spacing / 2)
    assert abs(ry - ly) == pytest.approx(layout.row_spacing)
    # Rows are straight horizontal lines; columns grow to the right and rows downward.
    assert layout.center("0201")[1] == layout.center("0101")[1]
    assert layout.center("0201")[0] - layout.center("0101")[0] == pytest.approx(layout.col_spacing)
    assert layout.center("0102")[1] > layout.center("0101")[1]


@pytest.mark.parametrize("shifted,first_column,lower,upper", [
    ("odd", 1, "0101", "0201"),      # odd columns half a hex lower: 0101 is below 0201
    ("odd", 0, "0101", "0001"),
    ("even", 1, "0201", "0101"),
    ("even", 0, "0001", "0101"),     # column 00 is even, so shifted down
])
def test_flat_shifted_columns_sit_half_a_hex_lower(shifted, first_column, lower, upper):
    layout = HexLayout(HexGrid("flat", shifted, first_column, 1, 4, 4), 10.0)
    (lx, ly), (ux, uy) = layout.center(lower), layout.center(upper)
    assert layout.col_spacing == pytest.approx(15.0) and layout.row_spacing == pytest.approx(SQRT3 * 10)
    assert ly - uy == pytest.approx(layout.row_spacing / 2)
    assert abs(lx - ux) == pytest.approx(layout.col_spacing)
    assert layout.center("0102")[0] == layout.center("0101")[0]       # columns are vertical lines
    assert layout.center("0102")[1] - layout.center("0101")[1] == pytest.approx(layout.row_spacing)


def test_layout_known_values():
    # Pointy odd, 3x2 map from 0101: row 1 is shifted, so the unshifted row 2 starts at the left edge.
    layout = HexLayout(HexGrid("pointy", "odd", 1, 1, 3, 2), 10.0, origin=(5.0, 7.0))
    half = SQRT3 * 5
    assert layout.center("0102") == pytest.approx((5 + half, 7 + 10 + 15))
    assert layout.center("0101") == pytest.approx((5 + 2 * half, 17))
    assert layout.first_center == layout.center("0101")
    assert layout.width == pytest.approx(7 * half) and layout.height == pytest.approx(35.0)
    # A single shifted row: the box starts at that row.
    single = HexLayout(HexGrid("pointy", "odd", 1, 1, 3, 1), 10.0)
    assert single.center("0101") == pytest.approx((half, 10.0)) and single.width == pytest.approx(6 * half)
    flat = HexLayout(HexGrid("flat", "even", 0, 0, 2, 2), 10.0)
    assert flat.center("0000") == pytest.approx((10.0, 2 * half))      # column 00 is even: shifted down
    assert flat.center("0100") == pytest.approx((25.0, half))          # column 01 unshifted: top edge
    assert flat.width == pytest.approx(35.0) and flat.height == pytest.approx(5 * half)


def test_layout_rejects_bad_size():
    with pytest.raises(ValueError):
        HexLayout(HexGrid("flat", "odd"), 0)


# ----------------------------------------------------------------------------------- hexsides crossed

@given(grid_and_hexes(count=2, max_size=10))
def test_crossed_hexsides_join_consecutive_steps(args):
    g, a, b = args
    steps = g.line(a, b)
    crossed = g.hexsides_crossed(a, b)
    transitions = [tuple(sorted(s + t)) for s, t in zip(steps, steps[1:]) if len(s) == len(t) == 1]
    # Every crossing is a step from one hex straight into the next; the transitions left over are the
    # ones made through a vertex.  Along hexsides nothing is crossed.
    it = iter(transitions)
    assert all(side in it for side in crossed)       # a subsequence, in order
    if _is_spine(g, a, b):
        assert crossed == []
    assert g.hexsides_crossed(b, a) == crossed[::-1]


@pytest.mark.parametrize("orientation,shifted", COMBOS)
def test_crossings_known_cases(orientation, shifted):
    g = big_grid(orientation, shifted)
    a = centre_of(g)
    hour = g.direction_hours[1]
    path = _walk(g, a, hour, 4)
    assert g.hexsides_crossed(a, path[-1]) == [tuple(sorted(p)) for p in zip([a] + path, path)]
    # Cube step (4, 1, -5) passes exactly through two vertices: 6 hexes, but only 3 hexsides crossed.
    b = g.from_cube(g.to_cube(a) + Cube(4, 1, -5))
    assert len(g.line(a, b)) == 6
    assert len(g.hexsides_crossed(a, b)) == 3


def test_line_along_the_map_edge_labels_hexes_beyond_row_zero():
    g = HexGrid("flat", "odd", 0, 0, 5, 5)      # odd columns sit lower: the hexes above them are off the map
    assert g.line("0000", "0400") == [("0000",), ("01-1", "0100"), ("0200",), ("03-1", "0300"), ("0400",)]
    assert not g.contains("01-1")
    assert g.hexsides_crossed("0000", "0400") == []


def test_a_line_along_the_edge_of_column_zero_is_a_chain_of_adjacent_hexes():
    """Symptom: a line along the left edge of a map numbered from column 00 listed the off-map hex ``-102``
    (column -1) beside an on-map one, and ``adjacent`` then refused that label as a bad hex name."""
    g = HexGrid("pointy", "even", first_column=0, first_row=0, columns=2, rows=6)
    found = False
    for a in g:
        for b in g:
            steps = g.line(a, b)
            found |= any(h.startswith("-") for s in steps for h in s)
            for s, t in zip(steps, steps[1:]):
                assert all(g.adjacent(x, y) for x in s for y in t), (a, b, s, t)
    assert found
    with pytest.raises(ValueError):
        g.parse("-102")              # no hex a player can name


@given(st.floats(min_value=0.5, max_value=500), st.sampled_from(["pointy", "flat"]))
def test_across_flats_is_the_distance_between_neighbouring_centres(size: float, orientation: str) -> None:
    """A printed hex is measured across the flats; the layout's neighbours are exactly that far apart."""
    from modulebuilder.hexgrid import across_flats, size_across_flats
    layout = HexLayout(HexGrid(orientation, "odd", columns=3, rows=3), size)
    a = layout.center(layout.grid.name(2, 2))
    b = layout.center(layout.grid.neighbour(layout.grid.name(2, 2), 3 if orientation == "pointy" else 4))
    assert math.isclose(math.dist(a, b), across_flats(size), rel_tol=1e-12)
    assert math.isclose(size_across_flats(across_flats(size)), size, rel_tol=1e-12)
    assert size_across_flats(0.75 * 300) == 0.75 * 300 / math.sqrt(3)      # the 300 dpi print map's hexes
