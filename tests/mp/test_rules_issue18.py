"""Issue #18 points 3 and 4 for Musket & Pike: a ruling cites the rule of every check that decided it (a
Column's extra movement 6.3.4, movement hits 6.3.1), fire and melee are declarations the excerpt partly rules
(6.2.3, 6.3.4) with the missing resolution awaited; and DESIGN §5's ``draw`` with ``marker``."""
from __future__ import annotations

import pytest

from referee.logs import InputError
from referee.logs.jsonlog import parse_log

from .helpers import draw, last, run, scenario, unit, unit_view


def _fire(uid, target, **more):
    return {"type": "fire", "unit": uid, "target": target, **more}


# ------------------------------------------------------------------------------------------------ fire

def test_6_3_4_a_column_may_not_fire():
    s = scenario(unit("c", "hi", "0505", 12, formation="column"), unit("e", "hi", "0504", 6, side="Imperial"))
    r = last(s, draw(), _fire("c", "0504"))
    assert r["verdict"] == "illegal"
    assert r["errors"][0]["rule"] == "6.3.4" and r["errors"][0]["code"] == "column_may_not_fire"


def test_6_2_3_artillery_that_turned_instead_of_firing_may_not_fire():
    s = scenario(unit("g", "art", "0505", 12), unit("e", "hi", "0504", 6, side="Imperial"))
    rulings, state = run(s, draw(), {"type": "face", "unit": "g", "facing": 2}, _fire("g", "0504"))
    assert rulings[1]["verdict"] == "legal" and unit_view(state, "g")["fired"] is True
    assert rulings[2]["verdict"] == "illegal"
    assert (rulings[2]["errors"][0]["rule"], rulings[2]["errors"][0]["code"]) == ("6.2.3", "on_fired_side")


def test_6_2_3_artillery_that_fires_is_on_its_fired_side_and_the_resolution_is_awaited():
    s = scenario(unit("g", "art", "0505", 12), unit("e", "hi", "0504", 6, side="Imperial"))
    rulings, state = run(s, draw(), _fire("g", "0504"))
    r = rulings[1]
    assert r["verdict"] == "legal" and r["rules"] == ["6.2.3", "10.x"]
    assert {"unit": "g", "effect": "fired", "rule": "6.2.3"} in r["results"]
    assert r["awaiting"] == [{"type": "fire_resolution", "side": None, "unit": "g", "rule": "10.x"}]
    assert unit_view(state, "g")["fired"] is True


def test_6_3_4_fire_at_a_column_breaks_it_and_its_morale_check_comes_before_the_fire_result():
    s = scenario(unit("m", "li", "0505", 12), unit("c", "hi", "0504", 6, side="Imperial", formation="column"))
    rulings, state = run(s, draw(), _fire("m", "0504"))
    r = rulings[1]
    assert r["verdict"] == "legal" and "6.3.4" in r["rules"]
    assert {"unit": "c", "effect": "broken", "rule": "6.3.4", "cause": "musket"} in r["results"]
    assert [a["type"] for a in r["awaiting"]] == ["morale_check", "fire_resolution"]
    assert unit_view(state, "c")["formation"] == "broken"


