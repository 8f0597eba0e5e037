"""The JSON Schemas: the shared ones in ``modulebuilder/schemas``, each ruleset's contribution, the combined
schema of a ruleset, and validation of a parsed document against it.

A shared schema marks the objects a ruleset may extend with ``"x-extension": "<point>"`` (``unit``,
``leader``, ``activation_group``, ``marker``, ``placement``, ``side``, ``options``, ``victory``, ``tables``,
``scenario``); a contribution (:mod:`.rulesets`) gives, under ``$defs.<point>``, the ``properties``,
``required``, ``allOf`` ... it adds there.  :func:`combined` merges them into one self-contained document
per file kind and ruleset: the shared schemas and the contribution are embedded under ``$defs`` (named by
their file names) with every ``$ref`` rewritten to point inside the document, and each extension point gets
the contribution's keywords merged in place.  Merging in place (rather than ``allOf`` beside the shared
object) keeps ``additionalProperties: false`` meaningful, so an unknown field is still "unknown field
'dfee' (did you mean 'dfe'?)", and keeps the combined file usable by any editor.  The same document is what
the loader validates with and what ``modulebuilder schemas`` writes for editors.

Without a ruleset (a counters file checked on its own that names none), the extension points accept the
fields of every known ruleset with their types, and require none of them.  The factor fields a game
declares (its game file's ``factors``) are one more extension of ``unit``, merged after the ruleset's.

A document is first checked by jsonschema-rs (compiled, far faster, full draft 2020-12, which
fastjsonschema is not: it ignores ``unevaluatedProperties`` and ``prefixItems`` and would pass documents that
break them).  Only a document it rejects goes through jsonschema, whose errors carry what the messages need.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterator, Literal

import jsonschema_rs

from .messages import problems_from_errors
from .problems import Problem
from .rulesets import NO_RULESET, UNINSTALLED, Contribution, contribution, known_rulesets
from .yamlpos import Located

if TYPE_CHECKING:     # jsonschema (slow to import) is imported only when a document fails the fast check
    from jsonschema import Draft202012Validator

Kind = Literal["counters", "map", "scenario", "tables", "resolved-scenario", "game"]
KINDS: tuple[Kind, ...] = ("counters", "map", "scenario", "tables", "resolved-scenario", "game")

EXTENSION_POINTS = ("activation_group", "unit", "leader", "marker", "placement", "side", "options", "victory",
                    "tables", "scenario")
DRAFT = "https://json-schema.org/draft/2020-12/schema"
_SKIPPED = {"$defs", "$comment", "$schema", "title", "description", "examples"}


def schema_file(kind: Kind) -> str:
    return f"{kind}.schema.json"


@lru_cache(maxsize=None)
def load_schema(kind: Kind) -> dict[str, Any]:
    """The shared schema of ``kind`` as shipped (extension points not merged)."""
    text = resources.files("modulebuilder.schemas").joinpath(schema_file(kind)).read_text(encoding="utf-8")
    return json.loads(text)


# --------------------------------------------------------------------------------------------- combining

def _rewrite(node: Any, own: str) -> Any:
    """A copy of ``node`` whose ``$ref``s point inside the combined document (``own``: where it sits)."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                file, _, fragment = value.partition("#")
                out[key] = (own if not file else f"#/$defs/{file}") + fragment
            else:
                out[key] = _rewrite(value, own)
        return out
    if isinstance(node, list):
        return [_rewrite(v, own) for v in node]
    return node


def _merge(target: dict[str, Any], ext: dict[str, Any]) -> None:
    """Merge a contribution's extension ``ext`` into the shared object schema ``target`` (in place)."""
    for key, value in ext.items():
        if key in _SKIPPED:
            continue
        if key == "properties":
            props = target.setdefault("properties", {})
            for name, sub in value.items():
                props[name] = sub if name not in props or props[name] == sub else {"allOf": [props[name], sub]}
        elif key == "required":
            required = target.setdefault("required", [])
            required += [x for x in value if x not in required]
        elif key == "allOf":
            target.setdefault("allOf", []).extend(value)
        elif key not in target:
            target[key] = value
        elif target[key] != value:
            target.setdefault("allOf", []).append({key: value})


def _apply(node: Any, extensions: dict[str, dict[str, Any]]) -> None:
    if isinstance(node, dict):
        point = node.pop("x-extension", None)
        if point is not None:
            node["x-extended"] = point          # so a game's fields can be merged after the ruleset's
        for value in node.values():
            _apply(value, extensions)
        if point in extensions:
            _merge(node, copy.deepcopy(extensions[point]))
    elif isinstance(node, list):
        for value in node:
            _apply(value, extensions)


def _objects(node: Any) -> Iterator[dict[str, Any]]:
    """Every object in a schema, each after the objects inside it: what is added to one is not walked."""
    if isinstance(node, dict):
        for value in node.values():
            yield from _objects(value)
        yield node
    elif isinstance(node, list):
        for value in node:
            yield from _objects(value)


