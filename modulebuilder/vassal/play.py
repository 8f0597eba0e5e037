"""How a game is played, as far as its module needs to know: the die on the toolbar and the phases of a turn.

A ruleset says it in its definitions contribution (docs/definitions.md, "Definitions per ruleset"), read as
data like the rest of it, under ``x-module``::

    "x-module": {"die": {"sides": 6, "first": 1},
                 "phases": {"per_side": ["Movement Phase", "Combat Phase"]}}

``phases`` is either a list of phase names or ``{"per_side": [...]}``: each side in turn (the scenario's
``options.side_order``, else ``options.first_player`` first, else the scenario's order of sides) with those
phases, "American Movement Phase", ...  A scenario may list its own ``options.phases``.  Without either the
module keeps what the two bundled rulesets play with: Triumph & Glory's d10 read 0-9 (DESIGN §5) and its 3.0
phases A-F (turns.py), or no phases.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..model import Scenario


@dataclass(frozen=True)
class Die:
    sides: int = 10
    first: int = 0            # the lowest face: 0 for a d10 read 0-9, 1 for a d6

    @property
    def name(self) -> str:
        return f"d{self.sides}"

    @property
    def text(self) -> str:
        return f"{self.name} ({self.first}-{self.first + self.sides - 1})"


D10 = Die()


def hints(ruleset: str) -> Mapping[str, Any]:
    """The ruleset contribution's ``x-module`` (empty when there is none or it cannot be read: the build
    of the definitions has already reported a contribution that does not load)."""
    from ..definitions.rulesets import ContributionError, contribution
    try:
        c = contribution(ruleset)
    except ContributionError:
        return {}
    x = c.schema.get("x-module") if c is not None else None
    return x if isinstance(x, dict) else {}


def die(scenario: Scenario) -> Die:
    spec = hints(scenario.ruleset).get("die")
    if isinstance(spec, dict) and isinstance(spec.get("sides"), int) and spec["sides"] > 1:
        first = spec.get("first", 1)
        return Die(spec["sides"], first if isinstance(first, int) else 1)
    return D10


def side_order(scenario: Scenario) -> list[str]:
    names = [s.name for s in scenario.sides]
    listed = scenario.options.get("side_order")
    if isinstance(listed, (list, tuple)) and listed:
        return [str(x) for x in listed]
    first = scenario.options.get("first_player")
    if first in names:
        return [first] + [n for n in names if n != first]
    return names


def ruleset_phases(scenario: Scenario) -> tuple[str, ...] | None:
    """The contribution's phases for this scenario, or None when it says nothing."""
    spec = hints(scenario.ruleset).get("phases")
    if isinstance(spec, list) and spec:
        return tuple(str(p) for p in spec)
    if isinstance(spec, dict) and isinstance(spec.get("per_side"), list):
        return tuple(f"{side} {p}" for side in side_order(scenario) for p in spec["per_side"])
    return None
