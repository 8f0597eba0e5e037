"""The acts fire and shock leave owed (combat.py): cohesion checks (8.5, 8.8, 9.62, 9.65), retreats (9.62–9.65)
and advances (9.71) — their events, and the bookkeeping that opens them.

Who acts: the owner of the unit that checks or retreats (not necessarily the active side); the attacker
advances.  A retreat with only one possible outcome (blocked → destroyed, or only a rout is open, 9.63) is
applied at once and reported on the event that caused it; a retreat with a choice of hex waits for the
owner's ``retreat`` event.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from modulebuilder.records import record
from referee.engine.dice import EventDice
from referee.engine.ruling import Awaiting, Error, Result, Ruling, legal
from referee.engine.verbs import check, refuse

from . import advance as adv
from . import reserve
from . import retreat as rt
from . import shock as sk
from .board import Board
from .combat import Combat, ForcedRetreat, OwedAdvance, OwedCheck, OwedRetreat, apply_effects, engine_roll
from .disorder import disorder_effect
from .facing import facing_error
from .charging import is_charging_hex, reaction_fire_hit
from .fire import cancelled_by_reaction_fire, fire_check
from .rolls import Modifier, PassRoll, TableRoll
from .secondary_events import after_advance, optional_advance   # 9.72: after a retreat before shock
from .state import Activation, TGState
from .timing import activation_of
from .verbs import VERBS

FORCED = ("destroyed", "rout")     # 9.63: retreat outcomes the owner has no choice about


def awaiting(c: Combat) -> list[Awaiting]:
    """What the owed acts ask for next (the ruling's ``awaiting``)."""
    out = [Awaiting("cohesion_check", k.side, k.rule, k.unit) for k in c.checks]
    out += [Awaiting("retreat", r.side, r.rule) for r in c.retreats]
    out += [Awaiting("advance", a.side, "9.71") for a in c.advances]
    if c.charging is not None:                         # 9.81 charge moves, 9.87 pursuit (charge_events.py)
        out += c.charging.awaiting(bool(c.checks or c.retreats))
    return out


def owe_retreat(board: Board, combat: Combat, hex_id: str, sources: Sequence[str], rule: str
                ) -> tuple[Board, Combat, list[Result]]:
    """The stack in ``hex_id`` must retreat: applied now when the rules leave no choice, else owed."""
    side = board.side_at(hex_id)
    if side is None:
        return board, combat, []
    steps = rt.legal_retreats(rt.retreat_steps(board, hex_id, sources), rt.options_of(board))
    if all(s.kind in FORCED for s in steps):
        effects = rt.retreat_effects(board, hex_id, steps[0], rule)
        done = ForcedRetreat(tuple(e.unit for e in effects), tuple(dict.fromkeys(s.to for s in steps if s.to)),
                             steps[0].kind)
        board, res = apply_effects(board, effects)
        return board, replace(combat, forced=combat.forced + (done,)), res
    return board, replace(combat, retreats=combat.retreats + (OwedRetreat(hex_id, side, tuple(sources), rule),)), []


@record(frozen=True)
class Settled:
    """One target hex of a shock after its result was applied: the outcome, the position just before it and the
    hex's defenders then (for the 9.73 / 9.87 follow-ups the callers open)."""
    hex: str
    outcome: sk.ShockOutcome
    before: Board
    defenders: tuple[str, ...]


def settle_shock(board: Board, combat: Combat, spec: TableRoll, natural: int, targets: Sequence[str],
                 attackers: Sequence[str], *, charging: bool = False
                 ) -> tuple[Board, Combat, list[Result], list[Settled]]:
    """9.6: apply one shock roll's result on each target hex in turn — Disorder (9.61, 9.66), the retreat
    checks each hex owes (9.62, rolled by the hex's owner, away from the other side's hexes) and the retreats
    it forces.  The attackers are Disordered (and check) once, however many hexes give an attacker result."""
    results: list[Result] = []
    settled: list[Settled] = []
    attacker_hexes = tuple(dict.fromkeys(h for u in attackers if (h := board.units[u].hex)))
    done_attackers = False
    for t, h in enumerate(targets):
        res = spec.result(natural, t)
        attacker_side = sk.RESULTS[res].disorder == "attacker"
        if attacker_side and done_attackers:
            continue
        done_attackers |= attacker_side
        out = sk.shock_outcome(board, res, [board.units[u] for u in attackers], h, charging=charging)
        before = board
        board, more = apply_effects(board, out.effects)
        results += more
        sources = tuple(targets) if attacker_side else attacker_hexes
        owner = {x: before.side_at(x) or "" for x, _ in out.checks}
        combat = replace(combat, checks=combat.checks + tuple(OwedCheck(u, owner[x], "9.62", sources)
                                                              for x, u in out.checks))
        for x in out.retreats:
            board, combat, more = owe_retreat(board, combat, x, sources, "9.6")
            results += more
        settled.append(Settled(h, out, before, tuple(u.id for u in before.stack(h))))
    return board, combat, results, settled


def owe_advances(board: Board, combat: Combat, vacated: Sequence[str], attackers: Sequence[str], side: str) -> Combat:
    """9.71: each target hex the defenders left (empty now) is entered by the best attacking stack."""
    units = [board.units[u] for u in attackers if board.units[u].hex is not None]
    for h in vacated:
        if board.stack(h) or any(a.into == h for a in combat.advances) or h in combat.no_advance:
            continue
        rule = adv.advance_rule(board, h, units)
        if rule.hexes and rule.mandatory:
            combat = replace(combat, advances=combat.advances + (OwedAdvance(h, rule.hexes, tuple(attackers), side),))
    return combat


def check_roll(board: Board, k: OwedCheck) -> PassRoll:
    u = board.units[k.unit]
    if k.rule == "9.62":
        return rt.retreat_check(u)
    if k.rule == "9.65":
        return rt.pass_through_check(u)
    if k.rule == "8.8":
        return PassRoll("cohesion_check", u.value("cohesion") or 0, "8.8", f"cohesion of {u.defn.name}",
                        (Modifier(-2, "8.8", "misguided friendly fire"),), u.id)
    return fire_check(u)


def combat_check(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """A cohesion check fire or shock owes (8.5 Disorder, 8.8, 9.62 retreat, 9.65 passed-through)."""
    act = activation_of(state)
    c = act.combat
    uid = event["unit"]
    k = next(k for k in c.checks if k.unit == uid)
    if event["side"] != k.side:
        refuse(k.rule, "not_your_unit", f"{uid} is {k.side}'s to roll")
    board = state.board
    natural = dice.roll("roll", "cohesion_check")
    spec = check_roll(board, k)
    roll = engine_roll(spec, natural, k.side)
    if natural is None:
        return legal("cohesion_check", [k.rule], rolls=[roll]), state
    c = replace(c, checks=tuple(x for x in c.checks if x is not k))
    results: list[Result] = []
    rules = [k.rule]
    if not roll.passed:
        u = board.units[uid]
        if k.rule == "9.62":
            if u.hex is not None:
                forced_before = len(c.forced)
                board, c, results = owe_retreat(board, c, u.hex, k.sources, "9.62")
                if len(c.forced) > forced_before:
                    rules.append("9.63")        # the only way back led into an enemy front (rout) or nowhere
        else:
            board, results = apply_effects(board, [disorder_effect(u, board.rules, k.rule)])
            if k.rule == "8.6" and u.hex is not None:       # Disordered by reaction fire: no shock (8.6, 9.24)
                c = cancel_if_disordered(board, c, u.hex, [uid])
    c = after_change(board, c, act)
    new = replace(state, board=board, activation=replace(act, combat=c))
    return legal("cohesion_check", rules, rolls=[roll], results=results, awaiting=awaiting(c)), new


def after_change(board: Board, c: Combat, act: Activation) -> Combat:
    """Target hexes of resolved assaults that are now empty open their advance (9.71)."""
    if not act.side:
        return c
    for i in sorted(c.resolved):
        a = c.assaults[i]
        vacated = [h for h in a.targets if not board.stack(h)]
        if vacated and not c.retreats and not c.checks:
            c = owe_advances(board, c, vacated, c.attackers_of(i, board) or (), a.side or act.side)  # 9.73
    return c


@VERBS.verb("retreat", rules=("9.62", "9.63", "9.64"),
             refs={"side": "side", "unit": "unit", "to": "hex?"}, actor=False)
def retreat(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.62–9.65: the owner retreats the stack one hex (or through friends) away from the attack."""
    act = state.activation
    c = act.combat if act is not None else None
    uid, side, to = event["unit"], event["side"], event["to"]
    r = next((r for r in (c.retreats if c else ()) if r.hex == state.board.units[uid].hex), None)
    if r is None and c is not None and act is not None and (done := already_forced(c, uid, to)):
        return retreat_already_done(state, act, c, uid, done)
    if r is None or act is None or c is None:
        refuse("9.62", "no_retreat_owed", f"no retreat is owed by {uid}",
               tuple(x.hex for x in c.retreats) if c else ())
    if side != r.side:
        refuse("9.62", "not_your_unit", f"the stack in {r.hex} is {r.side}'s")
    path = (to,) if isinstance(to, str) else tuple(to)
    check(rt.retreat_errors(state.board, r.hex, path, r.sources))
    board, results, checks = retreat_along(state.board, r, path)
    c = replace(c, retreats=tuple(x for x in c.retreats if x is not r),
                checks=c.checks + tuple(OwedCheck(u, side, "9.65") for u in checks))
    c = after_change(board, c, act)
    return (legal("retreat", sorted({r.rule, *(x.rule for x in results)}), results=results, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c)))


def retreat_along(board: Board, r: OwedRetreat, path: tuple[str, ...]) -> tuple[Board, list[Result], tuple[str, ...]]:
    """9.62–9.64: the owed retreat ``r`` taken along ``path`` (already judged legal): the board after it, its
    results, and the units it passed through that owe a check (9.65)."""
    step = next(s for s in rt.legal_retreats(rt.retreat_steps(board, r.hex, r.sources), rt.options_of(board))
                if s.path == path or (len(path) == 1 and s.to == path[0]))
    effects = rt.retreat_effects(board, r.hex, step, r.rule)
    board, results = apply_effects(board, effects)
    if step.facing is not None:
        board = board.update_many({e.unit: {"facing": step.facing} for e in effects if e.effect == "retreated"})
    return board, results, tuple(step.checks)


def retreat_already_done(state: TGState, act: Activation, c: Combat, uid: str, done: ForcedRetreat
                         ) -> tuple[Ruling, TGState]:
    """[9.63]: the logged retreat is the one the rules applied at once: acknowledged, nothing moves again."""
    return (legal("retreat", ["9.63"], results=[Result("already_done", "9.63", uid, {"outcome": done.outcome})],
                  awaiting=awaiting(c)),
            replace(state, activation=replace(act, combat=replace(c, forced=tuple(f for f in c.forced
                                                                                  if f is not done)))))


def already_forced(c: Combat, uid: str, to: Any) -> ForcedRetreat | None:
    """[9.63]: the retreat the rules already applied to ``uid`` (it routed or was destroyed at once), when the
    logged ``retreat`` goes where that retreat led — the player moving the counter as the rules did."""
    dest = to if isinstance(to, str) else (to[-1] if to else None)
    return next((f for f in c.forced if uid in f.units and dest in f.hexes), None)


@VERBS.verb("advance", rules=("9.71", "9.72"),
             refs={"side": "side", "units": "units", "to": "hex?"}, actor=False)
def advance(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.71–9.72: the best attacking stack advances into the hex the defenders vacated."""
    act = state.activation
    c = act.combat if act is not None else None
    to = event["to"]
    a = next((a for a in (c.advances if c else ()) if a.into == to), None)
    if a is None and c is not None and any(x.into == to for x in c.optional_advances):
        return optional_advance(state, event, dice)
    if a is None or act is None or c is None:
        refuse("9.71", "no_advance_owed", f"no advance into {to} is owed",
               tuple(x.into for x in c.advances) if c else ())
    if event["side"] != a.side:
        refuse("9.71", "not_your_advance", f"the advance is {a.side}'s")
    board, facing = state.board, event.get("facing")   # 9.71: it may re-face on entering (then no breakthrough)
    units = [board.units[u] for u in event["units"]]
    check(advance_errors(board, a, units, to, facing))
    board, results = apply_effects(board, adv.advance_effects(board, units, to))
    # 9.71: a stack advances into one hex only; another emptied hex that only it could have entered (a shock
    # against two hexes, both cleared) stays empty, so that owed advance lapses.
    c = replace(c, advances=tuple(x for x in c.advances if x is not a and advance_choices(board, x)))
    board, c = after_advance(board, c, [u.id for u in units], to, facing)
    return (legal("advance", ["9.71"], results=results, awaiting=awaiting(c)),
            replace(state, board=board, activation=replace(act, combat=c)))


def advance_errors(board: Board, a: OwedAdvance, units: list[Any], to: str, facing: int | None) -> list[Error]:
    """9.71: what is wrong with ``units`` advancing into ``to`` as the owed advance ``a`` (facing on entering)."""
    errors = adv.advance_errors(board, adv.AdvanceRule(a.into, a.hexes, True), units, to)
    errors += [Error("9.71", "not_an_attacker", f"{u.id} did not take part in the assault")
               for u in units if u.id not in a.attackers]
    if facing is not None and (fe := facing_error(board, facing)) is not None:
        errors.append(fe)
    return errors


def advance_choices(board: Board, a: OwedAdvance) -> list[list[str]]:
    """The stacks that may advance (each as its attacking non-artillery units)."""
    out = []
    for h in a.hexes:
        units = [u.id for u in board.stack(h) if u.id in a.attackers and u.kind != "artillery"]
        if units:
            out.append(units)
    return out


@VERBS.verb("cohesion_check", rules=("5.54", "8.5", "9.62"),
             refs={"side": "side", "unit": "unit"}, actor=False)
def cohesion_check(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """A cohesion check owed by fire or shock (8.5, 8.8, 9.62, 9.65), else the reserve disorder check (5.54)."""
    act = state.activation
    if act is not None and any(k.unit == event["unit"] for k in act.combat.checks):
        return combat_check(state, event, dice)
    return reserve.cohesion_check(state, event, dice)


def cancel_if_disordered(board: Board, c: Combat, attacker_hex: str, hit: list[str]) -> Combat:
    """8.6 / 9.24: infantry (or non-charging cavalry) Disordered by reaction fire lose their shock, with every
    unit stacked with them: the hex no longer takes part.  Charging cavalry carry on or recall (charge_events)."""
    if is_charging_hex(c, attacker_hex, board):
        return reaction_fire_hit(board, c, attacker_hex, hit)
    if cancelled_by_reaction_fire(board, attacker_hex, hit, charging=False):
        return replace(c, committed={**c.committed, attacker_hex: False})
    return c
