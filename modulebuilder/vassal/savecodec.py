"""The saved-game text of .vsav/.vlog files: ``!VCSK`` obfuscation and the command tree grammar.

vassal.md §4: ``savedGame`` holds one command string, optionally obfuscated as ``!VCSK`` + key byte +
hex of every UTF-8 byte XOR key.  A command with sub-commands is a SequenceEncoder on ESC of itself and
its sub-commands (each nested level one backslash deeper); a .vlog adds ``LOG\\t<command>`` steps after
``end_save``.  :func:`parse` follows ``GameModule.decode`` exactly, so :func:`encode` of a parsed
engine-written string gives back the same characters.
"""
from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Iterator, Union

from . import seqenc
from .errors import VassalFileError
from .seqenc import ESC

HEADER = b"!VCSK"
LOG_PREFIX = "LOG\t"
MAX_DEPTH = 100     # engine files nest a handful of levels; deeper is hostile input (and Python recursion)


# --------------------------------------------------------------------------------------------- obfuscation

def obfuscate(text: str, key: int) -> bytes:
    """``!VCSK`` + key + hex of each UTF-8 byte XOR key (lower case, as the engine writes)."""
    if not 0 <= key <= 255:
        raise ValueError("the key is one byte")
    table = bytes(b ^ key for b in range(256))
    return HEADER + f"{key:02x}".encode() + binascii.hexlify(text.encode("utf-8").translate(table))


def deobfuscate(data: bytes, *, what: str = "savedGame") -> str:
    """The text of a ``savedGame`` entry, obfuscated or plain (the engine accepts both)."""
    if data.startswith(HEADER):
        body = data[len(HEADER):].strip()
        try:
            key = int(body[:2], 16)
            raw = binascii.unhexlify(body[2:])
        except (ValueError, binascii.Error):
            raise VassalFileError(f"{what} has the !VCSK header but its key or hex digits are malformed.") from None
        data = raw.translate(bytes(b ^ key for b in range(256)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise VassalFileError(f"{what} is not UTF-8 text after de-obfuscation (byte {e.start}); "
                              "wrong obfuscation or not a VASSAL save.") from None


# --------------------------------------------------------------------------------------------- command tree

@dataclass(frozen=True)
class Leaf:
    """One encoded command, e.g. ``+/id/type/state``, ``CHAT...``, ``null`` (a command with no encoder)."""
    text: str


@dataclass(frozen=True)
class Log:
    """``LOG\\t`` + a logged command (a step of a .vlog, or a sub-command of one)."""
    inner: "Node"


@dataclass(frozen=True)
class Seq:
    """A command followed by its sub-commands, joined with ESC (the first item is the parent)."""
    items: tuple["Node", ...]


Node = Union[Leaf, Log, Seq]


def parse(text: str, _depth: int = 0) -> Node:
    """The command tree of ``text`` as ``GameModule.decode`` splits it."""
    if _depth > MAX_DEPTH:
        raise VassalFileError(f"saved game commands nest deeper than {MAX_DEPTH} levels; not a VASSAL file.")
    tokens = seqenc.decode(text, ESC)
    if tokens == [text]:
        if text.startswith(LOG_PREFIX):
            return Log(parse(text[len(LOG_PREFIX):], _depth + 1))
        return Leaf(text)
    return Seq(tuple(parse(t, _depth + 1) for t in tokens))


def encode(node: Node) -> str:
    """The inverse of :func:`parse`."""
    if isinstance(node, Leaf):
        return node.text
    if isinstance(node, Log):
        return LOG_PREFIX + encode(node.inner)
    return seqenc.encode([encode(n) for n in node.items], ESC)


def leaves(node: Node) -> Iterator[str]:
    """Every command in execution order (a parent runs before its sub-commands), LOG wrappers removed.

    ``null`` (commands the engine cannot encode, e.g. old-location bookkeeping) and empty NullCommands
    decode to nothing in the engine, so they are skipped here too.
    """
    if isinstance(node, Leaf):
        if node.text not in ("", "null"):
            yield node.text
    elif isinstance(node, Log):
        yield from leaves(node.inner)
    else:
        for n in node.items:
            yield from leaves(n)


def top_level(text: str) -> list[Node]:
    """The top-level tokens of a save/log text, each parsed (``begin_save``, pieces, ..., LOG steps)."""
    return [parse(t) for t in seqenc.decode(text, ESC)]


def join_top_level(nodes: list[Node]) -> str:
    return seqenc.encode([encode(n) for n in nodes], ESC)
