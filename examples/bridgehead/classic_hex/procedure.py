"""The decision pending in a game of *Bridgehead* (2.0): the phasing player's Movement or Combat Phase, owed
retreats (7.3) before anything else, or the end (2.4)."""
from __future__ import annotations

from referee.engine.procedure import OVER, Step
from referee.engine.ruling import Error

from .state import COMBAT, MOVEMENT, State
from .verbs import RETREAT


def step(state: State) -> Step:
    if state.over:
        return Step(OVER, f"the game is over: {state.winner} wins", rule="2.4")
    side = state.side
    not_yours = Error("2.2", "not_your_turn", f"it is the {side} player turn")
    if state.retreats:
        owners = tuple(dict.fromkeys(state.unit(t.unit).side for t in state.retreats))
        units = ", ".join(t.unit for t in state.retreats)
        return Step(RETREAT, f"{' and '.join(owners)}: retreat {units}", owners, "7.3",
                    refusal=Error("7.3", "retreat_owed", f"first the owed retreats: {units}"),
                    wrong_side=Error("7.3", "not_your_retreat", f"{{side}} owes no retreat; {units} must retreat"))
    if state.phase == MOVEMENT:
        return Step(MOVEMENT, f"{side} Movement Phase: move units, then end the phase", (side,), "2.2",
                    refusal=Error("2.2", "movement_phase", f"it is the {side} Movement Phase: move or end_phase"),
                    wrong_side=not_yours)
    offer = f"; advance into {state.advance.hex}" if state.advance else ""
    return Step(COMBAT, f"{side} Combat Phase: attack, then end the phase{offer}", (side,), "2.2",
                refusal=Error("2.2", "combat_phase", f"it is the {side} Combat Phase: attack, advance or end_phase"),
                wrong_side=not_yours)
