"""Initiative (4.0) and who goes first in the two-sided phases (5.51, gaps §4).

4.0: each player rolls a d10 and adds his CinC's orders rating; the higher total has the initiative, a tie
gives it to nobody.  Kutuzov's rating is printed "?" and set by the Russian orders option chosen this turn
(gaps §13.2, option ``kutuzov_initiative_rating: option_number``; 3 on turn 1).  *Borodino*: the French have
the initiative automatically on the 0600 turn (BOR-INITIATIVE).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.ruling import Awaiting, Error, Modifier, Roll, Ruling, legal, result, table_roll
from referee.engine.verbs import refuse

from .activation import holder_picks_first
from .state import CINC, INITIATIVE, RESERVE, TGState, TwoSided
from .verbs import VERBS


def initiative_rating(state: TGState, side: str) -> tuple[int, str]:
    """The number a side adds to its initiative roll, and why."""
    cinc = state.static.cinc.get(side)
    if cinc is None:
        return 0, f"{side} has no commander-in-chief"
    if cinc.orders_rating is not None:
        return cinc.orders_rating, f"{cinc.name}'s orders rating"
    army = state.rules.army_orders
    if army is not None and army.side == side:
        o = state.orders[side]
        chosen = o.army or o.previous_army
        if chosen is None or state.turn == state.static.scenario.turns.first and o.army is None:
            return army.first_turn_rating, f"{cinc.name}'s orders rating (no army option chosen)"
        return army.options.get(chosen, army.first_turn_rating), f"{cinc.name}'s orders rating ({chosen} army option)"
    return 0, f"{cinc.name} has no orders rating"


def initiative_rolls(state: TGState, naturals: Mapping[str, int | None]) -> list[Roll]:
    out = []
    for side in state.static.sides:
        rating, why = initiative_rating(state, side)
        out.append(table_roll("initiative", naturals.get(side), None, modifiers=[Modifier(rating, "4.0", why)],
                              side=side))
    return out


def winner(rolls: list[Roll]) -> str | None:
    """4.0: the higher total; equal totals → nobody."""
    best = max(r.modified for r in rolls)  # type: ignore[type-var]
    top = [r.side for r in rolls if r.modified == best]
    return top[0] if len(top) == 1 else None


def automatic_initiative(state: TGState) -> str | None:
    """BOR-INITIATIVE: a side that has the initiative on this turn without rolling."""
    return state.rules.auto_initiative.get(state.turn)


@VERBS.verb("initiative", steps=(INITIATIVE,), rules=("4.0",),
             refs={"rolls": "roller{}"}, actor=False,
             not_now=Error("4.0", "wrong_phase", "the initiative is rolled in the Initiative Phase (3.0 B)"))
def initiative(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    if state.phase != INITIATIVE or state.initiative_decided:
        why = ("the initiative has been decided this turn" if state.phase == INITIATIVE
               else "the initiative is rolled in the Initiative Phase (3.0 B)")
        refuse("4.0", "wrong_phase", why)
    naturals = {side: dice.roll(f"rolls.{side}", "initiative") for side in state.static.sides}
    rolls = initiative_rolls(state, naturals)
    if any(n is None for n in naturals.values()):
        return legal("initiative", ["4.0"], rolls=rolls), state
    holder = winner(rolls)
    rolls = [replace(r, result="initiative" if r.side == holder else ("tie" if holder is None else "none"))
             for r in rolls]
    res = [result("initiative", "4.0", None, side=holder)]
    new = replace(state, initiative=holder, initiative_decided=True)
    awaiting = [Awaiting("first_marker", holder, "4.0")] if holder_picks_first(new) else []
    return legal("initiative", ["4.0"], rolls=rolls, results=res, awaiting=awaiting), new


# --------------------------------------------------------------------------------------------- go first


@VERBS.verb("go_first", steps=(RESERVE, CINC), rules=("4.0", "5.51"),
             refs={"side": "side", "first": "side", "rolls": "roller{}"}, actor=False,
             not_now=Error("4.0", "wrong_phase", "who goes first is decided at the start of the Reserve and CinC Movement phases"))
def go_first(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """4.0 / 5.51: the initiative holder says who goes first in the Reserve and CinC Movement phases; with no
    holder both roll a d10, the higher goes first, ties are rolled again (the tie ruling awaits a new roll)."""
    ts = state.two_sided
    rule = "5.51" if state.phase == RESERVE else "4.0"
    if state.phase not in (RESERVE, CINC) or ts is None or ts.order is not None:
        refuse("4.0", "wrong_phase", "who goes first is decided at the start of the "
               "Reserve and CinC Movement phases")
    if state.initiative is not None:
        sides = state.static.sides
        side, first = event.get("side"), event.get("first")
        if side != state.initiative:
            refuse("4.0", "no_initiative", f"{state.initiative} has the initiative and decides")
        if first not in sides:
            refuse("4.0", "first_side", "name the side that goes first", sides)
        order = (first,) + tuple(s for s in sides if s != first)
        return legal("go_first", ["4.0", rule]), replace(state, two_sided=replace(ts, order=order))
    return roll_for_first(state, ts, rule, dice)


def roll_for_first(state: TGState, ts: TwoSided, rule: str, dice: EventDice) -> tuple[Ruling, TGState]:
    """4.0 / 5.51 with no initiative holder: both roll a d10, the higher goes first; a tie is rolled again (the
    ruling awaits a new roll)."""
    sides = state.static.sides
    naturals = {s: dice.roll(f"rolls.{s}", "go_first") for s in sides}
    rolls = [table_roll("go_first", naturals[s], None, side=s) for s in sides]
    if any(n is None for n in naturals.values()):
        return legal("go_first", [rule]), state
    best = max(naturals.values())
    top = [s for s in sides if naturals[s] == best]
    if len(top) > 1:
        rolls = [replace(r, result="tie") for r in rolls]
        return legal("go_first", [rule], rolls=rolls, awaiting=[Awaiting("go_first", None, rule)]), state
    order = (top[0],) + tuple(s for s in sides if s != top[0])
    rolls = [replace(r, result="first" if r.side == top[0] else "second") for r in rolls]
    return legal("go_first", [rule], rolls=rolls), replace(state, two_sided=replace(ts, order=order))
