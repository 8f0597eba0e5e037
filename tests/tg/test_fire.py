"""Artillery fire, 8.1–8.9 — gaps §17 items 14, 16, 19, 20, 22, 23; main digest §13 item 83; the §18.5
derived result table."""
from __future__ import annotations

import pytest

from referee.rulesets.triumph_and_glory.fire import (after_firing, cancelled_by_reaction_fire,
                                                     counter_battery_errors, fire_errors, fire_outcome,
                                                     fire_roll, misguided_checks, misguided_hexes, range_drm,
                                                     reaction_fire_affected, reaction_fire_errors,
                                                     reaction_fire_targets)

from .helpers import art, at, board, inf
from .helpers_combat import FR, RU

GUN = "0104"        # facing 2: front 0203 / 0204; row 4 runs straight right: 0204 0304 0404 0504 0604


def _fire(*placed, firers=("g",), target="0404", barrage=False, **kw):
    b = board(*placed, **kw)
    units = [b.unit(f) for f in firers]
    return b, fire_roll(b, units, target, barrage), fire_errors(b, units, target, barrage=barrage)


def _mods(roll):
    return [(m.value, m.rule) for m in roll.modifiers]


def test_cat_gaps_16_adjacent_fire_plus_one_at_infantry_zero_at_artillery():
    assert range_drm(1, 3, 5, target_artillery=False) == 1
    assert range_drm(1, 3, 5, target_artillery=True) == 0
    b, roll, errs = _fire(at(art("g", fire=3), GUN, facing=2), at(inf("r", RU), "0204"), target="0204")
    assert errs == [] and _mods(roll) == [(3, "8.2"), (1, "8.3")]
    b, roll, _ = _fire(at(art("g", fire=3), GUN, facing=2), at(art("r", RU), "0204"), target="0204")
    assert _mods(roll) == [(3, "8.2")]


def test_8_3_range_bands():
    assert [range_drm(d, 3, 5, False) for d in (2, 3, 4, 5, 6)] == [0, 0, -2, -4, None]


def test_cat_gaps_19_stacked_pair_fires_as_higher_plus_two():
    b, roll, errs = _fire(at(art("g", fire=4), GUN, facing=2), at(art("h", fire=3), GUN, facing=2),
                          at(inf("r", RU), "0404"), firers=("g", "h"))
    assert errs == []
    assert _mods(roll) == [(4, "8.2"), (2, "8.2")]


def test_pair_not_stacked_may_fire_together_only_in_a_barrage():
    placed = (at(art("g", fire=4), GUN, facing=2), at(art("h", fire=3), "0105", facing=2), at(inf("r", RU), "0404"))
    _, _, errs = _fire(*placed, firers=("g", "h"))
    assert [e.code for e in errs] == ["not_stacked_pair"]
    _, roll, errs = _fire(*placed, firers=("g", "h"), barrage=True)
    # h in 0105 is 4 hexes from 0404 (effective 3): the combined fire takes the worst range DRM (default)
    assert errs == [] and _mods(roll) == [(4, "8.2"), (2, "8.2"), (-2, "8.3")]


@pytest.mark.parametrize("natural,result", [(5, "none"), (6, "cohesion_check"), (9, "cohesion_check")])
def test_cat_gaps_20_fire_totals(natural, result):
    # strength 3 at range 3: total = natural + 3
    b, roll, _ = _fire(at(art("g", fire=3), GUN, facing=2), at(inf("r", RU), "0404"))
    assert roll.to_dict(natural)["modified"] == natural + 3 and roll.result(natural) == result


def test_cat_gaps_20_results_8_9_13_15_and_village():
    b = board(at(inf("r", RU, cohesion=5), "0404"), at(art("x", RU), "0404"))
    t = _fire(at(art("g"), GUN, facing=2), at(inf("r", RU), "0404"))[1].table
    assert [t.lookup(v) for v in (8, 9, 12, 13, 14, 15)] == [
        "none", "cohesion_check", "cohesion_check", "disordered", "disordered", "disordered_retreat"]
    assert fire_outcome(b, "none", "0404").effects == ()
    checks = fire_outcome(b, "cohesion_check", "0404").checks
    assert [(c.unit, c.base, c.base_rule) for c in checks] == [("r", 5, "8.5"), ("x", 5, "8.5")]
    dis = fire_outcome(b, "disordered", "0404")
    assert [(e.unit, e.effect, e.rule) for e in dis.effects] == [("r", "disordered", "8.5"), ("x", "disordered", "8.5")]
    assert not dis.retreat and fire_outcome(b, "disordered_retreat", "0404").retreat
    village = board(at(inf("r", RU), "0404"), terrain={"0404": "village"})
    assert not fire_outcome(village, "disordered_retreat", "0404").retreat


@pytest.mark.parametrize("strength,distance,bands", [
    (3, 1, {"none": "0-4", "cohesion_check": "5-8", "disordered": "9"}),
    (4, 3, {"none": "0-4", "cohesion_check": "5-8", "disordered": "9"}),
    (5, 4, {"none": "0-5", "cohesion_check": "6-9"}),
    (8, 1, {"cohesion_check": "0-3", "disordered": "4-5", "disordered_retreat": "6-9"}),
    (7, 3, {"none": "0-1", "cohesion_check": "2-5", "disordered": "6-7", "disordered_retreat": "8-9"}),
])
def test_gaps_18_5_derived_natural_rolls(strength, distance, bands):
    target = {1: "0204", 3: "0404", 4: "0504"}[distance]
    b, roll, errs = _fire(at(art("g", fire=strength), GUN, facing=2), at(inf("r", RU), target), target=target)
    assert errs == []
    got: dict[str, list[int]] = {}
    for n in range(10):
        got.setdefault(roll.result(n), []).append(n)
    assert {k: f"{v[0]}-{v[-1]}" if len(v) > 1 else str(v[0]) for k, v in got.items()} == bands


