"""Zones of control (6.31–6.35): who projects one, where it stops, frontal ZOC hexes.

Gaps digest §17 items 1, 2 and 4 are also checked through ``check_move`` in test_movement.py.
"""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.zoc import (enemy_zoc_hexes, exerts_zoc, in_enemy_frontal_zoc,
                                                    in_enemy_zoc, zoc_hexes, zoc_sources)

from .helpers import FR, RU, art, at, board, cav, inf, leader

AROUND_0404 = {"0503", "0504", "0505", "0405", "0304", "0403"}


def test_cat_gaps_1_good_order_infantry_controls_all_six_hexes():
    b = board(at(inf("r", side=RU), "0404", facing=12))
    assert set(zoc_hexes(b, b.unit("r"))) == AROUND_0404
    assert all(in_enemy_zoc(b, h, FR) for h in AROUND_0404)
    assert not in_enemy_zoc(b, "0404", RU)                 # own side: not an enemy ZOC


def test_cat_gaps_2_disordered_unit_has_no_zoc():
    b = board(at(inf("r", side=RU), "0404", status="disordered"))
    assert not exerts_zoc(b.unit("r")) and not in_enemy_zoc(b, "0405", FR)


def test_artillery_militia_square_and_cinc_have_no_zoc():
    b = board(at(art("g", side=RU), "0202"), at(inf("m", side=RU, flags=["militia"]), "0606"),
              at(leader("kut", side=RU), "0404"), at(cav("c", side=RU), "0707"))
    assert enemy_zoc_hexes(b, FR) == frozenset(b.neighbours("0707"))
    sq = b.update("c", square=True)
    assert enemy_zoc_hexes(sq, FR) == frozenset()


def test_cat_gaps_4_zoc_does_not_cross_a_bridge():
    b = board(at(inf("r", side=RU), "0404"), hexsides=[("0404", "0405", "bridge")])
    assert not in_enemy_zoc(b, "0405", FR)
    assert in_enemy_zoc(b, "0505", FR)


def test_zoc_does_not_cross_a_river_but_crosses_a_stream_and_a_ford():
    b = board(at(inf("r", side=RU), "0404"),
              hexsides=[("0404", "0405", "river"), ("0404", "0505", "stream"), ("0404", "0304", "ford")])
    assert not in_enemy_zoc(b, "0405", FR)
    assert in_enemy_zoc(b, "0505", FR) and in_enemy_zoc(b, "0304", FR)


def test_frontal_zoc_uses_the_standard_front_even_for_good_order_cavalry():
    b = board(at(cav("c", side=RU), "0404", facing=12))
    assert in_enemy_frontal_zoc(b, "0403", FR) and in_enemy_frontal_zoc(b, "0503", FR)
    assert not in_enemy_frontal_zoc(b, "0304", FR)          # flank: ZOC but not frontal
    assert in_enemy_zoc(b, "0304", FR)


def test_frontal_zoc_of_infantry_in_a_village_is_all_round():
    b = board(at(inf("r", side=RU), "0404", facing=12), terrain={"0404": "village"})
    assert all(in_enemy_frontal_zoc(b, h, FR) for h in AROUND_0404)


def test_zoc_sources_lists_every_controlling_unit_and_is_memoised():
    b = board(at(inf("r1", side=RU), "0404"), at(inf("r2", side=RU), "0406"))
    assert {u.id for u in zoc_sources(b, "0405", FR)} == {"r1", "r2"}
    assert zoc_sources(b, "0405", FR) is zoc_sources(b, "0405", FR)
