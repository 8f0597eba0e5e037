"""Rally, recovery and collapse, 10.1–10.5 (gaps digest §11; BOR-MILITIA).

* 10.1 **Rally**, step d of the unit's AG activation: a Disordered unit that in this activation did not move,
  change facing, fire or shock, and is not adjacent to an enemy unit; orders status irrelevant (a failed
  Individual Order still allows it) but not in Reserve Activation (5.53); never a unit of a collapsed AG
  (10.52).  d10 ≤ its **Disordered** cohesion → Good Order, faced as the owner likes.  Engine default
  [inferred] (``RallyOptions.cancelled_shock_counts``): a unit whose declared shock was cancelled counts as
  having shocked.
* 10.2 **Recovery**, Morale Phase: every unit in the Recovery Box rolls d10 ≤ its Disordered cohesion → returns
  (10.3), else eliminated for good.  None recovers when every unit of its AG is Withdrawn or eliminated.
  Cossacks (no reverse side) roll against the printed cohesion and return face up [inferred].
* 10.3 returning units are placed Disordered within 3 hexes of a unit of their own AG and at least 3 hexes from
  every enemy unit, where they could stand (stacking, enterable terrain).
* 10.4 afterwards the Withdrawn Box empties into the Recovery Box.
* 10.5 **Collapse**, checked first in the Morale Phase: an AG collapses when ``3 × lost ≥ 2 × counted``, units
  counted (not strength), artillery and militia left out of both counts; lost = in the Withdrawn or Recovery
  Box or eliminated.  Effect: every unit of the AG on the map is Disordered (already Disordered → Withdrawn;
  artillery → destroyed, the 9.66 default for the gaps digest's open point), Withdrawn units are eliminated,
  Recovery-Box units are unaffected; the AG never rallies again.  Once per AG.
"""
from __future__ import annotations

from modulebuilder.records import record
from .board import Board, UnitState
from .disorder import ELIMINATED, RECOVERY, WITHDRAWN, Effect, disorder_effect
from referee.engine.ruling import Error
from .rolls import PassRoll
from .stacking import stacking_errors
from .terrain import column_of

__all__ = ["RallyOptions", "rally_errors", "rally_roll", "rally_effect", "disordered_cohesion",
           "recovery_eligible", "recovery_roll", "recovery_effect", "return_hexes", "withdrawn_to_recovery",
           "collapse_counts", "collapses", "CollapseOutcome", "collapse_outcome", "RETURN_DISTANCE"]

RETURN_DISTANCE = 3          # 10.3: within 3 of own AG, at least 3 from any enemy


@record(frozen=True, slots=True)
class RallyOptions:
    cancelled_shock_counts: bool = True


def rally_errors(board: Board, unit: UnitState, *, faced: bool = False, shocked: bool = False,
                 shock_cancelled: bool = False, reserve: bool = False, ag_collapsed: bool = False,
                 options: RallyOptions = RallyOptions()) -> list[Error]:
    """10.1 (with 3.0 C.3.d, 5.53, 10.52): may ``unit`` try to rally now?  ``moved``/``fired`` are read from the
    unit's activation flags; the rest are facts of this activation the engine passes in."""
    name = unit.defn.name
    if not unit.disordered:
        return [Error("10.1", "not_disordered", f"{name} is in Good Order: nothing to rally")]
    errors: list[Error] = []
    acted = unit.moved or unit.fired or faced or shocked or (shock_cancelled and options.cancelled_shock_counts)
    if acted:
        errors.append(Error("10.1", "rally_after_acting",
                                f"{name} moved, changed facing, fired or shocked this activation and may not rally"))
    if unit.hex is not None and board.adjacent_to_enemy(unit.hex, unit.side):
        errors.append(Error("10.1", "rally_adjacent_enemy", f"{name} is adjacent to an enemy unit"))
    if reserve:
        errors.append(Error("5.53", "rally_in_reserve", "units activated in Reserve Activation may not rally"))
    if ag_collapsed:
        errors.append(Error("10.52", "rally_collapsed", f"{name}'s activation group has collapsed: it never rallies"))
    return errors


def disordered_cohesion(unit: UnitState) -> int:
    """The cohesion printed on the Disordered face (10.1, 10.2); a counter without one uses its front."""
    defn = unit.defn
    back = getattr(defn, "back", None)
    value = back.cohesion if back is not None and back.cohesion is not None else defn.front.cohesion  # type: ignore[union-attr]
    return value or 0


def rally_roll(unit: UnitState) -> PassRoll:
    """10.1: d10 ≤ Disordered cohesion → Good Order."""
    return PassRoll("rally", disordered_cohesion(unit), "10.1", f"Disordered cohesion of {unit.defn.name}", (), unit.id)


