"""The indented JSON of ``referee check --format json``, byte for byte what
``json.dump(obj, out, ensure_ascii=False, indent=1)`` writes, about five times faster.

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
