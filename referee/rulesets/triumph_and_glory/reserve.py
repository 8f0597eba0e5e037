"""Reserve Activation (5.51–5.57): each player may activate one order group, which then acts as a No-Orders
group (5.53) and checks for disorder after moving (5.54–5.56).

Who goes first is :func:`initiative.go_first` (5.51); the phase ends with each side's ``end_phase``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.engine.dice import EventDice
from referee.engine.verbs import Illegal, check, refuse
from referee.engine.ruling import (Awaiting, Error, Result, Roll, Ruling, legal, pass_fail_roll, 
                                   result)

from .activation import reset_activation_flags
from .board import Board, UnitState
from .state import RESERVE, Activation, TGState
from .timing import turn_error
from .verbs import VERBS

# --------------------------------------------------------------------------------------------- eligibility


def group_in_range(state: TGState, members: Sequence[str]) -> bool:
    """5.52: at least one unit of the group within the CinC's command range."""
    return any(state.in_command_range(u) for u in members)


def may_be_activated(board: Board, unit: UnitState) -> bool:
    """5.52 (A-20): only members not adjacent to an enemy unit, tested when the group is chosen."""
    return unit.hex is not None and not board.adjacent_to_enemy(unit.hex, unit.side)


def group_eligibility_errors(state: TGState, side: str, g: int) -> list[Error]:
    o = state.orders[side]
    members = o.groups[g]
    ag = state.unit(members[0]).ag
    errors = []
    if ag not in state.cup_ags:
        errors.append(Error("5.57", "am_not_in_cup", f"the AM of {ag} was not in the cup this turn"))
    if not group_in_range(state, members):
        cinc = state.static.cinc.get(side)
        rng = f"{cinc.command_range} hexes of {cinc.name}" if cinc else "a commander-in-chief's range"
        errors.append(Error("5.52", "out_of_range", f"no unit of the group of {members[0]} is within {rng}"))
    elif not any(may_be_activated(state.board, state.unit(u)) for u in members):
        errors.append(Error("5.52", "all_adjacent", "every unit of the group is adjacent to an enemy unit"))
    return errors


def candidate_groups(state: TGState, side: str) -> list[int]:
    o = state.orders[side]
    return [g for g in range(len(o.groups)) if not group_eligibility_errors(state, side, g)]


# --------------------------------------------------------------------------------------------- 5.54–5.56 checks


def needs_check(unit: UnitState, moved: bool, fired: bool) -> bool:
    """5.54–5.56: non-artillery units that moved and artillery that fired check; nobody else."""
    return fired if unit.kind == "artillery" else moved


def disorder_check_roll(unit: UnitState, natural: int | None) -> Roll:
    """5.54: fail iff natural > cohesion on the face now up; no modifiers."""
    return pass_fail_roll("cohesion_check", natural, unit.value("cohesion") or 0,
                          base_label=f"cohesion of {unit.defn.name}", base_rule="5.54", unit=unit.id)


def failed_check(board: Board, unit: UnitState, militia_rule: bool) -> tuple[Board, Result]:
    """5.54 on a fail: Good Order → Disordered; already Disordered → rout to the Withdrawn Box (9.66);
    a counter without a Disordered side (cossacks) → Withdrawn Box (BOR-COSSACK); militia → eliminated
    (BOR-MILITIA, A-26)."""
    if militia_rule and "militia" in unit.flags:
        return board.remove(unit.id, "eliminated"), result("eliminated", "BOR-MILITIA", unit.id)
    no_back = "no_back" in unit.flags or getattr(unit.defn, "back", 1) is None
    if no_back and unit.status == "good":
        rule = "BOR-COSSACK" if getattr(unit.defn, "cav_type", None) == "C" else "9.61"
        return board.remove(unit.id, "withdrawn"), result("routed", rule, unit.id, to="withdrawn")
    if unit.status == "disordered":
        if unit.kind == "artillery":
            return board.remove(unit.id, "destroyed"), result("destroyed", "9.66", unit.id)
        return board.remove(unit.id, "withdrawn"), result("routed", "9.66", unit.id, to="withdrawn")
    return board.update(unit.id, status="disordered"), result("disordered", "5.54", unit.id)


# --------------------------------------------------------------------------------------------- events


@VERBS.verb("reserve", steps=(RESERVE,), rules=("5.51", "5.52", "5.53"),
             refs={"side": "side", "unit": "unit"}, actor=False,
             not_now=Error("3.0", "wrong_phase", "reserve activation happens in the Reserve Activation Phase"))
