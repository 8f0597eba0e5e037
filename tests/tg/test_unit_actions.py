"""What if → Legal actions: every legal act of the chosen unit (``unit_actions``), not the bounded list random
play chooses from (``legal_actions`` lists moves of the first ``MAX_UNITS_LISTED`` units only).

Over every unit at every position of the sample games (the VASSAL recordings and the start of the sample
Borodino game): each listed act replays legal from that position, and each legal move of the log is in its
unit's list (its destination reached)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.engine.replay import new_game, step
from referee.logs.jsonlog import parse_log
from referee.rulesets.triumph_and_glory.legal import MAX_UNITS_LISTED, legal_actions, named_units, unit_actions
from referee.rulesets.triumph_and_glory.verbs import accepted

from referee.logs.vassal import read_vassal
from .games import FR, RU, basic, play

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "vassal_logs" / "fixtures"
MODULE = "borodino-cup-facts.vmod"
GAMES = [("schevardino-game.vlog", MODULE), ("schevardino-command.vlog", MODULE), ("borodino-game.vlog", MODULE),
         ("borodino.vlog", MODULE), ("zero-roll.vlog", MODULE), ("tiny.vlog", "tiny.vmod"),
         ("pbem-turn1.vlog", "tiny.vmod"), ("undo.vlog", "tiny.vmod")]
SAMPLE_EVENTS = 150          # the sample Borodino game's first events (orders, draws, moves, fire)


def _positions(log, limit=None):
    """(index, game before the event, the event, its ruling) for the log's events."""
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    for i, event in enumerate(log.events[:limit]):
        ruling, after, _ = step(game, i, event)
        yield i, game, event, ruling
        game = after


def _check(log, limit=None, replay_every=1):
    """Every unit's list at every position; the listed acts replayed at every ``replay_every``-th position."""
    listed_acts = moves_found = 0
    for i, game, event, ruling in _positions(log, limit):
        if game.pending is not None:
            continue
        state = game.state
        everything = legal_actions(state)
        lists = {}
        for uid in state.board.units:
            acts = unit_actions(state, uid, everything)
            lists[uid] = acts
            for a in acts if i % replay_every == 0 else ():
                assert uid in named_units(a), (i, uid, a)
                r, _, _ = step(game, i, a)
                assert r.legal, (i, uid, a, r.to_dict()["errors"])
                listed_acts += 1
        if event.get("type") == "move" and ruling.legal:
            uid = event["unit"]
            reach = {a["path"][-1] for a in lists[uid] if a["type"] == "move" and a["path"]}
            assert event["path"][-1] in reach, (i, uid, event, sorted(reach))
            moves_found += 1
    return listed_acts, moves_found


@pytest.mark.parametrize("name,module", GAMES)
def test_every_listed_act_of_every_unit_replays_legal_and_the_logs_moves_are_listed(name, module):
    listed, moves = _check(read_vassal(FIXTURES / name, FIXTURES / module))
    assert listed > 0


def test_the_sample_borodino_games_opening_every_unit_every_position():
    log = parse_log(json.loads((ROOT / "tests/fixtures/logs/sample-borodino.json").read_text()))
    listed, moves = _check(log, SAMPLE_EVENTS, replay_every=7)
    assert listed > 0 and moves > 0


def test_a_unit_past_the_random_play_bound_still_lists_its_moves():
    p = play(basic())
    p.ok("orders", side=FR, under_orders=["fa1", "fb1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    state = p.state
    active = sorted(state.activation.units)
    assert len(active) > MAX_UNITS_LISTED
    last = active[-1]
    bounded = [a for a in legal_actions(state) if a["type"] == "move" and a["unit"] == last]
    assert bounded == []                                    # random play's list leaves it out
    mine = [a for a in unit_actions(state, last) if a["type"] == "move"]
    assert mine and all(a["unit"] == last for a in mine)


def test_every_unit_of_a_group_lists_the_individual_order_tried_in_its_name():
    """5.28: the bounded listing names a group's first unit; the unit's own list names the unit itself, and the
    verb accepts it."""
    p = play(basic())
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    state = p.state
    group = next(g for g in state.orders[FR].groups if len(g) > 1)
    assert [a["unit"] for a in legal_actions(state) if a["type"] == "individual_order"
            and a["unit"] in group] == [group[0]]
    for uid in group:
        mine = [a for a in unit_actions(state, uid) if a["type"] == "individual_order"]
        assert mine == [{"type": "individual_order", "side": FR, "unit": uid}]
        assert accepted(state, mine) == mine
