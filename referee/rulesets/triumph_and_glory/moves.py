"""The acts of an activated unit that the positional rules judge: ``move`` (7.x via ``movement.check_move``),
``face`` (6.12 via ``facing``), ``stack_order`` (6.24 via ``stacking``).  This module decides *whether the unit
may act now and how* — activated? its order status (5.26–5.28, 5.53), the special rules (BOR-GUARD,
BOR-RUSSIAN-ORDERS reserve, BOR-NO-EXTENDED) — builds the ``MoveContext`` and applies the result; the
position itself is judged by the other modules.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.ruling import Awaiting, Error, Result, Ruling, legal, result
from referee.engine.verbs import Illegal, check, refuse

from . import movement
from . import scenario_rules as sr
from .entering import entered
from .facing import facing_error, shared_facing_errors
from .orders import acting_status
from .reserve import needs_check
from .stacking import stack_order_errors
from .state import TGState
from .timing import activation_of
from .verbs import VERBS


def may_act_error(state: TGState, side: str, uid: str) -> Error | None:
    """Is ``uid`` one of the units activated now, and ``side``'s?"""
    u = state.board.units[uid]
    if u.is_leader:
        return Error("5.62", "cinc_moves_in_cinc_phase",
                     f"{u.defn.name} is a commander-in-chief: he moves only in the CinC Movement Phase")
    if u.side != side:
        return Error("3.0", "not_your_unit", f"{uid} is not {side}'s")
    act = state.activation
    commands = state.rules.command_activation is not None      # Schevardino: no AMs (SCH-COMMAND)
    if act is None:
        if commands:
            return Error("3.0", "no_activation", "no side is moving now: units move and fight in their side's "
                         "Movement and Combat step, after the Command Activation step (SCH-COMMAND)")
        return Error("3.0", "no_activation", "no activation is in progress: units act when their AM is drawn")
    if uid not in act.units:
        if act.reserve and state.unit(uid).ag in act.ags:
            return Error("5.52", "adjacent_to_enemy", f"{uid} was adjacent to an enemy unit when the reserve "
                         "group was chosen and may not be activated")
        if commands:
            return Error("SCH-COMMAND", "not_activated", f"{uid} is not in one of {act.side}'s active commands")
        return Error("5.31", "not_activated", f"{uid} is not activated by {act.marker}")
    return None


def orders_error(state: TGState, uid: str, status: str | None = None) -> Error | None:
    """May the unit move or turn at all under its orders this activation?  (``status``: its
    ``acting_status`` when the caller has it already.)"""
    status = status or acting_status(state, uid)
    if status == "rally_only":
        return Error("5.28", "rally_only", f"the group of {uid} failed its individual order: it may only rally")
    ag = state.static.ags[state.board.units[uid].ag]  # type: ignore[index]
    uo = status == "UO"
    rules = state.rules
    if not sr.guard_may_act(rules, ag.id, uo):
        return Error("BOR-GUARD", "guard_not_ordered", "Guard units act only under Napoleon's orders")
    if sr.reserve_without_orders_frozen(rules, ag, uo):
        return Error("BOR-RUSSIAN-ORDERS", "reserve_not_ordered",
                     "a Reserve-army command without orders may not move")
    return None


def move_context(state: TGState, uid: str, status: str | None = None, mode: str | None = "extended") -> movement.MoveContext:
    """What the movement rules need to know about the mover's activation: its order status (5.26/5.27),
    reserve (5.53), and where the rest of its order group began (7.13 is all-or-nothing for the group).
    ``mode``: the move's mode when the caller knows it — the group's start hexes are read only by extended
    movement (7.13), so other modes skip collecting them (most moves); the default collects them."""
    act = activation_of(state)
    u = state.unit(uid)
    og_hexes: tuple[str, ...] = ()
    if mode in ("extended", "reinforcement"):
        o = state.orders.get(u.side)
        g = o.group_of.get(uid) if o else None
        members = o.groups[g] if o is not None and g is not None else ()
        og_hexes = tuple(h for m in members if m != uid and (h := act.start_hexes.get(m)))
    entered_before = 0 if u.hex is not None else sum(   # 7.41: only a unit entering the map needs the count
        1 for m in act.acted if m in act.start_hexes and act.start_hexes[m] is None and state.unit(m).ag == u.ag)
    under = (status or acting_status(state, uid)) == "UO"
    forbidden = _forbidden(state, u.side)
    if og_hexes:
        return fresh_move_context(under, act.reserve, og_hexes, entered_before + 1, forbidden)
    # The common context (no order group's start hexes to judge, 7.13) is one of a handful per scenario map: the
    # same immutable record is handed to every move that has it, kept in the map's memo beside the Board.
    memo = state.board.static.memo
    key = ("move_context", under, act.reserve, entered_before, forbidden)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = fresh_move_context(under, act.reserve, (), entered_before + 1, forbidden)
    return hit


def fresh_move_context(under_orders: bool, reserve: bool, og_hexes: tuple[str, ...], entry_index: int,
                       forbidden_hexes: frozenset[str]) -> movement.MoveContext:
    """A new ``MoveContext`` of an activated unit (``move_context``'s long way)."""
    # Positional, in MoveContext's field order (under_orders, reserve, may_move, og_hexes, allowance, entry_hexes,
    # entry_index, forbidden_hexes): keywords cost a third of its __init__.
    return movement.MoveContext(under_orders, reserve, True, og_hexes, None, (), entry_index, forbidden_hexes)


