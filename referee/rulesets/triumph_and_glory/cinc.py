"""Commanders-in-chief (5.61–5.63, BOR-KUTUZOV, BOR-NAPOLEON): command range is ``TGState.in_command_range``
(5.61); CinCs move only in the CinC Movement Phase (5.62), Kutuzov 4 MP (his carriage, BOR-KUTUZOV), Napoleon
a d10 rolled before he moves (BOR-NAPOLEON); an enemy unit entering a CinC's hex displaces him (5.63, in
entering.py with everything else that entering a hex brings).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.verbs import Illegal, check, refuse
from referee.engine.ruling import Error, Roll, Ruling, legal, result, table_roll

from . import movement
from . import scenario_rules as sr
from .board import UnitState
from .state import CINC, TGState, TwoSided
from .timing import turn_error
from .verbs import VERBS

def fixed_allowance(state: TGState, side: str) -> int | None:
    """5.62: the CinC's MA this turn — the scenario rule's value (Kutuzov 4), else the printed MA; None when it
    is rolled (BOR-NAPOLEON, or a counter printed with a variable MA)."""
    return sr.cinc_movement_allowance(state.rules, state.static.cinc[side])  # type: ignore[arg-type]


def ma_roll(natural: int | None, side: str, name: str) -> Roll:
    """BOR-NAPOLEON: the natural d10 (0–9) is the MA this turn."""
    return table_roll("napoleon_ma", natural, natural, side=side)


@VERBS.verb("cinc_move", steps=(CINC,), rules=("5.62",),
             refs={"side": "side", "path": "hex?"}, actor=False,
             not_now=Error("5.62", "cinc_phase_only", "a commander-in-chief moves only in the CinC Movement Phase"))
def cinc_move(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side = event["side"]
    ts = state.two_sided
    if state.phase != CINC or ts is None:
        refuse("5.62", "cinc_phase_only", "a commander-in-chief moves only in the CinC Movement Phase")
    check(turn_error(state, side, first=("4.0", "who moves first in the CinC Movement Phase is not decided yet"),
                     turn=("4.0", "CinC movement")))
    leader = state.cinc_of(side)
    if leader is None or leader.hex is None:
        refuse("5.62", "no_cinc", f"{side} has no commander-in-chief on the map")
    ma, rolls, rules = cinc_allowance(state, ts, side, leader, dice)
    if ma is None:                                   # BOR-NAPOLEON: the MA roll is owed first
        return legal("cinc_move", rules, rolls=rolls), state
    spent = ts.mp_spent.get(side, 0)
    # The movement rules count the MP already spent this phase themselves (the leader's ``mp_spent``).
    move = movement.check_move(state.board, leader.id, list(event.get("path", [])), "normal",
                               movement.MoveContext(allowance=ma))
    if not move.legal:
        raise Illegal(*over_allowance(list(move.errors), leader, ma, spent), rules=rules)
    board = movement.apply_move(state.board, move) if move.steps else state.board
    new_ts = replace(ts, ma={**ts.ma, side: ma}, mp_spent={**ts.mp_spent, side: spent + move.mp_spent})
    res = [result("moved", "5.62", leader.id, to=move.end)] if move.steps else []
    return legal("cinc_move", rules, rolls=rolls, results=res), replace(state, board=board, two_sided=new_ts)


def cinc_allowance(state: TGState, ts: TwoSided, side: str, leader: UnitState, dice: EventDice
                   ) -> tuple[int | None, list[Roll], list[str]]:
    """5.62: the CinC's movement allowance this turn — rolled once (BOR-NAPOLEON; None while the roll is owed)
    or fixed (BOR-KUTUZOV) — with the rolls and rules that gave it."""
    ma = ts.ma.get(side)
    if ma is not None:
        return ma, [], ["5.62"]
    ma = fixed_allowance(state, side)
    if ma is not None:
        return ma, [], ["5.62", "BOR-KUTUZOV"] if leader.id in state.rules.cinc_ma else ["5.62"]
    natural = dice.roll("roll", "napoleon_ma")
    return natural, [ma_roll(natural, side, leader.defn.name)], ["5.62", "BOR-NAPOLEON"]


def over_allowance(errors: list[Error], leader: UnitState, ma: int, spent: int) -> list[Error]:
    """5.62: a move beyond the CinC's allowance is refused first as such, then with the movement rules' errors."""
    if any(e.code == "not_enough_mp" for e in errors):
        return [Error("5.62", "over_allowance", f"{leader.defn.name} has {ma - spent} MP left (MA {ma} this turn)",
                      alternatives=errors[0].alternatives if errors else None)] + errors
    return errors
