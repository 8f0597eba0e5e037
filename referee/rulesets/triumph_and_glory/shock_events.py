"""Shock combat as events (9.4–9.7): ``assaults`` (every assault declared at once, before any roll, 9.44),
``commitment`` (each attacking hex's top unit rolls its Assault Probability Check, 9.41–9.46) and ``shock``
(one natural roll per assault, modified per target hex, 9.5–9.6).  The pure rules are shock.py's and
commitment.py's; the owed checks, retreats and advances they leave are owed.py's.

Order within an activation (3.0 C): fire and movement, then the declaration, then every APC, then each
assault in any order, each one's checks/retreats/advance settled before the next.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Awaiting, Error, Result, Ruling, legal
from referee.engine.verbs import Illegal, check, refuse

from . import charge_events
from . import commitment as cm
from . import fire as fr
from . import shock as sk
from . import secondary_events as sec
from .charging import assault_group, charging
from .board import Board
from .combat import Assault, Combat, OwedCheck, apply_effects, engine_roll
from .timing import activation_error, activation_of
from .fire_events import battery_fire_roll
from .orders import acting_status
from .rolls import PassRoll
from .owed import after_change, awaiting, cancel_if_disordered, owe_retreat, settle_shock
from .state import TGState
from .verbs import ACTING, VERBS


def _errs(errors: Any) -> list[Error]:
    return list(errors)


# --------------------------------------------------------------------------------------------- 9.44

def declaration_errors(state: TGState, side: str, assaults: list[Assault]) -> list[Error]:
    err = activation_error(state, side, "9.44")
    if err:
        return [err]
    act = activation_of(state)
    if act.combat.declared:
        return [Error("9.44", "already_declared", "the assaults of this activation are already declared")]
    if act.combat.owes or act.checks_owed:
        return [Error("9.44", "acts_owed", "the owed checks and retreats come first")]
    board = state.board
    errors: list[Error] = []
    seen_units: set[str] = set()
    seen_targets: set[str] = set()
    for i, a in enumerate(assaults):
        if a.charge:                       # 9.81: the charge's own checks (charge_events.py)
            errors += charge_events.charge_declaration_errors(state, a)
        for u in a.attackers:
            if u not in act.units:
                errors.append(Error("5.31", "not_activated", f"{u} is not activated"))
            elif acting_status(state, u) == "rally_only":
                errors.append(Error("5.28", "io_failed", f"{u}'s group failed its individual order: it may only rally"))
            if u in seen_units:
                errors.append(Error("9.22", "attacks_twice", f"{u} is in two assaults"))
            seen_units.add(u)
            if board.units[u].square:
                errors.append(Error("9.85", "square_no_shock", f"{u} is in square and may not shock"))
        group = assault_group(a, board)      # 9.23: each group shocks one defender apart
        for h in a.targets:
            if (h, group) in seen_targets:
                errors.append(Error("9.22", "hex_attacked_twice", f"{h} is the target of two assaults"))
            seen_targets.add((h, group))  # type: ignore[arg-type]
        units = [board.units[u] for u in a.attackers]
        ag = units[0].ag if units else None
        errors += _errs(sk.declaration_errors(board, units, list(a.targets), active_ag=ag, charge=a.charge,
                                              start_hexes=act.start_hexes))     # type: ignore[arg-type]
        # 6.23: the top unit of each attacking hex must be activated now (AG activation: of the active AG;
        # Schevardino: of an active command).
        tops = {board.top(u.hex) for u in units if u.hex}
        if any(t is not None and t.id not in act.units for t in tops):
            errors.append(Error("6.23", "top_not_active", "the top unit of an attacking hex is not activated"))
    return errors


def declared_assaults(event: Mapping[str, Any]) -> list[Assault]:
    """The assaults an ``assaults`` event declares (9.44; a target is one hex or a list of hexes)."""
    return [Assault(tuple(a["attackers"]), tuple(a["target"] if isinstance(a["target"], list) else [a["target"]]),
                    bool(a.get("charge", False))) for a in event["assaults"]]


@VERBS.verb("assaults", rules=("9.44",),
             refs={"side": "side", "assaults": {"attackers": "units", "target": "hexes"}}, actor=False)
def assaults(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side = event["side"]
    assaults = declared_assaults(event)
    errors = declaration_errors(state, side, assaults)
    check(errors)
    act = activation_of(state)
    board = state.board
    owed = tuple(dict.fromkeys(top.id for a in assaults for u in a.attackers
                               if (top := board.top(board.units[u].hex)) is not None))  # type: ignore[arg-type]
    c = replace(act.combat, declared=True, assaults=tuple(assaults), commit_owed=owed)
    c = charge_events.after_declaration(board, c)          # 9.85 / 9.86 tests made at the declaration
    waits = [Awaiting("commitment", side, "9.41", u) for u in owed]
    return (legal("assaults", ["9.44"], awaiting=waits), replace(state, activation=replace(act, combat=c)))


# --------------------------------------------------------------------------------------------- 9.41–9.46

def commitment_spec(state: TGState, uid: str, use_cinc: bool = True) -> PassRoll:
    """The APC of the top unit ``uid`` against every hex its hex's declared units attack (9.41–9.43)."""
    act = activation_of(state)
    board = state.board
    u = board.units[uid]
    targets = tuple(dict.fromkeys(h for a in act.combat.assaults if any(board.units[x].hex == u.hex for x in a.attackers)
                                  for h in a.targets))
    status = acting_status(state, uid)
    o = state.orders.get(u.side)
    g = o.group_of.get(uid) if o else None
    group = [board.units[m] for m in (o.groups[g] if o is not None and g is not None else (uid,))]
    if act.reserve:
        status = "NO"
    mine = [a for a in act.combat.assaults if any(board.units[x].hex == u.hex for x in a.attackers)]
    charge = bool(mine) and all(a.charge for a in mine)      # 9.42: no DFE for a charging stack
    return cm.commitment_roll(board, u, targets, order_status="UO" if status == "UO" else "NO",
                              cinc=state.cinc_of(u.side), group=group, charge=charge, use_cinc=use_cinc)


