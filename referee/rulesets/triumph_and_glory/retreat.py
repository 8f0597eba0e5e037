"""Retreat after shock or fire: the retreat cohesion check (9.62), where a retreat may go ([9.63]–9.65) and what
happens to units that cannot (9.63, 9.66).  Main digest §8.3, gaps §5 (8.5) and §8.

* 9.62 a unit Disordered by a result checks: d10 > cohesion → it retreats **one hex**, keeping its facing;
  ≤ → it stays, Disordered.  Cohesion of the face now up (A-5: the counter is flipped before the roll).  One
  check per hex, by its top infantry/cavalry unit, for every unit of the hex (A-4); artillery stacked with
  retreating units retreats with them (9.25).
* A-10 "away from the unit that caused it": the new hex must be farther from **every** attacking (or firing)
  hex than the old one (``RetreatOptions.away_from_every``; False = farther from at least one, nearer none).
  No such hex → the retreat is blocked → destroyed.
* [9.63] a hex with an enemy combat unit, a hex or hexside the unit may not enter (movement table ``P``, an On
  Fire hex BOR-5, a river without an intact bridge; ``entering.barrier``) → **destroyed**; a hex in the **front
  of an enemy unit** → the unit **routs** (9.66).
* 9.63/9.64 a friendly hex only "when there is no other retreat path" (seed: «за исключением случаев, когда нет
  других путей для Отступления»), stacking limits respected; the retreating units take the facing of the units
  there.  Default (option ``retreat_into_friends: last``, the seed's words): a hex in an enemy front is a path
  — the owner may take it, and the unit routs — so friends are entered only when neither an empty hex nor an
  enemy front hex is open.  Option ``retreat_into_friends: before_rout`` (``RetreatOptions.friends_before_rout``,
  the earlier engine default): a friendly hex is taken before a hex that routs.
* 9.65 if the only way leads into friends where stacking would break, the retreat goes one hex further through
  them; every friendly unit passed through takes a cohesion check (fail → Disordered; already Disordered →
  rout).  Repeated while needed.
* 9.66 Disordered again → Withdrawn Box (rout); artillery → destroyed for good (disorder.py).
"""
from __future__ import annotations

from typing import Literal, Sequence

from modulebuilder.records import record
from .board import Board, UnitState
from .disorder import ELIMINATED, WITHDRAWN, Effect, disorder_effect
from .entering import barrier
from referee.engine.ruling import Error
from .facing import is_front, retreat_facing
from .rolls import PassRoll
from .stacking import stacking_errors

__all__ = ["RetreatOptions", "RetreatStep", "Kind", "retreat_check", "pass_through_check", "retreating_units",
           "retreat_steps", "legal_retreats", "retreat_errors", "retreat_effects", "pass_through_effect"]

Kind = Literal["empty", "friendly", "through", "rout", "destroyed"]
_TIER: dict[str, int] = {"empty": 0, "friendly": 1, "through": 2, "rout": 3, "destroyed": 4}
_MAX_THROUGH = 3        # 9.65 repeats; three friendly hexes in a row is more than any legal position needs


@record(frozen=True, slots=True)
class RetreatOptions:
    """Engine defaults (main digest A-10; see module docstring)."""
    away_from_every: bool = True
    friends_before_rout: bool = False


DEFAULT_OPTIONS = RetreatOptions()
_BEFORE_ROUT = RetreatOptions(friends_before_rout=True)


def options_of(board: Board) -> RetreatOptions:
    """The scenario's reading of 9.63/9.64 (option ``retreat_into_friends``)."""
    return _BEFORE_ROUT if board.rules.retreat_into_friends == "before_rout" else DEFAULT_OPTIONS


