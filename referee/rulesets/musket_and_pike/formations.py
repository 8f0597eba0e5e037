"""6.3.1-6.3.4 Formations: their effects on movement, how hits change them, and Hedgehog entry.

Pure functions of a unit's profile and state; the event handlers (``moving``, ``reforming``, ``combat``) apply what they return.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .profile import Arm, Profile
from .state import BROKEN, COLUMN, HEDGEHOG, NORMAL, OPEN, SHAKEN, UnitState

HEDGEHOG_MP = 4                                  # 6.3.2b: forming Hedgehog in its own activation
HIT_SOURCES = ("movement", "fire", "bombardment", "melee", "advance")
COLUMN_ATTACKS = ("artillery", "musket", "pistol", "melee")   # 6.3.4: what breaks a column


def movement_allowance(profile: Profile, unit: UnitState, options: Mapping[str, Any]) -> int:
    """6.3.1 / 6.3.2a / 6.3.4: the MA in force for the unit's formation.

    Shaken halves the MA (A-M8: rounding down by default, option ``shaken_ma_rounding: up``); Broken and
    Hedgehog (no voluntary movement) have 0; Column adds 2; Normal and Open Order keep the printed MA.
    """
    ma = profile.ma
    f = unit.formation
    if f == SHAKEN:
        return (ma + 1) // 2 if options.get("shaken_ma_rounding", "down") == "up" else ma // 2
    if f in (BROKEN, HEDGEHOG):
        return 0
    if f == COLUMN:
        return ma + 2
    return ma


def allowance_rule(unit: UnitState) -> str | None:
    """The rule that makes the unit's allowance differ from its printed MA, if one does: 6.3.4 (Column, +2),
    6.3.1 (Shaken halves it, Broken has none) or 6.3.2 (Hedgehog, no voluntary movement)."""
    return {COLUMN: "6.3.4", SHAKEN: "6.3.1", BROKEN: "6.3.1", HEDGEHOG: "6.3.2"}.get(unit.formation)


@dataclass(frozen=True)
class HitOutcome:
    formation: str | None
    effect: str                   # shaken | broken | ignored | loss_hit
    rule: str
    morale_check: bool = False


def formation_hit(formation: str | None, source: str) -> HitOutcome:
    """What one formation hit from ``source`` does (6.3.1, 6.3.2e, 6.3.3, 6.3.4)."""
    if formation is None:
        return HitOutcome(None, "ignored", "6.3.1")          # no formation: artillery, wagons, morale-broken
    if formation == HEDGEHOG:
        if source in ("fire", "bombardment"):
            return HitOutcome(HEDGEHOG, "loss_hit", "6.3.2")  # 6.3.2e: fire hits are taken as losses
        return HitOutcome(HEDGEHOG, "ignored", "6.3.2")       # 6.3.2e: melee and advance hits are ignored
    if formation in (OPEN, COLUMN):
        if source == "movement":
            return HitOutcome(formation, "ignored", "6.3.3" if formation == OPEN else "6.3.4")
        if formation == OPEN:
            return HitOutcome(BROKEN, "broken", "6.3.3")      # Broken at once, marker removed
        return HitOutcome(BROKEN, "broken", "6.3.4", morale_check=True)
    if formation == NORMAL:
        return HitOutcome(SHAKEN, "shaken", "6.3.1")
    if formation == SHAKEN:
        return HitOutcome(BROKEN, "broken", "6.3.1")
    return HitOutcome(BROKEN, "ignored", "6.3.1")             # Broken ignores further hits (10.6.6 aside)


def hedgehog_entry_error(profile: Profile, unit: UnitState, reaction: bool) -> tuple[str, str] | None:
    """6.3.2b: (code, message) when the unit may not form Hedgehog this way, else None."""
    if profile.arm is not Arm.HEAVY or not profile.pikes:
        return ("hedgehog_needs_pikes", "only pike-armed heavy infantry may form Hedgehog")
    f = unit.formation
    if unit.morale_broken or f is None:
        return ("hedgehog_morale_broken", "a morale-broken unit may not form Hedgehog")
    if f == HEDGEHOG:
        return ("already_hedgehog", "the unit is already in Hedgehog")
    if f == BROKEN:
        return ("hedgehog_from_broken", "a Broken unit may not form Hedgehog")
    if reaction:
        if f == COLUMN:
            # 6.3.4: a column performs no reaction of any kind.
            return ("column_no_reaction", "a unit in Column may not form Hedgehog as a reaction move")
        return None                                            # Normal, Open Order or Shaken
    if f == SHAKEN:
        return ("hedgehog_shaken_only_reaction", "a Shaken unit may form Hedgehog only as a reaction move")
    return None                                                # Normal, Open Order, Column
