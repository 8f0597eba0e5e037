"""Geometric invariants of [6.1] and 6.2.x on every hex and facing of both grid orientations."""
from __future__ import annotations

from hypothesis import given, strategies as st

from modulebuilder.hexgrid import HexGrid
from referee.rulesets.musket_and_pike import RULESET
from referee.rulesets.musket_and_pike.facing import adjacent_hexes, footprint, zones
from referee.rulesets.musket_and_pike.facing_changes import counter_march, wheel
from referee.rulesets.musket_and_pike.profile import Arm, Profile
from referee.rulesets.musket_and_pike.state import UnitState

GRIDS = (HexGrid("pointy", "even", 1, 1, 12, 12), HexGrid("flat", "odd", 1, 1, 12, 12))
INNER = [f"{c:02d}{r:02d}" for c in range(3, 11) for r in range(3, 11)]     # both halves and neighbours on the map


def _profile(size: int) -> Profile:
    return Profile(id="u", name="u", side="S", wing="w", arm=Arm.HEAVY, size=size, pikes=True, ma=4)


situations = st.tuples(st.sampled_from(GRIDS), st.sampled_from(INNER), st.integers(0, 5))


def _facing(grid: HexGrid, i: int) -> int:
    return grid.vertex_hours[i]


@given(situations)
def test_single_hex_zones_split_the_six_neighbours_two_two_two(s):
    grid, hex_, i = s
    z = zones(grid, _profile(1), UnitState(hex=hex_, facing=_facing(grid, i), formation="normal"))
    assert (len(z.front), len(z.flank), len(z.rear)) == (2, 2, 2)
    assert set(z.front) | set(z.flank) | set(z.rear) == set(grid.neighbours(hex_).values())


@given(situations, st.sampled_from(["normal", "hedgehog", "column"]))
def test_two_hex_zones_cover_the_eight_surrounding_hexes_once(s, formation):
    grid, hex_, i = s
    u = UnitState(hex=hex_, facing=_facing(grid, i), formation=formation)
    z = zones(grid, _profile(2), u)
    around = adjacent_hexes(grid, footprint(grid, _profile(2), u))
    parts = [*z.front, *z.flank, *z.rear]
    assert len(parts) == len(set(parts)) == len(around) == 8 and set(parts) == around
    if formation == "normal":
        assert (len(z.front), len(z.flank), len(z.rear)) == (3, 2, 3)


@given(situations, st.sampled_from([-2, 2]))
def test_a_wheel_keeps_one_half_and_moves_the_other_into_the_old_centre_front(s, turn):
    grid, hex_, i = s
    f = _facing(grid, i)
    before = UnitState(hex=hex_, facing=f, formation="normal")
    old = footprint(grid, _profile(2), before)
    centre = zones(grid, _profile(2), before).front[1]
    w = wheel(grid, hex_, f, (f + turn - 1) % 12 + 1)
    new = footprint(grid, _profile(2), UnitState(hex=w.left, facing=w.facing, formation="normal"))
    assert len(set(old) & set(new)) == 1 and set(new) - set(old) == {centre} == {w.entered}


@given(situations, st.sampled_from([1, 2]))
def test_counter_marching_twice_is_no_change_and_keeps_the_footprint(s, size):
    grid, hex_, i = s
    u = UnitState(hex=hex_, facing=_facing(grid, i), formation="normal")
    h1, f1 = counter_march(grid, _profile(size), u)
    once = UnitState(hex=h1, facing=f1, formation="normal")
    assert set(footprint(grid, _profile(size), once)) == set(footprint(grid, _profile(size), u))
    assert counter_march(grid, _profile(size), once) == (u.hex, u.facing)


def test_every_event_type_in_the_schema_has_a_handler_and_back():
    assert set(RULESET.event_schema()["$defs"]["events"]["properties"]) == set(RULESET.verbs.types())
