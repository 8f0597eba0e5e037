"""Retreat before shock, 9.31 and 9.32 (gaps digest §6; DESIGN §5 event ``fall_back``).

* Who: Good-Order cavalry or horse artillery shocked **by infantry** only; light cavalry (cossacks included) or
  horse artillery shocked or charged **only by heavy cavalry**, even when Disordered.  Declared before the
  attacker's Commitment roll; no roll — except light cavalry / horse artillery falling back from *charging*
  heavy cavalry, which rolls d10 > cohesion → Disordered (already Disordered → Withdrawal).
* Where: one or two hexes, each enterable by the unit (MP ignored, prohibited terrain and On Fire hexes not
  [inferred]), never into the ZOC of another enemy unit, never *through* the ZOC of the units it falls back
  from; stacking limits apply at the end [inferred].  The attacker may then advance (9.72, optional).
* 9.32: skirmishers (the digest's "jaegers", flag ``skirmisher``), stacked or not, may fall back **one** hex
  before an infantry shock, if not Disordered (9.61); same ZOC limits, no roll.  *Borodino*'s Russian jäger
  regiments (flag ``jaeger``) are ordinary infantry (BOR-JAEGER) and may not.
"""
from __future__ import annotations

from typing import Sequence

from .board import Board, UnitState
from .charge import is_heavy, is_light
from referee.engine.ruling import Error
from .rolls import PassRoll
from .stacking import stacking_errors_entering
from .entering import barrier
from .zoc import zoc_sources

__all__ = ["is_horse_artillery", "is_skirmisher", "may_fall_back", "fall_back_errors", "fall_back_check_needed",
           "fall_back_roll"]

MAX_FALL_BACK = 2
MAX_SKIRMISHER_FALL_BACK = 1       # 9.32


def is_skirmisher(u: UnitState) -> bool:
    """11.0 skirmishers — the digest's "jaegers" (flag ``skirmisher``; Borodino's ``jaeger`` regiments are not)."""
    return u.kind == "infantry" and "skirmisher" in u.flags


def is_horse_artillery(u: UnitState) -> bool:
    """Artillery with MA 8 (main digest glossary)."""
    return u.kind == "artillery" and getattr(u.defn, "horse_artillery", False)


def may_fall_back(defender: UnitState, attackers: Sequence[UnitState]) -> bool:
    """9.31: may ``defender`` retreat before the shock of ``attackers``?"""
    if not attackers:
        return False
    mobile = defender.kind == "cavalry" or is_horse_artillery(defender) or is_skirmisher(defender)   # 9.31, 9.32
    if mobile and not defender.disordered and all(a.kind == "infantry" for a in attackers):
        return True
    light = is_light(defender) or is_horse_artillery(defender)
    return light and all(is_heavy(a) for a in attackers)


def fall_back_check_needed(defender: UnitState, attackers: Sequence[UnitState], charging: bool) -> bool:
    """9.31: light cavalry / horse artillery falling back from *charging* heavy cavalry rolls for Disorder."""
    return charging and (is_light(defender) or is_horse_artillery(defender)) and all(is_heavy(a) for a in attackers)


def fall_back_roll(unit: UnitState) -> PassRoll:
    """9.31: d10 > cohesion → Disordered."""
    return PassRoll("cohesion_check", unit.value("cohesion") or 0, "9.31", f"cohesion of {unit.defn.name}", (), unit.id)


def fall_back_errors(board: Board, unit: UnitState, path: Sequence[str], attackers: Sequence[UnitState]) -> list[Error]:
    """9.31: is falling back along ``path`` (one or two hexes) from ``attackers`` legal?"""
    name = unit.defn.name
    if not may_fall_back(unit, attackers):
        return [Error("9.31", "may_not_fall_back", f"{name} may not retreat before this shock")]
    if is_skirmisher(unit) and len(path) > MAX_SKIRMISHER_FALL_BACK:
        return [Error("9.32", "fall_back_distance", "skirmishers fall back one hex before a shock")]
    if unit.hex is None or not 1 <= len(path) <= MAX_FALL_BACK:
        return [Error("9.31", "fall_back_distance", "a retreat before shock is one or two hexes")]
    if len({unit.hex, *path}) != len(path) + 1:
        return [Error("9.31", "fall_back_path", f"{name} falls back away from its hex, not back into it")]
    errors: list[Error] = []
    route = (unit.hex, *path)
    shockers = {a.id for a in attackers}
    for i, (a, b) in enumerate(zip(route, route[1:])):
        if not board.grid.adjacent(a, b):
            return errors + [Error("9.31", "fall_back_path", f"{b} is not next to {a}")]
        if barrier(board, (unit,), a, b) is not None:
            errors.append(Error("9.31", "fall_back_blocked", f"{name} may not enter {b}"))
            continue
        sources = zoc_sources(board, b, unit.side)
        if any(s.id not in shockers for s in sources):
            errors.append(Error("9.31", "fall_back_other_zoc", f"{b} is in the ZOC of another enemy unit"))
        elif i < len(path) - 1 and sources:
            errors.append(Error("9.31", "fall_back_through_zoc", f"{name} may not pass through {b}, in the attackers' ZOC"))
    return errors + stacking_errors_entering(board, unit, path[-1])
