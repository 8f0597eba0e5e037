"""Game definitions: YAML files (counters, map, scenario, tables) and the resolved scenario, validated
against the JSON Schemas in ``modulebuilder/schemas`` and then checked for sense (ids, hexes, facings),
with every problem reported at once as ``file:line:column: field.path: message``.

    from modulebuilder.definitions import load_scenario, DefinitionError
    try:
        scenario = load_scenario("scenarios/borodino.yaml")
    except DefinitionError as exc:
        for problem in exc.problems: print(problem)

The names below are imported when first used (PEP 562), so that importing one light module of the package
(``cache``, ``problems``) does not import the whole loader, its YAML readers and jsonschema.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .loaders import load_counters, load_map, load_tables
    from .problems import DefinitionError, Problem
    from .resolved_read import check_resolved, load_resolved
    from .resolved_write import resolve
    from .scenario import load_scenario
    from .validate import validate_files

_WHERE = {
    "load_counters": "loaders", "load_map": "loaders", "load_tables": "loaders",
    "DefinitionError": "problems", "Problem": "problems",
    "check_resolved": "resolved_read", "load_resolved": "resolved_read",
    "resolve": "resolved_write", "load_scenario": "scenario", "validate_files": "validate",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
