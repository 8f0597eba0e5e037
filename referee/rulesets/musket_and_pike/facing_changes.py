"""6.2.1-6.2.4 Changing facing: vertex steps, the two-hex wheel, the counter-march and artillery.

Each function prices or places one facing change and returns either the outcome or an ``Error``; the event
handlers in ``turning`` check the turn order and MP and apply the outcome.
"""
from __future__ import annotations


from dataclasses import dataclass
from modulebuilder.hexgrid import HexGrid, add_hours

from referee.engine.ruling import Error

from .profile import Arm, Profile
from .state import COLUMN, UnitState
from .terrain import Terrain

COUNTER_MARCH_MP = 2          # 6.2.2
WHEEL_BASE_MP = 1             # 6.2.1: 1 MP + the TEC cost of the hex the moving half enters


def vertex_steps(a: int, b: int) -> int:
    """Vertex-to-vertex steps between two facings (0..3); one step is two clock hours."""
    d = ((b - a) % 12) // 2
    return min(d, 6 - d)


def step_cost(profile: Profile, unit: UnitState) -> int | None:
    """6.2.1: MP per vertex step, or None when the unit may not step in place (a two-hex line must wheel).

    Cavalry and light infantry 1, single-hex heavy infantry 2, heavy infantry in Column 2 (A-M4: a two-hex
    column turning its head one hexside too).
    """
    if profile.size == 2 and unit.formation != COLUMN:
        return None
    if profile.arm is Arm.HEAVY:
        return 2
    return 1


def face_cost(profile: Profile, unit: UnitState, new: int) -> int | None:
    """The cheapest legal way to turn in place to ``new`` (DESIGN §5): steps, or a counter-march (6.2.2)
    followed by steps when that is cheaper.  None when no in-place turn reaches it."""
    steps = vertex_steps(unit.facing, new)
    per = step_cost(profile, unit)
    options = [COUNTER_MARCH_MP + (3 - steps) * per] if per is not None else []
    if per is not None:
        options.append(steps * per)
    if steps == 3:
        options.append(COUNTER_MARCH_MP)          # a two-hex line reaches k+3 only by counter-marching
    return min(options) if options else None


@dataclass(frozen=True)
class Wheel:
    """A two-hex wheel: the new left half, the new facing, the hex the moving half enters and from where."""
    left: str
    facing: int
    entered: str
    moved_from: str
    pivot: str               # "left" | "right"


def wheel(grid: HexGrid, left: str, facing: int, new_facing: int) -> Wheel | Error:
    """6.2.1: one half stays, the other swings forward into the centre front hex nbr(L, k+1).

    Pivot on L: R enters the centre front hex, new facing k-1 (two hours anticlockwise).  Pivot on R: L
    enters it, new facing k+1.  Any other new facing would need a backward wheel or several wheels.
    """
    right = grid.neighbour(left, add_hours(facing, 3))
    centre = grid.neighbour(left, add_hours(facing, 1))
    if new_facing == add_hours(facing, -2):
        pivot, new_left, moved_from = "left", left, right
    elif new_facing == add_hours(facing, 2):
        pivot, new_left, moved_from = "right", centre, left
    else:
        return Error("6.2.1", "not_a_forward_wheel",
                     f"one wheel turns a two-hex unit one vertex forward, to {add_hours(facing, -2)} (pivot on "
                     f"the left half) or {add_hours(facing, 2)} (pivot on the right half); wheeling backwards "
                     "is not allowed", alternatives=(add_hours(facing, -2), add_hours(facing, 2)))
    if centre is None or right is None or moved_from is None:
        return Error("6.2.1", "off_map", "the wheeling half would leave the map")
    return Wheel(left=new_left, facing=new_facing, entered=centre, moved_from=moved_from, pivot=pivot)


def wheel_cost(terrain: Terrain, w: Wheel, arm: str) -> int | None:
    """1 MP + the TEC cost of the hex the moving half enters (None = prohibited terrain)."""
    entry = terrain.enter(w.moved_from, w.entered, arm).cost
    return None if entry is None else WHEEL_BASE_MP + entry


def counter_march(grid: HexGrid, profile: Profile, unit: UnitState) -> tuple[str, int]:
    """6.2.2: (new hex, new facing) after turning 180 degrees.  A two-hex unit's halves swap roles (L' = R)
    and the counter stays on the same two hexes."""
    new_facing = add_hours(unit.facing, 6)
    if profile.size == 2:
        return grid.neighbour(unit.hex, add_hours(unit.facing, 3)), new_facing
    return unit.hex, new_facing


def artillery_face_error(unit: UnitState) -> Error | None:
    """6.2.3: unlimbered artillery turns to any vertex instead of firing, which flips it to Fired; a gun
    already on its Fired side cannot.  (Limbered guns have no facing: nothing to check.)"""
    if not unit.limbered and unit.fired:
        return Error("6.2.3", "artillery_fired",
                     "artillery on its Fired side may not change facing (it turns only instead of firing)")
    return None
