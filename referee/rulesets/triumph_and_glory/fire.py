"""Artillery fire, 8.1–8.9 (gaps digest §5, §18.5).

* 8.1 fire is step a of an activation, before or instead of moving; only Good-Order artillery fires
  (9.61); a unit that moved may not fire and one that fired moves at most half its MA and never next to an
  enemy (7.36 — exposed as :func:`after_firing` for the movement rules); a group that failed its Individual
  Order may not fire (5.28).
* 8.2 each unit fires alone, except two artillery units **stacked together**, which fire as one: the higher
  strength (not the sum) +2.  A **barrage** (5.33) combines stacked or adjacent batteries: the highest strength
  +2 per unit beyond the first [inferred: by analogy with stacked fire]; every unit must meet range, LOS and
  arc; engine default: the range DRM is the worst of the combined units'.
* 8.3 range DRM: adjacent non-artillery target +1; up to effective range 0; −2 per hex beyond it up to maximum
  range; beyond maximum no fire.
* 8.4 LOS at range ≥ 2 and the firing arc (los.py); an enemy in an adjacent frontal hex must be the target.
* 8.5 natural d10 + strength + DRMs on ``tables['fire']`` (default §18.5: ≤ 8 none, 9–12 each unit checks,
  13–14 all Disordered, ≥ 15 all Disordered and retreat one hex — not in a village).  Further rolls are made
  per unit (8.5 overrides 6.23's top-unit check).
* 8.6 reaction fire, 8.7 counter-battery, 8.8 misguided friendly fire, 8.9 massed target (+1 per non-artillery
  unit beyond the first; skirmishers not counted — *Borodino* jaegers are ordinary infantry), 9.85 square +1.
"""
from __future__ import annotations

import math
from typing import Sequence

from modulebuilder.records import record
from .board import Board, UnitState
from .combat_tables import tables_of
from .disorder import Effect, disorder_effect
from referee.engine.ruling import Error
from .facing import front_hexes
from .los import LosOptions, in_fire_arc, line_of_sight
from .rolls import Modifier, PassRoll, TableRoll, nonzero

__all__ = ["FireOptions", "range_drm", "range_modifier", "strength_modifiers", "massed_modifier",
           "square_modifier", "fire_terrain_modifier", "fire_errors", "position_errors", "fire_modifiers",
           "fire_roll", "FireOutcome", "fire_outcome", "fire_check", "reaction_fire_targets",
           "reaction_fire_errors", "reaction_fire_affected", "cancelled_by_reaction_fire",
           "counter_battery_errors", "misguided_hexes", "misguided_checks", "AfterFire", "after_firing",
           "MISGUIDED_MAX_NATURAL"]

MISGUIDED_MAX_NATURAL = 2      # 8.8: an unadjusted roll of 0–2


@record(frozen=True, slots=True)
class FireOptions:
    """Engine defaults (gaps §5 [inferred] items).  ``no_retreat_terrain``: terrain where the ≥ 15 result does
    not make units retreat.  ``misguided_on_any_result``: 8.8 check whenever the natural roll is 0–2 (default)
    rather than only when the fire itself has no effect."""
    no_retreat_terrain: frozenset[str] = frozenset({"village"})
    misguided_on_any_result: bool = True
    los: LosOptions = LosOptions()


DEFAULT_OPTIONS = FireOptions()


# --------------------------------------------------------------------------------------------- DRMs

def range_drm(distance: int, eff_range: int, max_range: int, target_artillery: bool) -> int | None:
    """8.3: the range DRM, or None beyond maximum range (no fire)."""
    if distance > max_range or distance < 1:
        return None
    if distance == 1 and not target_artillery:
        return 1
    if distance <= eff_range:
        return 0
    return -2 * (distance - eff_range)


def _all_artillery(board: Board, hex_id: str) -> bool:
    stack = board.stack(hex_id)
    return bool(stack) and all(u.kind == "artillery" for u in stack)


def range_modifier(board: Board, firers: Sequence[UnitState], target: str) -> Modifier | None:
    """8.3 for the firing unit(s): the worst DRM among combined units (each must be in range)."""
    worst: tuple[int, int] | None = None
    for u in firers:
        d = board.grid.distance(u.hex, target)  # type: ignore[arg-type]
        drm = range_drm(d, u.value("eff_range") or 0, u.value("max_range") or 0, _all_artillery(board, target))
        if drm is not None and (worst is None or drm < worst[0]):
            worst = (drm, d)
    if worst is None:
        return None
    drm, d = worst
    return Modifier(drm, "8.3", "adjacent non-artillery target" if drm == 1 else f"range {d}")


