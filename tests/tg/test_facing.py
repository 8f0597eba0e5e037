"""Facing, main digest §13 catalogue items 22–31 (6.11–6.14, 9.62, 9.64), as function-level tests.

Pointy 8x8 map; a unit in 0404 facing 12 has front 0403 (11 o'clock) and 0503 (1), flank 0304 (9) and
0504 (3), rear 0405 (7) and 0505 (5).  Digest vertex k: ``k−1`` = hour 9 here, ``k+3`` = hour 5.
"""
from __future__ import annotations

import pytest

from referee.rulesets.triumph_and_glory.facing import (facing_error, flank_positions, front_hexes, is_front,
                                                       rear_hexes, required_facing, retreat_facing,
                                                       retreat_facing_errors, shared_facing_errors)

from .helpers import RU, art, at, board, cav, inf

ALL_SIX = {"0503", "0504", "0505", "0405", "0304", "0403"}


def test_cat_22_facing_a_hexside_illegal():
    b = board(at(inf("a"), "0404"))
    err = facing_error(b, 3)                       # 3 o'clock is a hexside on a pointy grid
    assert err is not None and err.rule == "6.11" and err.code == "facing_hexside"
    assert set(err.alternatives) == {12, 2, 4, 6, 8, 10}
    assert facing_error(b, 2) is None


def test_cat_22_facing_a_hexside_illegal_on_a_flat_grid():
    b = board(at(inf("a"), "0404"), orientation="flat")
    assert facing_error(b, 12).code == "facing_hexside" and facing_error(b, 1) is None


def test_cat_22_facing_that_is_not_an_hour():
    assert facing_error(board(at(inf("a"), "0404")), 0).code == "facing_not_an_hour"


def test_cat_23_two_infantry_facing_different_vertices_illegal():
    b = board(at(inf("a"), "0404", facing=12), at(inf("b"), "0404", facing=2))
    errs = shared_facing_errors(b.stack("0404"))
    assert [e.code for e in errs] == ["stack_facing_differs"] and errs[0].rule == "6.11"


def test_cat_23_artillery_and_infantry_facing_different_vertices_legal():
    b = board(at(inf("a"), "0404", facing=12), at(art("g"), "0404", facing=6))
    assert shared_facing_errors(b.stack("0404")) == []


def test_cat_23_required_facing_when_joining_a_stack():
    b = board(at(inf("a"), "0404", facing=4), at(inf("b"), "0101"), at(art("g"), "0102"))
    assert required_facing(b, b.unit("b"), "0404") == 4
    assert required_facing(b, b.unit("g"), "0404") is None        # 6.14


def test_standard_facing_front_and_rear():
    b = board(at(inf("a"), "0404", facing=12))
    a = b.unit("a")
    assert set(front_hexes(b, a, "attacker")) == {"0403", "0503"}
    assert set(rear_hexes(b, a, "defender")) == {"0304", "0504", "0405", "0505"}   # flank counts as rear
    assert set(flank_positions(b, a)) == {"0304", "0504"}


@pytest.mark.parametrize("role", ["attacker", "defender", "firer", "zoc"])
def test_cat_25_infantry_in_a_village_has_all_six_hexes_as_front(role):
    b = board(at(inf("a"), "0404", facing=12), terrain={"0404": "village"})
    a = b.unit("a")
    assert set(front_hexes(b, a, role)) == ALL_SIX
    assert rear_hexes(b, a, role) == ()                 # [9.54] rear DRMs can never apply
    assert flank_positions(b, a) == ()                   # nor the 9.53 flank test


def test_cat_25_infantry_in_a_redoubt_also_all_round():
    b = board(at(inf("a"), "0404", facing=12), terrain={"0404": "redoubt"})
    assert is_front(b, b.unit("a"), "0405", "defender")


def test_cat_26_artillery_alone_in_a_village_has_standard_facing():
    b = board(at(art("g"), "0404", facing=12), terrain={"0404": "village"})
    g = b.unit("g")
    assert set(front_hexes(b, g, "firer")) == {"0403", "0503"}
    assert set(rear_hexes(b, g, "defender")) == {"0304", "0504", "0405", "0505"}


@pytest.mark.parametrize("role", ["attacker", "defender", "firer"])
def test_9_85_a_square_is_all_front_for_combat_and_fire_its_artillery_too(role):
    b = board(at(inf("a"), "0404", facing=12), at(art("g"), "0404", facing=12))
    b = b.update_many({"a": {"square": True}, "g": {"square": True}})
    for uid in ("a", "g"):
        u = b.unit(uid)
        assert set(front_hexes(b, u, role)) == ALL_SIX and rear_hexes(b, u, role) == ()   # no [9.54] rear DRM
        assert set(flank_positions(b, u)) == {"0304", "0504"}   # the 9.53 test as in the worked charge example
    plain = board(at(art("g"), "0404", facing=12)).unit("g")
    assert set(front_hexes(board(at(art("g"), "0404", facing=12)), plain, role)) == {"0403", "0503"}


def test_good_order_defending_cavalry_counts_flank_as_front():
    b = board(at(cav("c"), "0404", facing=12))
    c = b.unit("c")
    assert set(front_hexes(b, c, "defender")) == {"0403", "0503", "0304", "0504"}
    assert set(rear_hexes(b, c, "defender")) == {"0405", "0505"}


def test_cat_28_disordered_cavalry_defender_hex_k_minus_1_is_rear():
    b = board(at(cav("c"), "0404", facing=12, status="disordered"))
    c = b.unit("c")
    assert not is_front(b, c, "0304", "defender")        # k-1 = 9 o'clock
    assert not is_front(b, c, "0505", "defender")        # k+3 = 5 o'clock
    assert set(rear_hexes(b, c, "defender")) == {"0304", "0504", "0405", "0505"}


def test_cat_29_good_order_cavalry_attacking_may_not_assault_hex_k_minus_1():
    b = board(at(cav("c"), "0404", facing=12), at(inf("r", side=RU), "0304"))
    c = b.unit("c")
    assert not is_front(b, c, "0304", "attacker")
    assert is_front(b, c, "0403", "attacker")


def test_cat_31_retreating_unit_may_not_turn():
    b = board(at(inf("a"), "0404", facing=12))
    a = b.unit("a")
    assert retreat_facing(b, a, "0405") == 12
    errs = retreat_facing_errors(b, a, "0405", 2)
    assert [(e.rule, e.code) for e in errs] == [("9.62", "retreat_keeps_facing")]
    assert retreat_facing_errors(b, a, "0405", 12) == []


def test_cat_31_retreat_into_friends_takes_their_facing():
    b = board(at(inf("a"), "0404", facing=12), at(inf("f"), "0405", facing=8))
    a = b.unit("a")
    assert retreat_facing(b, a, "0405") == 8
    errs = retreat_facing_errors(b, a, "0405", 12)
    assert [(e.rule, e.code, e.alternatives) for e in errs] == [("9.64", "retreat_take_facing", (8,))]
    assert retreat_facing_errors(b, a, "0405", 8) == []


def test_retreat_into_a_hex_with_only_artillery_keeps_own_facing():
    b = board(at(inf("a"), "0404", facing=12), at(art("g"), "0405", facing=8))
    assert retreat_facing(b, b.unit("a"), "0405") == 12
