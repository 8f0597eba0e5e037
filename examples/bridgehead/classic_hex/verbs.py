"""The verbs of *Bridgehead*, one per event type, each declared with the steps it is allowed in and the rules it
applies, and each citing in its ruling every rule whose check decided it (README numbering).

The engine's dispatcher has already checked, before a verb runs, that the game is not over, that the verb is
allowed in the current step and that the sending side may act in it (``procedure``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Awaiting, Error, Result, Roll, Ruling, legal, result
from referee.engine.verbs import Illegal, Verbs, check, refuse

from . import rules as r
from .state import COMBAT, MOVEMENT, Advance, Retreat, State

VERBS = Verbs()
RETREAT = "retreat"          # the step in which owed retreats are made (7.3)


def own_unit(state: State, uid: str, rule: str) -> None:
    if state.unit(uid).side != state.side:
        refuse(rule, "not_your_unit", f"{uid} is a {state.unit(uid).side} unit; it is the {state.side} player turn")
    if not state.alive(uid):
        refuse("7.2", "eliminated", f"{uid} has been eliminated")


# ----------------------------------------------------------------------------------------- 2.0 the turn

@VERBS.verb("end_phase", steps=(MOVEMENT, COMBAT), rules=("2.3",))
def end_phase(state: State, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, State]:
    """2.2-2.4: movement -> combat -> the other player's turn; after the second player, the next game turn;
    after the last game turn, the end and victory (8.1)."""
    if state.phase == MOVEMENT:
        return legal("end_phase", ["2.3", "2.2"]), replace(state, phase=COMBAT, moved=frozenset())
    cleared = replace(state, attacked_with=frozenset(), attacked_hexes=frozenset(), advance=None, moved=frozenset())
    if state.player == 0:
        return legal("end_phase", ["2.3", "2.2"]), replace(cleared, player=1, phase=MOVEMENT)
    if state.turn < state.static.last_turn:
        return legal("end_phase", ["2.3", "2.1"]), replace(cleared, player=0, phase=MOVEMENT, turn=state.turn + 1)
    winner = victor(state)
    return (legal("end_phase", ["2.3", "2.4", "8.1"],
                  results=[result("victory", "8.1", side=winner, hexes=list(state.static.victory_hexes))]),
            replace(cleared, over=True, winner=winner))


def victor(state: State) -> str:
    """8.1: the scenario's side wins if its units occupy every victory hex; otherwise the other side."""
    st = state.static
    holds = all(any(state.unit(u).side == st.victory_side for u in state.at(h)) for h in st.victory_hexes)
    return st.victory_side if holds else next(s for s in st.sides if s != st.victory_side)


@VERBS.candidates("end_phase")
def _ends(state: State):
    return [{"type": "end_phase", "side": state.side}]


# ----------------------------------------------------------------------------------------- 5.0 movement

@VERBS.verb("move", steps=(MOVEMENT,), rules=("5.1",), refs={"unit": "unit", "path": "hexes"})
def move(state: State, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, State]:
    uid, path = event["unit"], event["path"]
    own_unit(state, uid, "5.1")
    if uid in state.moved:
        refuse("5.1", "already_moved", f"{uid} has already moved this Movement Phase")
    if not path:
        refuse("5.1", "empty_path", "a move enters at least one hex")
    w = r.walk(state, uid, path)
    if not isinstance(w, r.Walk):
        alternatives = sorted(r.reachable(state, uid))
        raise_with(w, alternatives)
    check(r.stacking_error(state, path[-1], state.unit(uid).side, 1))
    new = state.moved_to({uid: path[-1]}, moved=state.moved | {uid})
    return legal("move", [*w.rules, "3.1"], results=[result("moved", "5.1", uid, to=path[-1], mp=w.cost)]), new


def raise_with(error: Error, alternatives: list[Any]) -> None:
    """Refuse with a rule function's error, listing what would have been legal."""
    raise Illegal(Error(error.rule, error.code, error.message, tuple(alternatives)))