def strength_modifiers(firers: Sequence[UnitState], barrage: bool = False) -> tuple[Modifier, ...]:
    """8.2: the fire strength (highest of the combined units, never the sum) and +2 per unit beyond the first
    (a stacked pair; or a barrage, 5.33)."""
    best = max(firers, key=lambda u: u.fire)
    out = [Modifier(best.fire, "8.2", f"fire strength of {best.defn.name}")]
    extra = len(firers) - 1
    if extra:
        out.append(Modifier(2 * extra, "8.2", "barrage: combined batteries" if barrage else "stacked pair fires as one"))
    return tuple(out)


def massed_modifier(targets: Sequence[UnitState]) -> Modifier | None:
    """8.9: +1 per non-artillery unit beyond the first in the target hex (skirmishers not counted)."""
    n = sum(1 for u in targets if u.kind != "artillery" and "skirmisher" not in u.flags)
    return Modifier(n - 1, "8.9", f"massed target ({n} units)") if n > 1 else None


def square_modifier(targets: Sequence[UnitState]) -> Modifier | None:
    """9.85: +1 against a square."""
    return Modifier(1, "9.85", "target in square") if any(u.square for u in targets) else None


def fire_terrain_modifier(board: Board, target: str) -> Modifier | None:
    """8.5: the target hex's fire DRM from ``tables['fire']['terrain']`` (unknown for *Borodino*: none)."""
    terrain = "rubble" if target in board.rubble else board.static.terrain(target)
    value = tables_of(board).fire_terrain.get(terrain)
    return Modifier(value, "8.5", f"target in {terrain}") if value else None


def fire_modifiers(board: Board, firers: Sequence[UnitState], target: str, barrage: bool = False) -> tuple[Modifier, ...]:
    """Everything added to the natural fire roll (8.2, 8.3, 8.5, 8.9, 9.85)."""
    units = board.stack(target)
    return nonzero((*strength_modifiers(firers, barrage), range_modifier(board, firers, target),
                    massed_modifier(units), square_modifier(units), fire_terrain_modifier(board, target)))


def fire_roll(board: Board, firers: Sequence[UnitState], target: str, barrage: bool = False) -> TableRoll:
    """The fire roll (8.5): ``modified`` = natural + strength + DRMs, read off the fire table."""
    return TableRoll.single("fire", tables_of(board).fire_results, fire_modifiers(board, firers, target, barrage),
                            target, firers[0].id)


# --------------------------------------------------------------------------------------------- legality

def position_errors(board: Board, firer: UnitState, target: str,
                    options: FireOptions = DEFAULT_OPTIONS) -> list[Error]:
    """8.3 range, 8.4 LOS and arc, and the 8.4 rule that an adjacent frontal enemy must be the target."""
    name = firer.defn.name
    if firer.hex is None:
        return [Error("8.1", "not_on_map", f"{name} is not on the map")]
    d = board.grid.distance(firer.hex, target)
    errors: list[Error] = []
    if range_drm(d, firer.value("eff_range") or 0, firer.value("max_range") or 0, False) is None:
        errors.append(Error("8.3", "out_of_range", f"{target} is {d} hexes from {name}, beyond its maximum range"))
    if not in_fire_arc(board, firer, target):
        errors.append(Error("8.4", "outside_arc", f"{target} is outside the firing arc of {name}"))
    sight = line_of_sight(board, firer.hex, target, options.los)
    if not sight.clear:
        errors.append(Error("8.4", "no_line_of_sight", f"{name} cannot see {target}: {sight.reason}"))
    adjacent = tuple(h for h in front_hexes(board, firer, "firer") if board.has_enemy(h, firer.side))
    if adjacent and target not in adjacent:
        errors.append(Error("8.4", "adjacent_enemy_first",
                                f"{name} has an enemy in an adjacent front hex and must fire at it", adjacent))
    return errors


def _connected(board: Board, units: Sequence[UnitState]) -> bool:
    """8.2 barrage: the units form one group of stacked or adjacent hexes."""
    hexes = {u.hex for u in units}
    seen, todo = set(), [next(iter(hexes))]
    while todo:
        h = todo.pop()
        if h in seen:
            continue
        seen.add(h)
        todo += [n for n in hexes if n not in seen and board.grid.distance(h, n) <= 1]  # type: ignore[arg-type]
    return seen == hexes


