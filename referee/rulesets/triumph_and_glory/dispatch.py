"""Event type → rule function, and the one place where every legal, complete ruling is followed by the
automatic transitions of the sequence of play (whose results join the ruling, DESIGN §5).

Data flows one way: the engine hands an event here; the rule function validates it against the state, then
builds the new state; :func:`sequence.advance` moves through phases that end by themselves.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from referee.engine.dice import EventDice
from referee.engine.ruling import Error, Ruling, illegal, legal

from .records import replace
from . import (activation, charge_events, cinc, destruction, fire_events, initiative, morale_events, moves, orders, owed,
               reserve, sequence, shock_events)
from . import secondary_events      # 9.31, 9.72–9.73: fall_back, breakthrough, counter_shock (they check owed acts)
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


def rule_cohesion_check(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """A cohesion check owed by fire or shock (8.5, 8.8, 9.62, 9.65), else the reserve disorder check (5.54)."""
    act = state.activation
    if act is not None and any(k.unit == event["unit"] for k in act.combat.checks):
        return owed.rule_combat_check(state, event, dice)
    return reserve.rule_cohesion_check(state, event, dice)


# Acts that may not happen while fire or shock owes something, or (movement) once assaults are declared (9.44).
_BLOCKED_BY_COMBAT = {"move": "9.44", "face": "9.44", "stack_order": "9.44", "end_activation": "3.0",
                      "end_phase": "3.0", "individual_order": "9.44", "rally": "9.44", "leave_square": "9.44"}


def combat_block(state: TGState, type_: str) -> Error | None:
    act = state.activation
    if act is None or type_ not in _BLOCKED_BY_COMBAT:
        return None
    c = act.combat
    if type_ in ("end_activation", "end_phase"):
        if c.is_open(state.board, act.side):
            return Error("3.0", "combat_open", "the declared assaults and the acts they owe come first")
        return None
    if c.owes:
        return Error("9.6", "acts_owed", "the owed checks, retreats and advances come first")
    if c.declared and type_ != "rally":
        return Error("9.44", "after_declaration", "movement ends when the assaults are declared")
    return None


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
    "cohesion_check": rule_cohesion_check,
    "fire": fire_events.rule_fire,
    "counter_battery": fire_events.rule_counter_battery,
    "assaults": shock_events.rule_assaults,
    "commitment": shock_events.rule_commitment,
    "shock": shock_events.rule_shock,
    "reaction_fire": shock_events.rule_reaction_fire,
    "charge": charge_events.rule_charge,
    "square": charge_events.rule_square,
    "counter_charge": charge_events.rule_counter_charge,
    "recall": charge_events.rule_recall,
    "pursuit": charge_events.rule_pursuit,
    "leave_square": charge_events.rule_leave_square,
    "retreat": owed.rule_retreat,
    "advance": owed.rule_advance,
    "fall_back": secondary_events.rule_fall_back,
    "breakthrough": secondary_events.rule_breakthrough,
    "counter_shock": secondary_events.rule_counter_shock,
    "rally": morale_events.rule_rally,
    "recovery": morale_events.rule_recovery,
    "burn_village": destruction.rule_burn_village,
    "destroy_bridge": destruction.rule_destroy_bridge,
    "fire_out": destruction.rule_fire_out,
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
    blocked = combat_block(state, type_)
    if blocked is not None:
        return illegal(type_, [blocked]), state
    ruling, new = RULES[type_](state, event, dice)
    if not ruling.legal or ruling.owes_roll:
        return cite_what_decided(ruling), state
    new, results = sequence.advance(new)
    if new.over and new.victory is not None:
        results = list(results) + morale_events.victory_results(new.victory)
    if results:
        ruling = replace(ruling, results=ruling.results + tuple(results))
    owed = sequence.rolls_owed(new)
    if owed:                                         # 10.2 & co: what the sequence of play now requires
        have = set(ruling.awaiting)
        ruling = replace(ruling, awaiting=ruling.awaiting + tuple(a for a in owed if a not in have))
    return cite_what_decided(ruling), new


def cite_what_decided(ruling: Ruling) -> Ruling:
    """A ruling cites every rule that decided it (issue 18, point 3), structurally: besides the rules the rule
    function named, the rule of every result it produced (a CinC displaced by 5.63, a collapse by 10.5) and of
    every roll's target and modifier.  Errors cite themselves (``illegal``); the acts a ruling says are owed
    next carry their own rules in ``awaiting`` (they decide what comes next, not this act)."""
    results, rolls = ruling.results, ruling.rolls
    if not results and not rolls:               # most rulings: a move, a draw, an end of activation
        return ruling
    extra = [r.rule for r in results]
    for roll in rolls:
        if roll.base_rule:
            extra.append(roll.base_rule)
        extra += [m.rule for m in roll.modifiers]
    have = ruling.rules
    if not extra or all(x in have for x in extra):
        return ruling
    return replace(ruling, rules=tuple(dict.fromkeys(have + tuple(extra))))


def _bad(rule_: str, code: str, message: str) -> Ruling:
    return illegal("end_phase", [Error(rule_, code, message)])
