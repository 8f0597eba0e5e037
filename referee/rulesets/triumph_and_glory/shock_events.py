"""Shock combat as events (9.4–9.7): ``assaults`` (every assault declared at once, before any roll, 9.44),
``commitment`` (each attacking hex's top unit rolls its Assault Probability Check, 9.41–9.46) and ``shock``
(one natural roll per assault, modified per target hex, 9.5–9.6).  The pure rules are shock.py's and
commitment.py's; the owed checks, retreats and advances they leave are owed.py's.

Order within an activation (3.0 C): fire and movement, then the declaration, then every APC, then each
assault in any order, each one's checks/retreats/advance settled before the next.
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.ruling import Awaiting, Error, Result, Ruling, illegal, legal, result

from .records import replace
from . import commitment as cm
from . import shock as sk
from .board import Board, UnitState
from .combat import Assault, OwedCheck, ShockDetail, apply_effects, engine_roll, natural_bands
from .fire_events import activation_error
from .orders import acting_status
from .rolls import PassRoll, TableRoll
from .owed import after_change, awaiting, owe_retreat
from .state import TGState


def _errs(errors: Any) -> list[Error]:
    return [Error(e.rule, e.code, e.message, e.alternatives) for e in errors]


# --------------------------------------------------------------------------------------------- 9.44

def declaration_errors(state: TGState, side: str, assaults: list[Assault]) -> list[Error]:
    err = activation_error(state, side, "9.44")
    if err:
        return [err]
    act = state.activation
    assert act is not None
    if act.combat.declared:
        return [Error("9.44", "already_declared", "the assaults of this activation are already declared")]
    if act.combat.owes or act.checks_owed:
        return [Error("9.44", "acts_owed", "the owed checks and retreats come first")]
    board = state.board
    errors: list[Error] = []
    seen_units: set[str] = set()
    seen_targets: set[str] = set()
    for i, a in enumerate(assaults):
        if a.charge:
            errors.append(Error("9.81", "charge_not_supported", "cavalry charges are not ruled on yet"))
            continue
        for u in a.attackers:
            if u not in act.units:
                errors.append(Error("5.31", "not_activated", f"{u} is not activated"))
            elif acting_status(state, u) == "rally_only":
                errors.append(Error("5.28", "io_failed", f"{u}'s group failed its individual order: it may only rally"))
            if u in seen_units:
                errors.append(Error("9.22", "attacks_twice", f"{u} is in two assaults"))
            seen_units.add(u)
        for h in a.targets:
            if h in seen_targets:
                errors.append(Error("9.22", "hex_attacked_twice", f"{h} is the target of two assaults"))
            seen_targets.add(h)
        units = [board.units[u] for u in a.attackers]
        ag = units[0].ag if units else None
        errors += _errs(sk.declaration_errors(board, units, list(a.targets), active_ag=ag,
                                              start_hexes=act.start_hexes))     # type: ignore[arg-type]
        if units and any(u.ag not in act.ags for u in units):
            errors.append(Error("6.23", "not_active_group", "only units of the active group assault"))
    return errors


def rule_assaults(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side = event["side"]
    assaults = [Assault(tuple(a["attackers"]), tuple(a["target"] if isinstance(a["target"], list) else [a["target"]]),
                        bool(a.get("charge", False))) for a in event["assaults"]]
    errors = declaration_errors(state, side, assaults)
    if errors:
        return illegal("assaults", errors), state
    act = state.activation
    assert act is not None
    board = state.board
    owed = tuple(dict.fromkeys(top.id for a in assaults for u in a.attackers
                               if (top := board.top(board.units[u].hex)) is not None))  # type: ignore[arg-type]
    c = replace(act.combat, declared=True, assaults=tuple(assaults), commit_owed=owed)
    waits = [Awaiting("commitment", side, "9.41", u) for u in owed]
    return (legal("assaults", ["9.44"], awaiting=waits), replace(state, activation=replace(act, combat=c)))


# --------------------------------------------------------------------------------------------- 9.41–9.46

def commitment_spec(state: TGState, uid: str, use_cinc: bool = True) -> PassRoll:
    """The APC of the top unit ``uid`` against every hex its hex's declared units attack (9.41–9.43)."""
    act = state.activation
    assert act is not None
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
    return cm.commitment_roll(board, u, targets, order_status="UO" if status == "UO" else "NO",
                              cinc=state.cinc_of(u.side), group=group, use_cinc=use_cinc)