def _forbidden(state: TGState, side: str) -> frozenset[str]:
    """Scenario movement restrictions (Schevardino), memoised per side and active commands on the scenario's
    static map (shared by the games of one scenario object, so never confused with another scenario's)."""
    if state.rules.command_activation is None:
        return frozenset()
    memo = state.board.static.memo
    key = ("forbidden_hexes", side, state.active_commands)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = sr.forbidden_hexes(state.rules, side, state.board.static.adjacent, state.active_commands)
    return hit


@VERBS.verb("move", rules=("7.0",),
             refs={"side": "side", "unit": "unit", "path": "hex?"}, actor=False)
def move(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """7.x: an activated unit moves along its path (the path itself judged by ``movement.check_move``)."""
    side, uid, mode = event["side"], event["unit"], event.get("mode")
    status = may_move(state, side, uid, mode)
    act = activation_of(state)
    judged = movement.check_move(state.board, uid, event["path"], mode, move_context(state, uid, status, mode),
                                 facing=event.get("facing"))
    if not judged.legal:
        raise Illegal(*judged.errors, rules=judged.rules)
    board, displaced = entered(movement.apply_move(state.board, judged), judged.path, side)   # 5.63
    owes_check = act.reserve and needs_check(state.unit(uid), moved=bool(judged.steps), fired=False) \
        and uid in board.units and board.units[uid].hex is not None                # 5.54
    new_act = replace(act, acted=act.acted | {uid}, checks_owed=act.checks_owed + ((uid,) if owes_check else ()))
    return (legal("move", move_rules(judged, act.reserve, displaced), results=move_results(judged, displaced),
                  awaiting=[Awaiting("cohesion_check", side, "5.54", uid)] if owes_check else []),
            replace(state, board=board, activation=new_act))


def may_move(state: TGState, side: str, uid: str, mode: str | None) -> str:
    """Whether ``uid`` may move now (activated, ``side``'s, its orders, once per activation 7.31, BOR-NO-EXTENDED),
    refused if not; its order status for this activation if so."""
    check(may_act_error(state, side, uid))
    status = acting_status(state, uid)
    check(orders_error(state, uid, status))
    if uid in activation_of(state).acted:
        refuse("7.31", "already_moved", f"{uid} has already moved this activation (one move per unit)")
    if mode == "extended" and sr.extended_movement_banned(state.rules, side):
        refuse("BOR-NO-EXTENDED", "no_extended", f"{side} units may not use extended movement")
    return status


def move_results(judged: movement.MoveResult, displaced: list[Result]) -> list[Result]:
    """What the move did (7.x effects: disorder crossing a river, ...) and the CinCs it displaced (5.63)."""
    return [result(e.effect, e.rule, e.unit, **({"hex": e.hex} if e.hex else {}))
            for e in judged.effects] + displaced


def move_rules(judged: movement.MoveResult, reserve: bool, displaced: list[Result]) -> list[str]:
    """The rules a legal move applied: the movement rules, 5.53 in a reserve activation, 5.63 if it displaced."""
    rules = judged.rules
    if reserve or displaced:
        rules = list(rules) + (["5.53"] if reserve else []) + (["5.63"] if displaced else [])
    return rules  # type: ignore[return-value]


@VERBS.verb("face", rules=("6.12",),
             refs={"side": "side", "unit": "unit"}, actor=False)
def face(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """6.12: a free change of facing, in the unit's movement step (A-12) — it counts as that step."""
    side, uid, facing = event["side"], event["unit"], event["facing"]
    check(may_act_error(state, side, uid) or orders_error(state, uid))
    act = activation_of(state)
    if uid in act.acted:
        refuse("6.12", "already_moved", f"{uid} has finished its movement this activation; it turns as part of its "
               "move")
    check(facing_error(state.board, facing))
    check(shared_facing_errors(state.board.stack(state.unit(uid).hex), {uid: facing})[:1])  # type: ignore[arg-type]
    board = state.board.update(uid, facing=facing)
    return legal("face", ["6.12"]), replace(state, board=board, activation=replace(act, acted=act.acted | {uid}))


@VERBS.verb("stack_order", rules=("6.24",),
             refs={"side": "side", "hex": "hex?", "order": "units"}, actor=False)
def stack_order(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """6.24: re-order a stack at the start of its units' activation (before any unit acted) or at its end
    (every activated unit of the stack has moved)."""
    side, hex_id, order = event["side"], event["hex"], list(event["order"])
    act = state.activation
    stack = state.board.stacks.get(hex_id, ())
    active_here = [u for u in stack if act is not None and u in act.units]
    edge = act is not None and (not act.acted or (bool(active_here) and all(u in act.acted for u in active_here)))
    active_ag = next((state.unit(u).ag for u in active_here), None)
    check(stack_order_errors(state.board, hex_id, order, side, active_ag, edge))
    return legal("stack_order", ["6.24"]), replace(state, board=state.board.restack(hex_id, order))
