"""Cavalry charges, 9.81–9.87 — gaps §17 items 31, 32, 34, 35; main digest §13 item 103."""
from __future__ import annotations

import pytest

from referee.rulesets.triumph_and_glory.charge import (charge_errors, charge_modifiers, counter_charge_errors,
                                                       counter_charge_roll, counter_charge_vs_infantry_modifier,
                                                       end_of_charge_effects, pursuers, pursuit_modifier,
                                                       recall_errors, recall_roll, square_errors, square_outcome,
                                                       square_roll)
from referee.rulesets.triumph_and_glory.rolls import Modifier

from .helpers import art, at, board, cav, inf
from .helpers_combat import DEF_HEX, RU

START = "0402"       # facing 6: front 0503 / 0403; 0404 is 2 hexes away


def _codes(errs):
    return [e.code for e in errs]


def _charge(*placed, charger=None, path=("0403",), target=DEF_HEX, facing=None, **kw):
    b = board(charger or at(cav("c", cav_type="H"), START, facing=6), *placed, **kw)
    return b, charge_errors(b, b.unit("c"), path, target, facing)


def test_legal_charge_two_hexes_away():
    b, errs = _charge(at(inf("r", RU), DEF_HEX))
    assert errs == []


def test_cat_gaps_31_cavalry_starting_in_enemy_zoc_may_not_charge():
    b, errs = _charge(at(inf("r", RU), DEF_HEX), at(inf("z", RU), "0401"))
    assert "charge_from_zoc" in _codes(errs)


def test_9_81_distance_terrain_cost_and_disorder():
    _, errs = _charge(at(inf("r", RU), "0403"), path=("0503",), target="0403")
    assert "charge_distance" in _codes(errs)
    _, errs = _charge(at(inf("r", RU), DEF_HEX), terrain={DEF_HEX: "woods"})
    assert "charge_terrain" in _codes(errs)
    _, errs = _charge(at(inf("r", RU), DEF_HEX), terrain={"0403": "cultivated"}, hexsides=[("0402", "0403", "stream")])
    assert _codes(errs) == ["charge_cost"]                               # cultivated 2 + stream 1 > 2
    b = board(at(cav("c"), START, facing=6, status="disordered"), at(inf("r", RU), DEF_HEX))
    assert "disordered_charge" in _codes(charge_errors(b, b.unit("c"), ["0403"], DEF_HEX))


def test_9_81_los_path_and_facing():
    _, errs = _charge(at(inf("r", RU), DEF_HEX), path=("0503", "0603"))
    assert _codes(errs) == ["charge_path"]                               # 0603 is not next to the target
    _, errs = _charge(at(inf("r", RU), DEF_HEX), facing=10)
    assert set(_codes(errs)) == {"charge_turn", "charge_target_not_front"}
    _, errs = _charge(at(inf("r", RU), DEF_HEX), facing=4)               # one vertex over one hex: allowed
    assert _codes(errs) == []
    _, errs = _charge(at(inf("r", RU), DEF_HEX), terrain={"0403": "woods", "0503": "woods"}, path=("0503",))
    assert "charge_no_los" in _codes(errs)


def test_9_81_not_through_a_frontal_zoc_hex_of_enemy_cavalry_but_may_end_in_one():
    # charger in 0401 (facing 6), route 0402 -> 0403, target 0404; Russian cavalry in 0502 faces 8: front 0503/0402
    start = at(cav("c"), "0401", facing=6)
    _, errs = _charge(at(inf("r", RU), DEF_HEX), at(cav("k", RU), "0502", facing=8), charger=start,
                      path=("0402", "0403"))
    assert _codes(errs) == ["through_cavalry_zoc"]
    _, errs = _charge(at(inf("r", RU), DEF_HEX), at(inf("k", RU), "0502", facing=8), charger=start,
                      path=("0402", "0403"))
    assert _codes(errs) == []


def _heavy(i):
    return board(at(cav(i, cav_type="H"), "0101")).unit(i)


def _light(i, t="L"):
    return board(at(cav(i, cav_type=t), "0101")).unit(i)


def test_cat_gaps_32_charge_drm_heavy_light_square():
    assert charge_modifiers([_heavy("h"), _light("l")]) == (Modifier(3, "9.83", "heavy cavalry charge"),)
    assert charge_modifiers([_light("l")]) == (Modifier(1, "9.83", "light cavalry charge"),)
    assert charge_modifiers([_light("k", "C")])[0].value == 1                    # cossacks are light
    assert charge_modifiers([_heavy("h")], vs_square=True) == (Modifier(-2, "9.85", "charging a square"),)