def test_massed_target_and_square():
    b, roll, _ = _fire(at(art("g", fire=3), GUN, facing=2), at(inf("r1", RU, brigade="A"), "0404"),
                       at(inf("r2", RU, brigade="A"), "0404"), at(art("x", RU), "0404"))
    assert (1, "8.9") in _mods(roll)
    sq = b.update("r1", square=True)
    assert (1, "9.85") in _mods(fire_roll(sq, [sq.unit("g")], "0404"))
    b, roll, _ = _fire(at(art("g", fire=3), GUN, facing=2), at(inf("r1", RU, brigade="A", flags=["skirmisher"]), "0404"),
                       at(inf("r2", RU, brigade="A"), "0404"))
    assert all(r != "8.9" for _, r in _mods(roll))


def test_cat_83_disordered_artillery_may_not_fire_and_legality():
    _, _, errs = _fire(at(art("g"), GUN, facing=2, status="disordered"), at(inf("r", RU), "0404"))
    assert [e.rule for e in errs] == ["9.61"]
    _, _, errs = _fire(at(art("g", max_range=5), GUN, facing=2), at(inf("r", RU), "0704"), target="0704")
    assert [e.code for e in errs] == ["out_of_range"]
    _, _, errs = _fire(at(art("g"), GUN, facing=6), at(inf("r", RU), "0404"))
    assert [e.code for e in errs] == ["outside_arc"]
    _, _, errs = _fire(at(art("g"), GUN, facing=2), at(inf("r", RU), "0404"), terrain={"0304": "woods"})
    assert [e.code for e in errs] == ["no_line_of_sight"]
    _, _, errs = _fire(at(art("g"), GUN, facing=2), at(inf("r", RU), "0404"), at(inf("s", RU), "0204"))
    assert [(e.code, e.alternatives) for e in errs] == [("adjacent_enemy_first", ("0204",))]


def test_cat_gaps_14_moved_artillery_may_not_fire_fired_artillery_half_ma():
    b = board(at(art("g", ma=5), GUN, facing=2), at(inf("r", RU), "0404"))
    moved = b.update("g", moved=True)
    assert [e.code for e in fire_errors(moved, [moved.unit("g")], "0404")] == ["moved_then_fire"]
    assert after_firing(b.unit("g")).max_mp == 3 and not after_firing(b.unit("g")).may_end_adjacent_to_enemy


def test_cat_gaps_22_reaction_fire_disorders_top_infantry_whole_stack_cancelled():
    b = board(at(inf("a1", brigade="A"), "0403", facing=6), at(inf("a2", brigade="A"), "0403", facing=6),
              at(inf("d", RU), "0404", facing=12), at(art("g", RU), "0404", facing=12))
    gun = b.unit("g")
    assert reaction_fire_targets(b, gun, ["0403"]) == ("0403",)
    assert reaction_fire_errors(b, gun, "0403", ["0404"], ["0403"]) == []
    assert [u.id for u in reaction_fire_affected(b, "0403", infantry_shock=True)] == ["a1"]
    roll = fire_roll(b, [gun], "0403")
    assert [(m.value, m.rule) for m in roll.modifiers] == [(3, "8.2"), (1, "8.3"), (1, "8.9")]
    assert cancelled_by_reaction_fire(b, "0403", ["a1"], charging=False) == ("a1", "a2")
    assert cancelled_by_reaction_fire(b, "0403", ["a1"], charging=True) == ()


def test_reaction_fire_only_at_front_hexes_and_not_when_disordered():
    b = board(at(inf("a"), "0405", facing=12), at(inf("d", RU), "0404", facing=12), at(art("g", RU), "0404", facing=12))
    assert reaction_fire_targets(b, b.unit("g"), ["0405"]) == ()
    assert [e.code for e in reaction_fire_errors(b, b.unit("g"), "0405", ["0404"], ["0405"])] == ["reaction_target"]
    dis = b.update("g", status="disordered")
    assert reaction_fire_targets(dis, dis.unit("g"), ["0405"]) == ()


def test_cat_gaps_23_counter_battery_once_and_not_when_disordered():
    b = board(at(art("f"), GUN, facing=2), at(art("r", RU), "0404", facing=10))
    r = b.unit("r")
    assert counter_battery_errors(b, r, GUN, ["f"], used_this_activation=False) == []
    assert [e.code for e in counter_battery_errors(b, r, GUN, ["f"], used_this_activation=True)] == ["counter_battery_used"]
    dis = b.update("r", status="disordered")
    assert [e.code for e in counter_battery_errors(dis, dis.unit("r"), GUN, ["f"], False)] == ["cannot_counter_battery"]


def test_8_8_misguided_friendly_fire():
    b = board(at(art("g"), GUN, facing=2), at(inf("f", cohesion=5), "0304"), at(inf("r", RU), "0404"),
              at(inf("far"), "0204"))
    assert misguided_hexes(b, GUN, "0404", FR) == ("0304",)           # 0204 is not adjacent to the target
    checks = misguided_checks(b, GUN, "0404", FR, natural=2, result="none")
    assert [(c.unit, c.base, [(m.value, m.rule) for m in c.modifiers], c.pass_max) for c in checks] == [
        ("f", 5, [(-2, "8.8")], 7)]
    assert misguided_checks(b, GUN, "0404", FR, natural=3, result="none") == ()
