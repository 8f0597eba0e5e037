"""Turn jsonschema's validation errors into sentences a module author understands.

jsonschema speaks about schemas ("'infantr' is not one of [...]", "Additional properties are not allowed");
an author wants to know which field of which unit is wrong and what would be right.  Each error becomes one
or more :class:`Problem` placed at the line and column of the offending key or value.
"""
from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

if TYPE_CHECKING:     # importing jsonschema is slow; only a document with problems needs it
    from jsonschema.exceptions import ValidationError

from .problems import Path, Problem, format_path
from .yamlpos import Located

_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping of fields",
    "null": "null",
}

# Errors that say "this branch wants a different kind of value", used to find the branch of an anyOf /
# oneOf that the author meant.
_SHAPE_VALIDATORS = {"type", "const", "enum"}


def problems_from_errors(doc: Located, errors: Iterable[ValidationError],
                         vocabulary: Sequence[str] = (), owners: Mapping[str, Sequence[str]] | None = None
                         ) -> list[Problem]:
    """Problems for jsonschema ``errors`` on ``doc``; ``vocabulary`` (every field name the schemas know)
    feeds "did you mean" where the schema of the misspelt field's object is behind a ``$ref``; ``owners``
    (field -> the rulesets that declare it) explains a field that belongs to another ruleset."""
    out: list[Problem] = []
    for error in errors:
        out.extend(_translate(doc, error, vocabulary, owners or {}))
    return sorted(set(out))


