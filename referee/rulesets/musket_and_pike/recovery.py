"""[6.4] Formation recovery: reform actions, one step each (with 6.3.2c, 6.3.3 and 6.3.4 for leaving
Hedgehog, Open Order and Column), and the Make Ready restriction of the 6.3.1 example."""
from __future__ import annotations

from collections import deque

from modulebuilder.hexgrid import HexGrid

from .profile import Arm, Profile
from .state import BROKEN, COLUMN, HEDGEHOG, NORMAL, OPEN, SHAKEN


def reform_targets(profile: Profile, formation: str | None) -> tuple[str, ...]:
    """Formations one reform action can reach from ``formation``."""
    if not profile.has_formation or formation is None:
        return ()
    if formation == SHAKEN:
        return (NORMAL,)
    if formation == BROKEN:
        return (SHAKEN,)
    if formation == NORMAL:
        return (OPEN,)                       # 6.3.3 (A-M6: cavalry too)
    if formation == OPEN:
        return (NORMAL,)
    if formation == HEDGEHOG:
        return (BROKEN,)                     # 6.3.2c: the first of three actions leaves it Broken
    if formation == COLUMN:
        # 6.3.4: column to line leaves infantry Broken, cavalry Shaken.
        return (SHAKEN,) if profile.arm is Arm.CAVALRY else (BROKEN,)
    return ()


def reform_actions(profile: Profile, start: str, goal: str) -> tuple[str, ...] | None:
    """The shortest chain of reform actions from ``start`` to ``goal`` (the formations passed through,
    ``goal`` last), or None if reform actions cannot get there.  len() = the number of actions."""
    seen = {start: ()}
    queue = deque([start])
    while queue:
        f = queue.popleft()
        if f == goal:
            return seen[f]
        for nxt in reform_targets(profile, f):
            if nxt not in seen:
                seen[nxt] = seen[f] + (nxt,)
                queue.append(nxt)
    return None


def near_leader(grid: HexGrid, hexes: tuple[str, ...], leader_hexes: list[str]) -> bool:
    """Stacked with or adjacent to a leader (the Make Ready condition of the 6.3.1 example)."""
    return any(h == lh or grid.distance(h, lh) == 1 for h in hexes for lh in leader_hexes)