def test_cat_103_square_minus_2_countercharged_light_minus_1_pursuit_minus_1():
    assert [m.value for m in charge_modifiers([_heavy("h")], vs_square=True)] == [-2]
    assert [m.value for m in charge_modifiers([_light("l")], countered_by=[_heavy("k")])] == [-1]
    assert pursuit_modifier(1) == Modifier(-1, "9.87", "pursuit charge 1")


def test_cat_gaps_34_light_counter_charging_heavy_rolls_plus_2_success_cancels_the_plus_3():
    r = counter_charge_roll(_light("l"), [_heavy("h")])
    assert (r.purpose, r.base, [m.value for m in r.modifiers], r.pass_max) == ("counter_charge", 6, [2], 4)
    assert counter_charge_roll(_heavy("k"), [_heavy("h")]).modifiers == ()
    assert charge_modifiers([_heavy("h")], countered_by=[_light("l")]) == ()


def test_9_86_counter_charge_eligibility():
    b = board(at(cav("c"), "0403", facing=6), at(cav("d", RU), DEF_HEX, facing=12), at(cav("e", RU), "0606", facing=12))
    assert counter_charge_errors(b, b.unit("d"), ["0403"], False) == []
    assert _codes(counter_charge_errors(b, b.unit("d"), ["0405"], False)) == ["counter_charge_not_front"]
    assert _codes(counter_charge_errors(b, b.unit("d"), ["0403"], True)) == ["counter_charge_zoc"]
    assert counter_charge_vs_infantry_modifier(_heavy("h")).value == -3


def test_cat_gaps_35_pursuit_cumulative_and_disorder_only_at_the_end():
    assert [pursuit_modifier(n).value for n in (1, 2, 3)] == [-1, -2, -3]
    with pytest.raises(ValueError):
        pursuit_modifier(0)
    b = board(at(cav("h", cav_type="H", cohesion=5, brigade="X"), "0403"), at(cav("l1", cohesion=7, brigade="X"), "0403"),
              at(cav("l2", cohesion=6), "0503"))
    units = [b.unit(u) for u in ("l1", "l2", "h")]
    assert pursuers(b, units, DEF_HEX) == ("h", "l1")          # heavy first, then cohesion; 6.21 brigade rule
    dis = b.update("l2", status="disordered")
    assert [(e.unit, e.rule) for e in end_of_charge_effects(dis, [dis.unit(u) for u in ("h", "l1", "l2")],
                                                             recalled=["l1"])] == [("h", "9.84")]


def test_9_85_square():
    b = board(at(inf("r", RU, cohesion=6, brigade="A"), DEF_HEX), at(art("g", RU), DEF_HEX),
              at(cav("c"), START, facing=6))
    assert square_errors(b, DEF_HEX) == []
    r = square_roll(b, DEF_HEX)
    assert (r.purpose, r.unit, r.base, r.base_rule) == ("square", "r", 6, "9.85")
    assert [(e.unit, e.effect) for e in square_outcome(b, DEF_HEX, True)] == [("r", "square"), ("g", "square")]
    assert [(e.unit, e.effect) for e in square_outcome(b, DEF_HEX, False)] == [("r", "disordered"), ("g", "disordered")]
    zoc = board(at(inf("r", RU), DEF_HEX), at(inf("a"), "0403", facing=6))
    assert _codes(square_errors(zoc, DEF_HEX)) == ["square_in_zoc"]
    alone = board(at(art("g", RU), DEF_HEX))
    assert _codes(square_errors(alone, DEF_HEX)) == ["square_no_infantry"]
    dis = board(at(inf("r", RU), DEF_HEX, status="disordered"))
    assert _codes(square_errors(dis, DEF_HEX)) == ["square_disordered"]


def test_9_82_recall():
    c = _heavy("h")
    assert recall_errors(c, target_in_square=True, disordered_by_reaction_fire=False, pursuing=False) == []
    assert _codes(recall_errors(c, target_in_square=False, disordered_by_reaction_fire=False, pursuing=False)) == [
        "recall_not_allowed"]
    assert _codes(recall_errors(c, target_in_square=True, disordered_by_reaction_fire=False, pursuing=True)) == [
        "recall_pursuit"]
    assert (recall_roll(c).purpose, recall_roll(c).pass_max) == ("recall", 6)