def fire_errors(board: Board, firers: Sequence[UnitState], target: str, *, barrage: bool = False,
                io_failed: bool = False, options: FireOptions = DEFAULT_OPTIONS) -> list[Error]:
    """Every reason ``firers`` may not fire at ``target`` now (8.1–8.4, 9.61, 7.36, 5.28)."""
    errors: list[Error] = []
    if not firers:
        return [Error("8.1", "no_firer", "name the artillery unit(s) that fire")]
    if io_failed:
        errors.append(Error("5.28", "io_failed", "a group that failed its individual order may not fire"))
    if not board.has_enemy(target, firers[0].side):
        errors.append(Error("8.1", "no_enemy_target", f"{target} holds no enemy unit"))
    if len(firers) > 1 and not barrage and (len(firers) > 2 or len({u.hex for u in firers}) > 1):
        errors.append(Error("8.2", "not_stacked_pair", "only two artillery units stacked together fire as one"))
    if barrage and len(firers) > 1 and not _connected(board, firers):
        errors.append(Error("8.2", "barrage_not_adjacent", "barrage fire combines stacked or adjacent batteries only"))
    for u in firers:
        name = u.defn.name
        if u.kind != "artillery":
            errors.append(Error("8.1", "not_artillery", f"{name} is not artillery"))
            continue
        if u.disordered:
            errors.append(Error("9.61", "disordered_fire", f"{name} is Disordered and may not fire"))
        if u.moved:
            errors.append(Error("7.36", "moved_then_fire", f"{name} has moved: artillery fires before moving"))
        if u.fired:
            errors.append(Error("8.1", "already_fired", f"{name} has already fired this activation"))
        errors += position_errors(board, u, target, options)
    return errors


# --------------------------------------------------------------------------------------------- results

def fire_check(unit: UnitState) -> PassRoll:
    """8.5 (9–12): each unit in the hex rolls; > its cohesion → Disorder."""
    return PassRoll("cohesion_check", unit.value("cohesion") or 0, "8.5", f"cohesion of {unit.defn.name}", (), unit.id)


@record(frozen=True, slots=True)
class FireOutcome:
    """The consequences of a fire result on the target hex: ``effects`` now, ``checks`` (per-unit cohesion
    rolls, 8.5) and ``retreat`` (the stack retreats one hex away from the firer, 9.63–9.65 apply)."""
    result: str
    effects: tuple[Effect, ...] = ()
    checks: tuple[PassRoll, ...] = ()
    retreat: bool = False


def fire_outcome(board: Board, result: str, target: str, affected: Sequence[UnitState] | None = None,
                 options: FireOptions = DEFAULT_OPTIONS) -> FireOutcome:
    """8.5: apply a fire-table result to the units hit (``affected``; default every unit in ``target``)."""
    units = tuple(affected) if affected is not None else board.stack(target)
    if result in ("none", "no_effect"):        # a game's table may spell "no effect" either way
        return FireOutcome(result)
    if result == "cohesion_check":
        return FireOutcome(result, checks=tuple(fire_check(u) for u in units))
    if result in ("disordered", "disordered_retreat"):
        effects = tuple(disorder_effect(u, board.rules, "8.5") for u in units)
        stays = any(e.box is None for e in effects)
        retreat = (result == "disordered_retreat" and stays
                   and board.static.terrain(target) not in options.no_retreat_terrain)
        return FireOutcome(result, effects, retreat=retreat)
    raise ValueError(f"unknown fire result {result!r}")


# --------------------------------------------------------------------------------------------- 8.6 reaction

def reaction_fire_targets(board: Board, artillery: UnitState, attacker_hexes: Sequence[str]) -> tuple[str, ...]:
    """8.6: the attacking hexes a Good-Order battery in a shocked hex may fire at: those in its front (it may not
    turn); it fires at only one of them."""
    if artillery.kind != "artillery" or artillery.disordered or artillery.hex is None:
        return ()
    front = set(front_hexes(board, artillery, "firer"))
    return tuple(h for h in attacker_hexes if h in front)