@record(frozen=True, slots=True)
class RetreatStep:
    """One way to retreat: ``path`` the hexes entered (one, or more through friends, 9.65), ``kind`` what it
    leads to, ``checks`` the friendly units passed through (9.65), ``facing`` the facing taken (9.62 / 9.64)."""
    path: tuple[str, ...]
    kind: Kind
    checks: tuple[str, ...] = ()
    facing: int | None = None

    @property
    def to(self) -> str | None:
        return self.path[-1] if self.path else None


def retreat_check(unit: UnitState) -> PassRoll:
    """9.62: d10 ≤ cohesion (face now up, A-5) → stays; > → retreats one hex.  No modifiers."""
    return PassRoll("cohesion_check", unit.value("cohesion") or 0, "9.62", f"cohesion of {unit.defn.name}",
                    (), unit.id)


def pass_through_check(unit: UnitState) -> PassRoll:
    """9.65: a friendly unit a retreating unit passes through: d10 > cohesion → Disordered."""
    return PassRoll("cohesion_check", unit.value("cohesion") or 0, "9.65", f"cohesion of {unit.defn.name}",
                    (), unit.id)


def retreating_units(board: Board, hex_id: str) -> tuple[UnitState, ...]:
    """The units that go with a retreat from ``hex_id``: the whole stack, artillery included (9.25)."""
    return board.stack(hex_id)


def _away(board: Board, old: str, new: str, sources: Sequence[str], every: bool) -> bool:
    d = board.grid.distance
    if every:
        return all(d(new, s) > d(old, s) for s in sources)
    return all(d(new, s) >= d(old, s) for s in sources) and any(d(new, s) > d(old, s) for s in sources)


def _in_enemy_front(board: Board, hex_id: str, side: str) -> bool:
    """[9.63]: is ``hex_id`` a front hex of an enemy combat unit?"""
    return any(u.side != side and is_front(board, u, hex_id, "zoc")
               for n in board.neighbours(hex_id) for u in board.stack(n))


def _classify(board: Board, units: Sequence[UnitState], frm: str, to: str, sources: Sequence[str],
              every: bool, depth: int, path: tuple[str, ...], checks: tuple[str, ...]) -> list[RetreatStep]:
    side = units[0].side
    path = path + (to,)
    lead = next((u for u in units if u.kind != "artillery"), units[0])
    if barrier(board, units, frm, to) is not None:      # 9.63: an enemy unit, a prohibited hex or hexside
        return [RetreatStep(path, "destroyed", checks)]
    if _in_enemy_front(board, to, side):
        return [RetreatStep(path, "rout", checks)]
    friends = board.friendly_units_at(to, side)
    if not friends:
        return [RetreatStep(path, "empty", checks, lead.facing)]
    if not stacking_errors(tuple(friends) + tuple(units), board.rules):
        return [RetreatStep(path, "friendly", checks, retreat_facing(board, lead, to))]
    if depth >= _MAX_THROUGH:
        return [RetreatStep(path, "destroyed", checks)]
    through = checks + tuple(u.id for u in friends)
    nxt = [n for n in board.neighbours(to) if n not in path and n != units[0].hex
           and _away(board, to, n, sources, every)]
    out = [s for n in nxt for s in _classify(board, units, to, n, sources, every, depth + 1, path, through)]
    # 9.65: going on through friends is a "through" retreat wherever it ends, unless it ends in disaster.
    return [RetreatStep(s.path, "through", s.checks, s.facing) if s.kind in ("empty", "friendly") else s
            for s in out] or [RetreatStep(path, "destroyed", through)]


def retreat_steps(board: Board, hex_id: str, sources: Sequence[str],
                  options: RetreatOptions | None = None) -> tuple[RetreatStep, ...]:
    """Every way the stack in ``hex_id`` could retreat one hex away from ``sources`` (the attacking or firing
    hexes), classified ([9.63]–9.65).  Empty when no hex lies away from them (the retreat is blocked)."""
    units = retreating_units(board, hex_id)
    if not units:
        return ()
    options = options or options_of(board)
    steps: list[RetreatStep] = []
    for n in board.neighbours(hex_id):
        if _away(board, hex_id, n, sources, options.away_from_every):
            steps += _classify(board, units, hex_id, n, sources, options.away_from_every, 0, (), ())
    return tuple(steps)


