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

from typing import Any, Mapping

from ..dice import D6, D10, Die, die as named_die
from ..model import Scenario


def parse_die(text: str) -> Die:
    """A game file's ``dice`` (``d6``, ``2d6``, ``d10 0-9``, ``d10 1-10``) as a :class:`Die`, read as the referee
    reads a ruleset's dice (a bare ``d10`` is 0-9, DESIGN §5).  ``ValueError`` for anything else (the game
    schema has said so already)."""
    try:
        d = named_die(text.strip())
    except ValueError:
        d = None
    if d is None or d.low not in (0, 1):            # a game file's die reads from 0 or from 1 (its schema)
        raise ValueError(f"dice {text!r}: write d6, 2d6, d10 0-9 or d10 1-10")
    return d


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
        first = first if isinstance(first, int) else 1
        return named_die(f"d{spec['sides']}:{first}-{first + spec['sides'] - 1}")
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