def reaction_fire_errors(board: Board, artillery: UnitState, target: str, shocked_hexes: Sequence[str],
                         attacker_hexes: Sequence[str]) -> list[Error]:
    """8.6: may ``artillery`` reaction-fire at ``target``?"""
    name = artillery.defn.name
    if artillery.hex not in shocked_hexes:
        return [Error("8.6", "not_shocked", f"{name} is not in a hex being shocked")]
    if artillery.kind != "artillery" or artillery.disordered:
        return [Error("8.6", "cannot_react", f"{name} is not Good-Order artillery")]
    allowed = reaction_fire_targets(board, artillery, attacker_hexes)
    if target not in allowed:
        return [Error("8.6", "reaction_target", f"{target} is not an attacking hex in {name}'s front", allowed)]
    return []


def reaction_fire_affected(board: Board, attacker_hex: str, infantry_shock: bool) -> tuple[UnitState, ...]:
    """8.6: against an infantry shock only the top infantry unit of the attacking stack is affected (the massed
    DRM still counts the whole stack); otherwise every unit in the hex."""
    stack = board.stack(attacker_hex)
    if infantry_shock:
        top = next((u for u in stack if u.kind == "infantry"), None)
        return (top,) if top else ()
    return stack


def cancelled_by_reaction_fire(board: Board, attacker_hex: str, disordered: Sequence[str],
                               charging: bool) -> tuple[str, ...]:
    """8.6 / 9.24: infantry or non-charging cavalry Disordered by reaction fire lose their shock, and so does
    every unit stacked with them (the ids returned).  Charging cavalry go on without charge DRMs or recall
    (charge.py)."""
    if charging or not disordered:
        return ()
    return tuple(u.id for u in board.stack(attacker_hex) if u.kind != "artillery")


# --------------------------------------------------------------------------------------------- 8.7, 8.8

def counter_battery_errors(board: Board, battery: UnitState, target: str, fired_at_by: Sequence[str],
                           used_this_activation: bool, options: FireOptions = DEFAULT_OPTIONS) -> list[Error]:
    """8.7: a Good-Order battery (not Disordered by the incoming fire) may return fire once per activation at
    an artillery unit that fired at it, under the normal range/LOS/arc rules."""
    name = battery.defn.name
    errors: list[Error] = []
    if battery.kind != "artillery" or battery.disordered:
        errors.append(Error("8.7", "cannot_counter_battery", f"{name} is not Good-Order artillery"))
    if used_this_activation:
        errors.append(Error("8.7", "counter_battery_used", f"{name} already used counter-battery fire this activation"))
    shooters = {board.unit(u).hex for u in fired_at_by if board.unit(u).kind == "artillery"}
    if target not in shooters:
        errors.append(Error("8.7", "counter_battery_target", f"{target} holds no artillery that fired at {name}",
                                tuple(sorted(h for h in shooters if h))))
    if battery.hex is not None:
        errors += position_errors(board, battery, target, options)
    return errors


def misguided_hexes(board: Board, firer_hex: str, target: str, side: str) -> tuple[str, ...]:
    """8.8: hexes of the firer's side on the line of fire, between firer and target and adjacent to the target."""
    out: list[str] = []
    for step in board.grid.line(firer_hex, target)[1:-1]:
        for h in step:
            if (h not in out and board.on_map(h) and board.side_at(h) == side
                    and board.grid.adjacent(h, target)):
                out.append(h)
    return tuple(out)


def misguided_checks(board: Board, firer_hex: str, target: str, side: str, natural: int, result: str,
                     options: FireOptions = DEFAULT_OPTIONS) -> tuple[PassRoll, ...]:
    """8.8: on an unadjusted roll of 0–2 each friendly unit in a :func:`misguided_hexes` hex rolls with −2;
    adjusted roll > cohesion → Disordered.  The fire is resolved against its target as well (default)."""
    if natural > MISGUIDED_MAX_NATURAL or (result != "none" and not options.misguided_on_any_result):
        return ()
    return tuple(PassRoll("cohesion_check", u.value("cohesion") or 0, "8.8", f"cohesion of {u.defn.name}",
                          (Modifier(-2, "8.8", "misguided friendly fire"),), u.id)
                 for h in misguided_hexes(board, firer_hex, target, side) for u in board.stack(h))


# --------------------------------------------------------------------------------------------- 7.36 facts

@record(frozen=True, slots=True)
class AfterFire:
    """7.36 / 8.1: what firing leaves of a battery's movement: at most ``max_mp`` (half its MA, rounded up —
    gaps §18.1 default) and never ending adjacent to an enemy.  A battery that moved may not fire at all."""
    max_mp: int
    may_end_adjacent_to_enemy: bool = False


def after_firing(unit: UnitState) -> AfterFire:
    return AfterFire(math.ceil(unit.ma / 2))