@VERBS.verb("commitment", steps=ACTING, rules=("9.41", "9.42", "9.43"),
             refs={"side": "side", "unit": "unit"}, actor=False,
             not_now=Error("9.41", "no_activation", "fire and shock happen during an activation"))
def commitment(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.41–9.45: the top unit of an attacking hex rolls its Assault Probability Check; the hex's declared units
    assault or drop out with it."""
    side, uid = event["side"], event["unit"]
    check(activation_error(state, side, "9.41"))
    act = activation_of(state)
    c = act.combat
    if not c.declared:
        raise Illegal(*_errs(cm.commitment_order_errors(False)))
    if uid not in c.commit_owed:
        refuse("9.41", "no_commitment_owed", f"{uid} owes no Assault Probability Check", c.commit_owed)
    spec = commitment_spec(state, uid, bool(event.get("use_cinc", True)))
    natural = need(dice, "roll", engine_roll(spec, None, side), ("9.41", "9.42", "9.43"), purpose="commitment")
    roll = engine_roll(spec, natural, side)
    hex_, passed = state.unit(uid).hex, bool(roll.passed)
    c = replace(c, commit_owed=tuple(x for x in c.commit_owed if x != uid),
                committed={**c.committed, hex_: passed})  # type: ignore[dict-item]
    c = charge_events.after_commitment(state.board, c, hex_, passed)    # 9.81: passed chargers owe their charge
    # 9.45: the hex's declared units assault or drop out with its roll; the roll's outcome says which, and
    # the declaration names them, so no result of its own (DESIGN §5's effects are state changes).
    return (legal("commitment", ["9.41", "9.42", "9.43"], rolls=[roll],
                  awaiting=owed_after_apc(state, c, side)),
            replace(state, activation=replace(act, combat=c)))


def owed_after_apc(state: TGState, c: Combat, side: str) -> list[Awaiting]:
    """What an APC leaves owed: the other APCs (9.41), the passed chargers' moves (9.81), then each shock (9.5) —
    each owed shock naming its assault and its first attacker, so that two read apart."""
    waits = [Awaiting("commitment", side, "9.41", u) for u in c.commit_owed]
    waits += charging(c).awaiting(True)
    if not c.commit_owed:
        waits += [Awaiting("shock", side, "9.5", attackers[0], assault=i) for i in range(len(c.assaults))
                  if (attackers := c.attackers_of(i, state.board))]
    return waits


# --------------------------------------------------------------------------------------------- 9.5–9.6

def shock_errors(state: TGState, side: str, i: int) -> list[Error]:
    err = activation_error(state, sec.acting_side(state, side, i), "9.5")   # 9.73: a counter-shock is the defender's
    if err:
        return [err]
    act = activation_of(state)
    c = act.combat
    if not c.declared or not (0 <= i < len(c.assaults)):
        return [Error("9.44", "no_such_assault", f"no assault {i + 1} was declared (they are counted from 1: "
                      f"{len(c.assaults)} declared)", tuple(range(len(c.assaults))))]
    if c.commit_owed:
        return _errs(cm.resolution_order_errors(c.commit_owed))
    if c.owes:
        return [Error("9.6", "acts_owed", "the checks, retreats and advances of the last shock come first")]
    if i in c.resolved:
        return [Error("9.5", "already_resolved", f"assault {i + 1} is already resolved")]
    if order := sec.shock_order_errors(state, side, i):     # 9.73: who makes it; a pending counter-shock first
        return order
    if not c.attackers_of(i, state.board):
        return [Error("9.45", "not_committed", f"no attacker of assault {i + 1} passed its Assault Probability "
                                                       "Check")]
    if not any(state.board.has_enemy(h, side) for h in c.assaults[i].targets):
        return [Error("9.21", "no_enemy_target", "the target hexes hold no enemy any more")]
    # 9.23: against one defender the charge goes first, then the cavalry shock, then the infantry shock.
    board = state.board
    rank = sk.GROUP_ORDER.index(assault_group(c.assaults[i], board))  # type: ignore[arg-type]
    first = [j for j in c.shocks_left(board, side) if j != i and set(c.assaults[j].targets) & set(c.assaults[i].targets)
             and sk.GROUP_ORDER.index(assault_group(c.assaults[j], board)) < rank]  # type: ignore[arg-type]
    if first:
        return [Error("9.23", "group_order", "against the same defender the charge is resolved first, then the "
                      "cavalry shock, then the infantry shock", tuple(first))]
    return []


@VERBS.verb("shock", rules=("9.5", "9.6"),
             refs={"side": "side"}, actor=False)
def shock(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, i = event["side"], int(event["assault"])
    errors = shock_errors(state, side, i)
    check(errors)
    act = activation_of(state)
    c = sec.shock_begins(act.combat, i)          # 9.73: another shock closes the counter-shock chances
    if c.assaults[i].charge:
        return charge_events.charge_shock(state, event, dice, c)   # 9.83–9.87
    if state.board.rules.counter_charge_vs_infantry == "charge" and charge_events.counter_charger(c, i, state.board):
        return charge_events.counter_charge_shock(state, event, dice, c)   # 9.86, the other reading
    ids = c.attackers_of(i, state.board)
    board, results, targets = lone_artillery_eliminated(state.board, [h for h in c.assaults[i].targets
                                                                      if state.board.has_enemy(h, side)])
    if not targets:
        c = after_change(board, replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids)), act)
        return (legal("shock", ["9.25"], results=results, awaiting=awaiting(c)),
                replace(state, board=board, activation=replace(act, combat=c)))
    attackers = [board.units[u] for u in ids]
    spec = sk.shock_roll(board, attackers, targets, extra=charge_events.infantry_shock_extra(c, i, board))  # 9.86
    detail = sk.shock_detail(board, attackers, spec, sec.shock_label(c.assaults[i]))
    natural = need(dice, "roll", engine_roll(spec, None, side, detail), ("9.5",), purpose="shock")
    c = replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids))
    board, c, more, settled = settle_shock(board, c, spec, natural, targets, ids)
    for x in settled:
        c = sec.note_outcome(c, x.before, x.hex, x.outcome)      # 9.73: breakthrough / counter-shock opened
    board, after = charge_events.after_infantry_shock(board, c, i)     # 9.84: the counter-charging cavalry
    c = after_change(board, c, act)
    return (legal("shock", ["9.5", "9.51", "9.6"], rolls=[engine_roll(spec, natural, side, detail)],
                  results=results + more + after, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c)))


def lone_artillery_eliminated(board: Board, targets: list[str]) -> tuple[Board, list[Result], list[str]]:
    """9.25: artillery alone in a target hex is eliminated without a roll: the board after, its results, and the
    target hexes still to shock."""
    results: list[Result] = []
    lone = [h for h in targets if sk.artillery_only(board, h)]
    for h in lone:
        board, more = apply_effects(board, sk.lone_artillery_effects(board, h))
        results += more
    return board, results, [h for h in targets if h not in lone]


# --------------------------------------------------------------------------------------------- 8.6

def reaction_fire_errors(state: TGState, side: str, uid: str, target: str) -> list[Error]:
    """8.6: after every APC is rolled and before the assault is resolved, a Good-Order battery in a hex about to
    be shocked may fire once at an attacking hex in its front."""
    act = state.activation
    if act is None or not act.combat.declared or act.side is None:
        return [Error("8.6", "no_assault", "reaction fire answers a declared assault")]
    c, board = act.combat, state.board
    shocked, attacking = _shocked_and_attacking(state, c, side)
    if side == act.side and not shocked:     # 9.73: the attacker's guns may answer a counter-shock
        return [Error("8.6", "defender_only", "reaction fire is the defender's")]
    if c.commit_owed:
        return [Error("8.6", "before_commitment", "reaction fire comes after every Assault Probability Check")]
    if c.owes:
        return [Error("9.6", "acts_owed", "the owed checks, retreats and advances come first")]
    u = board.units[uid]
    if u.side != side:
        return [Error("8.6", "not_your_unit", f"{uid} is not {side}'s")]
    if uid in c.reacted:
        return [Error("8.6", "reacted", f"{u.defn.name} has made its reaction fire")]
    return _errs(fr.reaction_fire_errors(board, u, target, shocked, attacking))


def _shocked_and_attacking(state: TGState, c, side: str | None = None) -> tuple[list[str], list[str]]:
    """Hexes about to be shocked and the hexes attacking them, in the assaults the side other than ``side`` (the
    side reacting) makes."""
    board = state.board
    active = state.activation.side  # type: ignore[union-attr]
    open_ = [i for i in c.shocks_left(board, active) if side is None or (c.assaults[i].side or active) != side]
    shocked = [h for i in open_ for h in c.assaults[i].targets]
    attacking = list(dict.fromkeys(board.units[u].hex for i in open_ for u in c.attackers_of(i, board)
                                   if board.units[u].hex))
    return shocked, attacking  # type: ignore[return-value]


@VERBS.verb("reaction_fire", rules=("8.6", "8.5"),
             refs={"side": "side", "unit": "unit", "target": "hex?"}, actor=False)
def reaction_fire(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid, target = event["side"], event["unit"], event["target"]
    errors = reaction_fire_errors(state, side, uid, target)
    check(errors)
    act = activation_of(state)
    board = state.board
    battery = board.units[uid]
    spec, natural, roll = battery_fire_roll(board, battery, target, dice, side)
    if natural is None:
        return legal("reaction_fire", ["8.6"], rolls=[roll]), state
    res = spec.result(natural)
    infantry = any(u.kind == "infantry" for u in board.stack(target))
    affected = fr.reaction_fire_affected(board, target, infantry)
    outcome = fr.fire_outcome(board, res, target, affected)
    c = act.combat
    board, results = apply_effects(board, outcome.effects)
    c = replace(c, reacted=c.reacted | {uid},
                checks=c.checks + tuple(OwedCheck(k.unit or "", state.static.other(side), "8.6") for k in outcome.checks))
    c = cancel_if_disordered(board, c, target, [e.unit for e in outcome.effects])
    if outcome.retreat and board.stack(target):
        board, c, more = owe_retreat(board, c, target, (battery.hex or "",), "8.5")
        results += more
    return (legal("reaction_fire", ["8.6", "8.5"], rolls=[roll], results=results, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c)))


def reaction_fire_actions(state: TGState) -> list[dict[str, Any]]:
    act = state.activation
    if act is None or act.side is None or not act.combat.declared or act.combat.commit_owed or act.combat.owes:
        return []
    c, board = act.combat, state.board
    out = []
    for side in state.static.sides:              # the defender's guns; against a counter-shock the attacker's
        shocked, attacking = _shocked_and_attacking(state, c, side)
        for h in dict.fromkeys(shocked):
            for u in board.stack(h):
                if u.kind == "artillery" and u.side == side and u.id not in c.reacted:
                    for t in fr.reaction_fire_targets(board, u, attacking):
                        out.append({"type": "reaction_fire", "side": u.side, "unit": u.id, "target": t})
                        break
    return out
