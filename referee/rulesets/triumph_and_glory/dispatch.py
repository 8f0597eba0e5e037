"""Event type → rule function, and the one place where every legal, complete ruling is followed by the
automatic transitions of the sequence of play (whose results join the ruling, DESIGN §5).

Data flows one way: the engine hands an event here; the rule function validates it against the state, then
builds the new state; :func:`sequence.advance` moves through phases that end by themselves.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from referee.engine.dice import EventDice
from referee.engine.ruling import Error, Ruling, illegal, legal

from . import activation, cinc, initiative, moves, orders, reserve, sequence
from .state import CINC, COMMAND, INITIATIVE, RESERVE, SIDE_TURN, TGState

Rule = Callable[[TGState, Mapping[str, Any], EventDice], tuple[Ruling, TGState]]


def rule_end_phase(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """3.0: a side ends its part of the Reserve or CinC Movement phase (or, in Schevardino, declines to
    activate a command, or ends its move)."""
    side = event["side"]
    if state.phase == INITIATIVE:
        return activation.rule_no_cga(state, side)
    if state.phase in (RESERVE, CINC):
        ts = state.two_sided
        assert ts is not None
        if ts.order is None:
            return _bad("4.0", "go_first_first", "who goes first is not decided yet"), state
        if ts.current != side:
            return _bad("3.0", "not_your_turn", f"it is {ts.current}'s turn in this phase"), state
        act = state.activation
        if act is not None and act.checks_owed:
            return illegal("end_phase", [Error("5.54", "checks_owed", "disorder checks are owed first",
                                               alternatives=act.checks_owed)]), state
        return legal("end_phase", ["3.0"]), replace(state, activation=None, two_sided=replace(ts, done=ts.done | {side}))
    if state.phase == COMMAND:
        cmd = state.rules.command_activation
        if cmd is None or side != cmd.chooser:
            return _bad("SCH-COMMAND", "not_chooser", "only the side that activates commands ends this step"), state
        return legal("end_phase", ["SCH-COMMAND"]), replace(state, command_chosen=True)
    if state.phase == SIDE_TURN:
        if side != state.side_turn:
            return _bad("3.0", "not_your_turn", f"it is {state.side_turn}'s turn"), state
        return legal("end_phase", ["SCH-COMMAND"]), sequence.end_side_turn(state)
    return _bad("3.0", "wrong_phase", "this phase ends by itself; end_phase ends the Reserve and CinC Movement "
                "phases"), state


RULES: Mapping[str, Rule] = {
    "orders_delay": orders.rule_orders_delay,
    "orders": orders.rule_orders,
    "initiative": initiative.rule_initiative,
    "first_marker": activation.rule_first_marker,
    "cga": activation.rule_cga,
    "draw": activation.rule_draw,
    "individual_order": orders.rule_individual_order,
    "move": moves.rule_move,
    "face": moves.rule_face,
    "stack_order": moves.rule_stack_order,
    "end_activation": activation.rule_end_activation,
    "end_phase": rule_end_phase,
    "go_first": initiative.rule_go_first,
    "reserve": reserve.rule_reserve,
    "cohesion_check": reserve.rule_cohesion_check,
    "cinc_move": cinc.rule_cinc_move,
    "activate_command": activation.rule_activate_command,
}


def rule(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    type_ = event["type"]
    if state.over:
        return illegal(type_, [Error("3.0", "game_over", "the game is over")]), state
    side = event.get("side")
    if side is not None and side not in state.static.sides:
        return illegal(type_, [Error("3.0", "unknown_side", f"no side '{side}'",
                                     alternatives=state.static.sides)]), state
    ruling, new = RULES[type_](state, event, dice)
    if not ruling.legal or ruling.owes_roll:
        return ruling, state
    new, results = sequence.advance(new)
    if results:
        ruling = replace(ruling, results=ruling.results + tuple(results))
    return ruling, new


def _bad(rule_: str, code: str, message: str) -> Ruling:
    return illegal("end_phase", [Error(rule_, code, message)])