def test_6_3_2_a_hedgehog_may_not_fire():
    s = scenario(unit("p", "pike", "0505", 12, formation="hedgehog"), unit("e", "hi", "0504", 6, side="Imperial"))
    r = last(s, draw(), _fire("p", "0504"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("6.3.2", "hedgehog_may_not_fire")


def test_9_4_reaction_fire_is_the_other_sides_in_the_enemys_activation():
    s = scenario(unit("m", "li", "0505", 12), unit("e", "li", "0504", 6, side="Imperial"))
    ok = last(s, draw(), _fire("e", "0505", side="Imperial", reaction=True))
    assert ok["verdict"] == "legal" and ok["rules"][0] == "9.4"
    own = last(s, draw(), _fire("m", "0504", reaction=True))
    assert own["errors"][0]["code"] == "own_activation"
    # Not a reaction: only the activated wing fires.
    other = last(s, draw(), _fire("e", "0505", side="Imperial"))
    assert other["errors"][0]["code"] == "not_your_activation"


def test_fire_needs_an_enemy_in_the_target_hex():
    s = scenario(unit("m", "li", "0505", 12), unit("e", "li", "0504", 6, side="Imperial"))
    r = last(s, draw(), _fire("m", "0404"))
    assert r["errors"][0]["code"] == "no_enemy_target"


def test_a_log_with_fire_is_ruled_not_refused_as_bad_input():
    doc = {"scenario": "mp-sample", "events": [
        {"type": "open_order_setup", "side": "Swedish", "units": []},
        {"type": "open_order_setup", "side": "Imperial", "units": []},
        {"type": "draw", "marker": "sw-centre"},
        {"type": "fire", "side": "Swedish", "unit": "sw-regt-guns", "target": "0503"}]}
    log = parse_log(doc)
    assert [e["type"] for e in log.events][-1] == "fire"


# ----------------------------------------------------------------------------------------------- melee

def test_melee_declares_one_melee_and_awaits_its_resolution():
    s = scenario(unit("h", "hi", "0505", 12), unit("e", "hi", "0504", 6, side="Imperial"))
    r = last(s, draw(), {"type": "melee", "attackers": ["h"], "target": "0504"})
    assert r["verdict"] == "legal"
    assert r["awaiting"] == [{"type": "melee", "side": None, "rule": "11.x"}]
    assert r["results"][0]["effect"] == "attack_aspect" and r["results"][0]["aspect"] == "front"


def test_6_3_4_a_column_may_not_start_a_melee_event():
    s = scenario(unit("c", "hi", "0505", 12, formation="column"), unit("e", "hi", "0504", 6, side="Imperial"))
    r = last(s, draw(), {"type": "melee", "attackers": ["c"], "target": "0504"})
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("6.3.4", "may_not_start_melee")


# ------------------------------------------------------------------------------------- rules that decided

def test_6_3_4_a_column_move_cites_its_extra_movement():
    # MA 4 + 2 in Column: six clear hexes straight ahead are legal, and the ruling says why.
    s = scenario(unit("c", "hi", "0509", 12, formation="column"))
    r = last(s, draw(), {"type": "move", "unit": "c", "path": ["0508"]})
    assert r["verdict"] == "legal" and "6.3.4" in r["rules"]


def test_6_3_1_movement_hits_cite_6_3_1_even_when_the_formation_ignores_them():
    woods = {"0504": "woods"}
    normal = last(scenario(unit("h", "hi", "0505", 12), terrain=woods), draw(),
                  {"type": "move", "unit": "h", "path": ["0504"]})
    assert normal["rules"] == ["G-M3", "6.3.1"]
    column = last(scenario(unit("c", "hi", "0505", 12, formation="column"), terrain=woods), draw(),
                  {"type": "move", "unit": "c", "path": ["0504"]})
    assert column["rules"] == ["G-M3", "6.3.4", "6.3.1"]
    assert [x["effect"] for x in column["results"]] == ["moved"]           # no hit taken
    open_ = last(scenario(unit("o", "li", "0505", 12, formation="open_order"), terrain=woods), draw(),
                 {"type": "move", "unit": "o", "path": ["0504"]})
    assert open_["rules"] == ["G-M3", "6.3.1", "6.3.3"]


def test_a_move_over_clear_ground_cites_no_hit_rule():
    r = last(scenario(unit("h", "hi", "0505", 12)), draw(), {"type": "move", "unit": "h", "path": ["0504"]})
    assert r["rules"] == ["G-M3"]


# ------------------------------------------------------------------------------------------ DESIGN §5 draw

def test_draw_takes_the_marker_field_and_wing_stays_an_alias():
    s = scenario(unit("h", "hi", "0505", 12))
    assert last(s, {"type": "draw", "marker": "sw"})["verdict"] == "legal"
    assert last(s, {"type": "draw", "wing": "sw"})["verdict"] == "legal"
    both = last(s, {"type": "draw", "marker": "sw", "wing": "im"})
    assert both["errors"][0]["code"] == "marker_and_wing_differ"


def test_draw_of_an_unknown_marker_is_bad_input():
    with pytest.raises(InputError) as exc:
        parse_log({"scenario": "mp-sample", "events": [{"type": "draw", "marker": "nobody"}]})
    assert "events[0].marker: no wing 'nobody' in the scenario" in exc.value.problems


def test_draw_without_marker_or_wing_is_bad_input():
    with pytest.raises(InputError):
        parse_log({"scenario": "mp-sample", "events": [{"type": "draw"}]})


# ------------------------------------------------------------------------------------- engine guards

def test_an_event_after_the_last_turn_is_refused_as_game_over():
    s = scenario(unit("h", "hi", "0505", 12), unit("e", "hi", "0101", 6, side="Imperial"), turns=1)
    rulings, state = run(s, draw("sw"), {"type": "end_activation"}, draw("im"), {"type": "end_activation"},
                         draw("sw"))
    assert state.over
    assert rulings[-1]["errors"][0]["code"] == "game_over"


# ------------------------------------------------------------------------------------------ issue #13

def test_a_musket_and_pike_scenario_without_any_triumph_and_glory_field_is_ruled():
    """Issue #13's first symptom: no io_rating, markers, orders_rating, drm, command_range, assault, cohesion
    or dfe anywhere — the scenario loads and its events are ruled."""
    from modulebuilder.definitions import load_resolved
    from .helpers import GRID
    doc = {"ruleset": "musket-and-pike",
           "map": {"grid": GRID, "terrain": {"default": "clear"}},
           "activation_groups": [{"id": "sw", "name": "Swedish wing", "side": "Swedish", "colour": "#1f4fa0"},
                                 {"id": "im", "name": "Imperial wing", "side": "Imperial", "colour": "#8a1c1c"}],
           "leaders": [{"id": "gus", "name": "Gustavus", "side": "Swedish", "hex": "0506"}],
           "units": [{"id": "h", "name": "Blue Brigade", "kind": "infantry", "side": "Swedish", "ag": "sw", "ma": 4,
                      "flags": ["heavy", "pikes"], "hex": "0505", "facing": 12},
                     {"id": "c", "name": "Croats", "kind": "cavalry", "side": "Imperial", "ag": "im", "ma": 8,
                      "hex": "0502", "facing": 6}],
           "sides": {"Swedish": {}, "Imperial": {}}, "turns": 2}
    scn = load_resolved(doc)
    rulings, state = run(scn, {"type": "draw", "marker": "sw"}, {"type": "move", "unit": "h", "path": ["0504"]},
                         {"type": "change_formation", "unit": "h", "to": "hedgehog"})
    assert [r["verdict"] for r in rulings] == ["legal", "legal", "illegal"]     # 1 MP + 4 MP > 4 (6.3.2b)
    assert rulings[2]["errors"][0]["rule"] == "6.3.2"
    assert unit_view(state, "h")["hex"] == "0504"


# ------------------------------------------------------------------- fire in DESIGN §5's form (units, roll)

def test_design_5_fire_with_units_and_roll_is_ruled_like_fire_with_unit():
    s = scenario(unit("g", "art", "0505", 12), unit("e", "hi", "0504", 6, side="Imperial"))
    rulings, state = run(s, draw(), {"type": "fire", "units": ["g"], "target": "0504", "roll": 7})
    r = rulings[1]
    assert r["verdict"] == "legal" and r["rules"] == ["6.2.3", "10.x"]
    assert {"unit": "g", "effect": "fired", "rule": "6.2.3"} in r["results"]
    assert r["rolls"] == [{"purpose": "fire", "unit": "g", "side": "Swedish", "die": "d10", "natural": 7,
                           "modifiers": [], "modified": 7, "result": None}]
    assert r["awaiting"] == [{"type": "fire_resolution", "side": None, "unit": "g", "rule": "10.x"}]
    assert unit_view(state, "g")["fired"] is True


def test_design_5_fire_units_are_each_checked_6_3_4():
    s = scenario(unit("m", "li", "0505", 12), unit("c", "hi", "0605", 12, formation="column"),
                 unit("e", "hi", "0504", 6, side="Imperial"))
    r = last(s, draw(), {"type": "fire", "units": ["m", "c"], "target": "0504"})
    assert (r["verdict"], r["errors"][0]["code"]) == ("illegal", "column_may_not_fire")


def test_design_5_fire_roll_off_the_die_is_bad_input():
    doc = {"scenario": "mp-sample", "events": [
        {"type": "draw", "marker": "sw-centre"},
        {"type": "fire", "side": "Swedish", "units": ["sw-regt-guns"], "target": "0503", "roll": 10}]}
    with pytest.raises(InputError, match="roll"):
        parse_log(doc)
