"""Line of sight and firing arc, 8.4 — gaps §17 item 17 and the 8.4 rules."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from referee.rulesets.triumph_and_glory.los import LosOptions, in_fire_arc, line_of_sight

from .helpers import art, at, board, inf

ROW = ["0104", "0204", "0304", "0404", "0504", "0604"]     # a straight line along row 4


def test_cat_gaps_17_woods_between_two_level_0_hexes_blocks_both_ends_higher_clear():
    b = board(terrain={"0304": "woods"})
    s = line_of_sight(b, "0104", "0504")
    assert (s.clear, s.blocked_by) == (False, "0304")
    high = board(terrain={"0304": "woods"}, elevation={"0104": 1, "0504": 1})
    assert line_of_sight(high, "0104", "0504").clear


def test_only_firer_higher_woods_block_at_midpoint_or_nearer_target():
    # firer 0104 on level 1; woods at 0204 (near the firer) do not block, at 0304 (midpoint) and 0404 do
    for woods, clear in (("0204", True), ("0304", False), ("0404", False)):
        b = board(terrain={woods: "woods"}, elevation={"0104": 1})
        assert line_of_sight(b, "0104", "0504").clear is clear, woods
        # seen from the other end the target is the higher one: the same answer (symmetry)
        assert line_of_sight(b, "0504", "0104").clear is clear, woods


def test_hex_higher_than_both_ends_blocks_higher_than_one_does_not():
    assert not line_of_sight(board(elevation={"0304": 1}), "0104", "0504").clear
    assert line_of_sight(board(elevation={"0304": 1, "0104": 1}), "0104", "0504").clear


def test_units_and_villages_never_block_and_range_1_needs_no_los():
    b = board(at(inf("x"), "0304"), terrain={"0304": "village", "0204": "woods"})
    assert line_of_sight(b, "0204", "0504").clear
    assert line_of_sight(b, "0104", "0204").clear                     # adjacent


def test_steep_slope_hexside_crossed_blocks():
    b = board(hexsides=[("0304", "0404", "steep_slope")])
    s = line_of_sight(b, "0104", "0604")
    assert (s.clear, s.blocked_by) == (False, "0304|0404")
    assert line_of_sight(board(hexsides=[("0304", "0404", "dirt_wall")]), "0104", "0604").clear


def test_line_along_a_hexside_blocked_only_if_both_sides_block_by_default():
    # 0404 -> 0406 runs along the hexside 0405|0505
    one = board(terrain={"0405": "woods"})
    both = board(terrain={"0405": "woods", "0505": "woods"})
    assert line_of_sight(one, "0404", "0406").clear
    assert not line_of_sight(both, "0404", "0406").clear
    assert not line_of_sight(one, "0404", "0406", LosOptions(along_hexside="either")).clear
    slope = board(hexsides=[("0405", "0505", "steep")])
    assert line_of_sight(slope, "0404", "0406").blocked_by == "0405|0505"


HEXES = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(HEXES), st.sampled_from(HEXES), st.sets(st.sampled_from(HEXES), max_size=12),
       st.dictionaries(st.sampled_from(HEXES), st.integers(0, 2), max_size=8))
def test_los_symmetric_when_neither_end_is_higher(a, b, woods, elevation):
    elevation = {h: v for h, v in elevation.items() if h not in (a, b)}
    elevation.update({a: 1, b: 1})
    bd = board(terrain={h: "woods" for h in woods}, elevation=elevation)
    assert line_of_sight(bd, a, b).clear == line_of_sight(bd, b, a).clear


def test_fire_arc_frontal_hexsides_and_their_outer_corners():
    b = board(at(art("g"), "0404", facing=12))          # front 0403 (11) and 0503 (1)
    g = b.unit("g")
    assert in_fire_arc(b, g, "0403") and in_fire_arc(b, g, "0503")
    assert in_fire_arc(b, g, "0402")                     # straight up through vertex 12: inside
    assert not in_fire_arc(b, g, "0504") and not in_fire_arc(b, g, "0405")
    assert not in_fire_arc(b, g, "0104")                 # along row 4 to the left: leaves through 9 o'clock
    # a line leaving exactly through an outer corner (vertex 10, between 9 and 11) is inside the arc
    assert in_fire_arc(b, g, "0303")                     # first step: the hexside 0304|0403
    assert not in_fire_arc(b, g, "0605")                 # through vertex 4: outside


def test_artillery_in_village_keeps_standard_arc():
    b = board(at(art("g"), "0404", facing=12), terrain={"0404": "village"})
    assert not in_fire_arc(b, b.unit("g"), "0405")
