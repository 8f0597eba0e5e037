"""Retreat before shock and the secondary shocks as events (9.31, 9.72–9.73; DESIGN §5 ``fall_back``,
``breakthrough``, ``counter_shock``).  The pure rules are fall_back.py's and advance.py's; this module opens and
closes the chances the shock results give, and the few hooks shock_events.py / owed.py call.

* ``fall_back`` {side, unit, to: hex or [1–2 hexes], roll?} — the defender, after the ``assaults`` declaration and
  before the first Assault Probability Check of the activation (9.1 step 2): a unit in a declared target hex that
  9.31 lets go retreats 1–2 hexes, keeping its facing [inferred].  Each unit falls back by its own event (the
  units of a stack may go different ways).  Light cavalry / horse artillery falling back from *charging* heavy
  cavalry rolls d10 > cohesion → Disordered (already Disordered → Withdrawal), after the move.  When the hex is
  empty, the attacker **may** advance into it (9.72, ``optional_advances``) by an ordinary ``advance`` event, until
  the first APC of the activation (engine choice: the window of 9.1 step 2 for every assault, not only until the
  APC of the assault the hex belonged to).  Units that advance take no further part in the declared assaults
  [inferred: the advance replaces their shock].  An assault with no enemy left in its targets (or no attacker)
  needs no APC: ``commit_owed`` is recounted after each fall-back and advance.
* ``breakthrough`` {side, units, target: [hexes]} — infantry that advanced (9.71) into a hex a result ≥ 10 emptied,
  **without re-facing** (the ``advance`` event's optional ``facing`` is how a player re-faces: an advance that
  re-faced gives up the breakthrough), may shock again: no APC, every enemy hex in its front and only those.
  The chance stays open until the activation ends.  It appends ``Assault(kind="breakthrough")``, resolved by
  ``shock`` (its index in the activation's assaults); reaction fire (8.6) may answer it.
* ``counter_shock`` {side, units, to?, target: [hexes]} — after a result < 0 the defenders of that hex (not
  Disordered) may move one hex without turning (MP ignored, prohibited terrain not, stacking counted), then shock
  every enemy hex in their front (9.22) with no APC.  The chance closes when any other shock is resolved (the
  attacker moves on) or the activation ends.  It appends ``Assault(kind="counter_shock", side=<defender>)``;
  the defender's ``shock`` resolves it, before any other pending shock; the other side's artillery in the
  shocked hexes may make reaction fire (8.6).  The move reports ``advanced`` (rule 9.73); it never Disorders by
  terrain [inferred: 9.71's terrain Disorder is for advances into the vacated hex].
* 9.73: each unit makes at most one secondary shock (breakthrough or counter-shock) per phase:
  ``TGState.secondary_used`` for the phase ``secondary_phase`` names (turn, phase, Schevardino side turn).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Awaiting, Error, Result, Ruling, legal
from referee.engine.verbs import check

from . import advance as adv
from . import fall_back as fb
from .board import Board, UnitState
from .combat import Assault, Combat, OwedAdvance, apply_effects, engine_roll
from .disorder import Effect, disorder_effect
from .facing import facing_error
from .shock import ShockOutcome, frontal_enemy_hexes
from .state import ACTIVATION, RESERVE, SIDE_TURN, TGState
from .timing import activation_of
from .verbs import VERBS, accepted

__all__ = ["secondary_used", "fall_back", "optional_advance", "breakthrough", "counter_shock",
           "after_advance", "shock_begins", "note_outcome", "assault_side", "acting_side", "shock_order_errors",
           "secondary_actions", "shock_actions"]

SECONDARY = ("breakthrough", "counter_shock")


def _errs(errors: Any) -> list[Error]:
    return list(errors)


# --------------------------------------------------------------------------------------------- 9.73 once a phase

def _phase_key(state: TGState) -> tuple[object, ...]:
    return (state.turn, state.phase, state.side_turn)


def secondary_used(state: TGState) -> frozenset[str]:
    """9.73: the units that have made their secondary shock in this phase."""
    return state.secondary_used if state.secondary_phase == _phase_key(state) else frozenset()


def _use_secondary(state: TGState, ids: Sequence[str]) -> TGState:
    return replace(state, secondary_used=secondary_used(state) | set(ids), secondary_phase=_phase_key(state))


def _combat_error(state: TGState, rule: str) -> Error | None:
    act = state.activation
    if state.phase not in (ACTIVATION, RESERVE, SIDE_TURN) or act is None or act.side is None:
        return Error(rule, "no_activation", "shock happens during an activation")
    if act.combat.owes:
        return Error("9.6", "acts_owed", "the owed checks, retreats and advances come first")
    return None


def _units(board: Board, ids: Sequence[str]) -> list[UnitState]:
    return [board.units[u] for u in ids if u in board.units]


def _unknown(board: Board, ids: Sequence[str], rule: str) -> list[Error]:
    return [Error(rule, "unknown_unit", f"no unit {u}") for u in ids if u not in board.units]


def _maker(c: Combat, i: int, active: str) -> str:
    return c.assaults[i].side or active


# --------------------------------------------------------------------------------------------- 9.31 fall back

def _assaults_on(c: Combat, hex_: str | None) -> list[Assault]:
    """The declared assaults whose targets include ``hex_`` (one per shock group, 9.23)."""
    return [a for a in c.assaults if a.kind == "declared" and hex_ in a.targets]


def _shockers(board: Board, assaults: Sequence[Assault]) -> list[UnitState]:
    """Every unit on the map declared against the hex: 9.31 judges the whole shock (infantry *only*, heavy
    cavalry *only*)."""
    return [x for a in assaults for x in _units(board, a.attackers) if x.hex is not None]


def _recount_commitments(board: Board, c: Combat) -> Combat:
    """9.41: the APCs still owed are those of the attacking hexes of assaults that still have an attacker and an
    enemy in a target (a retreat before shock or an advance can leave an assault with nothing to do)."""
    tops: list[str] = []
    for a in c.assaults:
        if a.kind != "declared" or not a.attackers:
            continue
        side = board.units[a.attackers[0]].side
        if not any(board.has_enemy(h, side) for h in a.targets):
            continue
        for u in a.attackers:
            h = board.units[u].hex
            top = board.top(h) if h is not None and h not in c.committed else None
            if top is not None and top.id not in tops:
                tops.append(top.id)
    keep = tuple(u for u in c.commit_owed if u in tops) + tuple(u for u in tops if u not in c.commit_owed)
    return replace(c, commit_owed=keep)


def _commit_waits(c: Combat, side: str) -> list[Awaiting]:
    return [Awaiting("commitment", side, "9.41", u) for u in c.commit_owed]


def fall_back_errors(state: TGState, side: str, uid: str, path: Sequence[str]) -> list[Error]:
    err = _combat_error(state, "9.31")
    if err:
        return [err]
    act = activation_of(state)
    c, board = act.combat, state.board
    if side == act.side:
        return [Error("9.31", "defender_only", "a retreat before shock is the defender's")]
    if not c.declared:
        return [Error("9.31", "no_assault", "a retreat before shock answers a declared assault")]
    if c.committed:
        return [Error("9.31", "after_commitment",
                      "a retreat before shock is announced before the attacker's first Assault Probability Check")]
    if uid not in board.units:
        return [Error("9.31", "unknown_unit", f"no unit {uid}")]
    u = board.units[uid]
    if u.side != side:
        return [Error("9.31", "not_your_unit", f"{uid} is {u.side}'s")]
    assaults = _assaults_on(c, u.hex)
    if not assaults:
        return [Error("9.31", "not_attacked", f"{u.defn.name} is not in a hex a declared assault targets")]
    return _errs(fb.fall_back_errors(board, u, list(path), _shockers(board, assaults)))


@VERBS.verb("fall_back", rules=("9.31",),
             refs={"side": "side", "unit": "unit", "to": "hex?"}, actor=False)
def fall_back(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.31: a unit about to be shocked retreats before the shock (checking first where 9.31 asks it); the
    attackers may then advance into the hex it left (9.72)."""
    side, uid, to = event["side"], event["unit"], event["to"]
    path = [to] if isinstance(to, str) else list(to)
    check(fall_back_errors(state, side, uid, path))
    act = state.activation
    assert act is not None and act.side is not None
    c, board = act.combat, state.board
    u = board.units[uid]
    assaults = _assaults_on(c, u.hex)
    attackers, charging = _shockers(board, assaults), any(a.charge for a in assaults)
    rolls = []
    if fb.fall_back_check_needed(u, attackers, charging):
        natural = need(dice, "roll", engine_roll(fb.fall_back_roll(u), None, side), ("9.31",), purpose="cohesion_check")
        rolls = [engine_roll(fb.fall_back_roll(u), natural, side)]
    left = u.hex
    assert left is not None
    board, results = fallen_back(board, uid, path[-1], disordered=bool(rolls) and not rolls[0].passed)
    c = replace(c, no_advance=c.no_advance | {left})
    c, rules = open_advance(board, c, left, attackers, charging, act.side)
    c = _recount_commitments(board, c)
    new = replace(state, board=board, activation=replace(act, combat=c))
    return legal("fall_back", rules, rolls=rolls, results=results, awaiting=_commit_waits(c, act.side)), new


