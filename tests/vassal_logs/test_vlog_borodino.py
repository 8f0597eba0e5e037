"""The start of the Borodino scenario played in the real engine (borodino-script.json): declarations typed in
the chat, moves, a turn, a Disorder flip and a d10 roll, ruled on end to end."""
from __future__ import annotations

import pytest

from .recordings import fixture, read, recorded_rolls, reported_rolls, ruled

pytestmark = pytest.mark.slow     # loads the Borodino scenario (a few seconds)


def _events(roll: int) -> list[dict]:
    return [
        {"type": "orders", "side": "Russian", "under_orders": ["ru-lg-jgr-a", "ru-jgr-11th"], "army": "1st"},
        {"type": "orders", "side": "French", "under_orders": ["fr-gi-girardin-a"]},
        {"type": "first_marker", "side": "French", "marker": "fr-viii-corps"},
        {"type": "move", "side": "French", "unit": "fr-th-damas-b", "path": ["3809", "3808"], "facing": 11},
        {"type": "move", "side": "French", "unit": "fr-oc-legras", "path": ["3912", "3913"]},
        {"type": "move", "side": "French", "unit": "fr-th-damas-a", "path": ["3809", "3808", "3807", "3806", "3805"]},
        {"type": "end_activation", "side": "French"},
        {"type": "draw", "marker": "ru-ii-corps"},
        {"type": "individual_order", "side": "Russian", "unit": "ru-ii-art-a"},
        {"type": "roll", "roll": roll, "side": "Russian"},
        {"type": "end_activation", "side": "Russian"},
    ]


def test_events_with_the_module_facts():
    (roll,) = recorded_rolls(fixture("borodino.vlog"))
    log = read("borodino.vlog", "borodino-facts.vmod")
    assert log.scenario.id == "borodino"
    assert log.events == _events(roll)


def test_the_scenario_is_found_from_the_module_set_up_without_a_chat_line():
    from modulebuilder.vassal.savefile import read_game
    from referee.logs.vassal import scenario_from_setups
    from referee.logs.vassal_board import from_build_file, module_build_file
    module = fixture("borodino-facts.vmod").read_bytes()
    board = from_build_file(module_build_file(module))
    assert scenario_from_setups(read_game(fixture("borodino.vlog")), module, board) == "borodino"


def test_rulings_on_the_borodino_opening():
    (roll,) = recorded_rolls(fixture("borodino.vlog"))
    result = ruled("borodino.vlog", "borodino-facts.vmod")
    assert [(r.type, r.verdict) for r in result.rulings] == [
        ("orders", "legal"), ("orders", "legal"), ("first_marker", "legal"), ("move", "legal"),
        ("move", "legal"), ("move", "illegal"), ("end_activation", "legal"), ("draw", "legal"),
        ("individual_order", "legal"), ("roll", "legal"), ("end_activation", "legal")]
    assert result.rulings[1].to_dict()["results"][-1] == {"effect": "initiative", "rule": "BOR-INITIATIVE",
                                                          "side": "French"}
    assert "Damas a needs 8 MP but has 2" in result.rulings[5].to_dict()["errors"][0]["message"]
    io = result.rulings[9].to_dict()
    assert io["rolls"][0]["natural"] == roll
    board = result.game.state.board
    assert (board.units["fr-th-damas-b"].hex, board.units["fr-th-damas-b"].facing) == ("3808", 11)
    assert board.units["fr-oc-legras"].hex == "3913"
    assert board.units["fr-th-damas-a"].hex == "3810"


def test_a_zero_on_the_d10_is_read_from_the_dice_property():
    # An earlier recording of the same script: the engine printed "*** d10 =  ***" for a 0 (the button's keep
    # threshold drops it from the report) and logged d10_total = 0 with it.
    assert reported_rolls(fixture("zero-roll.vlog")) == [""]
    assert recorded_rolls(fixture("zero-roll.vlog")) == [0]
    log = read("zero-roll.vlog", "borodino-facts.vmod")
    assert log.events == _events(0)
    result = ruled("zero-roll.vlog", "borodino-facts.vmod")
    assert result.rulings[9].to_dict()["rolls"][0]["natural"] == 0
