"""Random legal play of the sample scenario (Breitenfeld 1631, sample values) through ``referee.play``:
every listed action is ruled legal, nothing owes a roll, and each game reaches the end of its last turn.
The log each game writes replays to the same rulings."""
from __future__ import annotations

import pytest

from referee.engine.replay import replay
from referee.logs.jsonlog import load_scenario, parse_log
from referee.play import play_game
from referee.rulesets.musket_and_pike import RULESET


@pytest.fixture(scope="module")
def sample():
    return load_scenario("mp-sample")


@pytest.mark.parametrize("seed", range(8))
def test_random_legal_play_reaches_the_end(sample, seed):
    played = play_game(RULESET, sample, seed, scenario_ref="mp-sample")
    state = played.game.state
    assert state.over and state.turn == 4
    assert all(r.legal for r in played.rulings)
    # Every wing was drawn once per turn: 4 wings x 4 turns.
    assert sum(e["type"] == "draw" for e in played.events) == 16


def test_played_log_replays_identically(sample):
    played = play_game(RULESET, sample, 3, scenario_ref="mp-sample")
    log = parse_log(played.log())
    again = replay(log.ruleset, log.scenario, log.events, dice=log.dice, seed=log.seed)
    assert [r.to_dict() for r in again.rulings] == [r.to_dict() for r in played.rulings]
    assert RULESET.view(again.game.state, None) == RULESET.view(played.game.state, None)


def test_listed_actions_cover_every_kind_of_unit_action(sample):
    """Across a few games the driver exercises moves, turns, wheels, counter-marches, reforms and Hedgehogs."""
    kinds = set()
    for seed in range(6):
        kinds |= {e["type"] for e in play_game(RULESET, sample, seed).events}
    assert {"open_order_setup", "draw", "move", "face", "wheel", "counter_march", "reform", "change_formation",
            "end_activation", "pass", "enter"} <= kinds
