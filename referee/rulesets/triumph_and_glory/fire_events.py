"""The ``fire`` event (8.x): an activated battery (or a stacked pair, or — when the side's Barrage marker is
drawn — any of its batteries combined, 8.2/5.33) fires at a hex.  The pure rules are fire.py's; this module
says *when* a battery may fire and turns the table result into state changes and owed acts:

* 8.5 9–12: each unit in the hex owes a cohesion check (``cohesion_check`` events, rolled by its owner);
* 8.5 13–14: every unit Disordered now (one already Disordered routs, 9.66);
* 8.5 ≥ 15: Disordered and the stack retreats one hex away from the firers (owner chooses, 9.62–9.65);
* 8.8: a natural 0–2 also makes each friendly unit next to the target on the line of fire check at −2;
* 5.55: in a Reserve Activation, artillery that fired owes its disorder check afterwards.

``counter_battery`` (8.7): a Good-Order battery of the other side that was fired at by artillery answers once
per activation, after the fire and its owed checks (so a battery Disordered by that fire cannot), under the
normal range, LOS and arc rules.  Engine default [inferred, docs/rules-part2.md]: it may answer until the
active side declares its assaults (fire comes before the declaration, 9.44); counter-battery fire is not
recorded as fire at the answering hex, so it never itself triggers counter-battery, and it does not mark the
battery as having fired (7.36 limits the movement of the battery's *own* activation).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Error, Result, Roll, Ruling, legal
from referee.engine.verbs import check

from . import fire as fr
from .activation import barrage_marker
from .board import Board, UnitState
from .candidates import SideRegion, kept
from .combat import Combat, OwedCheck, apply_effects, engine_roll
from .facing import front_hexes
from .los import in_fire_arc, line_of_sight
from .zoc import enemy_facts
from .orders import acting_status
from .rolls import TableRoll
from .owed import awaiting, owe_retreat
from .state import ACTIVATION, RESERVE, SIDE_TURN, TGState
from .timing import activation_error, activation_of
from .verbs import ACTING, VERBS


def may_fire_units(state: TGState, side: str) -> frozenset[str]:
    """Who may fire now: the activated units, or every battery of the side under its Barrage marker (5.33)."""
    act = activation_of(state)
    if act.marker == barrage_marker(side):
        return frozenset(u.id for u in state.board.units_of(side) if u.kind == "artillery" and u.hex is not None)
    return act.units


def fire_errors(state: TGState, side: str, ids: list[str], target: str) -> list[Error]:
    err = activation_error(state, side, "8.1")
    if err:
        return [err]
    act = activation_of(state)
    c = act.combat
    if c.declared:
        return [Error("9.44", "fire_after_declaration", "fire comes before the assaults are declared")]
    if c.owes or act.checks_owed:
        return [Error("8.5", "acts_owed", "the owed checks and retreats come first")]
    allowed = may_fire_units(state, side)
    errors = [Error("5.31", "not_activated", f"{u} is not activated") for u in ids if u not in allowed]
    if errors:
        return errors
    barrage = act.marker == barrage_marker(side)
    io_failed = not barrage and any(acting_status(state, u) == "rally_only" for u in ids)
    firers = [state.unit(u) for u in ids]
    return fr.fire_errors(state.board, firers, target, barrage=barrage, io_failed=io_failed)


@VERBS.verb("fire", steps=ACTING, rules=("8.1", "8.5"),
             refs={"side": "side", "units": "units", "target": "hex?"}, actor=False,
             not_now=Error("8.1", "no_activation", "fire and shock happen during an activation"))
def fire(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """8.1–8.5: activated batteries (or, under the side's Barrage marker, any of its batteries: 5.33) fire at a
    hex; the table's result is applied and the checks and retreat it owes are owed."""
    side, ids, target = event["side"], list(event["units"]), event["target"]
    check(fire_errors(state, side, ids, target))
    act = activation_of(state)
    firers = [state.board.units[u] for u in ids]
    spec = fr.fire_roll(state.board, firers, target, act.marker == barrage_marker(side))
    natural = need(dice, "roll", engine_roll(spec, None, side), ("8.1", "8.5"), purpose="fire")
    # 7.36: a battery that fired moves at most half its MA afterwards; Borodino reserve batteries lose overstack.
    board = state.board.update_many({u: {"fired": True, "overstack": False} for u in ids})
    board, c, results, checks = _resolve(board, act.combat, side, firers, target, natural, spec.result(natural))
    c = replace(c, fired_at_by={**c.fired_at_by, target: c.fired_at_by.get(target, ()) + tuple(ids)})
    owed = act.checks_owed       # 5.55: in a reserve activation, artillery that fired checks after firing
    owed += tuple(u for u in ids if u not in owed) if act.reserve else ()
    rules = ["8.1", "8.2", "8.3", "8.5"] + (["8.8"] if any(k.rule == "8.8" for k in checks) else [])
    return (legal("fire", rules, rolls=[engine_roll(spec, natural, side)], results=results, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c, checks_owed=owed)))