@VERBS.candidates("move")
def _moves(state: State):
    return [{"type": "move", "side": state.side, "unit": uid, "path": list(path)}
            for uid in r.units_of(state, state.side) if uid not in state.moved
            for path in r.reachable(state, uid).values()]


# ----------------------------------------------------------------------------------------- 6.0 combat

@VERBS.verb("attack", steps=(COMBAT,), rules=("6.1", "6.2", "6.3", "6.5"),
            refs={"attackers": "units", "target": "hex"})
def attack(state: State, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, State]:
    attackers, target = list(event["attackers"]), event["target"]
    st = state.static
    if len(set(attackers)) != len(attackers):
        refuse("6.2", "named_twice", "each attacking unit is named once")
    defenders = [u for u in state.at(target) if state.unit(u).side != state.side]
    if not defenders:
        refuse("6.1", "no_enemy", f"no enemy unit in {target}")
    if target in state.attacked_hexes:
        refuse("6.2", "hex_already_attacked", f"{target} has already been attacked this Combat Phase")
    for uid in attackers:
        own_unit(state, uid, "6.1")
        if uid in state.attacked_with:
            refuse("6.2", "unit_already_attacked", f"{uid} has already attacked this Combat Phase")
        if not st.grid.adjacent(state.hexes[uid], target):
            refuse("6.2", "not_adjacent", f"{uid} is not adjacent to {target}")
    o = r.odds(state, attackers, target)
    if o.column is None:
        refuse("6.3", "odds_too_low", f"{o.attack} to {o.defence} is worse than {st.crt.columns[0]}")
    rules = ["6.1", "6.2", "6.3"] + (["6.4"] if o.shifts else []) + ["6.5"]
    column = st.crt.columns[o.final]
    odds_result = result("odds", "6.3", attack=o.attack, defence=o.defence, odds=st.crt.columns[o.column],
                         shifts=[{"columns": s, "rule": "6.4", "reason": why} for s, why in o.shifts], column=column)
    owed = Roll(purpose="combat", natural=None, side=state.side, die="d6", table=True, base_rule="6.5")
    natural = need(dice, "roll", owed, tuple(rules), die="d6")
    if natural not in st.crt.rows:
        refuse("1.3", "not_on_the_die", f"the combat roll is a d6: 1-6, not {natural}")
    outcome = st.crt.rows[natural][o.final]
    roll = replace(owed, natural=natural, modified=natural, result=outcome)
    new = replace(state, attacked_with=state.attacked_with | set(attackers),
                  attacked_hexes=state.attacked_hexes | {target}, advance=None)
    new, results, awaiting, more_rules = apply_result(new, outcome, attackers, defenders, target)
    return (legal("attack", rules + ["7.1"] + more_rules, rolls=[roll], results=[odds_result, *results],
                  awaiting=awaiting), new)


def apply_result(state: State, outcome: str, attackers: list[str], defenders: list[str],
                 target: str) -> tuple[State, list[Result], list[Awaiting], list[str]]:
    """7.1: the result applied; retreats that are possible are owed (7.3), impossible ones eliminate (7.5)."""
    results: list[Result] = [result("combat_result", "7.1", result=outcome)]
    rules: list[str] = []
    gone: dict[str, None] = {}
    retreating: list[tuple[str, int]] = []
    hexes = state.static.crt.retreat_hexes
    if outcome == "AE":
        gone.update(dict.fromkeys(attackers))
    elif outcome == "DE":
        gone.update(dict.fromkeys(defenders))
    elif outcome == "EX":
        gone.update(dict.fromkeys(defenders))
        gone[r.exchange_loss(state, attackers)] = None
    elif outcome == "AR":
        retreating = [(u, int(hexes.get("AR", 1))) for u in attackers]
    elif outcome == "DR":
        retreating = [(u, int(hexes.get("DR", 2))) for u in defenders]
    results += [result("eliminated", "7.1", u) for u in gone]
    state = state.moved_to({u: None for u in gone})
    owed: list[Retreat] = []
    for uid, n in retreating:
        origin = state.hexes[uid]
        if r.retreat_paths(state, uid, origin, n):
            owed.append(Retreat(uid, n, origin))
        else:
            results.append(result("eliminated", "7.5", uid, cause="no retreat"))
            state = state.moved_to({uid: None})
            rules.append("7.5")
    if owed:
        rules.append("7.3")
    if outcome in ("DR", "DE", "EX"):
        survivors = tuple(u for u in attackers if state.alive(u))
        if survivors:
            state = replace(state, advance=Advance(target, survivors))
    state = replace(state, retreats=tuple(owed))
    awaiting = [Awaiting(type="retreat", side=state.unit(t.unit).side, unit=t.unit, rule="7.3") for t in owed]
    return state, results, awaiting, rules


