"""The legal listing asks the rules' own predicates where the verb would only add what the listing discards
(issue #17 (c)): a candidate the predicate passes is one the verb accepts, and one it refuses the verb refuses
too — at every position of the sample game and of random play, for every unit activated."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.replay import new_game, step
from referee.logs import read_log
from referee.play import play_game
from referee.rulesets.triumph_and_glory import RULESET
from referee.rulesets.triumph_and_glory.orders import individual_order_error
from referee.rulesets.triumph_and_glory.verbs import accepted

from .test_random_play import skirmish

ROOT = Path(__file__).resolve().parents[2]


def io_agrees(state) -> int:
    """For every unit (activated or not) of both sides: the verb accepts its individual order iff the predicate
    finds nothing against it.  Returns how many were accepted."""
    n = 0
    for side in state.static.sides:
        for uid in sorted(state.activation.units) + sorted(state.board.units)[:20]:
            event = {"type": "individual_order", "side": side, "unit": uid}
            ok = bool(accepted(state, [event]))
            assert ok == (individual_order_error(state, side, uid) is None), (uid, side)
            n += ok
    return n


def test_the_individual_order_predicate_agrees_with_the_verb_over_the_sample_game():
    log = read_log(ROOT / "tests/fixtures/logs/sample-borodino.json")
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    passed = positions = 0
    for i, event in enumerate(log.events):
        state = game.state
        if i % 3 == 0 and state.activation is not None and game.pending is None:
            passed += io_agrees(state)
            positions += 1
        _, game, _ = step(game, i, event)
    assert positions > 500 and passed > 1000


class Checked:
    def __getattr__(self, name):
        return getattr(RULESET, name)

    def legal_actions(self, state):
        if state.activation is not None:
            io_agrees(state)
        return RULESET.legal_actions(state)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_the_individual_order_predicate_agrees_with_the_verb_in_random_play(seed):
    g = play_game(Checked(), skirmish(seed, turns=2), seed)
    assert RULESET.is_over(g.game.state)


def assault_candidates(state) -> list[dict]:
    """Single assaults of each activated unit (and of its whole stack) on each hex next to it, charges on each
    hex 2-3 away, and the first few singles together: refused ones and accepted ones."""
    board, act = state.board, state.activation
    side = act.side
    out, singles = [], []
    for uid in sorted(act.units):
        u = board.units[uid]
        if u.hex is None:
            continue
        stack = [x.id for x in board.stack(u.hex) if x.id in act.units]
        for h in board.neighbours(u.hex):
            if board.stacks.get(h):
                for attackers in ([uid], stack):
                    e = {"type": "assaults", "side": side, "assaults": [{"attackers": attackers, "target": [h]}]}
                    out.append(e)
                    singles.append(e["assaults"][0])
        if u.kind == "cavalry":
            for h in board.static.disc(u.hex, 3):
                if board.has_enemy(h, side) and board.grid.distance(u.hex, h) >= 2:
                    out.append({"type": "assaults", "side": side,
                                "assaults": [{"attackers": [uid], "target": [h], "charge": True}]})
    if len(singles) > 1:
        out.append({"type": "assaults", "side": side, "assaults": singles[:3]})
    return out


def test_the_assault_declaration_predicate_agrees_with_the_verb_over_the_sample_game():
    """``legal._declarable`` (the verb's refusals, ``declaration_errors``) = ``accepted`` (the verb itself)."""
    from referee.rulesets.triumph_and_glory.legal import _declarable

    log = read_log(ROOT / "tests/fixtures/logs/sample-borodino.json")
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    kinds = set()
    asked = 0
    for i, event in enumerate(log.events):
        state = game.state
        if i % 4 == 0 and state.activation is not None and state.activation.side and game.pending is None:
            for e in assault_candidates(state):
                ok = bool(accepted(state, [e]))
                assert ok == bool(_declarable(state, [e])), e
                kinds.add((ok, "charge" in e["assaults"][0], len(e["assaults"]) > 1))
                asked += 1
        _, game, _ = step(game, i, event)
    assert asked > 1000 and {(True, False, False), (False, False, False), (True, True, False),
                             (False, True, False)} <= kinds, kinds
