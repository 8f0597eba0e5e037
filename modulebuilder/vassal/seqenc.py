"""VASSAL's ``SequenceEncoder``: joins tokens with a one-character delimiter, escaping it with ``\\``.

Every VASSAL string (traits, piece states, commands) is built from nested sequences, each level adding
one backslash before its own delimiter.  Both directions reproduce the Java class exactly, so that a
string the engine wrote decodes and re-encodes to the same characters (the reader's round-trip test
depends on it).
"""
from __future__ import annotations

from typing import Iterable, Sequence

TAB = "\t"
ESC = "\x1b"


def _needs_quotes(token: str) -> bool:
    # A token ending in a backslash would escape the next delimiter, and one already wrapped in quotes
    # would lose them on decoding: the Java encoder wraps both in an extra pair of single quotes.
    return token.endswith("\\") or (token.startswith("'") and token.endswith("'"))


def encode(tokens: Iterable[str | int | bool], delim: str) -> str:
    """Join ``tokens`` as ``SequenceEncoder(delim).append(t)...getValue()`` does.

    ints and bools are written as Java's ``String.valueOf`` does (``true``, ``12``).
    """
    parts = []
    for t in tokens:
        s = _java_str(t)
        escaped = s.replace(delim, "\\" + delim)
        parts.append(f"'{escaped}'" if _needs_quotes(s) else escaped)
    if not parts:
        raise ValueError("VASSAL cannot encode an empty sequence (the engine would write null)")
    return delim.join(parts)


def _java_str(t: str | int | bool) -> str:
    if isinstance(t, bool):
        return "true" if t else "false"
    return str(t)


def decode(value: str, delim: str) -> list[str]:
    """All tokens of ``value`` as ``SequenceEncoder.Decoder`` yields them.

    A delimiter preceded by a backslash is literal (the backslash is dropped); a token wrapped in single
    quotes loses them; ``"a;"`` gives ``["a", ""]`` and ``""`` gives ``[""]``.
    """
    tokens: list[str] = []
    start: int | None = 0
    while start is not None:
        token, start = _next_token(value, start, delim)
        tokens.append(token)
    return tokens


def _next_token(val: str, start: int, delim: str) -> tuple[str, int | None]:
    """The token of ``val`` that begins at ``start``, and where the next one begins (None: no more).
    Positions, not the rest of the text sliced off: a save of n tokens would be copied n times (quadratic)."""
    end = val.find(delim, start)
    if end < 0:
        return _unquote(val[start:]), None
    buf: list[str] = []
    begin = start
    while begin < end and val[end - 1] == "\\":
        buf.append(val[begin:end - 1])
        begin = end
        end = val.find(delim, end + 1)
        if end < 0:
            break
    if end < 0:
        buf.append(val[begin:])
        return _unquote("".join(buf)), None
    buf.append(val[begin:end])
    return _unquote("".join(buf)), end + 1


def _unquote(token: str) -> str:
    if len(token) > 1 and token.startswith("'") and token.endswith("'"):
        return token[1:-1]
    return token


def chain(items: Sequence[str], delim: str = TAB) -> str:
    """Nest ``items`` right-to-left the way decorators are chained: ``a TAB esc(b TAB esc(c))``.

    Each inner level is appended as one token of the outer encoder, so every level adds one backslash.
    """
    if not items:
        raise ValueError("nothing to chain")
    inner = items[-1]
    for item in reversed(items[:-1]):
        inner = encode([item, inner], delim)
    return inner


def unchain(value: str, delim: str = TAB) -> list[str]:
    """The inverse of :func:`chain`: split off the outermost item, recurse into the remainder."""
    items = []
    rest = value
    while True:
        head, *tail = decode(rest, delim)
        items.append(head)
        if not tail:
            return items
        if len(tail) != 1:
            # A decorator chain has exactly two tokens per level; more means a malformed string.
            raise ValueError(f"not a decorator chain at {head[:40]!r}")
        rest = tail[0]
