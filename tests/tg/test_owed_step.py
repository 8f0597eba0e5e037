"""An owed act is the pending step (3.0 C, 9.44, 9.6): while fire or shock owes a check, a retreat or an advance,
the step names that act and the side that owes it, and the dispatcher refuses — once, for every verb — the acts
that must wait for it; once the assaults are declared, the step holds up movement (9.44) and the activation's end
(3.0) until they are resolved."""
from __future__ import annotations

from pathlib import Path

from referee.engine.dice import EventDice
from referee.engine.replay import new_game, step
from referee.logs import read_log
from referee.rulesets.triumph_and_glory import RULESET

SAMPLE = Path(__file__).parents[1] / "fixtures" / "logs" / "sample-borodino.json"


def _positions():
    log = read_log(SAMPLE)
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    for i, event in enumerate(log.events):
        yield game.state
        _, game, _ = step(game, i, event)


def test_an_owed_cohesion_check_is_the_pending_step_and_holds_up_movement():
    state = next(s for s in _positions() if s.activation is not None and s.activation.combat.checks)
    owed = state.activation.combat.checks[0]
    decision = RULESET.decision(state)
    assert decision["prompt"] == f"cohesion_check owed by {owed.unit}"
    assert decision["rule"] == owed.rule and owed.side in decision["actors"]
    assert "cohesion_check" in decision["verbs"]
    assert not {"move", "face", "rally", "end_activation"} & set(decision["verbs"])
    mover = next(iter(sorted(state.activation.units)))
    ruling, after = RULESET.rule(state, {"type": "move", "side": state.activation.side, "unit": mover,
                                         "path": []}, EventDice({}))
    assert not ruling.legal and after is state
    assert [(e.rule, e.code) for e in ruling.errors] == [("9.6", "acts_owed")]


def test_declared_assaults_hold_up_movement_and_the_activations_end_until_resolved():
    state = next(s for s in _positions() if s.activation is not None and s.activation.combat.commit_owed
                 and not s.activation.combat.owes)
    decision = RULESET.decision(state)
    assert (decision["prompt"], decision["rule"]) == ("roll the Assault Probability Checks", "9.41")
    assert "commitment" in decision["verbs"] and "move" not in decision["verbs"]
    side = state.activation.side
    ruling, _ = RULESET.rule(state, {"type": "end_activation", "side": side}, EventDice({}))
    assert [(e.rule, e.code) for e in ruling.errors] == [("3.0", "combat_open")]
    mover = next(iter(sorted(state.activation.units)))
    ruling, _ = RULESET.rule(state, {"type": "face", "side": side, "unit": mover, "facing": 0}, EventDice({}))
    assert [(e.rule, e.code) for e in ruling.errors] == [("9.44", "after_declaration")]
