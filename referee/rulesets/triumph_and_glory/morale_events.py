"""Rally (10.1), the Morale Phase (3.0 E: collapse 10.5, recovery 10.2–10.3, Withdrawn → Recovery 10.4) and the
victory conditions reported when the game ends (*Borodino* special rules 15–16; *Schevardino*: who holds the
redoubt).  The pure rules are morale.py's and victory.py's.

The Morale Phase runs by itself except for the recovery rolls: on entering it every activation group that
has lost two thirds of its counted units collapses (its results reported on the event that ended the Reserve
Phase), then each unit in the Recovery Box whose AG still has units on the map owes a ``recovery`` roll; when
none is owed, the Withdrawn Box empties into the Recovery Box and the CinC Movement Phase begins.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Error, Result, Ruling, legal, result
from referee.engine.verbs import check, refuse

from . import morale as mo
from . import victory as vc
from .board import Board, UnitState
from .combat import apply_effects, engine_roll
from .entering import enter
from .disorder import RECOVERY
from .timing import activation_error, activation_of
from .state import MORALE, Activation, TGState
from .verbs import ACTING, VERBS


# --------------------------------------------------------------------------------------------- 10.1

@VERBS.verb("rally", steps=ACTING, rules=("10.1",),
             refs={"side": "side", "unit": "unit"}, actor=False,
             not_now=Error("10.1", "no_activation", "fire and shock happen during an activation"))
def rally(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """10.1: an activated Disordered unit tries to rally, once per activation."""
    side, uid = event["side"], event["unit"]
    check(activation_error(state, side, "10.1"))
    act = activation_of(state)
    u = state.unit(uid)
    check(rally_errors(state, act, u))
    spec = mo.rally_roll(u)
    natural = need(dice, "roll", engine_roll(spec, None, side), ("10.1",), purpose="rally")
    roll = engine_roll(spec, natural, side)
    board, res = apply_effects(state.board, [e for e in [mo.rally_effect(u, bool(roll.passed))] if e])
    # A unit that tried to rally has acted: it neither moves nor shocks this activation (10.1).
    new_act = replace(act, rallied=act.rallied | {uid}, acted=act.acted | {uid})
    return legal("rally", ["10.1"], rolls=[roll], results=res), replace(state, board=board, activation=new_act)


def rally_errors(state: TGState, act: Activation, u: UnitState) -> list[Error]:
    """5.31, 10.1: what forbids ``u`` to try to rally in the activation ``act``."""
    errors: list[Error] = []
    if u.id not in act.units:
        errors.append(Error("5.31", "not_activated", f"{u.id} is not activated"))
    if u.id in act.rallied:
        errors.append(Error("10.1", "rally_twice", f"{u.defn.name} already tried to rally this activation"))
    return errors + mo.rally_errors(state.board, u, faced=u.id in act.acted, shocked=u.id in act.combat.shocked,
                                    reserve=act.reserve, ag_collapsed=u.ag in state.collapsed)


def rally_actions(state: TGState) -> list[dict[str, Any]]:
    act = state.activation
    if act is None or act.side is None or act.combat.declared or act.reserve:
        return []
    out = []
    for uid in sorted(act.units):
        u = state.board.units[uid]
        if u.disordered and uid not in act.rallied and not mo.rally_errors(
                state.board, u, faced=uid in act.acted, shocked=uid in act.combat.shocked,
                ag_collapsed=u.ag in state.collapsed):
            out.append({"type": "rally", "side": act.side, "unit": uid})
    return out


# --------------------------------------------------------------------------------------------- 10.5 / 10.2

def collapse_step(state: TGState) -> tuple[TGState, list[Result]]:
    """10.5: every AG that has now lost two thirds of its counted units collapses, once and for good."""
    board = state.board
    collapsed = set(state.collapsed)
    results: list[Result] = []
    units = board.units
    for ag in state.static.ags:
        # Only an AG with a unit off the map can have lost anything (the full count scans every unit).
        if ag in collapsed or all(units[u].hex is not None for u in state.static.ag_units.get(ag, ())):
            continue
        out = mo.collapse_outcome(board, ag, False)
        if out.collapsed:
            collapsed.add(ag)
            results.append(result("collapsed", "10.5", None, ag=ag))
            board, more = apply_effects(board, out.effects)
            results += more
    return replace(state, board=board, collapsed=frozenset(collapsed)), results


def recovery_due(state: TGState) -> tuple[str, ...]:
    board = state.board
    return tuple(u.id for u in board.units.values() if u.is_combat and mo.recovery_eligible(board, u))


def enter_morale(state: TGState) -> tuple[TGState, list[Result]]:
    state, results = collapse_step(state)
    return replace(state, morale_started=True, recovery_owed=recovery_due(state)), results


def leave_morale(state: TGState) -> tuple[TGState, list[Result]]:
    """10.4: the Withdrawn Box empties into the Recovery Box."""
    board = state.board
    ids = mo.withdrawn_to_recovery(board)
    for uid in ids:
        board = board.remove(uid, RECOVERY)
    return replace(state, board=board, morale_started=False, recovery_owed=()), []


@VERBS.verb("recovery", rules=("10.2", "10.3"),
             refs={"side": "side", "unit": "unit", "to": "hex?"}, actor=False)
def recovery(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """10.2: a unit in the Recovery Box rolls; it is eliminated if it fails, else placed Disordered (10.3)."""
    side, uid = event["side"], event["unit"]
    if state.phase != MORALE or uid not in state.recovery_owed:
        refuse("10.2", "no_recovery_owed", f"{uid} owes no recovery roll", state.recovery_owed)
    u = state.unit(uid)
    if u.side != side:
        refuse("10.2", "not_your_unit", f"{uid} is {u.side}'s")
    spec = mo.recovery_roll(u)
    natural = need(dice, "roll", engine_roll(spec, None, side), ("10.2",), purpose="recovery")
    roll = engine_roll(spec, natural, side)
    owed = tuple(x for x in state.recovery_owed if x != uid)
    if not roll.passed:
        return (legal("recovery", ["10.2"], rolls=[roll], results=[result("eliminated", "10.2", uid)]),
                replace(state, board=state.board.remove(uid, "eliminated"), recovery_owed=owed))
    board, results = recovered(state.board, u, event.get("to"))
    return legal("recovery", ["10.2", "10.3"], rolls=[roll], results=results), \
        replace(state, board=board, recovery_owed=owed)


def recovered(board: Board, u: UnitState, to: Any) -> tuple[Board, list[Result]]:
    """10.3: the recovered unit placed Disordered (a counter without a reverse face up) where the owner says, or
    the first legal hex; it stays in the box when there is none."""
    hexes = mo.return_hexes(board, u)
    to = to if to in hexes else (hexes[0] if hexes else None)
    if to is None:
        return board, [result("recovered", "10.2", u.id, to=None)]
    status = "disordered" if getattr(u.defn, "back", None) is not None and "no_back" not in u.flags else "good"
    board, displaced = enter(board, u.id, to, status=status)
    return board, [result("recovered", "10.2", u.id, to=to), *displaced]


# --------------------------------------------------------------------------------------------- victory

def victory(state: TGState) -> dict[str, Any]:
    """The scenario's victory conditions at the end of the last turn."""
    board = state.board
    if state.rules.command_activation is not None:               # Schevardino: hold the redoubt
        hex_ = vc.redoubt_hex(board)
        return {"condition": "schevardino_redoubt", "hex": hex_, "winner": vc.schevardino_winner(board, hex_)}
    guard = state.static.scenario.options.get("guard_ags", ())
    awards = vc.borodino_vp(board, sorted(state.collapsed), guard)
    totals = vc.vp_totals(awards, state.static.sides)
    return {"condition": "borodino_vp", "vp": totals, "winner": vc.winner(totals),
            "awards": [{"side": a.side, "vp": a.vp, "reason": a.reason} for a in awards]}


def victory_results(v: Mapping[str, Any]) -> list[Result]:
    return [result("victory", "BOR-15" if v["condition"] == "borodino_vp" else "SCH-VICTORY", None,
                   **{k: val for k, val in v.items() if k != "awards"})]