def _resolve(board: Board, c: Combat, side: str, firers: list[UnitState], target: str, natural: int, res: str
             ) -> tuple[Board, Combat, list[Result], list[OwedCheck]]:
    """8.5 / 8.8: a fire result's effects on ``target``, the checks it owes (the target's owner rolls 8.5, the
    firer's side 8.8) and the retreat it forces (owner chooses, away from the firers)."""
    target_side = board.side_at(target)
    outcome = fr.fire_outcome(board, res, target)
    before = board
    board, results = apply_effects(board, outcome.effects)
    checks = [OwedCheck(k.unit or "", target_side or "", "8.5") for k in outcome.checks]
    firer_hexes = tuple(dict.fromkeys(u.hex for u in firers if u.hex))
    if outcome.retreat and board.stack(target):
        board, c, more = owe_retreat(board, c, target, firer_hexes, "8.5")
        results += more
    for k in fr.misguided_checks(before, firers[0].hex or "", target, side, natural, res):
        checks.append(OwedCheck(k.unit or "", side, "8.8"))
    return board, replace(c, checks=c.checks + tuple(checks)), results, checks


# --------------------------------------------------------------------------------------------- 8.7

def counter_battery_errors(state: TGState, side: str, uid: str, target: str) -> list[Error]:
    act = state.activation
    if state.phase not in (ACTIVATION, RESERVE, SIDE_TURN) or act is None:
        return [Error("8.7", "no_activation", "counter-battery fire answers fire during an activation")]
    if act.side == side:
        return [Error("8.7", "not_fired_at", "counter-battery fire answers the active side's fire")]
    c = act.combat
    if c.declared:
        return [Error("8.7", "counter_battery_after_declaration",
                      "counter-battery fire comes before the assaults are declared (9.44)")]
    if c.owes or act.checks_owed:
        return [Error("8.7", "acts_owed", "the owed checks and retreats of the fire come first")]
    board = state.board
    u = board.units[uid]
    if u.side != side:
        return [Error("8.7", "not_your_unit", f"{uid} is not {side}'s")]
    if u.hex is None:
        return [Error("8.1", "not_on_map", f"{u.defn.name} is not on the map")]
    return fr.counter_battery_errors(board, u, target, c.fired_at_by.get(u.hex, ()), uid in c.counter_fired)


@VERBS.verb("counter_battery", steps=ACTING, rules=("8.7", "8.5"),
             refs={"side": "side", "unit": "unit", "target": "hex?"}, actor=False,
             not_now=Error("8.7", "no_activation", "counter-battery fire answers fire during an activation"))
def counter_battery(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid, target = event["side"], event["unit"], event["target"]
    errors = counter_battery_errors(state, side, uid, target)
    check(errors)
    act = activation_of(state)
    board = state.board
    battery = board.units[uid]
    spec, natural, roll = battery_fire_roll(board, battery, target, dice, side)
    if natural is None:
        return legal("counter_battery", ["8.7", "8.5"], rolls=[roll]), state
    board, c, results, checks = _resolve(board, act.combat, side, [battery], target, natural, spec.result(natural))
    c = replace(c, counter_fired=c.counter_fired | {uid})
    rules = ["8.7", "8.3", "8.5"] + (["8.8"] if any(k.rule == "8.8" for k in checks) else [])
    return (legal("counter_battery", rules, rolls=[roll], results=results, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c)))


def battery_fire_roll(board: Board, battery: UnitState, target: str, dice: EventDice, side: str
                      ) -> tuple[TableRoll, int | None, Roll]:
    """One battery's fire at ``target`` outside its own fire step — reaction fire (8.6), counter-battery
    (8.7): the fire table roll (8.3–8.5), its natural (None while owed) and the ruling's roll."""
    spec = fr.fire_roll(board, [battery], target)
    natural = dice.roll("roll", "fire")
    return spec, natural, engine_roll(spec, natural, side)


