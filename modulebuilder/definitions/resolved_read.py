"""Reading the resolved scenario (DESIGN §4) that the referee accepts inline wherever it accepts a scenario
id: a mapping, JSON or YAML text, or a file.  Checked like the authored files, with paths into the
document (``units[2].hex``).
"""
from __future__ import annotations

import json
import os
from dataclasses import replace
from typing import Any, Mapping

from ..model import Scenario
from . import assemble
from .counters import CounterEntries, check_counters
from .entries import entries
from .files import read_document
from .geometry import grid_of, hex_grid
from .loaders import ruleset_problems
from .maps import build_map, check_map_refs, resolved_refs
from .placements import Placed, build_placements, build_reinforcement, check_placements
from .problems import DefinitionError, Problem, raise_if_any
from .consistency import setup_contradictions, turn_range, turns_in_range
from .game import check_game
from .rulesets import UNINSTALLED, ruleset_unit_types, setup_rules
from .schemas import schema_problems
from .yamlpos import Located, YamlSyntaxError, parse_yaml

def load_resolved(doc: Mapping[str, Any] | str | os.PathLike[str], source: str = "<inline>") -> Scenario:
    """A scenario from its resolved document: a mapping, JSON or YAML text, or the path of a file.

    Raises DefinitionError with every problem, paths as in the document (``units[2].hex``).
    """
    raise_if_any(_problems_or_none(located := _locate(doc, source)))
    return _build(located)


def check_resolved(doc: Mapping[str, Any] | str | os.PathLike[str], source: str = "<inline>") -> list[Problem]:
    try:
        return _problems_or_none(_locate(doc, source))
    except DefinitionError as exc:
        return list(exc.problems)


def _locate(doc: Mapping[str, Any] | str | os.PathLike[str], source: str) -> Located:
    if isinstance(doc, Mapping):
        return _from_mapping(doc, source)
    if isinstance(doc, os.PathLike) or _looks_like_a_path(doc):
        read = read_document(doc)
        if isinstance(read, Problem):
            raise DefinitionError([read])
        return read
    try:
        return parse_yaml(doc, source)       # JSON is YAML, so one parser serves both
    except YamlSyntaxError as exc:
        raise DefinitionError([exc.problem]) from None


def _looks_like_a_path(text: str) -> bool:
    """One line naming an existing file, or a .json / .yaml name (so a missing file says "not found")."""
    line = text.strip()
    if not line or "\n" in line or line.startswith(("{", "[")):
        return False
    return os.path.isfile(line) or (line.endswith((".json", ".yaml", ".yml")) and ": " not in line)


def _from_mapping(doc: Mapping[str, Any], source: str) -> Located:
    # Already parsed: there are no lines to point at, so problems say 1:1 and rely on their path.  A JSON
    # round trip gives the plain values the schema and the checks expect (tuples -> lists, int keys -> str).
    try:
        return Located(source, json.loads(json.dumps(doc, default=_jsonable)))
    except (TypeError, ValueError) as exc:
        raise DefinitionError([Problem(source, 1, 1, "file", f"not a JSON-like document: {exc}")]) from None


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (tuple, frozenset, set)):
        return list(value)
    raise TypeError(f"cannot use a {type(value).__name__} value")


def _problems_or_none(doc: Located) -> list[Problem]:
    ruleset, problems = ruleset_problems(doc)
    game = check_game(doc, ("game",))
    problems += schema_problems(doc, "resolved-scenario", ruleset, game.factors) + game.problems
    found = CounterEntries.of([doc])
    kinds = (*ruleset_unit_types(ruleset), *game.unit_types) if ruleset != UNINSTALLED else ()
    problems += check_counters(found, tuple(dict.fromkeys(kinds)))
    hexes, grid_problems = hex_grid(doc, ("map", "grid"), grid_of(doc.get(("map", "grid"))))
    refs = resolved_refs(doc)
    problems += grid_problems
    if hexes is not None:
        # Road steps are not checked here: DESIGN §4's own example has a road 0101 -> 0202, which are not
        # neighbours on its grid, and the referee must accept that example.  Nor are movement-cost rows:
        # a resolved document may give part of a table and leave the rest to the ruleset's defaults.
        problems += check_map_refs(doc, hexes, replace(refs, roads=[]))
    sides = doc.get(("sides",))
    placed, reinforcements = _placed(doc, found), list(entries(doc, "reinforcements"))
    problems += check_placements(placed, reinforcements, found.pieces(),
                                 hexes, list(sides) if isinstance(sides, dict) else None, setup_rules(ruleset))
    problems += setup_contradictions(placed, reinforcements, found.pieces(), hexes)
    span, out_of_order = turn_range(doc)
    problems += out_of_order + turns_in_range(doc, span, reinforcements)
    return problems


def _placed(doc: Located, found: CounterEntries) -> list[Placed]:
    """Units and leaders with a place of their own.  A unit in the reinforcement box that a reinforcement
    entry brings on is placed by that entry, not here."""
    arriving = {u for e in entries(doc, "reinforcements") for u in _strings(e.data.get("units"))}
    return [Placed(e, "id") for e in (*found.units, *found.leaders)
            if ("hex" in e.data or "box" in e.data)
            and not (e.data.get("box") == "reinforcement" and e.data.get("id") in arriving)]


def _strings(value: Any) -> list[str]:
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def _build(doc: Located) -> Scenario:
    found = CounterEntries.of([doc])
    reinforcements = tuple(build_reinforcement(e) for e in entries(doc, "reinforcements"))
    placed = _placed(doc, found)
    order = [e.data["id"] for e in (*found.units, *found.leaders)]
    grid = grid_of(doc.get(("map", "grid")))
    assert grid is not None
    line, _ = doc.position(())
    game = check_game(doc, ("game",))
    return assemble.scenario(
        doc.data, map_def=build_map(doc, ("map",), grid, resolved_refs(doc)),
        counters=assemble.in_play(found, order, game.factors), setup=build_placements(placed, found.pieces()),
        reinforcements=reinforcements, tables=doc.get(("tables",), {}), source=f"{doc.file}:{line}",
        game=game.game)
