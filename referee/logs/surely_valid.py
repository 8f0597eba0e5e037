"""A check that says *surely valid* for the events a log is made of, without importing jsonschema-rs.

jsonschema-rs decides whether an event is valid (``jsonlog._EventValidator``), but importing its compiled
extension imports ``email.utils`` (with socket, datetime, calendar, random, decimal …) at initialisation, an
eighth of a one-event ``referee check`` (docs/speed.md §1).  Most events of most logs are
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

Why hand-written: the validators that are well kept cost more to import than they would save (fastjsonschema,
jsonschema); this is a predicate over seven keywords, not a validator.  Each schema is written out as Python
source (one function per object or array, string and integer constants as literals) and compiled once per event
type, so a move is checked nearly as fast as jsonschema-rs checks it, and a log of up to
``jsonlog.SURELY_EVENTS`` events never imports jsonschema-rs (the figures: docs/speed.md §1).
tests/speed/test_surely_valid.py holds it to jsonschema-rs on the sample logs' events and on generated ones.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from modulebuilder.user_cache import remembered_code

Check = Callable[[Any], bool]

# Keywords that do not constrain (annotations): ignored.
ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "$schema", "$id",
                         "deprecated", "readOnly", "writeOnly"})
# Patterns whose meaning is the same under ECMA 262 (jsonschema-rs) and Python's re, with the Python
# test that reads it, an expression over ``{v}`` that holds only for ASCII text: ASCII digits only (Python's
# [0-9] is ASCII; no \d, no $ before a newline).
PATTERNS: Mapping[str, str] = {
    "^[0-9]{4,6}$": "4 <= len({v}) <= 6 and {v}.isdigit() and {v}.isascii()",
}
_I64 = 1 << 63
MISSING: Any = object()


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


# Each JSON type's test, as conjuncts over the value ``{v}``.
_TYPES: Mapping[str, tuple[str, ...]] = {
    "object": ("type({v}) is dict", "all(type(k) is str and _utf8(k) for k in {v})"),
    "array": ("type({v}) is list",),
    "string": ("type({v}) is str", "({v}.isascii() or _utf8({v}))"),
    "integer": ("type({v}) is int", "-_I64 <= {v} < _I64"),
    "number": ("type({v}) is int", "-_I64 <= {v} < _I64"),       # floats: don't know
    "boolean": ("type({v}) is bool",),
    "null": ("{v} is None",),
}


def _compile(schema: Any) -> Check:
    """The predicate as one generated Python function (``_Writer``), without a call per keyword as a tree of
    closures would make (several times slower; docs/speed.md §1)."""
    w = _Writer()
    top = w.node(schema, "x")
    w.lines += ["def check(x):", f"    return {top}"]
    ns = dict(w.ns)
    exec(_code("\n".join(w.lines) + "\n"), ns)
    return ns["check"]


def _code(source: str) -> Any:
    """The predicate's code object, kept in the user's cache by its text (``user_cache.remembered_code``):
    compiling one per event type at every start would be a visible share of a short check."""
    return remembered_code("validators", source, "<surely_valid>")


def _literal(value: Any) -> str:
    """Python source for a string or an integer constant (``repr`` is valid source for both)."""
    assert type(value) in (str, int)
    return repr(value)


class _Writer:
    """Writes the predicate's source: each schema node an expression over a variable (``node``), an object or an
    array a function of its own.  String and integer constants are written as literals (``repr``), any other
    constant goes into the namespace."""

    def __init__(self) -> None:
        self.ns: dict[str, Any] = {"_utf8": _utf8, "_same": _same, "_plain": _plain, "_I64": _I64,
                                   "_MISSING": MISSING}
        self.lines: list[str] = []

    def const(self, value: Any) -> str:
        name = f"_c{len(self.ns)}"
        self.ns[name] = value
        return name

    def node(self, schema: Any, v: str) -> str:
        """An expression that is True only when the value named ``v`` is surely valid under ``schema``."""
        terms = self._terms(schema, v)
        return " and ".join(dict.fromkeys(terms)) if terms else f"_plain({v})"

    def _terms(self, schema: Any, v: str) -> list[str]:
        """The conjuncts of ``node`` (repeated ones are written once: ``type: string`` and ``minLength`` both
        test the type)."""
        if schema is True or schema == {}:
            return [f"_plain({v})"]
        if not isinstance(schema, Mapping):
            raise _Unsupported(schema)
        keys = set(schema) - ANNOTATIONS
        known = {"type", "const", "enum", "minLength", "pattern", "minimum", "maximum", "properties", "required",
                 "additionalProperties", "items", "minItems", "maxItems", "anyOf"}
        if keys - known:
            raise _Unsupported(keys - known)
        terms: list[str] = []
        is_object = bool(keys & {"properties", "required", "additionalProperties"})
        if "type" in schema:
            names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not names or any(n not in _TYPES for n in names):
                raise _Unsupported(schema["type"])
            if names == ["object"] and is_object:
                pass            # the object's function tests the type and every key (``_object``)
            elif len(names) == 1:
                terms += [t.format(v=v) for t in _TYPES[names[0]]]
            else:
                terms.append("(" + " or ".join(" and ".join(_TYPES[n]).format(v=v) for n in names) + ")")
        if "const" in schema:
            terms += self._equal(v, [schema["const"]])
        if "enum" in schema:
            if not isinstance(schema["enum"], list):
                raise _Unsupported("enum")
            terms += self._equal(v, list(schema["enum"]))
        if "minLength" in schema:
            n = _int_bound(schema["minLength"])
            terms += [t.format(v=v) for t in _TYPES["string"]] + [f"len({v}) >= {n}"]
        if "pattern" in schema:
            test = PATTERNS.get(schema["pattern"])
            if test is None:
                raise _Unsupported(schema["pattern"])
            terms += [f"type({v}) is str", test.format(v=v)]
            ascii_ = _TYPES["string"][1].format(v=v)
            terms = [t for t in terms if t != ascii_]       # each known pattern admits ASCII text only
        if "minimum" in schema:
            terms += [t.format(v=v) for t in _TYPES["integer"]] + [f"{v} >= {_int_bound(schema['minimum'])}"]
        if "maximum" in schema:
            terms += [t.format(v=v) for t in _TYPES["integer"]] + [f"{v} <= {_int_bound(schema['maximum'])}"]
        if is_object:
            terms.append(f"{self._object(schema)}({v})")
        if keys & {"items", "minItems", "maxItems"}:
            terms.append(f"{self._array(schema)}({v})")
        if "anyOf" in schema:
            if not isinstance(schema["anyOf"], list):
                raise _Unsupported("anyOf")
            if not schema["anyOf"]:
                raise _Unsupported("anyOf: []")
            terms.append("(" + " or ".join(f"({self.node(s, v)})" for s in schema["anyOf"]) + ")")
        return terms

    def _equal(self, v: str, values: list[Any]) -> list[str]:
        """``const``/``enum``: equal in value and in type throughout, and plain.  Strings that are valid UTF-8
        are compared as literals (the common case: an event's ``type``, a ``mode``)."""
        if values and all(type(c) is str and _utf8(c) for c in values):
            if len(values) == 1:
                return [f"type({v}) is str", f"{v} == {_literal(values[0])}"]
            return [f"type({v}) is str", f"{v} in {{{', '.join(_literal(c) for c in values)}}}"]
        return [f"any(_same({v}, c) for c in {self.const(values)})", f"_plain({v})"]

    def _function(self, body: list[str]) -> str:
        name = f"_f{len(self.lines)}"
        self.lines += [f"def {name}(x):", *(f"    {line}" for line in body)]
        return name

    def _object(self, schema: Mapping[str, Any]) -> str:
        """An object: the required keys there; every key a string; each property's value checked by its
        schema, any other key's by ``additionalProperties`` (or refused when it is false)."""
        if not isinstance(schema.get("properties", {}), Mapping):
            raise _Unsupported("properties")
        props = dict(schema.get("properties") or {})
        if not all(type(k) is str and _utf8(k) for k in props):
            raise _Unsupported("properties")
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(type(k) is str for k in required):
            raise _Unsupported("required")
        extra = schema.get("additionalProperties", True)
        tests = [(k, self.node(s, "v")) for k, s in props.items()]   # nested functions are written first
        other = None if extra is False else self.node(extra, "v")
        body = ["if type(x) is not dict:",
                "    return False"]      # not an object: the type keyword, if any, decides; don't know here
        if required:
            body += [f"if not ({' and '.join(f'{_literal(k)} in x' for k in dict.fromkeys(required))}):",
                     "    return False"]
        body += ["for k, v in x.items():",
                 "    if type(k) is not str:",
                 "        return False"]
        for i, (k, test) in enumerate(tests):
            body += [f"    {'elif' if i else 'if'} k == {_literal(k)}:",
                     f"        if not ({test}):",
                     "            return False"]
        rest = ["return False"] if other is None else [f"if not (_utf8(k) and {other}):", "    return False"]
        body += ["    else:", *(f"        {line}" for line in rest)] if tests else [f"    {line}" for line in rest]
        body.append("return True")
        return self._function(body)

    def _array(self, schema: Mapping[str, Any]) -> str:
        item = self.node(schema["items"], "v") if "items" in schema else "_plain(v)"
        low = _int_bound(schema.get("minItems", 0))
        high = _int_bound(schema["maxItems"]) if "maxItems" in schema else None
        size = f" or len(x) < {low}" if low else ""
        size += f" or len(x) > {high}" if high is not None else ""
        return self._function([f"if type(x) is not list{size}:",
                               "    return False",
                               "for v in x:",
                               f"    if not ({item}):",
                               "        return False",
                               "return True"])


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
