"""Whole logs through the log reader and the engine: inline resolved scenarios (DESIGN §4) and the committed
sample Borodino game."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.replay import final_state, replay
from referee.logs import InputError, parse_log, read_log
from referee.report import render

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"

SCENARIO = {
    "id": "inline", "name": "Inline", "ruleset": "triumph-and-glory",
    "map": {"grid": {"orientation": "flat", "shifted": "odd", "first_column": 1, "first_row": 1,
                     "columns": 6, "rows": 6}, "terrain": {"default": "clear"}},
    "leaders": [{"id": "napoleon", "name": "Napoleon", "side": "French", "orders_rating": 3,
                 "delay_rating": None, "drm": -2, "command_range": 3, "ma": None, "hex": "0101"},
                {"id": "kutuzov", "name": "Kutuzov", "side": "Russian", "orders_rating": None,
                 "delay_rating": 4, "drm": -1, "command_range": 2, "ma": 4, "hex": "0606"}],
    "activation_groups": [
        {"id": "i-corps", "name": "I Corps", "side": "French", "colour": "#2b4c9b", "io_rating": 6},
        {"id": "ru-1", "name": "1st Army", "side": "Russian", "colour": "#aa0000", "io_rating": 4, "army": "1st"}],
    "units": [
        {"id": "dumon-a", "name": "Dumon a", "kind": "infantry", "side": "French", "ag": "i-corps", "assault": 4,
         "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0102", "facing": 5},
        {"id": "psk-a", "name": "Psk a", "kind": "infantry", "side": "Russian", "ag": "ru-1", "assault": 4,
         "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0605", "facing": 11}],
    "sides": {"French": {"cinc": "napoleon"}, "Russian": {"cinc": "kutuzov"}},
    "turns": 2, "special_rules": ["BOR-1", "BOR-6", "BOR-7"],
}


def run(events, dice="players", seed=None):
    log = parse_log({"scenario": SCENARIO, "dice": dice, "seed": seed, "events": events})
    return replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)


def test_inline_scenario_whole_turn_with_owed_rolls():
    events = [
        {"type": "orders", "side": "French", "under_orders": ["dumon-a"]},
        {"type": "orders", "side": "Russian", "under_orders": ["psk-a"], "army": "1st"},
        {"type": "initiative"}, {"type": "roll", "side": "Russian", "roll": 6}, {"type": "roll", "roll": 3},
        {"type": "first_marker", "side": "Russian", "marker": "ru-1"},
        {"type": "move", "side": "Russian", "unit": "psk-a", "path": ["0604", "0603"]},
        {"type": "end_activation", "side": "Russian"},
        {"type": "draw", "marker": "i-corps"}, {"type": "end_activation"},
        {"type": "draw", "marker": "ru-1"}, {"type": "end_activation"},
        {"type": "draw", "marker": "i-corps"}, {"type": "end_activation"},
        {"type": "go_first", "side": "Russian", "first": "French"},
        {"type": "end_phase", "side": "French"}, {"type": "end_phase", "side": "Russian"},
        {"type": "go_first", "side": "Russian", "first": "French"},
        {"type": "cinc_move", "side": "French", "path": ["0201", "0301"]},
        {"type": "roll", "roll": 1},                                   # Napoleon's d10: 1 MP, too few
        {"type": "cinc_move", "side": "French", "path": ["0201"], "roll": 1},
        {"type": "end_phase", "side": "French"},
        {"type": "cinc_move", "side": "Russian", "path": ["0605", "0604", "0504", "0503", "0403"]},
        {"type": "end_phase", "side": "Russian"},
    ]
    out = run(events)
    verdicts = [r.verdict for r in out.rulings]
    assert verdicts.count("illegal") == 2
    assert out.rulings[4].rolls[1].modifiers[0].reason == "Kutuzov's orders rating (1st army option)"
    assert out.rulings[4].results[0].extra == {"side": "Russian"}     # Russian 6 + 3 beats French 3 + 3
    assert out.rulings[19].verdict == "illegal" and out.rulings[19].errors[0].code == "over_allowance"
    assert out.rulings[22].errors[0].code == "over_allowance"                    # Kutuzov: 4 MP
    state = out.game.state
    assert (state.turn, state.phase) == (2, "orders")
    assert state.unit("napoleon").hex == "0201" and state.unit("psk-a").hex == "0603"
    text = render(out.rulings, out.played, out.places)
    assert "Turn 1 — CinC Movement Phase" in text and "napoleon_ma" in text


def test_referee_dice_log_is_reproducible_and_reveals_its_seed():
    events = [{"type": "orders", "side": "French", "under_orders": []},
              {"type": "orders", "side": "Russian", "under_orders": []},
              {"type": "initiative"}]
    a, b = run(events, "referee", "abc"), run(events, "referee", "abc")
    assert [r.to_dict() for r in a.rulings] == [r.to_dict() for r in b.rulings]
    assert final_state(a.game)["dice"]["seed"] == "abc"


def test_bad_log_collects_every_problem():
    with pytest.raises(InputError) as exc:
        parse_log({"scenario": SCENARIO, "dice": "nobody", "events": [
            {"type": "move", "side": "French", "unit": "ney", "path": ["0102"]}, {"type": "roll", "roll": 11}]})
    assert exc.value.problems == ["dice: must be 'players' or 'referee', not 'nobody'",
                                  "events[0].unit: no unit 'ney' in the scenario",
                                  "events[1].roll: a d10 roll is 0–9, not 11"]


def test_every_name_an_event_gives_is_checked_against_the_scenario():
    with pytest.raises(InputError) as exc:
        parse_log({"scenario": SCENARIO, "dice": "players", "events": [
            {"type": "counter_charge", "side": "Russian", "unit": "ney", "at": "0999"},
            {"type": "assaults", "side": "Gauls", "assaults": [{"attackers": ["x"], "target": ["0100"]}]},
            {"type": "pursuit", "side": "French", "units": ["y"], "to": "0102", "target": "9999"}]})
    assert exc.value.problems == ["events[0].unit: no unit 'ney' in the scenario",
                                  "events[0].at: no hex '0999' on the map",
                                  "events[1].side: no side 'Gauls' in the scenario (sides: French, Russian)",
                                  "events[1].assaults[0].attackers[0]: no unit 'x' in the scenario",
                                  "events[1].assaults[0].target[0]: no hex '0100' on the map",
                                  "events[2].units[0]: no unit 'y' in the scenario",
                                  "events[2].target: no hex '9999' on the map"]


def test_the_committed_sample_borodino_game_replays_legal_to_the_end():
    log = read_log(FIXTURES / "sample-borodino.json")
    out = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)
    assert len(out.rulings) == len(log.events) > 4000
    assert all(r.legal for r in out.rulings)
    assert out.game.state.over and out.game.state.turn == 12
    types = {r.type for r in out.rulings}
    assert {"orders", "orders_delay", "initiative", "first_marker", "draw", "individual_order", "move",
            "go_first", "reserve", "cohesion_check", "cinc_move", "end_phase",
            "fire", "assaults", "commitment", "shock", "retreat", "advance", "rally", "recovery",
            "counter_battery", "reaction_fire", "charge", "square", "fall_back", "pursuit",
            "burn_village", "destroy_bridge", "fire_out"} <= types
    body = json.dumps(final_state(out.game))
    assert '"seed": "dice:18"' in body
    # The game ends with the Borodino victory conditions judged, in the last ruling and in the final state:
    # no AG collapsed and nobody holds the Great Redoubt (3417) at the end — a draw.
    victory = [x.to_dict() for x in out.rulings[-1].results if x.effect == "victory"]
    assert victory and victory[0]["winner"] is None and victory[0]["vp"] == {"French": 0, "Russian": 0}
    assert out.game.state.victory["winner"] is None


def test_a_bad_scenario_option_is_bad_input_with_the_events_problems():
    with pytest.raises(InputError) as exc:
        parse_log({"scenario": {**SCENARIO, "options": {"counter_charge_vs_infantry": "both"}}, "dice": "players",
                   "events": [{"type": "roll", "roll": 11}]})
    assert exc.value.problems == ["scenario.options.counter_charge_vs_infantry: 'both' is not one of charge, subtract",
                                  "events[0].roll: a d10 roll is 0–9, not 11"]
