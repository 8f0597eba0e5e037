"""The engine's replay loop and roll protocol (DESIGN §5), through the Triumph & Glory plugin."""
from __future__ import annotations

from referee.engine import registry
from referee.engine.replay import final_state, replay
from referee.engine.ruling import legal
from referee.engine.ruleset import Ruleset
from referee.rulesets.triumph_and_glory import RULESET


def test_ruleset_is_found_through_the_entry_point_and_meets_the_protocol():
    assert "triumph-and-glory" in registry.available()
    assert registry.get("triumph-and-glory") is RULESET
    assert isinstance(RULESET, Ruleset)


def test_owed_roll_then_paid(small_scenario):
    events = [{"type": "orders", "side": "French", "under_orders": []},
              {"type": "orders", "side": "Russian", "under_orders": []},
              {"type": "initiative"},
              {"type": "draw", "marker": "i-corps"},            # illegal while rolls are owed
              {"type": "roll", "roll": 9},
              {"type": "roll", "roll": 0},
              {"type": "roll", "roll": 3}]                     # nothing owed any more
    out = replay(RULESET, small_scenario, events)
    v = [r.verdict for r in out.rulings]
    assert v == ["legal", "legal", "legal", "illegal", "legal", "legal", "illegal"]
    assert out.rulings[3].errors[0].code == "roll_owed"
    assert out.rulings[5].type == "roll" and out.rulings[5].results[0].extra == {"side": "French"}
    assert out.rulings[6].errors[0].code == "no_roll_owed"
    assert out.game.state.initiative == "French"


def test_illegal_event_changes_nothing_and_replay_goes_on(small_scenario):
    events = [{"type": "orders", "side": "French", "under_orders": ["fa1", "fa3", "fb1", "r1"]},
              {"type": "orders", "side": "French", "under_orders": ["fa1"]}]
    out = replay(RULESET, small_scenario, events)
    assert [r.verdict for r in out.rulings] == ["illegal", "legal"]
    assert out.game.state.orders["French"].under_orders == frozenset({0})


def test_referee_dice_are_reproducible_and_revealed(small_scenario):
    events = [{"type": "orders", "side": "French", "under_orders": []},
              {"type": "orders", "side": "Russian", "under_orders": []},
              {"type": "initiative"}]
    a = replay(RULESET, small_scenario, events, "referee", "s3cret")
    b = replay(RULESET, small_scenario, events, "referee", "s3cret")
    assert [r.to_dict() for r in a.rulings] == [r.to_dict() for r in b.rulings]
    rolls = a.rulings[2].rolls
    assert all(r.natural is not None for r in rolls)
    assert a.played[2]["rolls"] == {r.side: r.natural for r in rolls}
    body = final_state(a.game)
    assert body["dice"]["seed"] == "s3cret" and body["dice"]["rolls_used"] == 2
    assert len(body["dice"]["commitment"]) == 64


def test_final_state_hides_nothing_from_the_referee(small_scenario):
    out = replay(RULESET, small_scenario, [{"type": "orders", "side": "French", "under_orders": ["fa1"]}])
    body = final_state(out.game)
    assert body["phase"] == "orders" and body["turn"] == 1
    assert body["orders"]["French"]["groups"][0]["status"] == "UO"


def test_fewer_collections_restores_the_threshold_after_overlapping_replays():
    """Two replays in one threaded server overlap: the threshold is raised once and the caller's comes back
    only when the last one ends (a save/restore per replay would leave the raised one behind)."""
    import gc
    from referee.engine.replay import GC_THRESHOLD, fewer_collections
    before = gc.get_threshold()
    first, second = fewer_collections(), fewer_collections()
    first.__enter__()
    second.__enter__()
    assert gc.get_threshold()[0] == max(before[0], GC_THRESHOLD)
    first.__exit__(None, None, None)                  # the first to start ends first
    assert gc.get_threshold()[0] == max(before[0], GC_THRESHOLD)
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before


def test_the_act_check_is_the_dispatchers_every_ruleset_goes_through_it():
    """Issue #13: whose act an event is, checked in referee.engine.replay.step itself (submitter given), so no
    caller or ruleset can skip it; referee.engine.actors.step is the same function."""
    from referee.engine import actors, replay as rp
    from referee.logs import read_log
    from pathlib import Path
    log = read_log(str(Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "logs" / "sample-borodino.json"))
    game = rp.new_game(log.ruleset, log.scenario, log.dice, log.seed)
    sides = [s.name for s in log.scenario.sides]
    event = {"type": "orders", "side": sides[0], "under_orders": []}
    ruling, same, _ = rp.step(game, 0, event, submitter=sides[1])
    assert not ruling.legal and ruling.errors[0].code == "wrong_side" and same is game
    assert actors.step(game, 0, event, sides[1])[0] == ruling
    assert rp.step(game, 0, event, submitter=sides[0])[0].legal
    assert actors.BOTH_SIDES == rp.BOTH_SIDES and actors.refusal is rp.refusal


# --- one Ruling per event (``rulings_are_new``, referee.engine.ruleset): an opt-in, the old protocol unchanged

class _Constant:
    """A plugin of the old protocol: ``rule`` hands out one ruling object it keeps, every time."""
    id, name = "constant", "constant"
    KEPT = legal("say", ["1.0"])

    def initial_state(self, scenario):
        return 0

    def rule(self, state, event, dice):
        return self.KEPT, state + 1

    def progress(self, state):
        return str(state), "say"


def test_a_ruleset_that_keeps_its_ruling_gets_a_copy_per_event():
    out = replay(_Constant(), None, [{"type": "say"}, {"type": "say"}, {"type": "say"}])
    assert [r.index for r in out.rulings] == [0, 1, 2]
    assert all(r is not _Constant.KEPT for r in out.rulings)
    assert _Constant.KEPT.index == -1                       # the plugin's own ruling is left as it was


def test_a_ruleset_whose_rulings_are_new_gets_them_back_with_the_index_written_in():
    made = []

    class Fresh(_Constant):
        rulings_are_new = True

        def rule(self, state, event, dice):
            r = legal("say", ["1.0"])
            made.append(r)
            return r, state + 1

    out = replay(Fresh(), None, [{"type": "say"}, {"type": "say"}])
    assert [r.index for r in out.rulings] == [0, 1] and [r.type for r in out.rulings] == ["say", "say"]
    assert all(a is b for a, b in zip(out.rulings, made))     # no copy: one Ruling object per event
    assert out.rulings[0].to_dict() == {**legal("say", ["1.0"]).to_dict(), "index": 0}
