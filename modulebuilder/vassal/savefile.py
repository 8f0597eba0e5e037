"""Reading VASSAL saves (.vsav) and logs (.vlog): the pieces, where they are, and what each step did.

``read_game`` opens the zip (bounded, see ``zipio``), undoes the obfuscation and parses the command tree
(``savecodec``).  The text between ``begin_save`` and ``end_save`` is the starting position; each
top-level ``LOG`` token after it is one step (one press of the engine's "Step forward").
:meth:`GameFile.pieces` gives every piece at the start, :meth:`GameFile.replay` the pieces after each
step, as the engine applies ``+/`` (add), ``-/`` (remove), ``D/`` (change state) and ``M/`` (move).
Every problem with the input is a :class:`VassalFileError` with a sentence, never another exception.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

from . import savecodec, seqenc
from .errors import VassalFileError
from .zipio import ENTRY_LIMIT_VARIABLE, entry_limit, read_entries


@dataclass(frozen=True)
class PieceInfo:
    """One piece as a save describes it."""
    id: str
    type: str
    state: str
    name: str
    map: str | None          # map id (mapName), None off-map
    x: int
    y: int
    gpid: str
    properties: Mapping[str, str]   # Marker values plus <layer>_Active/_Level and <rotator>_Facing

    def get(self, prop: str, default: str | None = None) -> str | None:
        return self.properties.get(prop, default)

    @property
    def unit_id(self) -> str | None:
        return self.properties.get("UnitId")


@dataclass(frozen=True)
class StackInfo:
    """A stack: where it is and its pieces, TOP FIRST (the engine lists them bottom first, and
    ``Stack.topPiece`` is its last entry)."""
    id: str
    map: str | None
    x: int
    y: int
    pieces_top_first: tuple[str, ...]


def parse_stack(sid: str, state: str) -> StackInfo:
    try:
        fields = seqenc.decode(state, ";")
        members = [f for f in fields[3:] if f and not f.startswith("@@")]
        return StackInfo(sid, None if fields[0] in ("null", "") else fields[0], int(fields[1]), int(fields[2]),
                         tuple(reversed(members)))
    except (IndexError, ValueError) as e:
        raise VassalFileError(f"stack {sid!r} is malformed.") from None


@dataclass(frozen=True)
class Step:
    """One logged step: its commands in execution order (``null`` bookkeeping removed)."""
    index: int
    commands: tuple[str, ...]

    @property
    def chat(self) -> tuple[str, ...]:
        return tuple(c[4:] for c in self.commands if c.startswith("CHAT"))


@dataclass
class GameFile:
    text: str
    key: int | None
    nodes: list[savecodec.Node]
    setup_commands: tuple[str, ...] = field(default=())
    steps: tuple[Step, ...] = field(default=())

    def encode(self) -> str:
        """The savedGame text again from the parsed tree (equal to :attr:`text` for engine files)."""
        return savecodec.join_top_level(self.nodes)

    def pieces(self) -> dict[str, PieceInfo]:
        """Every piece (not stacks) of the starting position, by piece id."""
        table: dict[str, tuple[str, str]] = {}
        for cmd in self.setup_commands:
            _apply(table, cmd)
        return _pieces(table)

    def replay(self) -> Iterator[tuple[Step, dict[str, PieceInfo]]]:
        """Each step with the pieces after it."""
        table: dict[str, tuple[str, str]] = {}
        for cmd in self.setup_commands:
            _apply(table, cmd)
        for step in self.steps:
            for cmd in step.commands:
                _apply(table, cmd)
            yield step, _pieces(table)

    def stacks(self) -> dict[str, StackInfo]:
        """Every stack of the starting position, by stack id."""
        table: dict[str, tuple[str, str]] = {}
        for cmd in self.setup_commands:
            _apply(table, cmd)
        return {sid: parse_stack(sid, state) for sid, (t, state) in table.items() if t == "stack"}

    def by_unit(self) -> dict[str, PieceInfo]:
        """Pieces of the starting position that carry a ``UnitId``, by unit id."""
        return {p.unit_id: p for p in self.pieces().values() if p.unit_id}


# --------------------------------------------------------------------------------------------- reading

def read_game(source: bytes | str | os.PathLike[str], *, what: str | None = None) -> GameFile:
    """Parse a .vsav/.vlog from its bytes or path."""
    label = (what or "the file") if isinstance(source, bytes) else (what or Path(source).name)
    entries = read_entries(source, ["savedGame"], what=label)     # a path is read as a stream
    if "savedGame" not in entries:
        raise VassalFileError(f"{label} has no 'savedGame' entry, so it is not a VASSAL save or log.")
    raw = entries["savedGame"]
    key = int(raw[5:7], 16) if raw.startswith(savecodec.HEADER) and _is_hex(raw[5:7]) else None
    text = savecodec.deobfuscate(raw, what=f"{label}: savedGame")
    return parse_text(text, key=key, what=label)


def _is_hex(b: bytes) -> bool:
    return len(b) == 2 and all(c in b"0123456789abcdefABCDEF" for c in b)


# Commands and their fields, counted by their separators: parsed, each costs ~250 bytes besides its text, so
# 7 MiB of one-character commands would be ~900 MB.  One separator per 32 bytes of the zip entry cap (16 MiB:
# 524,288) keeps a save's parse under 200 MB; a whole Borodino game has ~45,000.
SEPARATOR_BYTES = 32
_SEPARATORS = (savecodec.ESC, "\t", "/", ";", ",")


def parse_text(text: str, *, key: int | None = None, what: str = "the saved game") -> GameFile:
    separators, allowed = sum(text.count(c) for c in _SEPARATORS), entry_limit() // SEPARATOR_BYTES
    if separators > allowed:
        raise VassalFileError(f"{what} holds {separators:,} commands and fields, more than the {allowed:,} a VASSAL "
                              f"game has; refusing it (a zip bomb or not a VASSAL file; {ENTRY_LIMIT_VARIABLE} "
                              "raises the cap).")
    nodes = savecodec.top_level(text)
    heads = [n.text if isinstance(n, savecodec.Leaf) else None for n in nodes]
    if "begin_save" not in heads or "end_save" not in heads:
        raise VassalFileError(f"{what} does not contain a begin_save ... end_save game state.")
    start, end = heads.index("begin_save"), heads.index("end_save")
    if end < start:
        raise VassalFileError(f"{what} has end_save before begin_save.")
    setup = tuple(c for n in nodes[start + 1:end] for c in savecodec.leaves(n))
    steps = []
    for n in nodes[end + 1:]:
        if isinstance(n, savecodec.Log) or (isinstance(n, savecodec.Seq) and isinstance(n.items[0], savecodec.Log)):
            steps.append(Step(len(steps) + 1, tuple(savecodec.leaves(n))))
    gf = GameFile(text, key, nodes, setup, tuple(steps))
    gf.pieces()   # surface malformed pieces now, as a VassalFileError, not later in a caller
    return gf


# --------------------------------------------------------------------------------------------- commands

def _apply(table: dict[str, tuple[str, str]], cmd: str) -> None:
    """Apply one command to ``id -> (type, state)`` as the engine would (other commands change no piece)."""
    try:
        if cmd.startswith("+/"):
            pid, ptype, pstate = (seqenc.decode(cmd[2:], "/") + ["", ""])[:3]
            table[pid] = (ptype, pstate)
        elif cmd.startswith("-/"):
            table.pop(cmd[2:], None)
        elif cmd.startswith("D/"):
            parts = seqenc.decode(cmd[2:], "/")
            if parts[0] in table:
                table[parts[0]] = (table[parts[0]][0], parts[1])
        elif cmd.startswith("M/"):
            parts = seqenc.decode(cmd[2:], "/")
            pid, new_map, x, y = parts[0], parts[1], parts[2], parts[3]
            if pid in table:
                ptype, pstate = table[pid]
                table[pid] = (ptype, _moved_state(ptype, pstate, new_map, x, y))
    except (IndexError, ValueError) as e:
        raise VassalFileError(f"malformed command {cmd[:60]!r}.") from None


def _moved_state(ptype: str, pstate: str, new_map: str, x: str, y: str) -> str:
    if ptype == "stack":
        fields = seqenc.decode(pstate, ";")
        fields[0:3] = [new_map, x, y]
        return seqenc.encode(fields, ";")
    states = seqenc.unchain(pstate)
    fields = seqenc.decode(states[-1], ";")
    fields[0:3] = [new_map, x, y]
    states[-1] = seqenc.encode(fields, ";")
    return seqenc.chain(states)


# --------------------------------------------------------------------------------------------- pieces

def _pieces(table: Mapping[str, tuple[str, str]]) -> dict[str, PieceInfo]:
    # Stacks and decks (``deck;...``, the activation cup) are containers, not pieces.
    return {pid: parse_piece(pid, t, s) for pid, (t, s) in table.items() if t != "stack" and not t.startswith("deck;")}


def parse_piece(pid: str, ptype: str, pstate: str) -> PieceInfo:
    """The properties our modules (and most others) expose, from a piece's type and state strings."""
    try:
        types = seqenc.unchain(ptype)
        states = seqenc.unchain(pstate)
        states += [""] * (len(types) - len(states))     # older writers may leave trailing states out
        if not types[-1].startswith("piece;"):
            raise ValueError("the innermost trait is not a BasicPiece")
        props: dict[str, str] = {}
        for tt, st in zip(types[:-1], states):
            _trait_properties(tt, st, props)
        basic_type = seqenc.decode(types[-1], ";")       # piece;cloneKey;deleteKey;image;name
        # mapId;x;y;gpid;count;key1;value1;...  (persistent properties such as OldLocationName)
        map_id, x, y, gpid, count, *pairs = seqenc.decode(states[len(types) - 1], ";") + ["", "", "", "", ""]
        n = int(count) if count.isdigit() else 0
        for k, v in zip(pairs[0:2 * n:2], pairs[1:2 * n:2]):
            props.setdefault(k, v)
        return PieceInfo(pid, ptype, pstate, basic_type[4] if len(basic_type) > 4 else "",
                         None if map_id in ("null", "") else map_id, int(x or 0), int(y or 0), gpid, props)
    except (IndexError, ValueError) as e:
        raise VassalFileError(f"piece {pid!r} is malformed "
                              f"({'a field is missing' if isinstance(e, IndexError) else 'a number is not one'}).") from None


