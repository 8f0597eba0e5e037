"""MP-RALLY: the mandatory change of a wing's orders to Rally, tested at the start of its activation."""
from __future__ import annotations

from typing import Any, Mapping

from .profile import Profile
from .state import BROKEN, SHAKEN, UnitState

OUT_OF_PLAY = ("eliminated", "off_map")


def spent(unit: UnitState, options: Mapping[str, Any]) -> bool:
    """Eliminated, off the map, Broken, shaken or morale-broken.  A-M1: "shaken" is read as the Shaken
    formation (option ``mp_rally_shaken: formation``); ``mp_rally_shaken: ignore`` leaves Shaken units out."""
    if unit.box in OUT_OF_PLAY or unit.morale_broken or unit.formation == BROKEN:
        return True
    return unit.formation == SHAKEN and options.get("mp_rally_shaken", "formation") == "formation"


def rally_forced(roster: list[tuple[Profile, UnitState]], options: Mapping[str, Any]) -> bool:
    """Whether MP-RALLY puts the wing under Rally now.

    Only cavalry and heavy infantry are looked at (light infantry, artillery and wagons are not).  A wing
    with a reinforcement still to enter is exempt.  A wing that never had cavalry or heavy infantry is not
    forced: the rule speaks of the wing's combat arms being spent, not of their absence.
    """
    if any(u.box == "reinforcement" for _, u in roster):
        return False
    counted = [u for p, u in roster if p.counts_for_rally]
    return bool(counted) and all(spent(u, options) for u in counted)