def rule_commitment(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    err = activation_error(state, side, "9.41")
    if err:
        return illegal("commitment", [err]), state
    act = state.activation
    assert act is not None
    c = act.combat
    if not c.declared:
        return illegal("commitment", _errs(cm.commitment_order_errors(False))), state
    if uid not in c.commit_owed:
        return illegal("commitment", [Error("9.41", "no_commitment_owed", f"{uid} owes no Assault Probability Check",
                                            c.commit_owed)]), state
    spec = commitment_spec(state, uid, bool(event.get("use_cinc", True)))
    natural = dice.roll("roll", "commitment")
    roll = engine_roll(spec, natural, side)
    if natural is None:
        return legal("commitment", ["9.41", "9.42", "9.43"], rolls=[roll]), state
    hex_ = state.unit(uid).hex
    passed = bool(roll.passed)
    c = replace(c, commit_owed=tuple(x for x in c.commit_owed if x != uid),
                committed={**c.committed, hex_: passed})  # type: ignore[dict-item]
    declared = [u for a in c.assaults for u in a.attackers if state.unit(u).hex == hex_]
    if passed:
        res = [result("committed", "9.45", u) for u in cm.committed_units(state.board, hex_, declared, True)]  # type: ignore[arg-type]
    else:
        res = [result("not_committed", "9.45", u) for u in declared]
    waits = [Awaiting("commitment", side, "9.41", u) for u in c.commit_owed]
    if not c.commit_owed:
        waits += [Awaiting("shock", side, "9.5") for i in range(len(c.assaults)) if c.attackers_of(i, state.board)]
    return (legal("commitment", ["9.41", "9.42", "9.43", "9.45"], rolls=[roll], results=res, awaiting=waits),
            replace(state, activation=replace(act, combat=c)))


# --------------------------------------------------------------------------------------------- 9.5–9.6

def shock_errors(state: TGState, side: str, i: int) -> list[Error]:
    err = activation_error(state, side, "9.5")
    if err:
        return [err]
    act = state.activation
    assert act is not None
    c = act.combat
    if not c.declared or not (0 <= i < len(c.assaults)):
        return [Error("9.44", "no_such_assault", f"no assault {i} was declared", tuple(range(len(c.assaults))))]
    if c.commit_owed:
        return _errs(cm.resolution_order_errors(c.commit_owed))
    if c.owes:
        return [Error("9.6", "acts_owed", "the checks, retreats and advances of the last shock come first")]
    if i in c.resolved:
        return [Error("9.5", "already_resolved", f"assault {i} is already resolved")]
    if not c.attackers_of(i, state.board):
        return [Error("9.45", "not_committed", f"no attacker of assault {i} passed its Assault Probability Check")]
    if not any(state.board.has_enemy(h, side) for h in c.assaults[i].targets):
        return [Error("9.21", "no_enemy_target", "the target hexes hold no enemy any more")]
    return []


def rule_shock(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, i = event["side"], int(event["assault"])
    errors = shock_errors(state, side, i)
    if errors:
        return illegal("shock", errors), state
    act = state.activation
    assert act is not None
    c = act.combat
    board = state.board
    ids = c.attackers_of(i, board)
    attackers = [board.units[u] for u in ids]
    targets = [h for h in c.assaults[i].targets if board.has_enemy(h, side)]
    results: list[Result] = []
    # 9.25: artillery alone in a hex is eliminated without a roll; the others are shocked as usual.
    lone = [h for h in targets if sk.artillery_only(board, h)]
    for h in lone:
        board, more = apply_effects(board, sk.lone_artillery_effects(board, h))
        results += more
    targets = [h for h in targets if h not in lone]
    if not targets:
        c = replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids))
        c = after_change(board, c, act)
        return (legal("shock", ["9.25"], results=results, awaiting=awaiting(c)),
                replace(state, board=board, activation=replace(act, combat=c)))
    spec = sk.shock_roll(board, attackers, targets)
    natural = dice.roll("roll", "shock")
    roll = engine_roll(spec, natural, side, shock_detail(board, attackers, spec))
    if natural is None:
        return legal("shock", ["9.5"], rolls=[roll]), state
    c = replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids))
    attacker_hexes = tuple(dict.fromkeys(a.hex for a in attackers if a.hex))
    rules = ["9.5", "9.51", "9.6"]
    done_attackers = False
    for t, h in enumerate(targets):
        res = spec.result(natural, t)
        attacker_side = sk.RESULTS[res].disorder == "attacker"
        if attacker_side and done_attackers:
            continue                      # the attackers are Disordered once, however many hexes they attack
        done_attackers |= attacker_side
        out = sk.shock_outcome(board, res, [board.units[u] for u in ids], h)
        before = board
        board, more = apply_effects(board, out.effects)
        results += more
        sources = tuple(targets) if attacker_side else attacker_hexes
        owner = {x: before.side_at(x) or "" for x, _ in out.checks}
        c = replace(c, checks=c.checks + tuple(OwedCheck(u, owner[x], "9.62", sources) for x, u in out.checks))
        for x in out.retreats:
            board, c, more = owe_retreat(board, c, x, sources, "9.6")
            results += more
    c = after_change(board, c, act)
    return (legal("shock", rules, rolls=[roll], results=results, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c)))


def shock_detail(board: Board, attackers: list[UnitState], spec: TableRoll) -> ShockDetail:
    """Attackers, defenders and the natural rolls per result, for the text report (3: a shock as a player reads it)."""
    return ShockDetail(
        attackers=tuple((u.id, u.defn.name, u.hex or "") for u in attackers),
        defenders={t.hex: tuple((u.id, u.defn.name) for u in board.stack(t.hex)) for t in spec.targets},
        bands={t.hex: natural_bands(spec.table, t.total_modifier) for t in spec.targets})
