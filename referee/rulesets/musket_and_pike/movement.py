"""Moving a unit along a path (G-M3: the movement chapter is missing; the engine defaults are below).

Engine defaults (documented in docs/musket-and-pike.md):
* a ``path`` lists the successive positions of the unit's ``hex`` (for a two-hex unit its left half L);
* a unit with a facing steps into one of its front hexes each step (a two-hex line moves both halves by the
  same step, into the two front hexes on one side; a two-hex column moves its head straight ahead and the
  tail, L, follows into the hex the head left); facing does not change on the way;
* a unit without facing (limbered guns, wagons) steps into any adjacent hex;
* no hex holding an enemy unit may be entered; friendly stacking is not limited (G-M4);
* each step costs the TEC entry cost (two-hex line: the dearer of the two hexes entered) and gives the
  formation hits the TEC lists, except to Open Order and Column (6.3.3, 6.3.4);
* A-M7: a hit takes effect at once, so later steps are checked against the reduced MA.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from modulebuilder.hexgrid import HexGrid, add_hours

from .facing import column_front_hour, footprint, has_facing, right_half
from .formations import formation_hit, movement_allowance
from .profile import Profile
from .state import COLUMN, MPState, UnitState


@dataclass(frozen=True)
class Step:
    hex: str                 # the unit's new hex (L of a two-hex unit)
    cost: int | None         # None = prohibited
    hits: int
    entered: tuple[str, ...]


def next_positions(grid: HexGrid, profile: Profile, unit: UnitState) -> dict[str, tuple[tuple[str, str], ...]]:
    """Where one step can take the unit: new hex -> ((from, to) pairs of the hexes newly entered)."""
    if not has_facing(profile, unit):
        return {n: ((unit.hex, n),) for n in grid.neighbours(unit.hex).values()}
    f = unit.facing
    if profile.size == 2:
        left, right = unit.hex, right_half(grid, unit.hex, f)
        if unit.formation == COLUMN:
            head = grid.neighbour(right, column_front_hour(f)) if right else None
            # The tail enters the hex the head left; the new left half is the old head.
            return {right: ((right, head),)} if head else {}
        out = {}
        for h in (add_hours(f, -1), add_hours(f, 1)):
            nl, nr = grid.neighbour(left, h), grid.neighbour(right, h) if right else None
            if nl and nr:
                out[nl] = ((left, nl), (right, nr))
        return out
    return {n: ((unit.hex, n),) for n in (grid.neighbour(unit.hex, h) for h in (add_hours(f, -1), add_hours(f, 1)))
            if n}


def enemy_hexes(state: MPState, side: str) -> set[str]:
    grid = state.static.grid
    return {h for uid, u in state.units.items() if state.profile(uid).side != side
            for h in footprint(grid, state.profile(uid), u)}


@dataclass(frozen=True)
class MoveOutcome:
    unit: UnitState
    hits: tuple[tuple[str, str], ...]      # (hex entered, effect) for each formation hit taken
    cost: int
    hit_rules: tuple[str, ...] = ()        # the rules applied to the movement hits the terrain gave (6.3.1, ...)


def walk(state: MPState, uid: str, path: Sequence[str]) -> MoveOutcome | tuple[str, str, list[str]]:
    """Follow ``path`` step by step.  Returns the outcome, or (code, message, alternatives) at the first
    step that cannot be taken."""
    st = state.static
    profile, unit = state.profile(uid), state.unit(uid)
    enemies = enemy_hexes(state, profile.side)
    hits: list[tuple[str, str]] = []
    hit_rules: dict[str, None] = {}
    spent = 0
    for i, target in enumerate(path):
        options = next_positions(st.grid, profile, unit)
        if target not in options:
            return ("not_a_front_hex", f"path[{i}]: {target} is not a hex this unit can step into "
                    f"from {unit.hex}", sorted(options))
        entered = options[target]
        if any(dst in enemies for _, dst in entered):
            return ("enemy_occupied", f"path[{i}]: {target} holds an enemy unit", [])
        entries = [st.terrain.enter(src, dst, profile.arm.value) for src, dst in entered]
        if any(e.cost is None for e in entries):
            return ("prohibited_terrain", f"path[{i}]: the terrain of {target} is prohibited", [])
        cost = max(e.cost for e in entries)
        ma = movement_allowance(profile, unit, st.options)
        if unit.mp_spent + cost > ma:
            return ("not_enough_mp", f"path[{i}]: entering {target} costs {cost} MP; "
                    f"{max(0, ma - unit.mp_spent)} of {ma} left", [])
        unit = replace(unit, hex=target, mp_spent=unit.mp_spent + cost)
        spent += cost
        for _ in range(max(e.hits for e in entries)):
            out = formation_hit(unit.formation, "movement")
            hit_rules.update({"6.3.1": None, out.rule: None})
            if out.effect != "ignored":
                hits.append((target, out.effect))
            unit = replace(unit, formation=out.formation)
    return MoveOutcome(unit=unit, hits=tuple(hits), cost=spent, hit_rules=tuple(hit_rules))
