"""3.0 as an event: ``end_phase`` — a side ends its part of a phase that does not end by itself (the Reserve
Activation and CinC Movement phases, Schevardino's command step and side turns), or declines a CGA (5.35)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.verbs import check, refuse
from referee.engine.ruling import Ruling, legal

from . import activation, sequence
from .state import CINC, COMMAND, INITIATIVE, RESERVE, SIDE_TURN, TGState
from .timing import turn_error
from .verbs import VERBS


@VERBS.verb("end_phase", rules=("3.0",),
             refs={"side": "side"}, actor=False)
def end_phase(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """3.0: a side ends its part of the Reserve or CinC Movement phase (or, in Schevardino, declines to
    activate a command, or ends its move)."""
    side = event["side"]
    if state.phase == INITIATIVE:
        return activation.no_cga(state, side)
    if state.phase in (RESERVE, CINC):
        ts = state.two_sided
        assert ts is not None
        check(turn_error(state, side, first=("4.0", "who goes first is not decided yet"),
                         turn=("3.0", "turn in this phase")))
        act = state.activation
        if act is not None and act.checks_owed:
            refuse("5.54", "checks_owed", "disorder checks are owed first", act.checks_owed)
        return legal("end_phase", ["3.0"]), replace(state, activation=None, two_sided=replace(ts, done=ts.done | {side}))
    if state.phase == COMMAND:
        cmd = state.rules.command_activation
        if cmd is None or side != cmd.chooser:
            refuse("SCH-COMMAND", "not_chooser", "only the side that activates commands ends this step")
        return legal("end_phase", ["SCH-COMMAND"]), replace(state, command_chosen=True)
    if state.phase == SIDE_TURN:
        if side != state.side_turn:
            refuse("3.0", "not_your_turn", f"it is {state.side_turn}'s turn")
        return legal("end_phase", ["SCH-COMMAND"]), sequence.end_side_turn(state)
    refuse("3.0", "wrong_phase", "this phase ends by itself; end_phase ends the Reserve and CinC Movement "
           "phases")
