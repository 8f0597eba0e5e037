"""The Tinyvka recording (tiny-script.json played by the real engine): events, notes, rulings."""
from __future__ import annotations

import pytest

from .recordings import fixture, read, recorded_rolls, ruled


def _roll() -> int:
    (value,) = recorded_rolls(fixture("tiny.vlog"))
    return value


def expected_events(roll: int) -> list[dict]:
    """What tiny-script.json means, whatever the d10 showed."""
    return [
        {"type": "orders", "side": "French", "under_orders": []},
        {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]},
        {"type": "initiative", "rolls": {"French": 7, "Russian": 3}},
        {"type": "first_marker", "side": "French", "marker": "i-corps"},
        {"type": "individual_order", "side": "French", "unit": "dumon-a"},
        {"type": "roll", "roll": roll, "side": "French"},
        {"type": "end_activation", "side": "French"},
        {"type": "draw", "marker": "vi-corps"},
        # dragged 0404 -> 0302, then turned clockwise from 10 to 12 o'clock: one move, facing included (6.12)
        {"type": "move", "side": "Russian", "unit": "psk-a", "path": ["0403", "0302"], "facing": 12},
        # too far for its 4 MP: the cheapest path ignoring the allowance, so the ruling says why
        {"type": "move", "side": "Russian", "unit": "psk-b", "path": ["0503", "0402", "0401", "0301", "0201", "0101"]},
        {"type": "end_activation", "side": "Russian"},
    ]


@pytest.mark.parametrize("module", ["tiny.vmod", None], ids=["with-module", "grid-from-scenario"])
def test_events_from_the_engine_recording(module):
    log = read("tiny.vlog", module)
    assert log.scenario.id == "tiny"          # from the '!scenario tiny' chat line
    assert log.dice == "players"
    assert log.events == expected_events(_roll())


def test_the_engine_rules_on_every_event_as_the_players_meant():
    result = ruled("tiny.vlog", "tiny.vmod")
    verdicts = [(r.type, r.verdict) for r in result.rulings]
    assert verdicts == [("orders", "legal"), ("orders", "legal"), ("initiative", "legal"),
                        ("first_marker", "legal"), ("individual_order", "legal"), ("roll", "legal"),
                        ("end_activation", "legal"), ("draw", "legal"), ("move", "legal"),
                        ("move", "illegal"), ("end_activation", "legal")]
    io = result.rulings[5].to_dict()
    assert io["rolls"][0]["purpose"] == "individual_order"
    assert io["rolls"][0]["natural"] == _roll()          # the d10 button's roll paid the owed roll
    too_far = result.rulings[9].to_dict()["errors"][0]
    assert too_far["rule"].startswith("7") and "Psk b" in too_far["message"]
    assert result.game.state.board.units["psk-a"].hex == "0302"
    assert result.game.state.board.units["psk-a"].facing == 12
    assert result.game.state.board.units["psk-b"].hex == "0504"        # the illegal move changed nothing


def test_the_dice_report_and_its_property_agree():
    # The report line and the d10_total property the engine logs with it carry the same number.
    from modulebuilder.vassal.savefile import read_game
    text = read_game(fixture("tiny.vlog")).text
    assert f"MutableProperty\td10_total\t0\t{_roll()}\tModule" in text


def test_bookkeeping_is_noted_not_ruled():
    from modulebuilder.vassal.savefile import read_game
    from referee.logs.vassal_board import from_build_file, module_build_file
    from referee.logs.vassal_events import read_events
    from referee.logs.vassal_steps import facts
    from .recordings import scenario
    board = from_build_file(module_build_file(fixture("tiny.vmod").read_bytes()))
    reading = read_events(facts(read_game(fixture("tiny.vlog"))), scenario("tiny"), board)
    assert reading.problems == []
    assert "step 15: psk-b flipped to good order; the referee applies disorder and rallies by the rules" \
        in reading.notes
    assert "step 16: vi-art put in the Withdrawn box; the referee moves units off the map itself" in reading.notes
    # The conversation line ("good game so far") is neither an event nor a problem.
    assert [e.step for e in reading.events] == [3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 18]


def test_a_move_announced_in_the_chat_takes_its_mode_and_the_board_gives_the_hex():
    log = read("claims.vlog", "tiny.vmod")
    assert log.events[4:] == [
        # '!move dumon-a limited', then the drag 0203 -> 0303 and a counter-clockwise turn from 2 to 12
        {"side": "French", "type": "move", "unit": "dumon-a", "mode": "limited", "facing": 12, "path": ["0303"]},
        {"type": "move", "side": "French", "unit": "lepic", "path": ["0205"]},
        {"type": "end_activation", "side": "French"},
    ]
    assert all(r.legal for r in ruled("claims.vlog", "tiny.vmod").rulings)


def test_the_caller_may_load_the_scenario_id_found_in_the_game():
    # A service passes its own (cached) loader; the reader finds the id and asks it.
    from referee.logs.vassal import read_vassal
    from .recordings import scenario
    asked = []

    def loader(ref):
        asked.append(ref)
        return scenario("tiny")
    log = read_vassal(fixture("tiny.vlog"), scenario=loader)
    assert asked == ["tiny"] and log.events == expected_events(_roll())
