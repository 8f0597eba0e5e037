"""Victory: Borodino VP and the Schevardino redoubt — gaps §17 item 40 (VP part), §13."""
from __future__ import annotations

from dataclasses import replace

from modulebuilder.model import ActivationGroup, frozen_mapping
from referee.rulesets.triumph_and_glory.board import Board
from referee.rulesets.triumph_and_glory.victory import (borodino_vp, redoubt_hex, schevardino_winner,
                                                        vp_totals, winner)

from .helpers import at, board, inf, scenario
from .helpers_combat import FR, RU

AGS = (ActivationGroup("i-corps", "I Corps", FR, "#000000", 6),
       ActivationGroup("old-guard", "Old Guard", FR, "#000000", None, flags=frozenset({"guard"})),
       ActivationGroup("ii-inf", "II Corps", RU, "#000000", 5),
       ActivationGroup("ru-guard", "V Corps (Guard)", RU, "#000000", 5, flags=frozenset({"guard"})))


def _board(*placed, **kw):
    units = (at(inf("f", ag="i-corps"), "0101"), at(inf("g", ag="old-guard"), "0102"),
             at(inf("r", RU, ag="ii-inf"), "0808"), at(inf("v", RU, ag="ru-guard"), "0807"))
    return board(*units, *placed, ags=AGS, columns=40, rows=20, **kw)


def test_cat_gaps_40_ten_vp_for_hex_3417_and_vp_per_collapse():
    b = _board(at(inf("x", ag="i-corps"), "3417"))
    awards = borodino_vp(b, ["ii-inf", "i-corps"])
    assert [(a.side, a.vp) for a in awards] == [(FR, 3), (RU, 4), (FR, 10)]
    assert vp_totals(awards) == {FR: 13, RU: 4} and winner(vp_totals(awards)) == FR


def test_guard_ags_are_worth_10():
    b = _board()
    assert [(a.side, a.vp) for a in borodino_vp(b, ["old-guard", "ru-guard"])] == [(RU, 10), (FR, 10)]
    assert winner({FR: 10, RU: 10}) is None                       # tie rule unknown: no winner


def test_schevardino_occupy_the_redoubt():
    sc = scenario(at(inf("f"), "0404"), at(inf("r", RU), "0606"), terrain={"0404": "redoubt"})
    b = Board.from_scenario(sc)
    assert redoubt_hex(b) == "0404" and schevardino_winner(b) == FR
    named = replace(sc, map=replace(sc.map, names=frozen_mapping({"0606": "Schevardino"}),
                                    terrain=frozen_mapping({"0404": "redoubt", "0606": "redoubt"})))
    b = Board.from_scenario(named)
    assert redoubt_hex(b) == "0606" and schevardino_winner(b) == RU
    assert schevardino_winner(b, "0101") is None