def _strip_marks(node: Any) -> None:
    for obj in _objects(node):
        obj.pop("x-extended", None)


def _apply_game(node: Any, unit: dict[str, Any]) -> None:
    for obj in _objects(node):
        if obj.get("x-extended") == "unit":
            _merge(obj, copy.deepcopy(unit))


def _key(c: Contribution) -> str:
    return f"ruleset-{c.ruleset}"


def _extensions_of(c: Contribution) -> dict[str, dict[str, Any]]:
    defs = _rewrite(c.schema.get("$defs", {}), f"#/$defs/{_key(c)}")
    return {p: defs[p] for p in EXTENSION_POINTS if isinstance(defs.get(p), dict)}


def _union(contributions: list[Contribution]) -> dict[str, dict[str, Any]]:
    """Every known ruleset's fields, types kept, nothing required: for files checked without a ruleset."""
    out: dict[str, dict[str, Any]] = {}
    for c in contributions:
        for point, ext in _extensions_of(c).items():
            props = out.setdefault(point, {"properties": {}})["properties"]
            for name, sub in (ext.get("properties") or {}).items():
                if name not in props:
                    props[name] = sub
                elif sub != props[name]:
                    alts = props[name]["anyOf"] if set(props[name]) == {"anyOf"} else [props[name]]
                    props[name] = {"anyOf": alts + ([sub] if sub not in alts else [])}
    return out


def _game_extension(factors: tuple[str, ...]) -> dict[str, Any]:
    """The unit fields a game declares: each factor (``back`` may then give its value on the back face)."""
    value = {"$ref": f"#/$defs/{schema_file('game')}/$defs/factor_value"}
    return {"properties": {f: {**value, "description": "A factor field the game declares."} for f in factors}}


# Unit fields that say what a counter is, not what a face prints: never among a back face's values.
NOT_ON_BACK = frozenset({"id", "name", "short_name", "kind", "side", "ag", "corps", "brigade", "flags", "size",
                         "count", "echelon", "back", "disordered"})


def _fill_back(node: Any, open_fields: bool) -> None:
    """Give every unit's ``back`` the value fields the unit itself may carry (the ruleset's and the game's),
    so the back of a two-step unit is checked with the same fields, from whichever file it is read."""
    for obj in _objects(node):
        props = obj.get("properties")
        if obj.get("x-extended") == "unit" and isinstance(props, dict) and isinstance(props.get("back"), dict):
            props["back"] = {**props["back"], "additionalProperties": open_fields,
                             "properties": {k: v for k, v in props.items() if k not in NOT_ON_BACK}}


def _open(node: Any) -> None:
    """Let the extension points take any field: the definitions of a ruleset that is not installed."""
    for obj in _objects(node):
        if "x-extended" in obj:
            obj["additionalProperties"] = True


@lru_cache(maxsize=None)
def combined(kind: Kind, ruleset: str | None = None, factors: tuple[str, ...] = ()) -> dict[str, Any]:
    """The self-contained schema of ``kind`` for scenarios of ``ruleset`` in a game that declares the factor
    fields ``factors``.  ``ruleset`` None: any ruleset (see above); ``NO_RULESET``: a game with no ruleset,
    the shared fields and the game's alone; ``UNINSTALLED``: a ruleset that is not installed, whose fields
    cannot be known, so the extension points take any field and the shared fields are still checked.

    Raises :class:`~.rulesets.ContributionError` when the ruleset's contribution cannot be read; a ruleset
    without a contribution is checked as None.
    """
    if ruleset in (NO_RULESET, UNINSTALLED):
        found: list[Contribution] = []
        extensions: dict[str, dict[str, Any]] = {}
    else:
        found = [c for c in (contribution(ruleset),) if c is not None] if ruleset else \
            [c for r in known_rulesets() if (c := contribution(r)) is not None]
        extensions = _extensions_of(found[0]) if ruleset and found else _union(found)
    defs: dict[str, Any] = {}
    for k in KINDS:
        name = schema_file(k)
        doc = _rewrite(load_schema(k), f"#/$defs/{name}")
        doc.pop("$schema", None)
        _apply(doc, extensions)
        if factors:
            _apply_game(doc, _game_extension(factors))
        if ruleset == UNINSTALLED:
            _open(doc)
        _fill_back(doc, ruleset == UNINSTALLED)
        _strip_marks(doc)
        if k == "scenario" and found and ruleset not in (None, NO_RULESET, UNINSTALLED):
            # A scenario checked as one of this ruleset's says so: leaving ``ruleset`` out is a game with no
            # ruleset, checked with the shared schema (or a copy combined for no ruleset).
            doc["required"] = [*doc.get("required", ()), "ruleset"]
        defs[name] = doc
    for c in found:
        defs[_key(c)] = {"$defs": {k: v for k, v in _rewrite(c.schema.get("$defs", {}), f"#/$defs/{_key(c)}").items()
                                   if k not in EXTENSION_POINTS}}
    shared = load_schema(kind)
    for_whom = {None: " (fields of any ruleset, none required)", NO_RULESET: " for a game with no ruleset",
                UNINSTALLED: " for a ruleset that is not installed (its fields unchecked)"}.get(
        ruleset, f" for the {ruleset} ruleset")
    return {
        "$schema": DRAFT,
        **({"x-ruleset": ruleset} if ruleset and ruleset != UNINSTALLED else {}),      # read by validate when a copy sits in any folder
        "title": shared.get("title", kind),
        "description": f"{shared.get('description', '')} Combined{for_whom} by modulebuilder "
                       "(docs/definitions.md); do not edit, run `modulebuilder schemas` again.".strip(),
        "$ref": f"#/$defs/{schema_file(kind)}",
        "$defs": defs,
    }


