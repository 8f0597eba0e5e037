"""[6.1] Facing: which hexes are front, flank and rear of a unit.

Facings are vertex clock hours (DESIGN §3).  The digest's direction ``d`` (0 = the first hexside clockwise of
vertex 0) and vertex ``k`` convert as: for facing hour ``f``, direction ``k`` is hour ``f-1``, ``k+1`` is
``f+1``, ``k+2`` is ``f+3``, ``k-1`` is ``f-3``, ``k+3`` is ``f+5`` and ``k+4`` is ``f-5``.

Two-hex units: the set-up ``hex`` (and ``UnitState.hex``) is the LEFT half L as seen by the unit looking
forward; the right half is ``R = nbr(L, k+2)``, the neighbour of L at hour ``facing+3`` (digest §3.3:
facing north, R is east of L).
"""
from __future__ import annotations


from dataclasses import dataclass
from modulebuilder.hexgrid import HexGrid, add_hours

from .profile import Arm, Profile
from .state import COLUMN, HEDGEHOG, UnitState


@dataclass(frozen=True)
class Zones:
    front: tuple[str, ...]
    flank: tuple[str, ...]
    rear: tuple[str, ...]

    def aspect(self, hex_: str) -> str | None:
        """'front' | 'flank' | 'rear' for an adjacent hex, None for any other."""
        for name in ("front", "flank", "rear"):
            if hex_ in getattr(self, name):
                return name
        return None


def has_facing(profile: Profile, unit: UnitState) -> bool:
    """§3.4: wagons, limbered guns and morale-broken units face nothing (leaders are not units at all)."""
    if profile.arm is Arm.WAGON or unit.morale_broken or unit.facing is None:
        return False
    return not (profile.arm is Arm.ARTILLERY and unit.limbered)


def right_half(grid: HexGrid, left: str, facing: int) -> str | None:
    """§3.3: R = nbr(L, k+2), i.e. the neighbour at hour facing+3."""
    return grid.neighbour(left, add_hours(facing, 3))


def left_half(grid: HexGrid, right: str, facing: int) -> str | None:
    """The inverse of :func:`right_half`: L = nbr(R, k-1), hour facing-3."""
    return grid.neighbour(right, add_hours(facing, -3))


def footprint(grid: HexGrid, profile: Profile, unit: UnitState) -> tuple[str, ...]:
    """The hexes a unit covers: (L, R) for a two-hex unit, (hex,) otherwise, () off the map."""
    if not unit.on_map:
        return ()
    if profile.size == 2 and unit.facing is not None:
        r = right_half(grid, unit.hex, unit.facing)
        return (unit.hex, r) if r is not None else (unit.hex,)
    return (unit.hex,)


def _at(grid: HexGrid, hex_: str, hours: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(n for n in (grid.neighbour(hex_, h) for h in hours) if n is not None)


def single_hex_zones(grid: HexGrid, hex_: str, f: int) -> Zones:
    """§3.2: front {k, k+1}, flank {k-1, k+2}, rear {k+3, k+4}."""
    return Zones(front=_at(grid, hex_, (add_hours(f, -1), add_hours(f, 1))),
                 flank=_at(grid, hex_, (add_hours(f, -3), add_hours(f, 3))),
                 rear=_at(grid, hex_, (add_hours(f, -5), add_hours(f, 5))))


def two_hex_line_zones(grid: HexGrid, left: str, f: int) -> Zones:
    """§3.3: eight hexes around the counter, 3 front / 2 flank / 3 rear."""
    right = right_half(grid, left, f)
    if right is None:
        return single_hex_zones(grid, left, f)
    return Zones(front=_at(grid, left, (add_hours(f, -1), add_hours(f, 1))) + _at(grid, right, (add_hours(f, 1),)),
                 flank=_at(grid, left, (add_hours(f, -3),)) + _at(grid, right, (add_hours(f, 3),)),
                 rear=_at(grid, left, (add_hours(f, -5), add_hours(f, 5))) + _at(grid, right, (add_hours(f, 5),)))


def column_front_hour(facing: int) -> int:
    """6.3.4 / §3.4: a two-hex column faces the hexside that was its right flank, hour facing+3."""
    return add_hours(facing, 3)


def two_hex_column_zones(grid: HexGrid, left: str, f: int) -> Zones:
    """6.3.4: front = nbr(R, k+2) (head = R).  A-M5 default: the hex behind the tail is rear, every other
    adjacent hex is flank."""
    right = right_half(grid, left, f)
    front = _at(grid, right, (column_front_hour(f),)) if right else ()
    rear = _at(grid, left, (add_hours(f, -3),))
    around = set(_at(grid, left, grid.direction_hours)) | (set(_at(grid, right, grid.direction_hours)) if right else set())
    flank = tuple(sorted(around - set(front) - set(rear) - {left, right}))
    return Zones(front=front, flank=flank, rear=rear)


def zones(grid: HexGrid, profile: Profile, unit: UnitState) -> Zones | None:
    """The unit's front/flank/rear hexes, or None when it has no facing (§3.4)."""
    if not unit.on_map or not has_facing(profile, unit):
        return None
    hexes = footprint(grid, profile, unit)
    if unit.formation == HEDGEHOG:
        # 6.3.2a: no flanks and no rear - every adjacent hex is front.
        around = {n for h in hexes for n in _at(grid, h, grid.direction_hours)} - set(hexes)
        return Zones(front=tuple(sorted(around)), flank=(), rear=())
    if profile.size == 2:
        if unit.formation == COLUMN:
            return two_hex_column_zones(grid, unit.hex, unit.facing)
        return two_hex_line_zones(grid, unit.hex, unit.facing)
    return single_hex_zones(grid, unit.hex, unit.facing)


def adjacent_hexes(grid: HexGrid, hexes: tuple[str, ...]) -> set[str]:
    return {n for h in hexes for n in _at(grid, h, grid.direction_hours)} - set(hexes)
