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

A game file says it for its own game, before either (``game.dice``, ``game.phases``, ``game.cup``,
``game.facing``): the ruleset supplies defaults only for the games that name it, and a game that names no
ruleset rolls a d6, has no cup and no facing unless its game file says otherwise.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from ..model import Scenario


@dataclass(frozen=True)
class Die:
    sides: int = 10
    first: int = 0            # the lowest face: 0 for a d10 read 0-9, 1 for a d6
    count: int = 1            # dice rolled and added (2d6: 2)

    @property
    def name(self) -> str:
        return f"{self.count if self.count > 1 else ''}d{self.sides}"

    @property
    def lowest(self) -> int:
        return self.count * self.first

    @property
    def highest(self) -> int:
        return self.count * (self.first + self.sides - 1)

    @property
    def text(self) -> str:
        return f"{self.name} ({self.lowest}-{self.highest})"


D10 = Die()
D6 = Die(6, 1)
_DICE = re.compile(r"^([1-9])?d([0-9]+)(?: ([0-9]+)-([0-9]+))?$")


def parse_die(text: str) -> Die:
    """``d6``, ``2d6``, ``d10 0-9``, ``d10 1-10`` as a :class:`Die`; a die's faces run from 1 unless the
    text says 0 (``d10 0-9``).  ``ValueError`` for anything else (the game schema has said so already)."""
    m = _DICE.match(text.strip())
    if not m:
        raise ValueError(f"dice {text!r}: write d6, 2d6, d10 0-9 or d10 1-10")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    first = int(m.group(3)) if m.group(3) else 1
    if sides < 2 or first not in (0, 1) or (m.group(4) and int(m.group(4)) != first + sides - 1):
        raise ValueError(f"dice {text!r}: a d{sides} reads 1-{sides} or 0-{sides - 1}")
    return Die(sides, first, count)


def hints(ruleset: str | None) -> Mapping[str, Any]:
    """The ruleset contribution's ``x-module`` (empty when there is none or it cannot be read: the build
    of the definitions has already reported a contribution that does not load)."""
    if not ruleset:
        return {}
    from ..definitions.rulesets import ContributionError, contribution
    try:
        c = contribution(ruleset)
    except ContributionError:
        return {}
    x = c.schema.get("x-module") if c is not None else None
    return x if isinstance(x, dict) else {}


def die(scenario: Scenario) -> Die:
    if scenario.game.dice:
        return parse_die(scenario.game.dice)
    if not scenario.ruleset:
        return D6
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


def game_phases(scenario: Scenario) -> tuple[str, ...] | None:
    """The game file's phases for this scenario, or None when it says nothing."""
    g = scenario.game
    if not g.phases:
        return None
    if g.per_side:
        return tuple(f"{side} {p}" for side in side_order(scenario) for p in g.phases)
    return g.phases


def ruleset_phases(scenario: Scenario) -> tuple[str, ...] | None:
    """The contribution's phases for this scenario, or None when it says nothing."""
    spec = hints(scenario.ruleset).get("phases")
    if isinstance(spec, list) and spec:
        return tuple(str(p) for p in spec)
    if isinstance(spec, dict) and isinstance(spec.get("per_side"), list):
        return tuple(f"{side} {p}" for side in side_order(scenario) for p in spec["per_side"])
    return None


# The bundled Napoleonic rulesets turn these kinds of unit to face a vertex (their rules' facing).
FACING_KINDS = ("infantry", "cavalry", "artillery")


def facing(scenario: Scenario, kind: str) -> bool:
    """Whether units of ``kind`` turn to face a vertex in this scenario's module."""
    if scenario.game.facing is not None:
        return scenario.game.facing
    return bool(scenario.ruleset) and kind in FACING_KINDS
