"""The replay's fast paths (issue #17 (a), docs/speed.md §3) give what the paths they skip would give.

* ``procedure.after`` returns at once in an activation that owes no village fire roll: at every position a
  sample game or random play reaches, that answer equals the full path's (``sequence.advance``, the victory,
  ``sequence.rolls_owed``: ``procedure.advance_sequence``) — same ruling, same state object.
* ``Ruling.with_index`` copies the ruling's ``__dict__``: the copy equals the ruling built field by field, and
  the rule's own ruling is left as it was.
* ``TriumphAndGlory.rulings_are_new``: every ruling ``rule`` returns, in the sample game and in random play, is
  an object no earlier call returned (so the engine may write the index into it), and the engine's rulings then
  equal those of a copying engine.
* ``procedure.step`` holds up no act at once while the activation has no fire or shock (``NO_COMBAT``).
* ``moves.move_context`` shares one ``MoveContext`` per distinct common context (the map's memo): at every move
  of the sample game it equals the record built afresh.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.replay import new_game, step
from referee.engine.ruling import Awaiting, Error, Result, _ruling, legal
from referee.logs import read_log
from referee.play import play_game
from referee.rulesets.triumph_and_glory import RULESET, moves, movement, procedure
from referee.rulesets.triumph_and_glory.combat import NO_COMBAT
from referee.rulesets.triumph_and_glory.orders import acting_status
from referee.rulesets.triumph_and_glory.state import ACTIVATION

from .games import basic
from .test_random_play import skirmish

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests/fixtures/logs/sample-borodino.json"


def assert_after_agrees(state: Any) -> bool:
    """The fast and the full ``after`` agree on ``state``; True when the fast path was taken."""
    probe = legal("move", ["7.11"], awaiting=[Awaiting("cohesion_check", "French", "5.54", "u1")])
    fast_ruling, fast_state = procedure.after(probe, state)
    full_ruling, full_state = procedure.advance_sequence(probe, state)
    assert fast_ruling == full_ruling
    assert fast_state == full_state
    act = state.activation
    took = state.phase == ACTIVATION and act is not None and not act.fires_owed
    if took:
        assert fast_state is state and fast_ruling is probe
    return took


def test_after_fast_path_agrees_at_every_position_of_the_sample_game():
    log = read_log(SAMPLE)
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    taken = other = 0
    for i, event in enumerate(log.events):
        if assert_after_agrees(game.state):
            taken += 1
        else:
            other += 1
        _, game, _ = step(game, i, event)
    assert_after_agrees(game.state)
    assert taken > 4_000 and other > 100        # both branches are exercised


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), busy=st.booleans())
def test_after_fast_path_agrees_in_random_play(seed, busy):
    states = []

    class Recording:
        def __getattr__(self, name: str) -> Any:
            return getattr(RULESET, name)

        def legal_actions(self, state: Any) -> list[dict[str, Any]]:
            states.append(state)
            return RULESET.legal_actions(state)

    g = play_game(Recording(), skirmish(seed, turns=2) if busy else basic(turns=1), seed)
    for s in states + [g.game.state]:
        assert_after_agrees(s)


_text = st.text(min_size=1, max_size=8)
_rulings = st.builds(
    _ruling, index=st.integers(-1, 10**6), type_=_text, verdict=st.sampled_from(["legal", "illegal"]),
    rules=st.lists(_text, max_size=4).map(tuple),
    errors=st.lists(st.builds(Error, _text, _text, _text), max_size=2).map(tuple),
    results=st.lists(st.builds(Result, _text, _text), max_size=2).map(tuple),
    awaiting=st.lists(st.builds(Awaiting, _text, _text, _text), max_size=2).map(tuple))


@given(ruling=_rulings, index=st.integers(0, 10**6), type_=st.one_of(st.none(), st.just(""), _text))
def test_with_index_equals_the_ruling_built_field_by_field(ruling, index, type_):
    before = repr(ruling)
    got = ruling.with_index(index, type_)
    want = _ruling(index, type_ or ruling.type, ruling.verdict, ruling.rules, ruling.errors, ruling.rolls,
                   ruling.results, ruling.awaiting)
    assert got == want and repr(got) == repr(want)
    if not ruling.results:                                   # a Result's ``extra`` is a dict: unhashable
        assert hash(got) == hash(want)
    assert list(got.__dict__) == list(want.__dict__)        # field order too (to_dict, asdict)
    assert got.to_dict() == want.to_dict()
    assert repr(ruling) == before and got is not ruling


def _rulings_of_rule(events_of: Any) -> None:
    """Every ruling T&G's ``rule`` returns along ``events_of`` is new: never an object returned before."""
    seen: list[Any] = []            # kept alive, so no id is reused while the test looks
    ids: set[int] = set()
    real = RULESET.rule

    def rule(state: Any, event: Any, dice: Any) -> Any:
        ruling, new = real(state, event, dice)
        assert id(ruling) not in ids, f"{event} got a ruling an earlier call returned"
        ids.add(id(ruling))
        seen.append(ruling)
        return ruling, new
    try:
        RULESET.rule = rule                                  # type: ignore[method-assign]
        events_of()
    finally:
        del RULESET.rule
    assert len(seen) > 50