def rally_effect(unit: UnitState, passed: bool) -> Effect | None:
    return Effect(unit.id, "rallied", "10.1") if passed else None


def recovery_eligible(board: Board, unit: UnitState) -> bool:
    """10.2: ``unit`` is in the Recovery Box and its AG still has a unit on the map (or waiting to arrive)."""
    if unit.box != RECOVERY:
        return False
    return any(u.ag == unit.ag and u.box not in (WITHDRAWN, RECOVERY, ELIMINATED)
               for u in board.units.values() if u.is_combat)


def recovery_roll(unit: UnitState) -> PassRoll:
    """10.2: d10 ≤ Disordered cohesion, no modifiers."""
    return PassRoll("recovery", disordered_cohesion(unit), "10.2", f"Disordered cohesion of {unit.defn.name}",
                    (), unit.id)


def recovery_effect(unit: UnitState, passed: bool) -> Effect:
    """10.2 / 10.3: recovered (to be placed Disordered — a counter without a reverse returns face up) or
    eliminated for good."""
    if passed:
        return Effect(unit.id, "recovered", "10.2")
    return Effect(unit.id, "eliminated", "10.2", ELIMINATED)


def return_hexes(board: Board, unit: UnitState) -> tuple[str, ...]:
    """10.3: hexes where a recovered unit may be placed: within 3 of a unit of its AG on the map, at least 3
    from every enemy unit, enterable by its kind (not On Fire) and within stacking limits."""
    disc = board.static.disc
    own = {u.hex for u in board.on_map_units() if u.ag == unit.ag and u.id != unit.id}
    enemies = {u.hex for u in board.on_map_units() if u.side != unit.side}
    near = frozenset().union(*(disc(o, RETURN_DISTANCE) for o in own))  # type: ignore[arg-type]
    # Hexes closer than 3 to an enemy, from the enemies' side: one small disc each instead of a distance
    # per (candidate, enemy) pair (Borodino has hundreds of both); the discs are memoised on the map, and
    # most enemy units stand where they stood at the last recovery.
    too_close = frozenset().union(*(disc(e, RETURN_DISTANCE - 1) for e in enemies))  # type: ignore[arg-type]
    col = column_of(unit.kind)
    out = []
    for h in sorted(near - too_close):
        if h in board.on_fire:
            continue
        terrain = "rubble" if h in board.rubble else board.static.terrain(h)
        if board.table.hex_cost(terrain, col).prohibited:
            continue
        if stacking_errors(tuple(board.stack(h)) + (unit,), board.rules):
            continue
        out.append(h)
    return tuple(out)


def withdrawn_to_recovery(board: Board) -> tuple[str, ...]:
    """10.4: every unit now in the Withdrawn Box moves to the Recovery Box."""
    return tuple(u.id for u in board.units.values() if u.box == WITHDRAWN)


# --------------------------------------------------------------------------------------------- 10.5

def _counted(u: UnitState) -> bool:
    """10.5 / BOR-MILITIA: artillery and militia are left out of both counts."""
    return u.is_combat and u.kind != "artillery" and "militia" not in u.flags


def collapse_counts(board: Board, ag: str) -> tuple[int, int]:
    """10.5: (lost, counted) for ``ag``."""
    units = [u for u in board.units.values() if u.ag == ag and _counted(u)]
    lost = sum(1 for u in units if u.box in (WITHDRAWN, RECOVERY, ELIMINATED))
    return lost, len(units)


def collapses(lost: int, counted: int) -> bool:
    """10.5: at least two thirds lost — ``3 × lost ≥ 2 × counted`` (5 units: the 4th loss; 6: the 4th)."""
    return counted > 0 and 3 * lost >= 2 * counted


@record(frozen=True, slots=True)
class CollapseOutcome:
    ag: str
    collapsed: bool
    effects: tuple[Effect, ...] = ()

    def to_dicts(self) -> list[dict]:
        if not self.collapsed:
            return []
        return [{"ag": self.ag, "effect": "collapsed", "rule": "10.5"}] + [e.to_dict() for e in self.effects]


def collapse_outcome(board: Board, ag: str, already_collapsed: bool = False) -> CollapseOutcome:
    """10.5: does ``ag`` collapse now, and what happens to its units."""
    if already_collapsed or not collapses(*collapse_counts(board, ag)):
        return CollapseOutcome(ag, False)
    effects: list[Effect] = []
    for u in board.units.values():
        if u.ag != ag or not u.is_combat:
            continue
        if u.hex is not None:
            effects.append(disorder_effect(u, board.rules, "10.5"))
        elif u.box == WITHDRAWN:
            effects.append(Effect(u.id, "eliminated", "10.5", ELIMINATED))
    return CollapseOutcome(ag, True, tuple(effects))