# --------------------------------------------------------------------------------------------- validating

@lru_cache(maxsize=None)
def validator(kind: Kind, ruleset: str | None = None, factors: tuple[str, ...] = ()) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(combined(kind, ruleset, factors))


@lru_cache(maxsize=None)
def _fast_validator(kind: Kind, ruleset: str | None, factors: tuple[str, ...] = ()) -> Any:
    return jsonschema_rs.validator_for(combined(kind, ruleset, factors))


def is_valid(data: Any, kind: Kind, ruleset: str | None = None, factors: tuple[str, ...] = ()) -> bool:
    """Whether ``data`` satisfies the ``kind`` schema of ``ruleset`` (the fast check alone)."""
    return bool(_fast_validator(kind, ruleset, factors).is_valid(data))


def schema_problems(doc: Located, kind: Kind, ruleset: str | None = None,
                    factors: tuple[str, ...] = ()) -> list[Problem]:
    """Every way ``doc`` breaks the ``kind`` schema of ``ruleset`` in a game declaring ``factors``."""
    # Listing the errors of a large counters file takes seconds, and one file is validated again for each
    # scenario that names it.  Parsed files are shared per version on disk (files.read_document), so the same
    # document object means the same text: remember its result, holding the object so its id stays unique.
    key = (id(doc), kind, ruleset, factors)
    cached = _RESULTS.get(key)
    if cached is not None and cached[0] is doc:
        return list(cached[1])
    if is_valid(doc.data, kind, ruleset, factors):
        problems: list[Problem] = []
    else:
        problems = problems_from_errors(doc, validator(kind, ruleset, factors).iter_errors(doc.data),
                                        (*field_names(), *factors), field_owners())
    if len(_RESULTS) >= _RESULTS_KEPT:
        _RESULTS.pop(next(iter(_RESULTS)))          # forget the oldest
    _RESULTS[key] = (doc, tuple(problems))
    return problems


_RESULTS_KEPT = 64
_RESULTS: dict[tuple[int, str, str | None, tuple[str, ...]], tuple[Located, tuple[Problem, ...]]] = {}


@lru_cache(maxsize=None)
def field_owners() -> dict[str, tuple[str, ...]]:
    """Field name -> the rulesets whose contributions declare it (and the shared schemas do not)."""
    shared: set[str] = set()
    for kind in KINDS:
        _collect_properties(load_schema(kind), shared)
    out: dict[str, list[str]] = {}
    for ruleset in known_rulesets():
        c = contribution(ruleset)
        names: set[str] = set()
        for point in EXTENSION_POINTS:
            ext = (c.schema.get("$defs") or {}).get(point) if c else None
            if isinstance(ext, dict) and isinstance(ext.get("properties"), dict):
                names.update(ext["properties"])
        for name in sorted(names - shared):
            out.setdefault(name, []).append(ruleset)
    return {k: tuple(v) for k, v in out.items()}


def _collect_properties(node: Any, names: set[str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict):
            names.update(node["properties"])
        for value in node.values():
            _collect_properties(value, names)
    elif isinstance(node, list):
        for value in node:
            _collect_properties(value, names)


@lru_cache(maxsize=None)
def field_names() -> tuple[str, ...]:
    """Every field name the shared schemas or any ruleset defines (for "did you mean 'dfe'?")."""
    names: set[str] = set()
    for kind in KINDS:
        _collect_properties(combined(kind, None), names)
    return tuple(sorted(names))


# --------------------------------------------------------------------------------------------- for editors

def combined_text(kind: Kind, ruleset: str | None, factors: tuple[str, ...] = ()) -> str:
    return json.dumps(combined(kind, ruleset, factors), indent=1, ensure_ascii=False) + "\n"


def write_combined(folder: str, ruleset: str | None, factors: tuple[str, ...] = ()) -> list[str]:
    """Write the combined schema of every kind for ``ruleset`` (``NO_RULESET``: a game with none) and a game
    declaring ``factors`` into ``folder``; the files written."""
    import os

    os.makedirs(folder, exist_ok=True)
    written = []
    for kind in KINDS:
        path = os.path.join(folder, schema_file(kind))
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(combined_text(kind, ruleset, factors))
        written.append(path)
    return written