def reserve(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    ts = state.two_sided
    if state.phase != RESERVE or ts is None:
        refuse("3.0", "wrong_phase", "reserve activation happens in the Reserve Activation Phase")
    check(turn_error(state, side, first=("5.51", "who goes first in the Reserve Phase is not decided yet"),
                     turn=("5.51", "reserve activation")))
    if side in ts.reserve_used:
        refuse("5.51", "one_group", f"{side} has already activated a group in reserve")
    u = state.unit(uid)
    o = state.orders[side]
    if u.side != side or u.is_leader or uid not in o.group_of:
        refuse("5.51", "not_your_group", f"{uid} is not in one of {side}'s order groups")
    g = o.group_of[uid]
    errors = group_eligibility_errors(state, side, g)
    check(errors)
    members = o.groups[g]
    active = frozenset(m for m in members if may_be_activated(state.board, state.unit(m)))
    left_out = [m for m in members if m not in active]
    act = Activation(marker=f"reserve:{side}", side=side, ags=frozenset({u.ag}), units=active, reserve=True,
                     start_hexes={m: state.unit(m).hex for m in active})
    new = replace(state, activation=act, board=reset_activation_flags(state, active),
                  two_sided=replace(ts, reserve_used=ts.reserve_used | {side}))
    res = [result("activated", "5.51", m, reserve=True) for m in members if m in active]
    res += [result("not_activated", "5.52", m, reason="adjacent to an enemy unit") for m in left_out]
    return legal("reserve", ["5.51", "5.52", "5.53"], results=res), new


def cohesion_check(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    act = state.activation
    if act is None or not act.reserve or uid not in act.checks_owed:
        raise Illegal(no_check_owed(act, uid))
    u = state.unit(uid)
    if u.side != side:
        refuse("5.54", "not_your_unit", f"{uid} is not {side}'s")
    board = state.board
    here, roller = checking_units(board, act, u)
    natural = dice.roll("roll", "cohesion_check")
    roll = disorder_check_roll(roller, natural)
    rules = ["5.54"] + (["6.23"] if board.rules.reserve_check == "stack" else [])
    if natural is None:
        return legal("cohesion_check", rules, rolls=[roll]), state
    owed = tuple(x for x in act.checks_owed if x not in here)
    results = []
    if not roll.passed:
        for x in here:
            board, res = failed_check(board, board.units[x], board.rules.militia_alone)
            results.append(res)
    rules += [r.rule for r in results if r.rule not in rules]
    return (legal("cohesion_check", rules, rolls=[roll], results=results),
            replace(state, board=board, activation=replace(act, checks_owed=owed)))


def checking_units(board: Board, act: Activation, unit: UnitState) -> tuple[tuple[str, ...], UnitState]:
    """Who a reserve check covers and whose cohesion it is rolled on: the unit itself (5.54, default), or —
    option ``reserve_check: stack`` (6.23) — every unit of its hex that owes a check, on the cohesion of the
    hex's top infantry/cavalry unit."""
    if board.rules.reserve_check != "stack" or unit.hex is None:
        return (unit.id,), unit
    here = tuple(x for x in act.checks_owed if board.units[x].hex == unit.hex)
    top = next((x for x in board.stack(unit.hex) if x.kind in ("infantry", "cavalry")), unit)
    return here, top


def no_check_owed(act: Activation | None, uid: str) -> Error:
    """Nobody owes this check, under the rule that says who checks: in the Reserve Phase 5.56 ("units that did
    not move, and artillery that did not fire, do not check"); elsewhere only fire and shock owe checks (8.5,
    8.8, 9.62, 9.65 — cited as 9.62, the shock's)."""
    owed = tuple(act.checks_owed) if act else ()
    if act is not None and act.reserve:
        return Error("5.56", "no_check_owed", f"no cohesion check is owed by {uid}: in the Reserve Phase only a "
                     "non-artillery unit that moved (5.54) or artillery that fired (5.55) checks", alternatives=owed)
    return Error("9.62", "no_check_owed", f"no cohesion check is owed by {uid}: only fire (8.5, 8.8), a shock "
                 "result (9.62) or a retreat through the unit (9.65) owes one", alternatives=owed)


def owed_check_awaiting(act: Activation) -> list[Awaiting]:
    return [Awaiting("cohesion_check", act.side, "5.54", u) for u in act.checks_owed]