def counter_battery_actions(state: TGState) -> list[dict[str, Any]]:
    """Legal counter-battery events now (for ``legal_actions``): each battery fired at, at one firer."""
    act = state.activation
    if act is None or act.side is None or not act.combat.fired_at_by or act.combat.declared \
            or act.combat.owes or act.checks_owed:
        return []
    board = state.board
    out: list[dict[str, Any]] = []
    for hex_, firers in act.combat.fired_at_by.items():
        for u in board.stack(hex_):
            if u.kind != "artillery" or u.side == act.side or u.id in act.combat.counter_fired:
                continue
            for h in dict.fromkeys(board.units[f].hex for f in firers):
                if h and not counter_battery_errors(state, u.side, u.id, h):
                    out.append({"type": "counter_battery", "side": u.side, "unit": u.id, "target": h})
                    break
    return out


def fire_actions(state: TGState, limit: int = 6) -> list[dict[str, Any]]:
    """Legal fire events now (for ``legal_actions``): each battery that may fire at each legal target, at most
    ``limit`` in all — a bounded but representative set (every battery is listed before any gets a second).

    Each battery's first target is an entry of the listing's candidate table (``candidates``): what
    ``fire_errors`` asks beyond the activation's guards (checked here once) is where enemies stand within the
    battery's maximum range (8.3 range, 8.4 LOS, arc and adjacent enemies), so the entry is kept while no enemy
    comes, goes or changes there and the battery itself does not."""
    act = state.activation
    if act is None or act.side is None or act.combat.declared or act.combat.owes or act.checks_owed:
        return []
    side = act.side
    if activation_error(state, side, "8.1"):
        return []                  # fire_errors refuses every battery with this one error
    board = state.board
    out: list[dict[str, Any]] = []
    batteries = sorted(u for u in may_fire_units(state, side)
                       if (x := board.units[u]).kind == "artillery" and not x.fired and not x.moved
                       and not x.disordered and x.hex is not None)
    barrage = act.marker == barrage_marker(side)
    for uid in batteries:
        u = board.units[uid]
        io_failed = not barrage and acting_status(state, uid) == "rally_only"
        h = kept(board, ("fire", uid, barrage, io_failed), u, lambda: _first_target(board, u, barrage, io_failed))
        if h is not None:
            out.append({"type": "fire", "side": side, "units": [uid], "target": h})
        if len(out) >= limit:
            break
    return out


def _first_target(board: Board, u: UnitState, barrage: bool, io_failed: bool) -> tuple[str | None, SideRegion]:
    """The first hex (in ``within`` order) that battery ``u`` may fire at alone, and the region the answer read:
    of the hexes within its maximum range, only whether an enemy stands there (a target, 8.1; an adjacent front
    enemy, 8.4) — units never block the line of sight (8.4, ``los``), and the range, the LOS's terrain and the
    arc are the map's and the battery's own."""
    reach = u.value("max_range") or 0
    side = u.side
    region = SideRegion(board, side, (), (u.hex,), reach)
    if io_failed or u.kind != "artillery" or u.disordered or u.moved or u.fired or u.hex is None:
        return None, region           # fire_errors refuses every target (5.28, 8.1, 9.61, 7.36, 8.1)
    enemies = enemy_facts(board, side)[2]
    if enemies.isdisjoint(board.static.disc(u.hex, reach)):
        return None, region           # no enemy in range (most batteries, most of the time)
    memo = board.static.memo                  # the hexes in range, in ``within`` order: the map's, never changing
    key = ("within", u.hex, reach)
    hexes = memo.get(key)
    if hexes is None:
        hexes = memo[key] = tuple(board.grid.within(u.hex, reach))  # type: ignore[arg-type]
    # 8.4: with an enemy in an adjacent front hex, only such a hex may be the target
    adjacent = tuple(h for h in front_hexes(board, u, "firer") if h in enemies)
    eff, most = u.value("eff_range") or 0, reach
    distance = board.grid.distance
    for h in hexes:
        if h in enemies and _may_fire_alone(board, u, h, adjacent, eff, most, distance):
            return h, region
    return None, region


def _may_fire_alone(board: Board, u: UnitState, h: str, adjacent: tuple[str, ...], eff: int, most: int,
                    distance: Any) -> bool:
    """``not fire.position_errors(board, u, h)`` without the messages, cheapest test first (8.4's adjacent
    front enemy, 8.3 range, 8.4 arc, 8.4 line of sight): of a battery free to fire (``_first_target``'s guards)
    at the enemy hex ``h``, which ``fire_errors`` then refuses nothing else of (tests/tg/test_legal_yes_no.py)."""
    if adjacent and h not in adjacent:
        return False
    if fr.range_drm(distance(u.hex, h), eff, most, False) is None:
        return False
    return in_fire_arc(board, u, h) and line_of_sight(board, u.hex, h, fr.DEFAULT_OPTIONS.los).clear
