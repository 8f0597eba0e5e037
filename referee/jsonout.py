"""The indented JSON of ``referee check --format json``, byte for byte what
``json.dumps(obj, ensure_ascii=False, indent=1)`` writes, much faster.

Why hand-written: the standard library uses its C encoder only without ``indent``; with ``indent`` every value
goes through the pure-Python ``_iterencode`` (about a quarter of the sample game's replay).  orjson encodes in C
but indents by two spaces only, and importing it (with ``dataclasses``, ``inspect``, ``uuid`` and ``platform``)
is a sixth of a one-event check (docs/speed.md §1).
So :func:`text` walks the exact JSON types in Python and hands every string to the standard library's C quoting
(``encode_basestring``), and :func:`ruling_text` writes a ``Ruling`` without building its ``to_dict``.  Anything
they do not spell themselves goes to the standard library whole, so the bytes — and the errors — are by
construction the standard library's (tests/test_jsonout.py, tests/speed/test_check_stream.py).
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring as _quote     # the C function json.dumps(ensure_ascii=False) uses
from typing import Any

# ``text(obj, nl)`` is ``json.dumps(obj, ensure_ascii=False, indent=1)`` for a value whose own line starts with
# ``nl`` (a newline and its indentation), as a str; ``ruling_text`` is the same for a ``Ruling`` without its
# ``to_dict``.  Both walk exact JSON types only (dict with str keys, list, tuple, str, int, float, bool, None)
# and give the strings to the standard library's C quoting (``encode_basestring``): a list of strings — a
# ruling's rules, a result's units — is one C join.  Anything else (a subclass, a non-string key, a cycle)
# raises ``Unfit`` and the caller lets the standard library encode that value whole, so its bytes and its
# errors are the standard library's by construction; per ruling it costs less than to_dict then orjson, and no
# import (docs/speed.md §1).

_INT = int.__repr__
_FLOAT = float.__repr__


class Unfit(Exception):
    """A value this writer does not spell itself: the standard library encodes it."""


def _float(f: float) -> str:
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "Infinity" if f > 0 else "-Infinity"
    return _FLOAT(f)


def text(obj: Any, nl: str = "\n") -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=1)`` with every newline followed by ``nl[1:]`` too (the
    value nested at that indentation); raises :class:`Unfit` (or ``TypeError``) for what it does not spell."""
    t = type(obj)
    if t is str:
        return _quote(obj)
    if t is dict:
        if not obj:
            return "{}"
        inner = nl + " "
        # _quote refuses a key that is not a string (TypeError); a str subclass is quoted as json quotes it
        return ("{" + inner + ("," + inner).join([
            f"{_quote(k)}: {_quote(v) if type(v) is str else text(v, inner)}" for k, v in obj.items()])
            + nl + "}")
    if t is list or t is tuple:
        if not obj:
            return "[]"
        inner = nl + " "
        try:
            return "[" + inner + ("," + inner).join(map(_quote, obj)) + nl + "]"      # strings: one C join
        except TypeError:
            return "[" + inner + ("," + inner).join([text(v, inner) for v in obj]) + nl + "]"
    if t is int:
        return _INT(obj)
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if t is float:
        return _float(obj)
    raise Unfit(obj)


def stdlib_text(obj: Any, nl: str = "\n") -> str:
    """What :func:`text` gives, by the standard library (for what ``text`` does not spell)."""
    return json.dumps(obj, ensure_ascii=False, indent=1).replace("\n", nl)


def any_text(obj: Any, nl: str = "\n") -> str:
    """:func:`text`, or the standard library's where ``text`` cannot (the same bytes, or its error)."""
    try:
        return text(obj, nl)
    except (Unfit, TypeError, RecursionError):
        return stdlib_text(obj, nl)


# The fields of ``Ruling.to_dict``, in its order (tests/speed/test_check_stream.py holds the two together).
RULING_KEYS = ("index", "type", "verdict", "rules", "errors", "rolls", "results", "awaiting")


def ruling_text(r: Any, nl: str) -> str:
    """``any_text(r.to_dict(), nl)`` for a ``referee.engine.ruling.Ruling``, without building its dict: the
    ruling's own fields are read here (one f-string: most rulings have only rules), its errors', rolls',
    results' and awaited items' dicts are theirs.  A ruling with only rules (three in four of the sample's)
    takes the text after its index from ``_PLAIN``."""
    inner = nl + " "
    try:
        index, rules = r.index, r.rules
        if type(index) is not int:
            raise Unfit(index)
        errors, rolls, results, awaiting = r.errors, r.rolls, r.results, r.awaiting
        if not (errors or rolls or results or awaiting) and type(rules) is tuple:
            key = (r.type, r.verdict, rules, nl)
            tail = _PLAIN.get(key)
            if tail is None:
                tail = _tail(r, rules, (), (), (), (), inner, nl)
                _remember_plain(key, tail)
        else:
            tail = _tail(r, rules, errors, rolls, results, awaiting, inner, nl)
        return f'{{{inner}"index": {_INT(index)},{tail}'
    except (Unfit, TypeError, RecursionError):
        return stdlib_text(r.to_dict(), nl)


# The text after the index of a ruling with only rules, by (type, verdict, rules, nl): the sample's 4,584 such
# rulings have about a hundred distinct texts, so one taken from here costs less than half of writing it anew.
# Only keys of exact strings are kept: a key equal to one of them then
# holds strings (or str subclasses, quoted alike), so the kept text is the one ``_tail`` would write; 1 == True
# == 1.0 never meet.
_PLAIN: dict[tuple[Any, ...], str] = {}
_PLAIN_MAX = 4096


def _remember_plain(key: tuple[Any, ...], tail: str) -> None:
    type_, verdict, rules, _ = key
    if type(type_) is str and type(verdict) is str and all(type(rule) is str for rule in rules):
        if len(_PLAIN) >= _PLAIN_MAX:
            _PLAIN.clear()
        _PLAIN[key] = tail


def _tail(r: Any, rules: Any, errors: Any, rolls: Any, results: Any, awaiting: Any, inner: str, nl: str) -> str:
    """A ruling's text after ``"index": N,``; raises as ``text`` does for what it does not spell."""
    if rules:
        deeper = inner + " "
        try:
            rules_text = f"[{deeper}{(',' + deeper).join(map(_quote, rules))}{inner}]"
        except TypeError:
            rules_text = text(list(rules), inner)
    else:
        rules_text = "[]"
    return (f'{inner}"type": {_quote(r.type)},{inner}"verdict": '
            f'{_quote(r.verdict)},{inner}"rules": {rules_text},{inner}"errors": '
            f'{_items(errors, inner) if errors else "[]"},{inner}"rolls": '
            f'{_items(rolls, inner) if rolls else "[]"},{inner}"results": '
            f'{_items(results, inner) if results else "[]"},{inner}"awaiting": '
            f'{_items(awaiting, inner) if awaiting else "[]"}{nl}}}')


def _items(items: Any, nl: str) -> str:
    inner = nl + " "
    return "[" + inner + ("," + inner).join([text(i.to_dict(), inner) for i in items]) + nl + "]"


def with_source(ruling: str, source: Any, nl: str) -> str:
    """A ruling's text (``ruling_text``) with ``"vassal": source`` added as its last key: where a ruling of a VASSAL
    log comes from (its file and step, and its roll's source; ``referee.logs.jsonlog.Log.sources``)."""
    inner = nl + " "
    return f'{ruling[:-len(nl) - 1]},{inner}"vassal": {any_text(source, inner)}{nl}}}'