def show(value: Any) -> str:
    """A value as the author wrote it: strings quoted, null/true/false in YAML spelling."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _translate(doc: Located, e: ValidationError, vocabulary: Sequence[str],
               owners: Mapping[str, Sequence[str]]) -> Iterator[Problem]:
    path: Path = tuple(e.absolute_path)
    v = e.validator
    if "propertyNames" in e.relative_schema_path:
        # The instance is a key of the mapping at ``path``: point at that key.
        key_path = path + (str(e.instance),)
        yield doc.problem(key_path, f"key {_expected(e)}", at_key=True)
        return
    if v == "required":
        present = e.instance if isinstance(e.instance, dict) else {}
        for name in e.validator_value:
            if name not in present:
                yield _named(doc, path, path + (name,), "required field missing")
        return
    if v in ("additionalProperties", "unevaluatedProperties"):
        yield from _unknown_fields(doc, path, e, vocabulary, owners)
        return
    if v in ("anyOf", "oneOf"):
        yield from _alternatives(doc, path, e, vocabulary, owners)
        return
    if (v == "not" and e.validator_value == {}) or v is None:   # {"not": {}}: a field that does not belong
        yield doc.problem(path, _forbidden(doc, path), at_key=True)
        return
    yield doc.problem(path, _message(e))


def _named(doc: Located, where: Path, named: Path, message: str) -> Problem:
    """A problem located at ``where`` but naming ``named`` (a field that is absent, so has no position)."""
    line, column = doc.position(where)
    return Problem(doc.file, line, column, format_path(named), message)


def _unknown_fields(doc: Located, path: Path, e: ValidationError, vocabulary: Sequence[str],
                    owners: Mapping[str, Sequence[str]]) -> Iterator[Problem]:
    instance = e.instance if isinstance(e.instance, dict) else {}
    # jsonschema lists the offending names, repr()-quoted, between parentheses at the end of its message.
    listed = e.message[e.message.rfind("("):]
    known = sorted((e.schema.get("properties") or {}).keys()) if isinstance(e.schema, dict) else []
    for name in instance:
        if repr(name) not in listed:
            continue
        message = f"unknown field {name!r}"
        if name in owners and name not in known:
            # Spelt right, but another ruleset's field (a Musket & Pike formation in a Triumph & Glory game).
            yield doc.problem(path + (name,), f"{message} (a field of {' and '.join(owners[name])}, not of this "
                                              "scenario's ruleset)", at_key=True)
            continue
        # The object's own fields first; then every field any schema knows, since an object whose fields
        # come through a $ref (a resolved unit) lists only some of them itself.
        close = (difflib.get_close_matches(name, known, n=1, cutoff=0.75)
                 or difflib.get_close_matches(name, vocabulary, n=1, cutoff=0.75))
        if close and close[0] == name:       # spelt right, but a field of something else
            message += " (no such field here)"
        elif close:
            message += f" (did you mean {close[0]!r}?)"
        yield doc.problem(path + (name,), message, at_key=True)


def _forbidden(doc: Located, path: Path) -> str:
    field = path[-1] if path else "this field"
    parent = doc.get(path[:-1])
    if isinstance(parent, dict) and isinstance(parent.get("kind"), str):
        return f"{parent['kind']} units have no {field}"
    if isinstance(parent, dict) and "box" in parent:
        return f"not allowed with box (a unit in a box has no {field})"
    return "not allowed here"


def _alternatives(doc: Located, path: Path, e: ValidationError, vocabulary: Sequence[str],
                  owners: Mapping[str, Sequence[str]]) -> Iterator[Problem]:
    by_branch: dict[int, list[ValidationError]] = {}
    for sub in e.context or ():
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    # A branch whose errors are all deeper than this value, or are not about its shape, is the one the
    # author was writing; report its errors rather than a vague "does not match any of".
    meant = [errs for errs in by_branch.values()
             if not any(s.validator in _SHAPE_VALIDATORS and len(s.absolute_path) == len(e.absolute_path)
                        for s in errs)]
    if len(meant) == 1 and meant[0]:
        for sub in meant[0]:
            yield from _translate(doc, sub, vocabulary, owners)
        return
    yield doc.problem(path, f"{_expected(e)}")


def _expected(e: ValidationError) -> str:
    """``must be <what the schema wants> (got <value>)``."""
    return f"must be {_wanted(e)} (got {show(e.instance)})"


def _wanted(e: ValidationError) -> str:
    schema = e.schema if isinstance(e.schema, dict) else {}
    # A title names a value's format ("a hex number in quotes, like ..."); a type error on a plain field
    # (or on a whole file, whose title is the file kind) is better told by the types.
    if schema.get("title") and (e.validator != "type" or "pattern" in schema):
        return str(schema["title"])
    if e.validator == "pattern":
        return f"text matching {e.validator_value}"
    if e.validator == "type":
        types = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        return " or ".join(_TYPE_NAMES.get(t, t) for t in types)
    if e.validator == "enum":
        return "one of " + ", ".join(str(x) for x in e.validator_value)
    return "valid"


# Messages for the simple keywords: {want} is the schema's value, {got} the author's, {n} its length.
_TEMPLATES = {
    "enum": "must be one of {want_list} (got {got})",
    "const": "must be {want_shown} (got {got})",
    "minimum": "must be at least {want} (got {got})",
    "maximum": "must be at most {want} (got {got})",
    "exclusiveMinimum": "must be more than {want} (got {got})",
    "exclusiveMaximum": "must be less than {want} (got {got})",
    "minItems": "must have at least {want} {items} (got {n})",
    "maxItems": "must have at most {want} {items} (got {n})",
    "minLength": "must not be empty",
    "minProperties": "must not be empty",
    "uniqueItems": "must not list the same value twice",
}


def _message(e: ValidationError) -> str:
    v, want, got = e.validator, e.validator_value, e.instance
    if v == "type":
        text = f"must be {_wanted(e)} (got {show(got)})"
        types = want if isinstance(want, list) else [want]
        if "string" in types and isinstance(got, (int, float)) and not isinstance(got, bool) \
                and "quotes" not in text:
            text += "; put it in quotes"          # "0304" unquoted is the number 304
        return text
    if v == "pattern":
        return _expected(e)
    template = _TEMPLATES.get(str(v))
    if template is None:
        return e.message                          # a keyword our schemas do not use
    return template.format(
        want=want, got=show(got), n=len(got) if isinstance(got, (list, str, dict)) else "",
        want_list=", ".join(str(x) for x in want) if isinstance(want, list) else want,
        want_shown=show(want), items="item" if want == 1 else "items")
