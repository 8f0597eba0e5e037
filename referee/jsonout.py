"""The indented JSON of ``referee check --format json``, byte for byte what
``json.dump(obj, out, ensure_ascii=False, indent=1)`` writes, about five times faster.

``referee check`` writes with :func:`ruling_text` and :func:`text` (at the end of this module: pure Python over
the standard library's C string quoting, no orjson to import, no ``to_dict``).  :func:`dumps_indent1` below is
the orjson way, for a caller that has orjson loaded already and a whole document as dicts.

Why hand-written: the standard library uses its C encoder only without ``indent``; with ``indent`` every value
goes through the pure-Python ``_iterencode`` (≈ 150 ms CPU for the sample game's 1.6 MB of rulings, about as
long as a quarter of the replay).  orjson encodes in C but indents by two spaces only.  JSON escapes every
newline inside a string, so a line's leading spaces are structure and nothing else: halving them turns orjson's
bytes into the standard library's.  The halving is done with bytes.replace passes (C speed), by the binary
digits of the depth: a marker byte (0x01, which JSON always escapes inside strings, so it never occurs in the
output) is put after each newline and moved forward over 16, 8, 4, 2 and 1 pairs of spaces, leaving one space
per pair; nesting deeper than 31 levels falls back to the standard library.

Where orjson spells a value differently the standard library encodes the whole document: floats in exponent
form or below 1e-4 (``1e-05`` vs ``0.00001``, ``1e-08`` vs ``1e-8``), dict keys that are not strings, integers
beyond 64 bits.  Not covered: NaN and ±Infinity, which are not JSON (orjson writes ``null``, the standard
library ``NaN``); a ruling never holds one.

``fast=False`` encodes with the standard library alone, for a short document: importing orjson imports
``dataclasses``, ``inspect``, ``uuid`` and ``platform`` (~15 ms, a tenth of a one-event ``referee check``), and
the standard library encodes a ruling in ~25 µs.  The bytes are the same either way (they are defined as the
standard library's).
"""
from __future__ import annotations

import json
import re
from typing import IO, Any, Iterable

_MARK = b"\x01"
_EXPONENT = re.compile(rb"e[-+][0-9]")     # a literal first byte: re scans for it at C speed
_TOO_DEEP = b"\n" + b"  " * 32


def _spelt_differently(two: bytes) -> bool:
    """Whether orjson's output may hold a float the standard library spells otherwise.  orjson writes every
    exponent with a sign and every |x| < 1e-4 outside exponent form as 0.0000…; a string holding such text
    only costs the slower path."""
    if b"0.0000" in two:
        return True
    return any(two[m.start() - 1:m.start()].isdigit() for m in _EXPONENT.finditer(two))


def _stdlib(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, indent=1).encode("utf-8")


def dumps_indent1(obj: Any, fast: bool = True) -> bytes:
    """UTF-8 bytes equal to ``json.dumps(obj, ensure_ascii=False, indent=1).encode()`` (no final newline);
    ``fast=False``: made by the standard library alone (see the module's docstring)."""
    if not fast:
        return _stdlib(obj)
    import orjson                    # imported on the first fast call only
    try:
        two = orjson.dumps(obj, option=orjson.OPT_INDENT_2)
    except (TypeError, orjson.JSONEncodeError):
        return _stdlib(obj)
    if _TOO_DEEP in two or _spelt_differently(two):
        return _stdlib(obj)
    marked = two.replace(b"\n", b"\n" + _MARK)
    for pairs in (16, 8, 4, 2, 1):
        marked = marked.replace(_MARK + b"  " * pairs, b" " * pairs + _MARK)
    return marked.replace(_MARK, b"")


def write_items_indent1(out: IO[bytes], chunks: Iterable[list[Any]], depth: int, fast: bool = True) -> bool:
    """The items of a list, as ``dumps_indent1`` of the whole document writes them when the items are at
    nesting ``depth`` (2 for ``{"rulings": [item, ...]}``): each item on its own lines, comma-separated,
    without the brackets.  ``chunks`` are lists of items, encoded one chunk at a time, so that a long list is
    never held whole.  Returns whether anything was written (an empty list is ``[]``, without a newline)."""
    extra = b"\n" + b" " * (depth - 1)
    wrote = False
    for chunk in chunks:
        if not chunk:
            continue
        # Encoded alone, a chunk's items are at depth 1: b"[\n {...},\n {...}\n]".  Strip the brackets and
        # indent every line by depth - 1 more.
        inner = dumps_indent1(chunk, fast)[2:-2]
        out.write((b",\n" if wrote else b"\n") + b" " * (depth - 1) + inner.replace(b"\n", extra))
        wrote = True
    return wrote


# --- The text of a check, written without orjson and without the rulings' dicts --------------------------------
#
# ``text(obj, nl)`` is ``json.dumps(obj, ensure_ascii=False, indent=1)`` for a value whose own line starts with
# ``nl`` (a newline and its indentation), as a str; ``ruling_text`` is the same for a ``Ruling`` without its
# ``to_dict``.  Both walk exact JSON types only (dict with str keys, list, tuple, str, int, float, bool, None)
# and give the strings to the standard library's C quoting (``encode_basestring``): a list of strings — a
# ruling's rules, a result's units — is one C join.  Anything else (a subclass, a non-string key, a cycle)
# raises ``Unfit`` and the caller lets the standard library encode that value whole, so its bytes and its
# errors are the standard library's by construction.  Measured on the sample game (5,886 rulings): to_dict then
# orjson ~4 + ~1.5 µs a ruling and orjson's import (~58 M instructions), this ~2 µs (docs/speed.md §1).

from json.encoder import encode_basestring as _quote     # the C function json.dumps(ensure_ascii=False) uses

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
    results' and awaited items' dicts are theirs."""
    inner = nl + " "
    try:
        index, rules = r.index, r.rules
        if type(index) is not int:
            raise Unfit(index)
        if rules:
            deeper = inner + " "
            try:
                rules_text = f"[{deeper}{(',' + deeper).join(map(_quote, rules))}{inner}]"
            except TypeError:
                rules_text = text(list(rules), inner)
        else:
            rules_text = "[]"
        errors, rolls, results, awaiting = r.errors, r.rolls, r.results, r.awaiting
        return (f'{{{inner}"index": {_INT(index)},{inner}"type": {_quote(r.type)},{inner}"verdict": '
                f'{_quote(r.verdict)},{inner}"rules": {rules_text},{inner}"errors": '
                f'{_items(errors, inner) if errors else "[]"},{inner}"rolls": '
                f'{_items(rolls, inner) if rolls else "[]"},{inner}"results": '
                f'{_items(results, inner) if results else "[]"},{inner}"awaiting": '
                f'{_items(awaiting, inner) if awaiting else "[]"}{nl}}}')
    except (Unfit, TypeError, RecursionError):
        return stdlib_text(r.to_dict(), nl)


def _items(items: Any, nl: str) -> str:
    inner = nl + " "
    return "[" + inner + ("," + inner).join([text(i.to_dict(), inner) for i in items]) + nl + "]"