@VERBS.candidates("attack")
def _attacks(state: State):
    st = state.static
    mine = [u for u in r.units_of(state, state.side) if u not in state.attacked_with]
    out = []
    for h in sorted(state.enemies_of(state.side)):
        if h in state.attacked_hexes:
            continue
        near = [u for u in mine if st.grid.adjacent(state.hexes[u], h)]
        options = [near] + ([[u] for u in near] if len(near) > 1 else [])
        out += [{"type": "attack", "side": state.side, "attackers": a, "target": h} for a in options if a]
    return out


# ----------------------------------------------------------------------------------------- 7.0 results

@VERBS.verb("retreat", steps=(RETREAT,), rules=("7.3", "7.4"), refs={"unit": "unit", "path": "hexes"})
def retreat(state: State, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, State]:
    uid, path = event["unit"], list(event["path"])
    owed = next((t for t in state.retreats if t.unit == uid), None)
    if owed is None:
        refuse("7.3", "no_retreat_owed", f"{uid} owes no retreat",
               [t.unit for t in state.retreats])
    bad = r.retreat_error(state, uid, owed.origin, owed.hexes, path)
    if bad is not None:
        raise_with(bad, [list(p) for p in r.retreat_paths(state, uid, owed.origin, owed.hexes)])
    new = state.moved_to({uid: path[-1]}, retreats=tuple(t for t in state.retreats if t.unit != uid))
    return legal("retreat", ["7.3", "7.4"], results=[result("retreated", "7.3", uid, to=path[-1])]), new


@VERBS.candidates("retreat")
def _retreats(state: State):
    return [{"type": "retreat", "side": state.unit(t.unit).side, "unit": t.unit, "path": list(p)}
            for t in state.retreats for p in r.retreat_paths(state, t.unit, t.origin, t.hexes)]


@VERBS.verb("advance", steps=(COMBAT,), rules=("7.6",), refs={"units": "units", "to": "hex"})
def advance(state: State, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, State]:
    units, to = list(event["units"]), event["to"]
    a = state.advance
    if a is None or a.hex != to:
        refuse("7.6", "no_advance", f"no attacker may advance into {to} now"
               + (f" (the choice is for {a.hex})" if a else ""))
    if any(u not in a.units for u in units) or len(set(units)) != len(units) or not units:
        refuse("7.6", "not_an_attacker", f"only the surviving attackers may advance: {', '.join(a.units)}",
               list(a.units))
    if state.enemies_of(state.side).get(to):
        refuse("7.6", "hex_not_empty", f"{to} still holds an enemy unit")
    check(r.stacking_error(state, to, state.side, len(units)))
    new = state.moved_to(dict.fromkeys(units, to), advance=None)
    return legal("advance", ["7.6", "3.1"], results=[result("advanced", "7.6", u, to=to) for u in units]), new


@VERBS.candidates("advance")
def _advances(state: State):
    a = state.advance
    if a is None:
        return []
    return [{"type": "advance", "side": state.side, "units": [u], "to": a.hex} for u in a.units]
