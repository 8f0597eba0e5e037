"""The JSON Schemas shipped in ``modulebuilder/schemas`` and validation of a parsed document against one.

The schemas refer to each other by file name (``counters.schema.json#/$defs/unit_fields``) so that editors,
which resolve references relative to the schema file, and this module see the same thing.

A document is first checked by jsonschema-rs (compiled, ~50x faster, full draft 2020-12, which
fastjsonschema is not: it ignores ``unevaluatedProperties`` and ``prefixItems`` and would pass documents that
break them).  Only a document it rejects goes through jsonschema, whose errors carry what the messages need.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

import jsonschema_rs

from .messages import problems_from_errors
from .problems import Problem
from .yamlpos import Located

if TYPE_CHECKING:     # jsonschema is imported when a document fails the fast check (~0.2 s to import)
    from jsonschema import Draft202012Validator
    from referencing import Registry

Kind = Literal["counters", "map", "scenario", "tables", "resolved-scenario"]
KINDS: tuple[Kind, ...] = ("counters", "map", "scenario", "tables", "resolved-scenario")


def schema_file(kind: Kind) -> str:
    return f"{kind}.schema.json"


@lru_cache(maxsize=None)
def load_schema(kind: Kind) -> dict[str, Any]:
    text = resources.files("modulebuilder.schemas").joinpath(schema_file(kind)).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def _registry() -> Registry:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    return Registry().with_resources(
        (schema_file(k), Resource.from_contents(load_schema(k), default_specification=DRAFT202012)) for k in KINDS
    )


@lru_cache(maxsize=None)
def validator(kind: Kind) -> Draft202012Validator:
    # The schema is registered under its file name and validated from that base, so "tables.schema.json"
    # and "#/$defs/hex" inside it resolve exactly as an editor resolves them.
    from jsonschema import Draft202012Validator

    schema = {"$ref": schema_file(kind)}
    return Draft202012Validator(schema, registry=_registry())


# jsonschema-rs resolves a relative reference only against a base with an authority; this one is never
# fetched (offline), it only names the registered schemas so "map.schema.json#/$defs/hex" finds its file.
_FAST_BASE = "https://modulebuilder.invalid/schemas/"


@lru_cache(maxsize=None)
def _fast_registry() -> Any:
    return jsonschema_rs.Registry([(_FAST_BASE + schema_file(k), load_schema(k)) for k in KINDS])


@lru_cache(maxsize=None)
def _fast_validator(kind: Kind) -> Any:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": _FAST_BASE + schema_file(kind)}
    return jsonschema_rs.validator_for(schema, registry=_fast_registry(), offline=True)


def is_valid(data: Any, kind: Kind) -> bool:
    """Whether ``data`` satisfies the ``kind`` schema (the fast check alone)."""
    return bool(_fast_validator(kind).is_valid(data))


def schema_problems(doc: Located, kind: Kind) -> list[Problem]:
    """Every way ``doc`` breaks the ``kind`` schema, as author-readable problems."""
    # Listing the errors of a large counters file takes seconds, and one file is validated again for each
    # scenario that names it.  Parsed files are shared per version on disk (files.read_document), so the same
    # document object means the same text: remember its result, holding the object so its id stays unique.
    key = (id(doc), kind)
    cached = _RESULTS.get(key)
    if cached is not None and cached[0] is doc:
        return list(cached[1])
    if is_valid(doc.data, kind):
        problems: list[Problem] = []
    else:
        problems = problems_from_errors(doc, validator(kind).iter_errors(doc.data), field_names())
    if len(_RESULTS) >= _RESULTS_KEPT:
        _RESULTS.pop(next(iter(_RESULTS)))          # forget the oldest
    _RESULTS[key] = (doc, tuple(problems))
    return problems


_RESULTS_KEPT = 64
_RESULTS: dict[tuple[int, str], tuple[Located, tuple[Problem, ...]]] = {}


@lru_cache(maxsize=None)
def field_names() -> tuple[str, ...]:
    """Every field name any of our schemas defines (for "did you mean 'dfe'?")."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                names.update(node["properties"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for kind in KINDS:
        walk(load_schema(kind))
    return tuple(sorted(names))