def legal_retreats(steps: Sequence[RetreatStep], options: RetreatOptions = DEFAULT_OPTIONS) -> tuple[RetreatStep, ...]:
    """The retreats the owner may choose: those of the best kind available ([9.63], 9.64: an empty hex — or, by
    default, a hex in an enemy front, where the unit routs — before friends, friends before going through them,
    destruction only when nothing else is open; with ``friends_before_rout`` the rout comes after going through
    friends).  A blocked retreat (no step at all) is one forced destruction."""
    if not steps:
        return (RetreatStep((), "destroyed"),)
    tier = dict(_TIER)
    if not options.friends_before_rout:
        tier["rout"] = 0

    def rank(s: RetreatStep) -> int:          # a rout reached through friends (9.65) is no better than "through"
        return max(tier[s.kind], tier["through"]) if len(s.path) > 1 else tier[s.kind]

    best = min(rank(s) for s in steps)
    return tuple(s for s in steps if rank(s) == best)


def retreat_errors(board: Board, hex_id: str, to: str | Sequence[str], sources: Sequence[str],
                   options: RetreatOptions | None = None) -> list[Error]:
    """Is retreating the stack of ``hex_id`` to ``to`` (a hex, or the path through friends) legal?  The error
    lists the allowed hexes, each with what it leads to when that is not a plain retreat."""
    options = options or options_of(board)
    path = (to,) if isinstance(to, str) else tuple(to)
    legal = legal_retreats(retreat_steps(board, hex_id, sources, options), options)
    if any(s.path == path or (len(path) == 1 and s.to == path[0]) for s in legal):
        return []
    alternatives = tuple(dict.fromkeys(s.to for s in legal if s.to))
    kinds = {s.to: s.kind for s in legal if s.to}
    named = [h + {"rout": " (routs, 9.63)", "friendly": " (friends, 9.64)", "through": " (through friends, 9.65)",
                  "destroyed": " (destroyed, 9.63)"}.get(kinds[h], "") for h in alternatives]
    kind = legal[0].kind
    rule = {"empty": "9.63", "friendly": "9.64", "through": "9.65", "rout": "9.63", "destroyed": "9.63"}[kind]
    return [Error(rule, "retreat_not_allowed",
                      f"the units in {hex_id} may not retreat to {'-'.join(path)}; allowed: "
                      f"{', '.join(named) or 'none (destroyed)'}", alternatives)]


def retreat_effects(board: Board, hex_id: str, step: RetreatStep, rule: str = "9.62") -> tuple[Effect, ...]:
    """What ``step`` does to the retreating units: moved (``retreated`` with ``to``), routed (9.63 → 9.66) or
    destroyed ([9.63]; artillery ``destroyed`` for good, others ``eliminated``)."""
    out = []
    for u in retreating_units(board, hex_id):
        if step.kind == "destroyed":
            out.append(Effect(u.id, "destroyed" if u.kind == "artillery" else "eliminated", "9.63", ELIMINATED))
        elif step.kind == "rout":
            out.append(Effect(u.id, "destroyed", "9.66", ELIMINATED) if u.kind == "artillery"
                       else Effect(u.id, "routed", "9.66", WITHDRAWN))
        else:
            out.append(Effect(u.id, "retreated", {"friendly": "9.64", "through": "9.65"}.get(step.kind, rule),
                              to=step.to))
    return tuple(out)


def pass_through_effect(board: Board, unit: UnitState, passed: bool) -> Effect | None:
    """9.65: the result of a passed-through unit's check: nothing, or Disordered (already Disordered: rout)."""
    return None if passed else disorder_effect(unit, board.rules, "9.65")