def test_every_ruling_of_the_sample_game_is_new_and_the_in_place_index_equals_the_copy():
    log = read_log(SAMPLE)
    got: list[Any] = []

    def run() -> None:
        game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
        for i, event in enumerate(log.events):
            ruling, game, _ = step(game, i, event)
            got.append(ruling)
    _rulings_of_rule(run)
    assert [r.index for r in got] == list(range(len(log.events)))

    class Copying:                                           # the same ruleset, under the copying protocol
        def __getattr__(self, name: str) -> Any:
            return getattr(RULESET, name)
        rulings_are_new = False
    game = new_game(Copying(), log.scenario, log.dice, log.seed)   # type: ignore[arg-type]
    for i, event in enumerate(log.events):
        ruling, game, _ = step(game, i, event)
        assert ruling == got[i] and ruling is not got[i]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_every_ruling_of_random_play_is_new(seed):
    _rulings_of_rule(lambda: play_game(RULESET, skirmish(seed, turns=2), seed))


def test_a_shared_move_context_equals_a_fresh_one_at_every_move_of_the_sample_game():
    """``moves.move_context`` hands out one MoveContext per distinct common context (kept in the map's memo):
    at every move of the sample game it equals the record built afresh by keyword from the same facts (so
    ``fresh_move_context``'s positional order is checked too), and both
    branches (shared, and a context of its own for an extended move's order group) are taken."""
    log = read_log(SAMPLE)
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    shared = own = 0
    seen: set[Any] = set()
    for i, event in enumerate(log.events):
        state = game.state
        if event.get("type") == "move" and state.activation is not None and event["unit"] in state.activation.units:
            uid, mode = event["unit"], event.get("mode")
            ctx = moves.move_context(state, uid, None, mode)
            act, u = state.activation, state.unit(uid)
            entered_before = 0 if u.hex is not None else sum(
                1 for m in act.acted if m in act.start_hexes and act.start_hexes[m] is None
                and state.unit(m).ag == u.ag)
            # the long way: the record built by its field names (fresh_move_context passes them by position)
            fresh = movement.MoveContext(under_orders=acting_status(state, uid) == "UO", reserve=act.reserve,
                                         og_hexes=ctx.og_hexes, entry_index=entered_before + 1,
                                         forbidden_hexes=moves._forbidden(state, u.side))
            assert ctx == fresh
            if ctx.og_hexes:
                own += 1
            else:
                shared += 1
                seen.add((ctx.under_orders, ctx.reserve, ctx.entry_index))
        _, game, _ = step(game, i, event)
    assert shared > 3_000 and len(seen) >= 3      # several distinct shared contexts are told apart


def test_step_refusals_fast_path_agrees_at_every_position_of_the_sample_game():
    """``procedure.step`` holds up no act at once while the activation has no fire or shock yet (``NO_COMBAT``):
    at every position of the sample game the acts its step refuses are ``combat_refusals``', the long way; both
    branches are taken and the long way refuses somewhere."""
    log = read_log(SAMPLE)
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    fast = slow = refused = 0
    for i, event in enumerate(log.events):
        state = game.state
        act = state.activation
        if act is not None:
            want = procedure.combat_refusals(state, act.combat, act.side)
            assert (procedure.step(state).refusals or {}) == want
            refused += bool(want)
            if act.combat is NO_COMBAT:
                fast += 1
            else:
                slow += 1
        _, game, _ = step(game, i, event)
    assert fast > 3_000 and slow > 100 and refused > 0
