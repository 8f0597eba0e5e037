"""The scenario's own words: a scenario whose procedure replaces the Borodino sequence of play (Schevardino's
command activation, SCH-COMMAND: no orders, no activation markers) is refused in its own words; units by their
printed names, never an internal marker id (``side:French``); shock results in words, not table codes; a die
nothing owed says what the rules did instead (9.25: artillery shocked alone is eliminated without a roll)."""
from __future__ import annotations

from referee.report import ruling_lines, words_for, wording_of
from referee.engine.ruling import Ruling
from referee.report import ruling_from_dict
from referee.rulesets.triumph_and_glory import RULESET

from .games import FR, RU, ag, art, at, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX, FRONT_L
from .test_sequence import schevardino_like


def _errors(r):
    return [(e["rule"], e["code"], e["message"]) for e in r["errors"]]


def test_sch_command_orders_and_markers_are_refused_in_the_scenarios_words():
    p = play(schevardino_like())
    name = p.state.static.scenario.name
    r = p("orders", side=FR, under_orders=["c1"])
    assert _errors(r) == [("SCH-COMMAND", "not_in_this_scenario",
                           f"{name} has no orders: every unit of an active command is Under Orders")]
    r = p("draw", marker="fr-a")
    assert r["errors"][0]["code"] == "not_in_this_scenario"
    assert "has no activation markers" in r["errors"][0]["message"]
    assert "AM" not in r["errors"][0]["message"] and "3.0 A" not in r["errors"][0]["message"]
    r = p("individual_order", side=FR, unit="c1")
    assert r["errors"][0]["code"] == "not_in_this_scenario"


def test_sch_command_a_move_before_the_sides_step_is_not_told_to_wait_for_an_am():
    p = play(schevardino_like())
    r = p("move", side=FR, unit="c1", path=["0605"])
    assert r["errors"][0]["code"] == "no_activation"
    assert "Movement and Combat step" in r["errors"][0]["message"] and "AM" not in r["errors"][0]["message"]


def test_sch_command_a_unit_outside_the_active_commands_is_named_not_the_marker_id():
    p = play(schevardino_like())
    p.ok("activate_command", side=FR, command="morand")
    r = p("move", side=FR, unit="v1", path=["0807"])
    assert _errors(r) == [("SCH-COMMAND", "not_activated", "v1 is not in one of French's active commands")]
    words = words_for(p.state.static.scenario, RULESET)
    line = "\n".join(ruling_lines(ruling_from_dict(r), {"type": "move", "side": FR, "unit": "v1"}, words))
    assert "side:" not in line


def test_a_shock_result_is_worded_not_coded_in_the_report():
    from referee.engine.ruling import table_roll
    from referee.report import shock_lines
    from types import SimpleNamespace
    roll = table_roll("shock", 8, "defender_disordered_retreat_check", side=FR)
    object.__setattr__(roll, "detail", SimpleNamespace(attackers=[("a", "A", FRONT_L)], defenders={DEF_HEX: []},
                                                       label="shock", odds=None, bands={}))
    object.__setattr__(roll, "targets", [{"hex": DEF_HEX, "modifiers": [], "modified": 8,
                                          "result": "defender_disordered_retreat_check"}])
    text = "\n".join(shock_lines(roll, words_for(None, RULESET)))
    assert "→ every defender Disordered and checks for retreat" in text
    assert "defender_disordered_retreat_check" not in text


def test_9_25_a_die_sent_after_artillery_shocked_alone_says_the_shock_needed_none():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                           at(inf("b1", assault=7, cohesion=6), FRONT_L, facing=6),
                           at(art("g", RU, ag="ru-2"), DEF_HEX, facing=12),
                           ags=[ag("i-corps"), ag("ru-2", RU, io=4)]))
    p.ok("orders", side=FR, under_orders=["b1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    r = p.ok("shock", side=FR, assault=0)
    assert r["rolls"] == [] and {"unit": "g", "effect": "eliminated", "rule": "9.25"} in r["results"]
    r = p("roll", roll=4)
    assert r["errors"][0]["code"] == "no_roll_owed"
    assert r["errors"][0]["message"] == (
        f"no roll is owed now: the shock just ruled (event {r['index'] - 1}) needed none: artillery alone in a hex "
        "is eliminated when shocked, without a roll (9.25) — g eliminated")