def _trait_properties(ttype: str, tstate: str, props: dict[str, str]) -> None:
    if ttype.startswith("mark;"):
        names = seqenc.decode(ttype[5:], ",")
        values = seqenc.decode(tstate, ",")
        for n, v in zip(names, values + [""] * len(names)):
            props.setdefault(n, v)
    elif ttype.startswith("emb2;"):
        fields = seqenc.decode(ttype[5:], ";")
        level = _leading_int(tstate, -1)
        name = fields[18] if len(fields) > 18 else ""
        props.setdefault(f"{name}_Active", "true" if level > 0 else "false")
        props.setdefault(f"{name}_Level", str(abs(level)))
    elif ttype.startswith("rotate;"):
        fields = seqenc.decode(ttype[7:], ";")
        n = _leading_int(fields[0], 1)
        name = fields[5 if n == 1 else 7] if len(fields) > (5 if n == 1 else 7) else ""
        if n > 1:
            props.setdefault(f"{name}_Facing", str(_leading_int(tstate, 0) + 1))
        props.setdefault(f"{name}_State", tstate)


def _leading_int(text: str, default: int) -> int:
    """The number a trait state starts with (older engines wrote ``-1;...`` where 3.6 writes ``-1``); ``default``
    when it starts with none -- a trait of another engine version gives no property rather than no game."""
    m = _INT.match(text or "")
    return int(m.group()) if m else default


_INT = re.compile(r"-?\d+")
