"""Cavalry charges, 9.81–9.87 (gaps digest §10; main digest 9.55).

* 9.81 a charge starts **2 or 3 hexes** from its target, through one or two named hexes, turning at most one
  vertex per hex entered; the target must be in LOS at the start and in the charger's front at the end.  No
  charge by Disordered cavalry or by cavalry that began its activation in an enemy ZOC; none into marsh, woods,
  village/chateau/castle/redoubt (``ChargeOptions.no_charge_terrain``); every hex entered and the target hex
  must cost the cavalry ≤ 2 MP; the route may not pass *through* (as opposed to end in) a frontal ZOC hex of
  enemy cavalry.  Charging is not movement: other ZOCs do not stop it [inferred].
* 9.82 recall (only against a square or after Disorder by reaction fire; never in pursuit): d10 ≤ cohesion.
* 9.83 charge DRM +3 if any charging heavy cavalry takes part, else +1 for light (cossacks are light,
  BOR-COSSACK).  Lost with Disorder by reaction fire (9.24); replaced by −2 against a square (9.85) — engine
  default: the −2 stays even for a charger Disordered by reaction fire, since it is a penalty, not a bonus;
  cancelled by a successful counter-charge (9.86), and a light charger countered by heavy cavalry gets −1.
* 9.84 every charging, counter-charging and pursuing unit is Disordered when the charge (or pursuit) ends,
  unless already Disordered (no rout for that) or recalled.
* 9.85 square: Good-Order infantry charged (not counter-charged), no Disordered infantry in the stack, not in an
  enemy ZOC at declaration: d10 ≤ top infantry cohesion → square; else the whole stack is Disordered.
* 9.86 counter-charge by Good-Order cavalry charged through its front and not in an enemy frontal ZOC at
  declaration: d10 (+2 light against heavy) ≤ cohesion.  Against an infantry shock it is chosen without a roll;
  engine default [inferred]: the cavalry's charge value counts against the infantry (−3 heavy / −1 light).
* 9.87 a charge with modified roll ≥ 10 must pursue; pursuers heavy first, then by cohesion, within stacking
  limits; the n-th pursuit charge of a unit gets −n.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from modulebuilder.records import record
from .board import Board, UnitState
from .disorder import Effect, disorder_effect
from referee.engine.ruling import Error
from .facing import is_front
from .los import line_of_sight
from .rolls import Modifier, PassRoll
from .stacking import stacking_errors, stacking_errors_entering
from .terrain import Cost
from .zoc import in_enemy_zoc, zoc_sources

__all__ = ["ChargeOptions", "is_heavy", "is_light", "charge_errors", "charge_modifiers", "pursuit_modifier",
           "square_errors", "square_roll", "square_outcome", "recall_errors", "recall_roll",
           "counter_charge_errors", "counter_charge_roll", "counter_charge_vs_infantry_modifier", "pursuers",
           "end_of_charge_effects", "MAX_CHARGE_COST"]

MAX_CHARGE_COST = 2          # 9.81: MP per hex entered, target hex included


@record(frozen=True, slots=True)
class ChargeOptions:
    no_charge_terrain: frozenset[str] = frozenset({"marsh", "woods", "village", "chateau", "castle", "redoubt",
                                                   "rubble"})


DEFAULT_OPTIONS = ChargeOptions()


def is_heavy(u: UnitState) -> bool:
    return u.kind == "cavalry" and getattr(u.defn, "cav_type", None) == "H"


def is_light(u: UnitState) -> bool:
    """Light cavalry; cossacks (``C``) count as light for every charge purpose (BOR-COSSACK)."""
    return u.kind == "cavalry" and getattr(u.defn, "cav_type", None) in ("L", "C")


def _entry_cost(board: Board, a: str, b: str) -> Cost:
    """Cavalry MP to enter ``b`` from ``a``: the hex plus its hexside (9.81 ≤ 2 test)."""
    table = board.table
    hex_cost = table.hex_cost("rubble" if b in board.rubble else board.static.terrain(b), "cavalry")
    if hex_cost.prohibited:
        return hex_cost
    mp = hex_cost.mp or 0
    for f in board.static.features(a, b):
        c = table.hexside_cost(f, "cavalry")
        if c.prohibited and not board.bridge_intact(a, b):
            return c
        mp += c.mp or 0
    return Cost(mp, hex_cost.disorders)


def _vertex_turns(a: int, b: int) -> int:
    """How many vertices apart two facings are (each step is two clock hours)."""
    d = abs(a - b) % 12
    return min(d, 12 - d) // 2


def charge_errors(board: Board, unit: UnitState, path: Sequence[str], target: str, facing: int | None = None,
                  options: ChargeOptions = DEFAULT_OPTIONS) -> list[Error]:
    """9.81: may ``unit`` (at the start of its activation) charge ``target`` through ``path``, ending facing
    ``facing`` (default: its own)?"""
    name = unit.defn.name
    grid = board.grid
    if unit.kind != "cavalry":
        return [Error("9.81", "not_cavalry", f"{name} is not cavalry: only cavalry charges")]
    if unit.hex is None:
        return [Error("9.81", "not_on_map", f"{name} is not on the map")]
    errors: list[Error] = []
    if unit.disordered:
        errors.append(Error("9.81", "disordered_charge", f"{name} is Disordered and may not charge"))
    if unit.started_in_zoc or in_enemy_zoc(board, unit.hex, unit.side):
        errors.append(Error("9.81", "charge_from_zoc", f"{name} began in an enemy ZOC and may not charge"))
    if not board.has_enemy(target, unit.side):
        errors.append(Error("9.81", "no_enemy_target", f"{target} holds no enemy unit"))
    d = grid.distance(unit.hex, target)
    if d not in (2, 3):
        errors.append(Error("9.81", "charge_distance", f"{target} is {d} hexes from {name}; a charge starts 2 or 3 away"))
    if not line_of_sight(board, unit.hex, target).clear:
        errors.append(Error("9.81", "charge_no_los", f"{name} cannot see {target}"))
    terrain = "rubble" if target in board.rubble else board.static.terrain(target)
    if terrain in options.no_charge_terrain:
        errors.append(Error("9.81", "charge_terrain", f"no charge against a unit in {terrain}"))
    route = (unit.hex, *path)
    if not 1 <= len(path) <= 2 or any(not grid.adjacent(a, b) for a, b in zip(route, route[1:])) \
            or target in path or not grid.adjacent(path[-1] if path else unit.hex, target):
        return errors + [Error("9.81", "charge_path",
                                   f"a charge names one or two hexes, each adjacent to the last, ending next to {target}")]
    for a, b in zip(route, route[1:]):
        if board.has_enemy(b, unit.side):
            errors.append(Error("6.22", "enemy_occupied", f"{name} may not charge through {b}: enemy units there"))
        cost = _entry_cost(board, a, b)
        if cost.prohibited or (cost.mp or 0) > MAX_CHARGE_COST:
            errors.append(Error("9.81", "charge_cost", f"{b} costs cavalry more than {MAX_CHARGE_COST} MP"))
    cost = _entry_cost(board, path[-1], target)
    if cost.prohibited or (cost.mp or 0) > MAX_CHARGE_COST:
        errors.append(Error("9.81", "charge_cost", f"the target hex {target} costs cavalry more than {MAX_CHARGE_COST} MP"))
    for h in path[:-1]:
        if any(u.kind == "cavalry" and is_front(board, u, h, "zoc") for u in zoc_sources(board, h, unit.side)):
            errors.append(Error("9.81", "through_cavalry_zoc", f"{name} may not charge through {h}, a frontal ZOC hex of enemy cavalry"))
    end_facing = unit.facing if facing is None else facing
    if unit.facing is not None and end_facing is not None and \
            _vertex_turns(unit.facing, end_facing) > len(path):
        errors.append(Error("9.81", "charge_turn", f"{name} may turn one vertex per hex charged through"))
    if end_facing is not None and target not in grid.front(path[-1], end_facing):
        errors.append(Error("9.81", "charge_target_not_front", f"{target} would not be in {name}'s front"))
    errors += stacking_errors_entering(board, unit, path[-1])
    return errors


def charge_modifiers(chargers: Sequence[UnitState], *, vs_square: bool = False, lost: bool = False,
                     countered_by: Sequence[UnitState] = ()) -> tuple[Modifier, ...]:
    """9.83 / 9.85 / 9.86 / 9.24: the charge DRMs of one charge resolution.  ``lost``: the chargers were
    Disordered by reaction fire; ``countered_by``: cavalry that counter-charged successfully."""
    if vs_square:
        return (Modifier(-2, "9.85", "charging a square"),)
    if lost:
        return ()
    if countered_by:
        if any(is_heavy(c) for c in countered_by) and all(is_light(u) for u in chargers):
            return (Modifier(-1, "9.86", "light cavalry counter-charged by heavy cavalry"),)
        return ()
    if any(is_heavy(u) for u in chargers):
        return (Modifier(3, "9.83", "heavy cavalry charge"),)
    if any(is_light(u) for u in chargers):
        return (Modifier(1, "9.83", "light cavalry charge"),)
    return ()


def pursuit_modifier(nth: int) -> Modifier:
    """9.87: the ``nth`` pursuit charge of a unit (1, 2, ...) gets −nth (cumulative −1 each time)."""
    if nth < 1:
        raise ValueError("pursuit charges are counted from 1")
    return Modifier(-nth, "9.87", f"pursuit charge {nth}")


# --------------------------------------------------------------------------------------------- 9.85 square

def _square_infantry(board: Board, hex_id: str) -> tuple[UnitState, ...]:
    return tuple(u for u in board.stack(hex_id) if u.kind == "infantry" and "skirmisher" not in u.flags)


def square_errors(board: Board, hex_id: str, *, counter_charge: bool = False) -> list[Error]:
    """9.85: may the stack in ``hex_id`` try to form square?  ``board`` is the position when the charge was
    declared (the ZOC test is made then)."""
    infantry = _square_infantry(board, hex_id)
    if counter_charge:
        return [Error("9.86", "square_vs_counter_charge", "no square against a counter-charge")]
    if not infantry:
        return [Error("9.85", "square_no_infantry", "artillery and skirmishers never form square alone")]
    if any(u.disordered for u in board.stack(hex_id) if u.kind == "infantry" and "skirmisher" not in u.flags):
        return [Error("9.85", "square_disordered", "a stack with Disordered infantry may not form square")]
    if in_enemy_zoc(board, hex_id, infantry[0].side):
        return [Error("9.85", "square_in_zoc", f"{hex_id} is in an enemy ZOC: no square")]
    return []


def square_roll(board: Board, hex_id: str) -> PassRoll:
    """9.85: d10 ≤ cohesion of the top infantry unit → square."""
    top = _square_infantry(board, hex_id)[0]
    return PassRoll("square", top.value("cohesion") or 0, "9.85", f"cohesion of {top.defn.name}", (), top.id)


def square_outcome(board: Board, hex_id: str, passed: bool) -> tuple[Effect, ...]:
    """9.85: pass → every unit of the stack is in square (artillery shares the infantry's result); fail → every
    unit is Disordered (already Disordered → 9.66)."""
    if passed:
        return tuple(Effect(u.id, "square", "9.85") for u in board.stack(hex_id))
    return tuple(disorder_effect(u, board.rules, "9.85") for u in board.stack(hex_id))


# --------------------------------------------------------------------------------------------- 9.82 recall

def recall_errors(unit: UnitState, *, target_in_square: bool, disordered_by_reaction_fire: bool,
                  pursuing: bool) -> list[Error]:
    """9.82: recall only against a square or after Disorder by reaction fire; never in pursuit."""
    if pursuing:
        return [Error("9.82", "recall_pursuit", f"{unit.defn.name} is pursuing and may not be recalled")]
    if not (target_in_square or disordered_by_reaction_fire):
        return [Error("9.82", "recall_not_allowed",
                          "a charge is recalled only against a square or after Disorder by reaction fire")]
    return []


def recall_roll(unit: UnitState) -> PassRoll:
    """9.82: d10 ≤ cohesion → recalled (stays, may re-face, not Disordered by 9.84); else it must charge."""
    return PassRoll("recall", unit.value("cohesion") or 0, "9.82", f"cohesion of {unit.defn.name}", (), unit.id)


# --------------------------------------------------------------------------------------------- 9.86 counter

def counter_charge_errors(board: Board, defender: UnitState, charger_hexes: Iterable[str],
                          in_frontal_zoc_at_declaration: bool) -> list[Error]:
    """9.86: Good-Order cavalry charged through its front, not in an enemy frontal ZOC when the charge was
    declared."""
    name = defender.defn.name
    if defender.kind != "cavalry" or defender.disordered:
        return [Error("9.86", "cannot_counter_charge", f"{name} is not Good-Order cavalry")]
    if in_frontal_zoc_at_declaration:
        return [Error("9.86", "counter_charge_zoc", f"{name} was in an enemy frontal ZOC")]
    if not any(is_front(board, defender, h, "defender") for h in charger_hexes):
        return [Error("9.86", "counter_charge_not_front", f"{name} was not charged through its front")]
    return []


def counter_charge_roll(defender: UnitState, chargers: Sequence[UnitState]) -> PassRoll:
    """9.86: d10 ≤ cohesion, +2 for light cavalry against oncoming heavy cavalry."""
    mods = ((Modifier(2, "9.86", "light cavalry against heavy"),)
            if is_light(defender) and any(is_heavy(c) for c in chargers) else ())
    return PassRoll("counter_charge", defender.value("cohesion") or 0, "9.86", f"cohesion of {defender.defn.name}",
                    mods, defender.id)


def counter_charge_vs_infantry_modifier(cavalry: UnitState) -> Modifier:
    """9.86 against an infantry shock [inferred default]: the cavalry's charge value counts against the
    infantry's shock roll."""
    value = 3 if is_heavy(cavalry) else 1
    return Modifier(-value, "9.86", f"counter-charge by {cavalry.defn.name}")


# --------------------------------------------------------------------------------------------- 9.87, 9.84

def pursuers(board: Board, chargers: Sequence[UnitState], hex_id: str) -> tuple[str, ...]:
    """9.87: which chargers enter the vacated ``hex_id``: heavy first, then higher cohesion, while stacking
    limits (6.21) allow."""
    order = sorted(chargers, key=lambda u: (not is_heavy(u), -(u.value("cohesion") or 0)))
    chosen: list[UnitState] = []
    present = tuple(board.stack(hex_id))
    for u in order:
        if not stacking_errors(present + tuple(chosen) + (u,), board.rules):
            chosen.append(u)
    return tuple(u.id for u in chosen)


def end_of_charge_effects(board: Board, units: Iterable[UnitState], recalled: Iterable[str] = ()) -> tuple[Effect, ...]:
    """9.84: when the charge (or the whole pursuit) ends, every charging, counter-charging and pursuing unit not
    already Disordered and not recalled becomes Disordered (a cossack, having no reverse, is withdrawn)."""
    skip = set(recalled)
    return tuple(disorder_effect(u, board.rules, "9.84") for u in units if not u.disordered and u.id not in skip)
