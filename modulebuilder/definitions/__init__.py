"""Game definitions: YAML files (counters, map, scenario, tables) and the resolved scenario, validated
against the JSON Schemas in ``modulebuilder/schemas`` and then checked for sense (ids, hexes, facings),
with every problem reported at once as ``file:line:column: field.path: message``.

    from modulebuilder.definitions import load_scenario, DefinitionError
    try:
        scenario = load_scenario("scenarios/borodino.yaml")
    except DefinitionError as exc:
        for problem in exc.problems: print(problem)
"""
from __future__ import annotations

from .loaders import load_counters, load_map, load_tables
from .problems import DefinitionError, Problem
from .resolved_read import check_resolved, load_resolved
from .resolved_write import resolve
from .scenario import load_scenario
from .validate import validate_files

__all__ = [
    "DefinitionError", "Problem", "check_resolved", "load_counters", "load_map", "load_resolved",
    "load_scenario", "load_tables", "resolve", "validate_files",
]
