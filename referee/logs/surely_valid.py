"""A check that says *surely valid* for the events a log is made of, without importing jsonschema-rs.

jsonschema-rs decides whether an event is valid (``jsonlog._EventValidator``), but importing its compiled
extension imports ``email.utils`` (with socket, datetime, calendar, random, decimal …) at initialisation:
~48 M instructions, 12 % of a one-event ``referee check`` (cachegrind; ~15 ms).  Most events of most logs are
plainly valid: an object of strings, small integers and lists of them.  So each event type's schema (its
``$ref``s inlined) is compiled here into a predicate that answers True only when the event is valid by a
reading too strict to be wrong, and False for *don't know* — never "invalid": a False sends the event to
jsonschema-rs, which decides as it always did, and jsonschema words the problems.  So no log is accepted or
refused differently; a log this check cannot vouch for only costs jsonschema-rs's import.

Too strict to be wrong means: exact JSON types (``type(x) is dict``/``list``/``str``/``bool``, an ``int`` that
is not a bool and fits 64 bits — floats, big integers, mapping or sequence subclasses are *don't know*);
strings that are valid UTF-8 (a lone surrogate is *don't know*); ``const``/``enum`` equal in value and type;
``minimum``/``maximum`` only with integer bounds; ``pattern`` only where its text is one this module knows the
meaning of in both regex dialects (``PATTERNS``).  A schema with any other keyword (``oneOf``, ``$ref`` left
over, ``format`` …) is not compiled at all: its events go to jsonschema-rs.

Why hand-written: the validators that are well kept cost more to import than they would save (fastjsonschema
~59 M instructions, jsonschema ~0.08 s); this is a predicate over seven keywords, not a validator.
tests/speed/test_surely_valid.py holds it to jsonschema-rs on the sample logs' events and on generated ones.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

Check = Callable[[Any], bool]

# Keywords that do not constrain (annotations): ignored.
ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "$schema", "$id",
                         "deprecated", "readOnly", "writeOnly"})
# Patterns whose meaning is the same under ECMA 262 (jsonschema-rs) and Python's re, with the Python
# predicate that tests it: ASCII digits only (Python's [0-9] is ASCII; no \d, no $ before a newline).
PATTERNS: Mapping[str, Check] = {
    "^[0-9]{4,6}$": lambda s: 4 <= len(s) <= 6 and s.isascii() and s.isdigit(),
}
_I64 = 1 << 63


def compile_schema(schema: Any) -> Check | None:
    """The surely-valid predicate of ``schema``, or None when it uses what this module does not read."""
    try:
        return _compile(schema)
    except _Unsupported:
        return None


class _Unsupported(Exception):
    pass


def _utf8(s: str) -> bool:
    if s.isascii():
        return True
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:          # a lone surrogate: jsonschema-rs cannot take it as a string
        return False
    return True


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values and of the same Python types throughout (1 and 1.0, or True and 1, are *don't
    know*, not equal)."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _is_int(x: Any) -> bool:
    return type(x) is int and -_I64 <= x < _I64


_TYPES: Mapping[str, Check] = {
    "object": lambda x: type(x) is dict and all(type(k) is str and _utf8(k) for k in x),
    "array": lambda x: type(x) is list,
    "string": lambda x: type(x) is str and _utf8(x),
    "integer": _is_int,
    "number": _is_int,                  # floats: don't know
    "boolean": lambda x: type(x) is bool,
    "null": lambda x: x is None,
}


def _compile(schema: Any) -> Check:
    if schema is True or schema == {}:
        return lambda x: _plain(x)
    if not isinstance(schema, Mapping):
        raise _Unsupported(schema)
    checks: list[Check] = []
    keys = set(schema) - ANNOTATIONS
    known = {"type", "const", "enum", "minLength", "pattern", "minimum", "maximum", "properties", "required",
             "additionalProperties", "items", "minItems", "maxItems", "anyOf"}
    if keys - known:
        raise _Unsupported(keys - known)
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not names or any(n not in _TYPES for n in names):
            raise _Unsupported(schema["type"])
        tests = [_TYPES[n] for n in names]
        checks.append(tests[0] if len(tests) == 1 else (lambda x, tests=tests: any(t(x) for t in tests)))
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda x: _same(x, const) and _plain(x))
    if "enum" in schema:
        if not isinstance(schema["enum"], list):
            raise _Unsupported("enum")
        values = list(schema["enum"])
        checks.append(lambda x: any(_same(x, v) for v in values) and _plain(x))
    if "minLength" in schema:
        n = _int_bound(schema["minLength"])
        checks.append(lambda x: type(x) is str and _utf8(x) and len(x) >= n)
    if "pattern" in schema:
        test = PATTERNS.get(schema["pattern"])
        if test is None:
            raise _Unsupported(schema["pattern"])
        checks.append(lambda x: type(x) is str and test(x))
    if "minimum" in schema:
        low = _int_bound(schema["minimum"])
        checks.append(lambda x: _is_int(x) and x >= low)
    if "maximum" in schema:
        high = _int_bound(schema["maximum"])
        checks.append(lambda x: _is_int(x) and x <= high)
    if keys & {"properties", "required", "additionalProperties"}:
        checks.append(_object(schema))
    if keys & {"items", "minItems", "maxItems"}:
        checks.append(_array(schema))
    if "anyOf" in schema:
        if not isinstance(schema["anyOf"], list):
            raise _Unsupported("anyOf")
        subs = [_compile(s) for s in schema["anyOf"]]
        if not subs:
            raise _Unsupported("anyOf: []")
        checks.append(lambda x: any(s(x) for s in subs))
    if not checks:
        return lambda x: _plain(x)
    if len(checks) == 1:
        return checks[0]
    return lambda x: all(c(x) for c in checks)


def _int_bound(v: Any) -> int:
    if not _is_int(v):
        raise _Unsupported(v)
    return v


def _plain(x: Any) -> bool:
    """A value made only of what this module vouches for (any JSON value the schema does not constrain)."""
    t = type(x)
    if t is str:
        return _utf8(x)
    if t is bool or x is None:
        return True
    if t is int:
        return _is_int(x)
    if t is list:
        return all(_plain(v) for v in x)
    if t is dict:
        return all(type(k) is str and _utf8(k) and _plain(v) for k, v in x.items())
    return False


def _object(schema: Mapping[str, Any]) -> Check:
    if not isinstance(schema.get("properties", {}), Mapping):
        raise _Unsupported("properties")
    props = {k: _compile(v) for k, v in (schema.get("properties") or {}).items()}
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(type(k) is str for k in required):
        raise _Unsupported("required")
    required = tuple(required)
    extra = schema.get("additionalProperties", True)
    if extra is False:
        other: Check | None = None
    elif extra is True:
        other = _plain
    else:
        other = _compile(extra)

    def check(x: Any) -> bool:
        if type(x) is not dict:
            return False            # not an object: the type keyword, if any, decides; don't know here
        for k in required:
            if k not in x:
                return False
        for k, v in x.items():
            if type(k) is not str or not _utf8(k):
                return False
            test = props.get(k, other)
            if test is None or not test(v):
                return False
        return True
    return check


def _array(schema: Mapping[str, Any]) -> Check:
    item = _compile(schema["items"]) if "items" in schema else _plain
    low = _int_bound(schema.get("minItems", 0))
    high = _int_bound(schema["maxItems"]) if "maxItems" in schema else None

    def check(x: Any) -> bool:
        if type(x) is not list or len(x) < low or (high is not None and len(x) > high):
            return False
        return all(item(v) for v in x)
    return check
