"""What "becomes Disordered" does to a unit (9.61, 9.66, BOR-COSSACK, BOR-MILITIA) — shared by every rule that
Disorders: shock results, artillery fire, cohesion checks, square failures, collapse.

* 9.61 a Good-Order unit flips to its Disordered face.
* 9.66 a unit already Disordered that must be Disordered again **routs** (Withdrawal): straight to the
  Withdrawn Box, ignoring retreat rules; **artillery** is instead **destroyed** and can never recover.
* BOR-COSSACK: a counter without a reverse side (cossacks; any unit whose ``back`` is None) goes straight to the
  Withdrawn Box.
* BOR-MILITIA (A-26, confirmed by gaps §5 8.5): militia are **eliminated** by any adverse result.  The switch is
  ``board.rules.militia_alone`` (set by BOR-MILITIA).

Effects are returned as :class:`Effect` records with the DESIGN §5 ``effect`` names and the box the unit goes to;
the engine applies them (``Board.update`` / ``Board.remove``).
"""
from __future__ import annotations

from typing import Any, Literal

from modulebuilder.records import record
from .board import RuleSwitches, UnitState

__all__ = ["Effect", "disorder_effect", "WITHDRAWN", "RECOVERY", "ELIMINATED"]

WITHDRAWN, RECOVERY, ELIMINATED = "withdrawn", "recovery", "eliminated"

EffectName = Literal["disordered", "routed", "destroyed", "eliminated"]


@record(frozen=True, slots=True)
class Effect:
    """One state change on one unit (DESIGN §5 ``results`` entry).  ``box`` is where it goes off-map, if it
    leaves the map; ``to`` a hex for movements (retreat, advance)."""
    unit: str
    effect: str
    rule: str
    box: str | None = None
    to: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"unit": self.unit, "effect": self.effect, "rule": self.rule}
        if self.box is not None:
            d["box"] = self.box
        if self.to is not None:
            d["to"] = self.to
        return d


def has_reverse(unit: UnitState) -> bool:
    """BOR-COSSACK: a counter printed without a Disordered side cannot flip."""
    return getattr(unit.defn, "back", True) is not None and "no_back" not in unit.flags


def disorder_effect(unit: UnitState, rules: RuleSwitches, rule: str = "9.61") -> Effect:
    """The effect of Disordering ``unit`` (``rule`` = the rule that Disorders it, e.g. "9.61", "8.5")."""
    if rules.militia_alone and "militia" in unit.flags:
        return Effect(unit.id, "eliminated", "BOR-MILITIA", ELIMINATED)
    if unit.disordered:
        if unit.kind == "artillery":
            return Effect(unit.id, "destroyed", "9.66", ELIMINATED)     # never recovers
        return Effect(unit.id, "routed", "9.66", WITHDRAWN)
    if not has_reverse(unit):
        return Effect(unit.id, "routed", "BOR-COSSACK", WITHDRAWN)
    return Effect(unit.id, "disordered", rule)