def fallen_back(board: Board, uid: str, to: str, disordered: bool) -> tuple[Board, list[Result]]:
    """9.31: the unit retreats into ``to``, Disordered if it failed its check."""
    board, results = apply_effects(board, [Effect(uid, "retreated", "9.31", to=to)])
    if disordered:
        board, more = apply_effects(board, [disorder_effect(board.units[uid], board.rules, "9.31")])
        results += more
    return board, results


def open_advance(board: Board, c: Combat, left: str, attackers: list[UnitState], charging: bool, side: str
                 ) -> tuple[Combat, list[str]]:
    """9.72: the hex a retreat before shock left empty may be entered by the attackers (an optional advance)."""
    if board.stack(left):
        return c, ["9.31"]
    rule = adv.advance_rule(board, left, attackers, charging=charging, after_retreat_before_shock=True)
    if not rule.hexes:
        return c, ["9.31"]
    ids = tuple(x.id for x in attackers)
    return replace(c, optional_advances=c.optional_advances + (OwedAdvance(left, rule.hexes, ids, side),)), \
        ["9.31", "9.72"]


def optional_advance(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """9.72: after a retreat before shock the attacker may advance into the vacated hex (owed.advance hands
    such an ``advance`` here)."""
    act = state.activation
    assert act is not None and act.side is not None
    c, board = act.combat, state.board
    to, side = event["to"], event["side"]
    a = next(x for x in c.optional_advances if x.into == to)
    ids = list(event["units"])
    facing = event.get("facing")
    errors: list[Error] = []
    if side != a.side:
        errors.append(Error("9.72", "not_your_advance", f"the advance is {a.side}'s"))
    elif c.committed:
        errors.append(Error("9.72", "advance_window_closed",
                            "the advance after a retreat before shock comes before the first Assault Probability Check"))
    elif c.owes:
        errors.append(Error("9.6", "acts_owed", "the owed checks, retreats and advances come first"))
    else:
        errors += _unknown(board, ids, "9.72")
        if not errors:
            units = _units(board, ids)
            errors += _errs(adv.advance_errors(board, adv.AdvanceRule(a.into, a.hexes, False), units, to))
            errors += [Error("9.72", "not_an_attacker", f"{u.id} did not take part in the assault")
                       for u in units if u.id not in a.attackers]
            if facing is not None and (fe := facing_error(board, facing)) is not None:
                errors += _errs([fe])
    check(errors)
    units = _units(board, ids)
    board, results = apply_effects(board, adv.advance_effects(board, units, to))
    if facing is not None:
        board = board.update_many({u: {"facing": facing} for u in ids})
    gone = set(ids)
    c = replace(c, optional_advances=tuple(x for x in c.optional_advances if x is not a),
                no_advance=c.no_advance | {to},
                assaults=tuple(replace(x, attackers=tuple(u for u in x.attackers if u not in gone))
                               if x.kind == "declared" else x for x in c.assaults))
    c = _recount_commitments(board, c)
    new = replace(state, board=board, activation=replace(act, combat=c))
    return legal("advance", ["9.72", "9.71"], results=results, awaiting=_commit_waits(c, act.side)), new


def after_advance(board: Board, c: Combat, ids: Sequence[str], to: str, facing: int | None) -> tuple[Board, Combat]:
    """A 9.71 advance into ``to`` is done (owed.advance): the units re-face if ``facing`` says so, no advance
    opens into ``to`` again, and infantry that kept its facing into a hex a result ≥ 10 emptied may break
    through (9.73)."""
    turned = facing is not None and any(board.units[u].facing != facing for u in ids)
    if turned:
        board = board.update_many({u: {"facing": facing} for u in ids})
    c = replace(c, no_advance=c.no_advance | {to})
    if to in c.breakthrough_hexes and not turned:
        ready = {u for u in ids if board.units[u].kind == "infantry"}
        c = replace(c, breakthrough_ready=c.breakthrough_ready | ready)
    return board, c


# --------------------------------------------------------------------------------------------- shock hooks

def shock_begins(c: Combat, i: int) -> Combat:
    """A shock other than a counter-shock closes the counter-shock chances (9.73: resolved before any other
    pending shock, so the attacker moving on means the defender let it go)."""
    if c.counter_shock_open and c.assaults[i].kind != "counter_shock":
        return replace(c, counter_shock_open=frozenset())
    return c


def note_outcome(c: Combat, before: Board, hex_: str, out: ShockOutcome) -> Combat:
    """9.73: a result ≥ 10 by infantry opens a breakthrough through ``hex_`` (for whoever advances into it);
    a result < 0 lets the defenders of ``hex_`` counter-shock."""
    if out.breakthrough:
        c = replace(c, breakthrough_hexes=c.breakthrough_hexes | {hex_})
    if out.counter_shock:
        ids = {u.id for u in before.stack(hex_) if u.kind != "artillery"}
        c = replace(c, counter_shock_open=c.counter_shock_open | ids)
    return c


def assault_side(state: TGState, i: int) -> str | None:
    """The side making assault ``i`` when it is not the active side (a counter-shock is the defender's)."""
    act = state.activation
    if act is None or not 0 <= i < len(act.combat.assaults):
        return None
    return act.combat.assaults[i].side


def acting_side(state: TGState, side: str, i: int) -> str:
    """For the activation check of a ``shock``: the defender making its counter-shock acts in the attacker's
    activation."""
    maker = assault_side(state, i)
    act = state.activation
    return act.side if maker is not None and side == maker and act is not None and act.side else side


def _pending_counter_shocks(c: Combat, board: Board, active: str) -> list[int]:
    return [i for i in c.shocks_left(board, active) if c.assaults[i].kind == "counter_shock"]


def shock_order_errors(state: TGState, side: str, i: int) -> list[Error]:
    """9.73: who resolves assault ``i``, and a pending counter-shock first."""
    act = state.activation
    assert act is not None and act.side is not None
    c = act.combat
    maker = _maker(c, i, act.side)
    if side != maker:
        return [Error("9.73" if c.assaults[i].side else "9.5", "not_your_assault", f"assault {i + 1} is {maker}'s")]
    if c.assaults[i].kind in SECONDARY and not c.attackers_of(i, state.board):
        return [Error("9.24", "secondary_cancelled", f"assault {i + 1}'s units were Disordered since (reaction fire, "
                      "8.6): they no longer shock")]
    pending = _pending_counter_shocks(c, state.board, act.side)
    if pending and i not in pending:
        return [Error("9.73", "counter_shock_first", "the counter-shock is resolved before any other pending shock",
                      tuple(pending))]
    return []


# --------------------------------------------------------------------------------------------- 9.73 breakthrough

def breakthrough_errors(state: TGState, side: str, ids: Sequence[str], targets: Sequence[str]) -> list[Error]:
    err = _combat_error(state, "9.73")
    if err:
        return [err]
    act = state.activation
    assert act is not None and act.side is not None
    c, board = act.combat, state.board
    if not ids:
        return [Error("9.73", "no_attackers", "name the units that break through")]
    errors = _unknown(board, ids, "9.73")
    if errors:
        return errors
    units = _units(board, ids)
    errors += [Error("9.73", "not_your_unit", f"{u.id} is {u.side}'s") for u in units if u.side != side]
    if _pending_counter_shocks(c, board, act.side):
        errors.append(Error("9.73", "counter_shock_first", "the counter-shock is resolved before any other pending shock"))
    not_ready = [u for u in units if u.id not in c.breakthrough_ready]
    errors += [Error("9.73", "no_breakthrough",
                     f"{u.defn.name} did not advance, without re-facing, into a hex a result of 10 or more emptied",
                     tuple(sorted(c.breakthrough_ready))) for u in not_ready]
    if len({u.hex for u in units}) > 1:
        errors.append(Error("9.73", "breakthrough_one_hex", "the units breaking through together are in one hex"))
    if not targets:
        errors.append(Error("9.44", "no_targets", "a breakthrough needs at least one target hex"))
    if errors:
        return errors
    used = secondary_used(state)
    for u in units:
        for e in _errs(adv.breakthrough_errors(board, u, targets, used)):
            if e not in errors:
                errors.append(e)
    return errors


@VERBS.verb("breakthrough", rules=("9.73",),
             refs={"side": "side", "units": "units", "target": "hex?"}, actor=False)
def breakthrough(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, ids = event["side"], list(event["units"])
    targets = [event["target"]] if isinstance(event["target"], str) else list(event["target"])
    errors = breakthrough_errors(state, side, ids, targets)
    check(errors)
    act = activation_of(state)
    c = act.combat
    assault = Assault(tuple(ids), tuple(targets), kind="breakthrough", side=None if side == act.side else side)
    c = replace(c, assaults=c.assaults + (assault,), breakthrough_ready=c.breakthrough_ready - set(ids))
    new = _use_secondary(replace(state, activation=replace(act, combat=c)), ids)
    return legal("breakthrough", ["9.73"], awaiting=[Awaiting("shock", side, "9.5")]), new


# --------------------------------------------------------------------------------------------- 9.73 counter-shock

def counter_shock_errors(state: TGState, side: str, ids: Sequence[str], to: str | None, targets: Sequence[str],
                         facing: int | None = None) -> tuple[list[Error], Board]:
    """Every reason the counter-shock is illegal, and the board after its one-hex move (to judge the front)."""
    board = state.board
    err = _combat_error(state, "9.73")
    if err:
        return [err], board
    act = state.activation
    assert act is not None and act.side is not None
    c = act.combat
    if not ids:
        return [Error("9.73", "no_attackers", "name the units that counter-shock")], board
    errors = _unknown(board, ids, "9.73")
    if errors:
        return errors, board
    units = _units(board, ids)
    errors += [Error("9.73", "not_your_unit", f"{u.id} is {u.side}'s") for u in units if u.side != side]
    errors += [Error("9.73", "no_counter_shock", f"{u.defn.name} may not counter-shock: no result below 0 against it "
                     "is open", tuple(sorted(c.counter_shock_open))) for u in units if u.id not in c.counter_shock_open]
    if len({u.hex for u in units}) > 1:
        errors.append(Error("9.73", "counter_shock_one_hex", "the units counter-shocking together are in one hex"))
    if len({u.kind for u in units if u.kind != "artillery"}) > 1:
        errors.append(Error("9.23", "mixed_groups", "infantry and cavalry shock separately"))
    if not targets:
        errors.append(Error("9.44", "no_targets", "a counter-shock needs at least one target hex"))
    if errors:
        return errors, board
    used = secondary_used(state)
    for u in units:
        others = [x for x in units if x.id != u.id]
        errors += _errs(adv.counter_shock_move_errors(board, u, to, facing, used, others))
    if errors:
        return errors, board
    after = board
    if to is not None:
        for u in units:
            after = after.place(u.id, to)
    for u in units:
        for e in _errs(adv.secondary_shock_errors(after, after.units[u.id], targets)):
            if e not in errors:
                errors.append(e)
    return errors, after


@VERBS.verb("counter_shock", rules=("9.73",),
             refs={"side": "side", "units": "units", "to": "hex?", "target": "hex?"}, actor=False)
def counter_shock(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, ids, to = event["side"], list(event["units"]), event.get("to")
    targets = [event["target"]] if isinstance(event["target"], str) else list(event["target"])
    errors, _after = counter_shock_errors(state, side, ids, to, targets, event.get("facing"))
    check(errors)
    act = activation_of(state)
    c, board = act.combat, state.board
    results: list[Result] = []
    if to is not None:
        left = board.units[ids[0]].hex
        board, results = apply_effects(board, [Effect(u, "advanced", "9.73", to=to) for u in ids])
        c = replace(c, no_advance=c.no_advance | {left})
    assault = Assault(tuple(ids), tuple(targets), kind="counter_shock", side=side)
    c = replace(c, assaults=c.assaults + (assault,), counter_shock_open=c.counter_shock_open - set(ids))
    new = _use_secondary(replace(state, board=board, activation=replace(act, combat=c)), ids)
    return legal("counter_shock", ["9.73"], results=results, awaiting=[Awaiting("shock", side, "9.5")]), new


# --------------------------------------------------------------------------------------------- legal actions

MAX_FALL_BACKS = 6


def _ok(state: TGState, rule: Any, events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return accepted(state, events, rule)


def fall_back_actions(state: TGState) -> list[dict[str, Any]]:
    """9.31: every unit that may fall back, to each hex next to it and a few two-hex routes."""
    act = activation_of(state)
    c, board = act.combat, state.board
    if not c.declared or c.committed or c.owes:
        return []
    out: list[dict[str, Any]] = []
    for h in dict.fromkeys(h for a in c.assaults if a.kind == "declared" for h in a.targets):
        attackers = _shockers(board, _assaults_on(c, h))
        for u in board.stack(h):
            if not fb.may_fall_back(u, attackers):
                continue
            found: list[dict[str, Any]] = []
            for n in board.neighbours(h):
                if len(found) >= MAX_FALL_BACKS:
                    break
                if fb.fall_back_errors(board, u, [n], attackers):
                    continue
                found.append({"type": "fall_back", "side": u.side, "unit": u.id, "to": n})
                two = next((m for m in board.neighbours(n)
                            if m != h and not fb.fall_back_errors(board, u, [n, m], attackers)), None)
                if two is not None:
                    found.append({"type": "fall_back", "side": u.side, "unit": u.id, "to": [n, two]})
            out += _ok(state, fall_back, found)
    return out


def optional_advance_actions(state: TGState) -> list[dict[str, Any]]:
    act = activation_of(state)
    c, board = act.combat, state.board
    if c.committed or c.owes:
        return []
    out = []
    for a in c.optional_advances:
        for h in a.hexes:
            units = [u.id for u in board.stack(h) if u.id in a.attackers and u.kind != "artillery"]
            if units:
                out += _ok(state, optional_advance, [{"type": "advance", "side": a.side, "units": units, "to": a.into}])
    return out


def breakthrough_actions(state: TGState) -> list[dict[str, Any]]:
    act = activation_of(state)
    c, board = act.combat, state.board
    if not c.breakthrough_ready or c.owes:
        return []
    by_hex: dict[str, list[UnitState]] = {}
    for uid in sorted(c.breakthrough_ready):
        u = board.units[uid]
        if u.hex is not None:
            by_hex.setdefault(u.hex, []).append(u)
    out = []
    for us in by_hex.values():
        front = frontal_enemy_hexes(board, us[0])
        if front:
            out += _ok(state, breakthrough, [{"type": "breakthrough", "side": us[0].side,
                                                   "units": [u.id for u in us], "target": list(front)}])
    return out


def counter_shock_actions(state: TGState) -> list[dict[str, Any]]:
    act = activation_of(state)
    c, board = act.combat, state.board
    if not c.counter_shock_open or c.owes:
        return []
    groups: dict[tuple[str, str], list[str]] = {}
    for uid in sorted(c.counter_shock_open):
        u = board.units[uid]
        if u.hex is not None and u.kind != "artillery" and not u.disordered:
            groups.setdefault((u.hex, u.kind), []).append(uid)
    out = []
    for (h, _kind), ids in groups.items():
        side = board.units[ids[0]].side
        for to in (None, *board.neighbours(h)):
            after = board
            if to is not None:
                if board.stack(to) and board.side_at(to) != side:
                    continue
                for u in ids:
                    after = after.place(u, to)
            front = frontal_enemy_hexes(after, after.units[ids[0]])
            if front:
                e = {"type": "counter_shock", "side": side, "units": ids, "target": list(front),
                     **({"to": to} if to is not None else {})}
                out += _ok(state, counter_shock, [e])
    return out


def secondary_actions(state: TGState) -> list[dict[str, Any]]:
    """The optional acts this module rules, when they are open: fall-backs and the advances they allow (before
    the first APC), breakthroughs, counter-shocks."""
    return (fall_back_actions(state) + optional_advance_actions(state) + breakthrough_actions(state)
            + counter_shock_actions(state))


def shock_actions(state: TGState) -> list[dict[str, Any]]:
    """The ``shock`` events legal now: each open assault by the side making it, a pending counter-shock first."""
    act = state.activation
    assert act is not None and act.side is not None
    c, board = act.combat, state.board
    left = c.shocks_left(board, act.side)
    pending = [i for i in left if c.assaults[i].kind == "counter_shock"]
    return [{"type": "shock", "side": _maker(c, i, act.side), "assault": i} for i in (pending or left)]


def shock_label(a: Assault) -> str:
    """How the text report names the shock resolving ``a``."""
    return {"breakthrough": "breakthrough", "counter_shock": "counter-shock"}.get(a.kind, "shock")
