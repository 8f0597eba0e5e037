"""Cavalry charges as events (9.81–9.87, gaps digest §10): the declaration's charge checks, the ``charge`` move,
``square`` (9.85), ``counter_charge`` (9.86, also against an infantry shock), ``recall`` (9.82), the charge's
``shock`` (9.83 DRMs, 9.87 pursuit) and ``pursuit``.  The pure rules are charge.py's; this module keeps the
charges' own bookkeeping (:class:`Charging`, carried in ``Combat.charging``) and the small hooks that
shock_events.py, owed.py and legal.py call.

Procedure (gaps §10, 9.81 steps 1–9), as events:

1. ``assaults`` with ``charge: true`` entries — declared with every other assault (9.44).  Each charger must be
   able to charge its one target hex *now* by some 1–2 hex route (``charge_errors``), and may not have moved or
   turned this activation (a charge is made instead of movement, 9.81).
2. ``commitment`` for each charging stack, without the defender's DFE (9.42).  Every charger of a stack that
   passes then owes a ``charge`` {unit, path, target, facing?}: it moves next to the target (result
   ``advanced`` with ``to`` and ``facing``, rule 9.81 — the DESIGN §5 effect for a combat move forward).
   [inferred] A charger with no legal route left (its target gone, say) sends ``path: []`` and drops out.
3. The defender may try ``square`` (infantry target; the ZOC test is made on the position at the
   declaration) or ``counter_charge`` (cavalry target, charged through its front, not in an enemy frontal ZOC
   at the declaration).
4. The attacker may try ``recall`` for a charger facing a square or Disordered by reaction fire (never in a
   pursuit); recalled, it leaves the assault where it stands (optional new facing) and is not Disordered by 9.84.
5. ``reaction_fire`` at range 1, once the chargers have charged.  Charging cavalry it Disorders carry on
   without the charge DRM, or try to recall (8.6, 9.24).
6. ``shock``: 9.51–9.54 plus the 9.55 charge DRMs: +3 heavy / +1 light (9.83), −2 against a square instead
   (9.85), none after a successful counter-charge, −1 for light cavalry countered by heavy (9.86), −n for the
   n-th pursuit charge (9.87).  9.23: against one defender the charge is resolved before a cavalry shock, and
   that before an infantry shock.
7. A modified roll ≥ 10 owes a ``pursuit`` {units, to, target?, facing?} once the defender's retreat is done:
   the pursuers (``charge.pursuers``: heavy first, then cohesion, within stacking limits) enter the vacated
   hex; if the defender is next to it they charge it again at once (a new assault, kind ``pursuit``, no
   Commitment roll, facing it) — with every other enemy then in their front (one roll modified per hex, 9.22),
   or they end the pursuit there (``stop``); if it was removed they stop.
8. 9.84: when the charge — or the whole pursuit — ends, every charging, pursuing and counter-charging unit not
   already Disordered and not recalled is Disordered; the results are reported on the event that ends it.

Against an **infantry** shock a Good-Order cavalry defender charged through its front may ``counter_charge``
without a roll (9.86).  Default, the rulebook's words ("the infantry may not attempt to form Square and the
counter-charging cavalry get the usual Charge DRM"): the counter-charge is the cavalry's charge on the infantry
(:func:`counter_charge_shock`); the infantry, the attacker, has no square to try.  Option
``counter_charge_vs_infantry: subtract`` takes the gaps digest's reading [inferred, gaps §10]: its charge value
counts against the infantry's shock roll (−3 heavy / −1 light, rule 9.86), Disordered after the shock (9.84).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from modulebuilder.hexgrid import add_hours

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Awaiting, Error, Result, Ruling, legal, result
from referee.engine.verbs import Illegal, check, refuse

from . import charge as ch
from . import shock as sk
from .board import Board, UnitState
from .candidates import SideRegion, kept
from .charging import Charging, assault_group, charging, is_charging_hex, reaction_fire_hit
from .charging import with_charging as _with
from .combat import Assault, Combat, apply_effects, engine_roll
from .entering import enter
from .moves import may_act_error, orders_error
from .owed import after_change, awaiting, settle_shock
from .secondary_events import note_outcome
from .facing import facing_error, required_facing, shared_facing_errors
from .rolls import Modifier
from .state import TGState
from .zoc import in_enemy_frontal_zoc, in_enemy_zoc
from .timing import activation_error, activation_of
from .verbs import VERBS, accepted

__all__ = ["Charging", "charging", "charge_options", "charge_declaration_errors", "after_declaration",
           "after_commitment", "charge", "square", "counter_charge", "recall",
           "charge_shock", "pursuit", "reaction_fire_hit", "is_charging_hex", "infantry_shock_extra",
           "after_infantry_shock", "assault_group", "charge_declarations", "owed_charge_actions",
           "optional_charge_actions", "leave_square", "leave_square_actions"]


# --------------------------------------------------------------------------------------------- 9.81 routes

def _facings_at(board: Board, hex_id: str, target: str) -> tuple[int, ...]:
    """Vertex facings at ``hex_id`` that have ``target`` in front."""
    d = board.grid.direction(hex_id, target)
    if d is None:
        return ()
    return tuple(f for f in (add_hours(d, -1), add_hours(d, 1)) if board.grid.is_vertex(f))


def _candidates(board: Board, unit: UnitState, target: str) -> list[tuple[list[str], int]]:
    start = unit.hex
    grid = board.grid
    out: list[tuple[list[str], int]] = []
    if start is None:
        return out
    for a in board.neighbours(start):
        if a == target:
            continue
        if grid.adjacent(a, target):
            out += [([a], f) for f in _facings_at(board, a, target)]
        for b in board.neighbours(a):
            if b in (start, target) or not grid.adjacent(b, target):
                continue
            out += [([a, b], f) for f in _facings_at(board, b, target)]
    return out


def _own_facing(board: Board, unit: UnitState, dest: str, facing: int | None) -> int | None:
    need = required_facing(board, unit, dest)
    return facing if facing is not None else (need if need is not None else unit.facing)


def charge_options(board: Board, unit: UnitState, target: str, limit: int = 0) -> list[tuple[list[str], int]]:
    """Every legal (route, end facing) by which ``unit`` may charge ``target`` now (9.81); ``limit`` > 0 stops
    after that many."""
    base = [e for e in ch.charge_errors(board, unit, [], target) if e.code != "charge_path"]
    if base:
        return []
    out = []
    for path, f in _candidates(board, unit, target):
        need = required_facing(board, unit, path[-1])
        if need is not None and need != f:
            continue
        if not ch.charge_errors(board, unit, path, target, f):
            out.append((path, f))
            if limit and len(out) >= limit:
                break
    return out


def _why_not(board: Board, unit: UnitState, target: str) -> list[Error]:
    """The reasons no route works: the route-independent ones, else those of the route with fewest."""
    base = [e for e in ch.charge_errors(board, unit, [], target) if e.code != "charge_path"]
    if base:
        return base
    best: list[Error] | None = None
    for path, f in _candidates(board, unit, target):
        errs = ch.charge_errors(board, unit, path, target, f)
        if best is None or len(errs) < len(best):
            best = errs
    return best or [Error("9.81", "charge_path", f"no route of one or two hexes leads {unit.defn.name} "
                                                       f"next to {target}")]


# --------------------------------------------------------------------------------------------- declaration

def charge_declaration_errors(state: TGState, a: Assault) -> list[Error]:
    """9.81 / 9.44: each charger may charge the (one) target now by some route, and has not moved or turned."""
    act = activation_of(state)
    board = state.board
    if len(a.targets) != 1:
        return [Error("9.81", "charge_one_target", "a charge names one target hex")]
    target = a.targets[0]
    errors: list[Error] = []
    for uid in a.attackers:
        u = board.units[uid]
        if uid in act.acted or u.moved:
            errors.append(Error("9.81", "charge_after_move",
                                f"{u.defn.name} moved or turned this activation: a charge is made instead of movement"))
            continue
        if u.kind != "cavalry" or u.hex is None or not charge_options(board, u, target, limit=1):
            errors += list(_why_not(board, u, target))
    return errors


def after_declaration(board: Board, c: Combat) -> Combat:
    """Record, on the position at the declaration, which targets may form square (9.85: not in an enemy ZOC)
    and which defending cavalry may counter-charge (9.86: not in an enemy frontal ZOC)."""
    targets = [a.targets[0] for a in c.assaults if a.charge and a.targets]
    if not targets:
        return c
    ok = frozenset(h for h in targets if not ch.square_errors(board, h))
    counter = frozenset(u.id for h in targets for u in board.stack(h)
                        if u.kind == "cavalry" and not in_enemy_frontal_zoc(board, h, u.side))
    cg = charging(c)
    side = next((board.units[a.attackers[0]].side for a in c.assaults if a.attackers), None)
    return replace(c, charging=replace(cg, may_square=cg.may_square | ok, may_counter=cg.may_counter | counter,
                                       side=side))


def after_commitment(board: Board, c: Combat, hex_: str, passed: bool) -> Combat:
    """9.81 step 3: every declared charger of a stack that passed owes its charge move."""
    if not passed:
        return c
    owed = tuple(u for a in c.assaults if a.charge and a.kind == "declared" for u in a.attackers
                 if board.units[u].hex == hex_ and board.units[u].kind == "cavalry")
    if not owed:
        return c
    cg = charging(c)
    return replace(c, charging=replace(cg, moves_owed=cg.moves_owed + tuple(u for u in owed if u not in cg.moves_owed)))


def _assault_of(c: Combat, uid: str) -> int | None:
    return next((i for i, a in enumerate(c.assaults) if a.charge and uid in a.attackers and i not in c.resolved), None)


def _drop(c: Combat, i: int, uid: str) -> Combat:
    """Take ``uid`` out of assault ``i`` (recalled, or unable to charge)."""
    a = c.assaults[i]
    new = replace(a, attackers=tuple(x for x in a.attackers if x != uid))
    return replace(c, assaults=c.assaults[:i] + (new,) + c.assaults[i + 1:])


def _awaiting(c: Combat, side: str | None) -> list[Awaiting]:
    return awaiting(c)


def _context(state: TGState, side: str, rule: str) -> tuple[Any, Combat] | Error:
    act = state.activation
    if act is None or act.side is None or not act.combat.declared:
        return Error(rule, "no_charge", "no charge has been declared")
    if rule in ("9.81", "9.82", "9.87"):            # the charging side's acts
        err = activation_error(state, side, rule)
        if err:
            return err
    return act, act.combat


# --------------------------------------------------------------------------------------------- charge move

def _into_other_assault(board: Board, c: Combat, i: int, dest: str) -> bool:
    """[inferred] A charge may not end among the units of another declared assault (their hex's APC is theirs)."""
    here = board.stacks.get(dest, ())
    return bool(here) and any(x in a.attackers for k, a in enumerate(c.assaults) if k != i for x in here)


def legal_routes(board: Board, c: Combat, i: int, unit: UnitState, limit: int = 0) -> list[tuple[list[str], int]]:
    """The (route, facing) pairs the ``charge`` event accepts for ``unit`` in charge ``i``."""
    target = c.assaults[i].targets[0]
    out = [(p, f) for p, f in charge_options(board, unit, target) if not _into_other_assault(board, c, i, p[-1])]
    return out[:limit] if limit else out


@VERBS.verb("charge", rules=("9.81",),
             refs={"side": "side", "unit": "unit", "path": "hex?", "target": "hex?"}, actor=False)
def charge(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    ctx = _context(state, side, "9.81")
    if isinstance(ctx, Error):
        raise Illegal(ctx)
    act, c = ctx
    cg = charging(c)
    board = state.board
    if uid not in cg.moves_owed:
        refuse("9.81", "no_charge_owed", f"{uid} owes no charge move (its stack must "
               "pass its Commitment roll first)", cg.moves_owed)
    i = _assault_of(c, uid)
    assert i is not None
    target = c.assaults[i].targets[0]
    u = board.units[uid]
    if side != u.side:
        refuse("9.81", "not_your_unit", f"{uid} is {u.side}'s")
    if event.get("target", target) != target:
        refuse("9.81", "charge_target", f"{u.defn.name} was declared against {target}",
               (target,))
    path = list(event.get("path") or [])
    options = legal_routes(board, c, i, u)
    if not path:
        if options:
            refuse("9.81", "must_charge", f"{u.defn.name} passed its Commitment roll and "
                   "must charge", tuple(" ".join(p) + f" @{f}" for p, f in options))
        # [inferred] no route is left (the target moved away, a friend took the hex): the charger drops out.
        c = _drop(replace(c, charging=replace(cg, moves_owed=tuple(x for x in cg.moves_owed if x != uid))), i, uid)
        return legal("charge", ["9.81"], awaiting=_awaiting(c, act.side)), \
            replace(state, activation=replace(act, combat=c))
    facing = event.get("facing")
    if facing is not None:
        bad = facing_error(board, facing)
        check(bad)
    dest = path[-1]
    end = _own_facing(board, u, dest, facing)
    errors = ch.charge_errors(board, u, path, target, end)
    need = required_facing(board, u, dest)
    if need is not None and end != need:
        errors.append(Error("6.11", "stack_facing_differs", f"the cavalry in {dest} faces {need}", (need,)))
    if _into_other_assault(board, c, i, dest):
        errors.append(Error("9.81", "charge_into_attacking_hex",
                                f"{dest} holds units of another declared assault"))
    if errors:
        alts = tuple(" ".join(p) + f" @{f}" for p, f in options)
        raise Illegal(*[Error(e.rule, e.code, e.message, e.alternatives or alts) for e in errors])
    board, displaced = enter(board, uid, dest, end)
    ends = dict(cg.ends)
    ends[i] = ends.get(i, ()) + (uid,)
    cg = replace(cg, moves_owed=tuple(x for x in cg.moves_owed if x != uid), ends=ends)
    c = replace(c, charging=cg, committed={**c.committed, dest: True})
    res = [result("advanced", "9.81", uid, to=dest, facing=end), *displaced]
    return (legal("charge", ["9.81"], results=res, awaiting=_awaiting(c, act.side)),
            replace(state, board=board, activation=replace(act, combat=c)))


# --------------------------------------------------------------------------------------------- 9.85, 9.86, 9.82

def _open_charge_on(state: TGState, c: Combat, hex_: str | None) -> int | None:
    """The unresolved charge assault against ``hex_`` whose chargers have all charged."""
    board = state.board
    cg = charging(c)
    for i, a in enumerate(c.assaults):
        if a.charge and hex_ in a.targets and i not in c.resolved and c.attackers_of(i, board) \
                and not set(a.attackers) & set(cg.moves_owed):
            return i
    return None


def _defender_act(state: TGState, side: str, uid: str, rule: str, what: str
                  ) -> tuple[Any, Combat, UnitState] | list[Error]:
    """The activation, its combat and the unit for a charged side's act (square, counter-charge), or why the
    act may not be made now."""
    ctx = _context(state, side, rule)
    if isinstance(ctx, Error):
        return [ctx]
    act, c = ctx
    return _defender_errors(state, c, side, uid, rule, what) or (act, c, state.board.units[uid])


def _defender_errors(state: TGState, c: Combat, side: str, uid: str, rule: str, what: str) -> list[Error]:
    act = activation_of(state)
    u = state.board.units[uid]
    errors = []
    if side == act.side or u.side != side:
        errors.append(Error(rule, "defender_only", f"{what} is the charged side's, with its own unit"))
    if c.commit_owed:
        errors.append(Error("9.46", "commitment_pending", "every Commitment roll comes first", c.commit_owed))
    if charging(c).moves_owed:
        errors.append(Error("9.81", "charges_first", "the chargers move next to their targets first",
                            charging(c).moves_owed))
    if c.checks or c.retreats or c.advances:
        errors.append(Error("9.6", "acts_owed", "the owed checks, retreats and advances come first"))
    return errors


@VERBS.verb("square", rules=("9.85",),
             refs={"side": "side", "unit": "unit"}, actor=False)
def square(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    ctx = _defender_act(state, side, uid, "9.85", "square")
    if isinstance(ctx, list):
        raise Illegal(*ctx)
    act, c, u = ctx
    cg = charging(c)
    board = state.board
    h = u.hex
    i = _open_charge_on(state, c, h)
    if i is None or h is None:
        refuse("9.85", "not_charged", f"{u.defn.name} is not being charged")
    if h in cg.squared:
        refuse("9.85", "square_tried", f"the stack in {h} has tried to form square")
    if any(x.square for x in board.stack(h)):
        refuse("9.85", "already_square", f"the stack in {h} is in square")
    if i in cg.counter_tried:
        refuse("9.86", "square_vs_counter_charge", "no square against a counter-charge")
    now = [e for e in ch.square_errors(board, h) if e.code != "square_in_zoc"]
    check(now)
    if h not in cg.may_square:
        refuse("9.85", "square_in_zoc",
               f"{h} was in an enemy ZOC when the charge was declared: no square")
    top = ch._square_infantry(board, h)[0]          # noqa: SLF001 — the rule's own notion of "top infantry"
    if uid != top.id:
        refuse("9.85", "square_top_infantry",
               f"the top infantry unit ({top.defn.name}) rolls for the stack", (top.id,))
    spec = ch.square_roll(board, h)
    natural = need(dice, "roll", engine_roll(spec, None, side), ("9.85",), purpose="square")
    roll = engine_roll(spec, natural, side)
    effects = ch.square_outcome(board, h, bool(roll.passed))
    if roll.passed:
        board = board.update_many({e.unit: {"square": True} for e in effects})
        results = [result("square", "9.85", e.unit) for e in effects]
    else:
        board, results = apply_effects(board, effects)
    c = _with(c, squared=cg.squared | {h})
    return (legal("square", ["9.85"], rolls=[roll], results=results, awaiting=_awaiting(c, act.side)),
            replace(state, board=board, activation=replace(act, combat=c)))


def _open_infantry_shock_on(state: TGState, c: Combat, hex_: str | None) -> int | None:
    board = state.board
    for i, a in enumerate(c.assaults):
        if (not a.charge and hex_ in a.targets and i not in c.resolved and c.attackers_of(i, board)
                and assault_group(a, board) == "infantry"):
            return i
    return None


@VERBS.verb("counter_charge", rules=("9.86",),
             refs={"side": "side", "unit": "unit", "at": "hex?"}, actor=False)
def counter_charge(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    ctx = _defender_act(state, side, uid, "9.86", "a counter-charge")
    if isinstance(ctx, list):
        raise Illegal(*ctx)
    act, c, u = ctx
    cg = charging(c)
    board = state.board
    i = _open_charge_on(state, c, u.hex)
    if i is None:
        j = _open_infantry_shock_on(state, c, u.hex)
        if j is None:
            refuse("9.86", "not_charged",
                   f"{u.defn.name} is neither charged nor shocked by infantry")
        return _counter_infantry(state, c, j, u)
    if i in cg.counter_tried:
        refuse("9.86", "counter_charge_tried", "one counter-charge per charge")
    if u.hex in cg.squared:
        refuse("9.86", "counter_charge_square", "the stack tried to form square")
    chargers = [board.units[x] for x in c.attackers_of(i, board)]
    hexes = tuple(dict.fromkeys(x.hex for x in chargers if x.hex))
    # 9.86: against chargers in several hexes the counter-charge is aimed at one of them, the defender's choice.
    at_hex = event.get("at") or (hexes[0] if len(hexes) == 1 else None)
    if at_hex not in hexes:
        refuse("9.86", "counter_charge_at", "name the hex of charging cavalry the "
               "counter-charge is aimed at", hexes)
    chargers = [x for x in chargers if x.hex == at_hex]
    errs = ch.counter_charge_errors(board, u, [at_hex], uid not in cg.may_counter)
    check(errs)
    spec = ch.counter_charge_roll(u, chargers)
    natural = need(dice, "roll", engine_roll(spec, None, side), ("9.86",), purpose="counter_charge")
    roll = engine_roll(spec, natural, side)
    cg = replace(cg, counter_tried=cg.counter_tried | {i})
    if roll.passed:
        ends = dict(cg.ends)
        ends[i] = ends.get(i, ()) + (uid,)
        cg = replace(cg, countered={**cg.countered, i: cg.countered.get(i, ()) + (uid,)},
                     countered_at={**cg.countered_at, i: at_hex}, ends=ends)
    c = replace(c, charging=cg)
    return (legal("counter_charge", ["9.86"], rolls=[roll], awaiting=_awaiting(c, act.side)),
            replace(state, activation=replace(act, combat=c)))


def _counter_infantry(state: TGState, c: Combat, j: int, u: UnitState) -> tuple[Ruling, TGState]:
    """9.86: Good-Order cavalry shocked by infantry only, through its front, counter-charges without a roll."""
    act = activation_of(state)
    board = state.board
    cg = charging(c)
    if j in cg.vs_infantry:
        refuse("9.86", "counter_charge_tried", "the cavalry already counter-charges")
    attackers = [board.units[x] for x in c.attackers_of(j, board)]
    if any(x.kind != "infantry" for x in attackers):
        refuse("9.86", "not_infantry_only", "only a shock by infantry alone")
    if any(k != j and u.hex in a.targets and k not in c.resolved and c.attackers_of(k, board)
           for k, a in enumerate(c.assaults)):
        refuse("9.86", "not_infantry_only",
               f"{u.hex} is attacked by more than the infantry")
    top = next((x for x in board.stack(u.hex) if x.kind != "artillery"), None)  # type: ignore[arg-type]
    if top is None or top.id != u.id:
        refuse("9.86", "counter_charge_top", "the top cavalry unit counter-charges",
               (top.id,) if top else ())
    errs = ch.counter_charge_errors(board, u, [x.hex for x in attackers if x.hex], False)
    check(errs)
    c = replace(c, charging=replace(cg, vs_infantry={**cg.vs_infantry, j: u.id}))
    return (legal("counter_charge", ["9.86"], awaiting=_awaiting(c, act.side)),
            replace(state, activation=replace(act, combat=c)))


@VERBS.verb("recall", rules=("9.82",),
             refs={"side": "side", "unit": "unit"}, actor=False)
def recall(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    ctx = _context(state, side, "9.82")
    if isinstance(ctx, Error):
        raise Illegal(ctx)
    act, c = ctx
    cg = charging(c)
    board = state.board
    u = board.units[uid]
    i = _assault_of(c, uid)
    if i is None or uid in cg.moves_owed or uid not in c.attackers_of(i, board) or u.side != side:
        refuse("9.82", "not_charging", f"{u.defn.name} is not a charger next to its target")
    if c.commit_owed or cg.moves_owed or c.owes:
        refuse("9.82", "acts_owed", "the Commitment rolls, charges and owed acts come first")
    a = c.assaults[i]
    in_square = any(x.square for x in board.stack(a.targets[0]))
    errs = ch.recall_errors(u, target_in_square=in_square, disordered_by_reaction_fire=uid in cg.rf_disordered,
                            pursuing=a.kind == "pursuit")
    if uid in cg.recall_tried:
        errs.append(Error("9.82", "recall_tried", f"{u.defn.name} has tried to recall"))
    facing = event.get("facing")
    if facing is not None:
        bad = facing_error(board, facing)
        errs += [bad] if bad else shared_facing_errors(board.stack(u.hex), {uid: facing})  # type: ignore[arg-type]
    check(errs)
    spec = ch.recall_roll(u)
    natural = need(dice, "roll", engine_roll(spec, None, side), ("9.82",), purpose="recall")
    roll = engine_roll(spec, natural, side)
    cg = replace(cg, recall_tried=cg.recall_tried | {uid})
    results: list[Result] = []
    if roll.passed:
        cg = replace(cg, recalled=cg.recalled | {uid},
                     ends={**cg.ends, i: tuple(x for x in cg.ends.get(i, ()) if x != uid)})
        c = _drop(replace(c, charging=cg), i, uid)
        if facing is not None:
            board = board.update(uid, facing=facing)
        if not c.attackers_of(i, board):          # nobody charges any more: the charge is over (9.84)
            board, c, results = _end_charge(board, c, i)
    else:
        c = replace(c, charging=cg)
    return (legal("recall", ["9.82"] + (["9.84"] if results else []), rolls=[roll], results=results,
                  awaiting=_awaiting(c, act.side)),
            replace(state, board=board, activation=replace(act, combat=c)))


# --------------------------------------------------------------------------------------------- 8.6 hook

# --------------------------------------------------------------------------------------------- the charge shock

def charge_modifiers(board: Board, c: Combat, i: int, attackers: Sequence[UnitState],
                     target: str | None = None) -> tuple[Modifier, ...]:
    """The 9.55 DRMs of charge ``i`` against ``target`` (default its first hex): 9.83 / 9.85 / 9.86 / 9.24, and
    −n for the n-th pursuit charge (9.87)."""
    cg = charging(c)
    a = c.assaults[i]
    fresh = [u for u in attackers if u.id not in cg.rf_disordered]
    vs_square = any(x.square for x in board.stack(target or a.targets[0]))
    countered = [board.units[x] for x in cg.countered.get(i, ())]
    untouched = [u for u in fresh if u.hex != cg.countered_at.get(i)] if countered else fresh
    if countered and untouched and not vs_square:
        # 9.86: the counter-charge cancels the DRM of the chargers it was aimed at (light ones countered by heavy
        # cavalry take their −1); the others keep theirs (9.83).
        hit = [u for u in fresh if u not in untouched]
        mods = ch.charge_modifiers(untouched) + ch.charge_modifiers(hit, countered_by=countered)
    else:
        mods = ch.charge_modifiers(fresh or attackers, vs_square=vs_square, lost=not fresh, countered_by=countered)
    if a.kind == "pursuit" and a.nth:
        mods += (ch.pursuit_modifier(a.nth),)
    return mods


def _end_charge(board: Board, c: Combat, i: int) -> tuple[Board, Combat, list[Result]]:
    """9.84: the charge (or pursuit chain) ``i`` is over: Disorder its chargers, pursuers and counter-chargers."""
    cg = charging(c)
    ids = cg.ends.get(i, ())
    units = [board.units[u] for u in dict.fromkeys(ids) if board.units[u].hex is not None]
    board, results = apply_effects(board, ch.end_of_charge_effects(board, units, cg.recalled))
    ends = {k: v for k, v in cg.ends.items() if k != i}
    return board, replace(c, charging=replace(cg, ends=ends)), results


def charge_shock(state: TGState, event: Mapping[str, Any], dice: EventDice,
                      combat: Combat | None = None) -> tuple[Ruling, TGState]:
    """The shock of a charge (9.83–9.87); shock_events.shock has already checked the common errors
    (``combat``: the activation's combat as shock has it).  A charge names one hex; a pursuit charge may
    have two (9.87: another enemy also in the pursuers' front), shocked with one roll modified per hex (9.22)."""
    side, i = event["side"], int(event["assault"])
    act = activation_of(state)
    c = combat if combat is not None else act.combat
    board = state.board
    a = c.assaults[i]
    ids = c.attackers_of(i, board)
    attackers = [board.units[u] for u in ids]
    targets = [h for h in a.targets if board.has_enemy(h, side)]
    results: list[Result] = []
    for h in [h for h in targets if sk.artillery_only(board, h)]:   # 9.25: guns alone are overrun without a roll
        board, more = apply_effects(board, sk.lone_artillery_effects(board, h))
        results += more
    targets = [h for h in targets if board.stack(h)]
    if not targets:
        c = replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids))
        board, c, more = _end_charge(board, c, i)
        c = after_change(board, c, act)
        return (legal("shock", ["9.25", "9.84"], results=results + more, awaiting=_awaiting(c, act.side)),
                replace(state, board=board, activation=replace(act, combat=c)))
    extra = {h: charge_modifiers(board, c, i, attackers, h) for h in targets}
    spec = sk.shock_roll(board, attackers, targets, extra=extra)
    natural = dice.roll("roll", "shock")
    label = f"pursuit charge {a.nth}" if a.kind == "pursuit" else "charge"
    roll = engine_roll(spec, natural, side, sk.shock_detail(board, attackers, spec, label))
    if natural is None:
        return legal("shock", ["9.5", "9.83"], rolls=[roll]), state
    c = replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids))
    board, c, more, settled = settle_shock(board, c, spec, natural, targets, ids, charging=True)
    results += more
    pursued: tuple[str, tuple[str, ...]] | None = None
    for x in settled:
        c = note_outcome(c, x.before, x.hex, x.outcome)  # 9.73: a result < 0 lets the defender counter-shock
        if x.outcome.pursuit and pursued is None:
            pursued = (x.hex, x.defenders)               # the pursuers can follow into one hex: the first
    rules = ["9.5", "9.51", "9.55", "9.6"]
    if pursued is not None:
        cg = charging(c)
        c = replace(c, no_advance=c.no_advance | {pursued[0]},
                    charging=replace(cg, pursuit_owed=cg.pursuit_owed + ((i, pursued[0], pursued[1]),)))
        rules.append("9.87")
    else:
        board, c, more = _end_charge(board, c, i)
        results += more
        if more:
            rules.append("9.84")
    c = after_change(board, c, act)
    return (legal("shock", rules, rolls=[roll], results=results, awaiting=_awaiting(c, act.side)),
            replace(state, board=board, activation=replace(act, combat=c)))


# --------------------------------------------------------------------------------------------- 9.87 pursuit

def _pursuit_facing(board: Board, at: str, target: str, current: int | None) -> int | None:
    options = _facings_at(board, at, target)
    if not options:
        return current
    if current is None:
        return options[0]
    return min(options, key=lambda f: (ch._vertex_turns(current, f), f))   # noqa: SLF001


def pursuit_plan(board: Board, c: Combat) -> tuple[int, str, tuple[str, ...], str | None] | None:
    """The owed pursuit: (assault, vacated hex, pursuers in order, the hex they charge or None to stop)."""
    cg = charging(c)
    if not cg.pursuit_owed:
        return None
    i, vac, defenders = cg.pursuit_owed[0]
    chargers = [board.units[u] for u in c.assaults[i].attackers if board.units[u].hex is not None]
    pursuers = ch.pursuers(board, chargers, vac) if not board.stacks.get(vac) else ()
    where = [board.units[d].hex for d in defenders if board.units[d].hex is not None]
    target = where[0] if where and board.grid.adjacent(vac, where[0]) else None
    if target is not None:
        terrain = "rubble" if target in board.rubble else board.static.terrain(target)
        if terrain in ch.DEFAULT_OPTIONS.no_charge_terrain:
            target = None                                  # 9.81: no charge into such a hex: they stop
    return i, vac, pursuers, target


def _other_frontal_enemies(board: Board, at: str, facing: int | None, target: str, side: str) -> tuple[str, ...]:
    """9.87: enemy hexes besides the retreated defender's in the pursuers' front once they have entered and
    turned — they may charge them all (9.22) or end the pursuit.  Hexes a charge may not enter (9.81 terrain,
    an impassable hexside) are not charged [inferred]."""
    if facing is None:
        return ()
    out = []
    for h in board.grid.front(at, facing):
        if h == target or not board.on_map(h) or not board.has_enemy(h, side) or sk.impassable_between(board, at, h):
            continue
        terrain = "rubble" if h in board.rubble else board.static.terrain(h)
        if terrain not in ch.DEFAULT_OPTIONS.no_charge_terrain:
            out.append(h)
    return tuple(out)


@VERBS.verb("pursuit", rules=("9.87",),
             refs={"side": "side", "units": "units", "to": "hex?", "target": "hex?"}, actor=False)
def pursuit(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.87: the chargers whose defender retreated enter the hex it left and charge on, or stop."""
    side = event["side"]
    ctx = _context(state, side, "9.87")
    if isinstance(ctx, Error):
        raise Illegal(ctx)
    act, c = ctx
    board = state.board
    plan = pursuit_plan(board, c)
    if plan is None:
        refuse("9.87", "no_pursuit_owed", "no pursuit is owed")
    if c.checks or c.retreats:
        refuse("9.6", "acts_owed", "the defender's checks and retreat come first")
    i, vac, pursuers, target = plan
    check(pursuit_errors(board, act.side, event, vac, pursuers, target))
    facing, first = event.get("facing"), board.units[pursuers[0]] if pursuers else None
    end = facing if facing is not None else (
        _pursuit_facing(board, vac, target, first.facing) if target and first else (first.facing if first else None))
    before = board
    board, results = pursuers_enter(board, pursuers, vac, end)
    cg = replace(charging(c), pursuit_owed=charging(c).pursuit_owed[1:])
    c = replace(c, charging=cg)
    others = _other_frontal_enemies(board, vac, end, target, side) if target is not None and pursuers else ()
    if event.get("stop") and not others:
        refuse("9.87", "pursuit_must_charge",
               "only the retreating enemy is in the pursuers' front: they must charge it")
    charging_on = bool(target and pursuers and not event.get("stop"))
    if charging_on:
        c, rules = pursuit_charge(before, c, i, tuple(pursuers), (target, *others), vac), ["9.87"]
    else:
        board, c, more = _end_charge(board, c, i)          # they stop: the pursuit is over (9.84)
        results, rules = results + more, ["9.87", "9.84"]
    c = after_change(board, c, act)
    return (legal("pursuit", rules, results=results, awaiting=_awaiting(c, act.side)
                  + ([Awaiting("shock", act.side, "9.87")] if charging_on else [])),
            replace(state, board=board, activation=replace(act, combat=c)))


def pursuit_errors(board: Board, active: str | None, event: Mapping[str, Any], vac: str, pursuers: Sequence[str],
                   target: str | None) -> list[Error]:
    """9.87: the pursuit is the active side's; the pursuers are the chargers that fit, entering the vacated hex
    and facing the retreated defender."""
    errors: list[Error] = []
    if event["side"] != active:
        errors.append(Error("9.87", "not_your_pursuit", f"the pursuit is {active}'s"))
    if event.get("to") != vac:
        errors.append(Error("9.87", "pursuit_hex", f"the pursuers enter the vacated hex {vac}", (vac,)))
    if set(event.get("units") or ()) != set(pursuers):
        errors.append(Error("9.87", "pursuers", "the pursuers are the chargers that fit in the hex, heavy cavalry "
                            "first, then the higher cohesion (6.21)", pursuers))
    if event.get("target") is not None and event.get("target") != target:
        errors.append(Error("9.87", "pursuit_target", "the pursuit charges the retreated defender",
                            (target,) if target else ()))
    facing = event.get("facing")
    if facing is not None:
        bad = facing_error(board, facing)
        if bad:
            errors.append(bad)
        elif target is not None and target not in board.grid.front(vac, facing):
            errors.append(Error("9.87", "pursuit_facing", f"the pursuers turn to face {target}",
                                _facings_at(board, vac, target)))
    return errors


def pursuers_enter(board: Board, pursuers: Sequence[str], vac: str, facing: int | None
                   ) -> tuple[Board, list[Result]]:
    """9.87: each pursuer enters the vacated hex, facing ``facing``."""
    results: list[Result] = []
    for uid in pursuers:
        board, displaced = enter(board, uid, vac, facing)
        results.append(result("advanced", "9.87", uid, to=vac, facing=facing))
        results += displaced
    return board, results


def pursuit_charge(before: Board, c: Combat, i: int, pursuers: tuple[str, ...], charged: tuple[str, ...], vac: str
                   ) -> Combat:
    """9.87 / 9.22: the pursuers charge every enemy now in their front, a new charge of the assault ``i``; the
    9.85 / 9.86 tests are made on the position as it begins, before the pursuers entered [inferred]."""
    cg = charging(c)
    j, a = len(c.assaults), c.assaults[i]
    new = Assault(pursuers, charged, True, kind="pursuit", nth=a.nth + 1)
    ends = {k: v for k, v in cg.ends.items() if k != i}
    ends[j] = cg.ends.get(i, ())
    ok = frozenset(h for h in charged if not ch.square_errors(before, h))
    counter = frozenset(u.id for h in charged for u in before.stack(h)
                        if u.kind == "cavalry" and not in_enemy_frontal_zoc(before, h, u.side))
    cg = replace(cg, ends=ends, may_square=cg.may_square | ok, squared=cg.squared - set(charged),
                 may_counter=cg.may_counter | counter)
    return replace(c, assaults=c.assaults + (new,), committed={**c.committed, vac: True}, charging=cg)


# --------------------------------------------------------------------------------------------- 9.86 vs infantry

def infantry_shock_extra(c: Combat, i: int, board: Board) -> dict[str, tuple[Modifier, ...]]:
    """9.86, option ``counter_charge_vs_infantry: subtract`` [inferred]: the counter-charging cavalry's charge value
    counts against the infantry's shock roll."""
    uid = charging(c).vs_infantry.get(i)
    if uid is None or board.units[uid].hex is None:
        return {}
    u = board.units[uid]
    return {u.hex: (ch.counter_charge_vs_infantry_modifier(u),)}  # type: ignore[dict-item]


def counter_charger(c: Combat, i: int, board: Board) -> UnitState | None:
    """The cavalry counter-charging infantry assault ``i`` (9.86), if any, still on the map."""
    uid = charging(c).vs_infantry.get(i)
    return board.units[uid] if uid is not None and board.units[uid].hex is not None else None


def counter_charge_shock(state: TGState, event: Mapping[str, Any], dice: EventDice,
                              c: Combat) -> tuple[Ruling, TGState]:
    """9.86, the default reading (option ``counter_charge_vs_infantry: charge``): the cavalry's counter-charge is
    resolved as its charge on the infantry that shocked it, instead of their shock — the cavalry is the
    attacker (its charge DRM, 9.83), the infantry's hexes it faces are the targets, one roll by the shocking
    side.  [inferred] It opens no pursuit, advance or counter-shock (it is an answer, not the cavalry's own
    charge), and the cavalry is Disordered after it (9.84) as in the default reading."""
    side, i = event["side"], int(event["assault"])
    act = activation_of(state)
    board = state.board
    cav = counter_charger(c, i, board)
    assert cav is not None and cav.hex is not None
    ids = c.attackers_of(i, board)
    targets = list(dict.fromkeys(x for u in ids if (x := board.units[u].hex) and board.grid.adjacent(x, cav.hex)))
    spec = sk.shock_roll(board, [cav], targets, extra={h: ch.charge_modifiers([cav]) for h in targets})
    natural = need(dice, "roll", engine_roll(spec, None, side, sk.shock_detail(board, [cav], spec, "counter-charge")), ("9.86", "9.5"), purpose="shock")
    roll = engine_roll(spec, natural, side, sk.shock_detail(board, [cav], spec, "counter-charge"))
    c = replace(c, resolved=c.resolved | {i}, shocked=c.shocked | set(ids), no_advance=c.no_advance | set(targets))
    board, c, results, _ = settle_shock(board, c, spec, natural, targets, [cav.id], charging=True)
    board, more = after_infantry_shock(board, c, i)                  # 9.84
    results += more
    c = after_change(board, c, act)
    return (legal("shock", ["9.86", "9.5", "9.51", "9.6", "9.84"], rolls=[roll], results=results,
                  awaiting=_awaiting(c, act.side)),
            replace(state, board=board, activation=replace(act, combat=c)))


def after_infantry_shock(board: Board, c: Combat, i: int) -> tuple[Board, list[Result]]:
    """9.84: the cavalry that counter-charged an infantry shock is Disordered after it (unless it already is)."""
    uid = charging(c).vs_infantry.get(i)
    if uid is None or board.units[uid].hex is None:
        return board, []
    return apply_effects(board, ch.end_of_charge_effects(board, [board.units[uid]]))


# --------------------------------------------------------------------------------------------- leaving square

def leave_square_errors(state: TGState, side: str, uid: str) -> list[Error]:
    """9.85: a stack leaves square in its movement step for 1 MP, not while in an enemy ZOC."""
    err = may_act_error(state, side, uid) or orders_error(state, uid)
    if err is not None:
        return [err]
    act = activation_of(state)
    u = state.board.units[uid]
    if uid in act.acted:
        return [Error("9.85", "already_moved", f"{u.defn.name} has finished its movement step this activation")]
    if not u.square or u.hex is None:
        return [Error("9.85", "not_in_square", f"{u.defn.name} is not in square")]
    if in_enemy_zoc(state.board, u.hex, u.side):
        return [Error("9.85", "square_in_zoc", f"{u.defn.name} is in an enemy ZOC and may not leave square")]
    return []


@VERBS.verb("leave_square", rules=("9.85",),
             refs={"side": "side", "unit": "unit"}, actor=False)
def leave_square(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.85: the stack leaves square (every unit in the hex); the units of it that act now spend 1 MP of their
    movement (the move that may follow has one MP less) [inferred: the MP comes out of the named unit's and
    its activated stack-mates' allowance]."""
    side, uid = event["side"], event["unit"]
    errors = leave_square_errors(state, side, uid)
    check(errors)
    act = activation_of(state)
    board = state.board
    stack = board.stack(board.units[uid].hex)  # type: ignore[arg-type]
    changes: dict[str, dict[str, Any]] = {}
    for u in stack:
        ch_ = {"square": False}
        if u.id in act.units and u.id not in act.acted and u.kind != "artillery":
            ch_.update(moved=True, mp_spent=u.mp_spent + 1)
        changes[u.id] = ch_
    board = board.update_many(changes)
    return legal("leave_square", ["9.85"]), replace(state, board=board)


def leave_square_actions(state: TGState) -> list[dict[str, Any]]:
    act = state.activation
    if act is None or act.side is None:
        return []
    board = state.board
    return [{"type": "leave_square", "side": act.side, "unit": uid} for uid in sorted(act.units)
            if board.units[uid].square and uid not in act.acted
            and not leave_square_errors(state, act.side, uid)][:2]


# --------------------------------------------------------------------------------------------- legal actions

MAX_CHARGES_LISTED = 3


def charge_declarations(state: TGState) -> list[dict[str, Any]]:
    """A few single charges (9.81) the active side could declare now: Good-Order cavalry that has not acted,
    against enemy hexes 2–3 hexes away.

    Each unit's first target is an entry of the listing's candidate table (``candidates``): ``charge_options``
    reads the board within three hexes of the charger (targets, LOS, routes, the ZOC and stacking along them),
    so the entry is kept while nothing changes there that it read and the unit itself does not."""
    act = activation_of(state)
    board = state.board
    out: list[dict[str, Any]] = []
    for uid in sorted(act.units):
        u = board.units[uid]
        if (u.kind != "cavalry" or u.hex is None or u.disordered or uid in act.acted or u.moved
                or u.started_in_zoc or board.top(u.hex) is None or board.top(u.hex).id != uid):  # type: ignore[union-attr]
            continue
        h = kept(board, ("charge", uid), u, lambda: _first_charge_target(board, u))
        if h is not None:
            out.append({"type": "assaults", "side": act.side,
                        "assaults": [{"attackers": [uid], "target": [h], "charge": True}]})
        if len(out) >= MAX_CHARGES_LISTED:
            break
    return out


def _first_charge_target(board: Board, u: UnitState) -> tuple[str | None, SideRegion]:
    """The first enemy hex (in hex order) 2–3 hexes from ``u`` that it has a charge route to, and the region read:
    the hexes of the route (one or two, within two of ``u``) are read whole (6.22, 6.21 stacking and 6.11 facing
    at its end); of the rest within three of ``u`` only the enemies (the target, ZOC 9.81) — units never block the
    line of sight (8.4).  With no enemy 2–3 hexes away (most cavalry, most of the time) nothing but the enemies
    was read, so the answer holds while none comes within three hexes."""
    side = u.side
    targets = [h for h in _within_three(board, u.hex) if board.has_enemy(h, side)]    # type: ignore[arg-type]
    if not targets:                     # no enemy 2-3 hexes away (most cavalry): only the enemies were read
        return None, SideRegion(board, side, (), (u.hex,), 3)                      # type: ignore[arg-type]
    region = SideRegion(board, side, board.static.disc(u.hex, 2) - {u.hex}, (u.hex,), 3)  # type: ignore[arg-type]
    for h in targets:
        if charge_options(board, u, h, limit=1):
            return h, region
    return None, region


def _within_three(board: Board, hex_id: str) -> tuple[str, ...]:
    """The hexes 2-3 hexes from ``hex_id`` that three steps of adjacency reach, in hex order: the map's alone,
    kept on it."""
    memo = board.static.memo
    key = ("charge_reach", hex_id)
    hit = memo.get(key)
    if hit is None:
        ns = board.neighbours
        near = {h for n in ns(hex_id) for m in ns(n) for h in (m, *ns(m))}
        hit = memo[key] = tuple(h for h in sorted(near) if board.grid.distance(hex_id, h) in (2, 3))
    return hit


def owed_charge_actions(state: TGState) -> list[dict[str, Any]]:
    """The charge moves (a few routes each) or the pursuit that must come next."""
    act = activation_of(state)
    c, board = act.combat, state.board
    cg = charging(c)
    if cg.moves_owed:
        uid = cg.moves_owed[0]
        u = board.units[uid]
        i = _assault_of(c, uid)
        target = c.assaults[i].targets[0] if i is not None else ""
        opts = legal_routes(board, c, i, u, limit=4) if i is not None else []
        if not opts:
            return [{"type": "charge", "side": u.side, "unit": uid, "path": [], "target": target}]
        return [{"type": "charge", "side": u.side, "unit": uid, "path": p, "target": target, "facing": f}
                for p, f in opts]
    plan = pursuit_plan(board, c)
    if plan is not None and not c.checks and not c.retreats:
        _i, vac, pursuers, target = plan
        go = {"type": "pursuit", "side": act.side, "units": list(pursuers), "to": vac,
              **({"target": target} if target else {})}
        return [go] + accepted(state, [{**go, "stop": True}]) if target and pursuers else [go]  # 9.87 choice
    return []


def optional_charge_actions(state: TGState) -> list[dict[str, Any]]:
    """Square, counter-charge and recall attempts open now (each one checked by its rule)."""
    act = activation_of(state)
    c, board = act.combat, state.board
    cg = charging(c)
    cands: list[dict[str, Any]] = []
    for i, a in enumerate(c.assaults):
        if i in c.resolved or not c.attackers_of(i, board):
            continue
        h = a.targets[0]
        stack = board.stack(h)
        if not stack:
            continue
        if a.charge:
            inf = ch._square_infantry(board, h)           # noqa: SLF001
            if inf and h not in cg.squared and h in cg.may_square:
                cands.append({"type": "square", "side": inf[0].side, "unit": inf[0].id})
            if i not in cg.counter_tried:
                hexes = dict.fromkeys(x for u in c.attackers_of(i, board) if (x := board.units[u].hex))
                aims: list[dict[str, Any]] = [{}] if len(hexes) == 1 else [{"at": x} for x in hexes]   # 9.86
                counter = [u for u in stack if u.kind == "cavalry" and u.id in cg.may_counter][:1]
                cands += [{"type": "counter_charge", "side": u.side, "unit": u.id, **aim}
                          for u in counter for aim in aims]
            cands += [{"type": "recall", "side": act.side, "unit": u} for u in c.attackers_of(i, board)
                      if u not in cg.recall_tried and (u in cg.rf_disordered or any(x.square for x in stack))]
        elif i not in cg.vs_infantry and stack[0].kind == "cavalry" and not stack[0].disordered:
            cands.append({"type": "counter_charge", "side": stack[0].side, "unit": stack[0].id})
    return accepted(state, cands)
