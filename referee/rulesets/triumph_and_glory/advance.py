"""Advance after shock and secondary shock, 9.71–9.73 (gaps digest §9).

* 9.71 when the defender's hex is emptied by the shock (retreat, Withdrawal, elimination) the attacking stack
  holding the **highest-cohesion** unit **must** move into it (ties: the attacker chooses among the tied
  stacks, each compared by its best unit).  It may re-face on entering — not when it advances for a
  Breakthrough.  A unit entering terrain that Disorders it (movement table ``disorders``) becomes Disordered.
  Only the group that cleared the hex advances (9.23).  Stacking limits apply [inferred].
* 9.72 after a retreat *before* shock (9.31/9.32) advancing is optional; charging cavalry always advances
  before infantry, whatever the cohesion.
* 9.73 each unit makes at most one secondary shock per phase (pursuit excepted): **Breakthrough** (infantry,
  result ≥ 10) — shock again without changing facing, no Commitment roll, attacking every enemy in its front;
  **Counter-Shock** (result < 0) — the defender may move one hex without changing facing (MP ignored, prohibited
  terrain not) and shock what is then in its front, without a Commitment roll, before any other pending shock.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from modulebuilder.records import record
from .board import Board, UnitState
from .disorder import Effect
from referee.engine.ruling import Error
from .shock import frontal_enemy_hexes
from .entering import barrier
from .stacking import stacking_errors
from .terrain import column_of

__all__ = ["AdvanceRule", "advance_rule", "advance_errors", "advance_effects", "breakthrough_errors",
           "counter_shock_move_errors", "secondary_shock_errors"]


@record(frozen=True, slots=True)
class AdvanceRule:
    """Who may advance into ``into``: the units of any stack in ``hexes`` (the attacker picks one when several
    tie), and whether it must (9.71) or may (9.72)."""
    into: str
    hexes: tuple[str, ...]
    mandatory: bool


def _best_cohesion(units: Iterable[UnitState]) -> int:
    return max((u.value("cohesion") or 0 for u in units if u.kind != "artillery"), default=-1)


def advance_rule(board: Board, vacated: str, attackers: Sequence[UnitState], charging: bool = False,
                 after_retreat_before_shock: bool = False) -> AdvanceRule:
    """9.71 / 9.72: which attacking stack(s) advance into ``vacated``.  ``attackers`` are the units of the
    group that cleared the hex (9.23); ``charging`` says that group charged (9.72 precedence)."""
    by_hex: dict[str, list[UnitState]] = {}
    for u in attackers:
        if u.hex and u.kind != "artillery":
            by_hex.setdefault(u.hex, []).append(u)
    if charging:
        cav = {h: us for h, us in by_hex.items() if any(u.kind == "cavalry" for u in us)}
        by_hex = cav or by_hex
    if not by_hex:
        return AdvanceRule(vacated, (), False)
    best = max(_best_cohesion(us) for us in by_hex.values())
    hexes = tuple(h for h, us in by_hex.items() if _best_cohesion(us) == best)
    return AdvanceRule(vacated, hexes, not after_retreat_before_shock)


def advance_errors(board: Board, rule: AdvanceRule, units: Sequence[UnitState], to: str,
                   facing: int | None = None, breakthrough: bool = False) -> list[Error]:
    """9.71: is moving ``units`` into ``to`` (with ``facing``) the advance the rules require?"""
    if to != rule.into:
        return [Error("9.71", "advance_hex", f"the advance goes into the vacated hex {rule.into}", (rule.into,))]
    if not units:
        return [Error("9.71", "advance_nobody", "name the units that advance")]
    errors: list[Error] = []
    hexes = {u.hex for u in units}
    if len(hexes) != 1 or next(iter(hexes)) not in rule.hexes:
        errors.append(Error("9.71", "advance_stack",
                                "the stack with the highest-cohesion unit advances (charging cavalry first, 9.72)",
                                rule.hexes))
    if board.stack(to):
        errors.append(Error("9.71", "advance_not_vacated", f"{to} is not empty"))
    errors += stacking_errors(tuple(units), board.rules)
    if breakthrough and facing is not None and any(u.facing != facing for u in units if u.kind != "artillery"):
        errors.append(Error("9.73", "breakthrough_facing", "a unit advancing for a breakthrough may not change facing"))
    return errors


def advance_effects(board: Board, units: Sequence[UnitState], to: str) -> tuple[Effect, ...]:
    """9.71: each unit advances; one entering terrain that Disorders its kind becomes Disordered."""
    terrain = "rubble" if to in board.rubble else board.static.terrain(to)
    out: list[Effect] = []
    for u in units:
        out.append(Effect(u.id, "advanced", "9.71", to=to))
        if not u.disordered and board.table.hex_cost(terrain, column_of(u.kind)).disorders:
            out.append(Effect(u.id, "disordered", "9.71"))
    return tuple(out)


def breakthrough_errors(board: Board, unit: UnitState, targets: Sequence[str], used: Iterable[str]) -> list[Error]:
    """9.73: a Breakthrough by ``unit`` (an infantry unit that advanced after a result ≥ 10) against ``targets``:
    once per phase, not Disordered (9.61: e.g. by the terrain it advanced into), and against every enemy hex
    now in its front."""
    errors: list[Error] = []
    if unit.kind != "infantry":
        errors.append(Error("9.73", "breakthrough_not_infantry", "only infantry breaks through"))
    if unit.id in set(used):
        errors.append(Error("9.73", "secondary_used", f"{unit.defn.name} already made a secondary shock this phase"))
    if unit.disordered:
        errors.append(Error("9.61", "disordered_attack", f"{unit.defn.name} is Disordered and may not shock"))
    front = frontal_enemy_hexes(board, unit)
    if set(targets) != set(front):
        errors.append(Error("9.73", "breakthrough_targets", "a breakthrough attacks every enemy in the unit's front", front))
    return errors


def secondary_shock_errors(board: Board, unit: UnitState, targets: Sequence[str]) -> list[Error]:
    """9.73 / 9.21–9.24: may ``unit`` counter-shock ``targets`` (after its move)?  Infantry or cavalry, not
    Disordered, and — under the normal rules (9.22) — against every enemy hex in its front, nothing else."""
    name = unit.defn.name
    if unit.kind == "artillery":
        return [Error("9.25", "artillery_shock", f"{name} is artillery: artillery never shocks")]
    errors: list[Error] = []
    if unit.disordered:
        errors.append(Error("9.61", "disordered_attack", f"{name} is Disordered and may not shock"))
    front = frontal_enemy_hexes(board, unit)
    if not front:
        errors.append(Error("9.73", "counter_shock_no_enemy", f"no enemy is in {name}'s front"))
    elif set(targets) != set(front):
        errors.append(Error("9.22", "counter_shock_targets",
                                "a counter-shock attacks every enemy in the unit's front, and only those", front))
    return errors


def counter_shock_move_errors(board: Board, unit: UnitState, to: str | None, facing: int | None,
                              used: Iterable[str], companions: Sequence[UnitState] = ()) -> list[Error]:
    """9.73: the defender's optional one-hex move before its Counter-Shock (``to`` None = it stays);
    ``companions``: the other units of its hex moving with it (stacking counts them)."""
    errors: list[Error] = []
    if unit.id in set(used):
        errors.append(Error("9.73", "secondary_used", f"{unit.defn.name} already made a secondary shock this phase"))
    if facing is not None and facing != unit.facing:
        errors.append(Error("9.73", "counter_shock_facing", "a counter-shocking unit may not change facing"))
    if to is None or unit.hex is None:
        return errors
    if not board.grid.adjacent(unit.hex, to):
        errors.append(Error("9.73", "counter_shock_move", "the counter-shock move is one hex"))
    elif (why := barrier(board, (unit,), unit.hex, to)) is not None:
        code = "counter_shock_prohibited" if why == "7.23" else "counter_shock_blocked"
        errors.append(Error("9.73", code, f"{unit.defn.name} may not enter {to}"))
    else:
        errors += stacking_errors(tuple(board.friendly_units_at(to, unit.side)) + (unit, *companions), board.rules)
    return errors
