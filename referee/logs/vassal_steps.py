"""What each step of a VASSAL log did, in VASSAL's terms: pieces changed, chat typed, dice rolled.

``modulebuilder.vassal.savefile`` decodes the file into steps of commands (``LOG\\tnull`` and empty ``LOG\\t``
already skipped, vassal.md §4.5).  Here every command of a step is applied in order to a table of pieces, and
each piece whose state changed yields a :class:`PieceChange` with the piece before and after; ``CHAT``
commands yield :class:`Said` (typed by a player), :class:`Rolled` (a dice button's report) or
:class:`Reported` (the engine's own reports, e.g. ``Psk a moves 1804 -> Withdrawn``).  Nothing here knows
the game; ``vassal_events`` gives these facts their meaning.

The engine's **Undo** (``BasicLogger.undo``) logs a step of its own whose root is the report
``CHAT* UNDO: <the undone step's report>`` and whose sub-commands reverse the undone step exactly (a move
becomes ``-/NEWSTACK`` and the ``M/`` back).  Undo takes back the latest step not yet undone, and pressed
again the one before it.  Such a pair says nothing happened: both steps are left out (the piece table is the
same either way) and a single :class:`Undone` fact says so.

A **deck** (a ``DrawPile``: the activation cup) is a container, not a piece: its ``+/ID/deck;...`` type names it
(field 13) and its state lists its pieces (``map;x;y;faceDown;id,id,...``).  A move of a piece that is in a
deck is a draw from it, whatever the destination (docs/vassal-module.md), and yields :class:`Drawn` instead of
a piece change; a piece moved onto the deck's position goes back into it (*Return to cup*, or a drag back).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
import html
import re
from typing import Iterable, Iterator, Mapping, MutableMapping, Union

from modulebuilder.vassal import seqenc
from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.savefile import GameFile, PieceInfo, Step, parse_piece

PROPERTY_PREFIX = "MutableProperty\t"
SHOWN_CHARS = 60               # how much of a line too long to read its ruling quotes
MAX_CHAT_CHARS = 2000          # a typed line longer than this is not a declaration; refuse, don't parse it
ROLL_REPORT = re.compile(r"^\*+\s*(?P<die>[\w ]+?)\s*=\s*(?P<value>-?\d*)\s*\*+\s*(?:<(?P<player>[^>]*)>)?\s*$")
PLAYER_CHAT = re.compile(r"^<(?P<player>[^>]*)>\s+-\s?(?P<text>.*)$", re.S)
DECK = "deck;"                 # a deck's type (a DrawPile's contents: the activation cup)
UNDO_REPORT = "CHAT* UNDO: "       # the root of a step the engine's Undo logged
REFEREE_LINE = "CHAT* Referee: "   # the referee link's chat lines (modulebuilder/vassal/link): no player's act
MOVE_REPORT = re.compile(r"^\*\s*(?P<name>.+?) moves (?P<src>.*?) -> (?P<dst>.*?)\s*\*$")


@dataclass(frozen=True)
class PieceChange:
    step: int
    before: PieceInfo | None        # None: the step created the piece
    after: PieceInfo | None         # None: the step deleted it
    player: str | None = None       # the mover's user id (``M/`` commands carry it)


@dataclass(frozen=True)
class Said:
    step: int
    player: str
    text: str


@dataclass(frozen=True)
class Rolled:
    step: int
    die: str                        # the dice button's name, e.g. ``d10``
    value: int | None               # None: the report shows no number (see :func:`with_roll_totals`)
    player: str | None
    recorded: int | None = None     # what the die itself recorded in the step (its ``<die>_total`` property)
    reported: int | None = None     # what the chat report says, when the record replaced it


@dataclass(frozen=True)
class Reported:
    step: int
    text: str


@dataclass(frozen=True)
class Unreadable:
    step: int
    message: str
    line: str | None = None         # a chat line (ruled as unreadable); None: a command (the file is refused)


@dataclass(frozen=True)
class PropertyChanged:
    """A module property the step set (a dice button logs its result this way)."""
    step: int
    name: str
    value: str


@dataclass(frozen=True)
class Undone:
    """Step ``step`` is the engine's Undo of step ``undone``: neither is read."""
    step: int
    undone: int


@dataclass(frozen=True)
class Drawn:
    """``piece`` was drawn from the deck named ``deck`` (a drag out of it, at random or chosen)."""
    step: int
    deck: str
    piece: PieceInfo
    player: str | None = None


@dataclass(frozen=True)
class Returned:
    """``piece`` went back into the deck named ``deck``."""
    step: int
    deck: str
    piece: PieceInfo


@dataclass
class Deck:
    id: str
    name: str
    map: str | None
    x: int
    y: int
    contents: set[str]

    @classmethod
    def parse(cls, did: str, dtype: str, dstate: str) -> "Deck | None":
        """A deck from its AddPiece, or None when its type or state is not a deck's."""
        fields = seqenc.decode(dtype[len(DECK):], ";")
        state = seqenc.decode(dstate, ";")
        if len(fields) < 13 or len(state) < 3 or not state[1].lstrip("-").isdigit() \
                or not state[2].lstrip("-").isdigit():
            return None
        contents = set(filter(None, state[4].split(","))) if len(state) > 4 else set()
        return cls(did, fields[12], None if state[0] in ("null", "") else state[0], int(state[1]), int(state[2]),
                   contents)


Fact = Union[PieceChange, Said, Rolled, Reported, Unreadable, Undone, Drawn, Returned]


def facts(game: GameFile, table: dict[str, PieceInfo] | None = None) -> Iterator[Fact]:
    """Every fact of every step not undone, in the order the engine executed the commands.  ``table``: the
    starting pieces (``game.pieces()`` when None), left as the board is after the last step."""
    table = game.pieces() if table is None else table
    decks = decks_of(game.setup_commands)
    undone = undo_pairs(game.steps)
    taken_back = set(undone.values())
    for step in game.steps:
        if step.index in undone:
            yield Undone(step.index, undone[step.index])
        elif step.index not in taken_back:
            yield from step_facts(table, step, decks)


def step_facts(table: MutableMapping[str, PieceInfo], step: Step, decks: Mapping[str, Deck]) -> list[Fact]:
    """The facts of one step (not undone), its commands applied to ``table`` and the decks' contents."""
    return with_roll_totals([f for cmd in step.commands for f in _command_facts(table, step.index, cmd, decks)])


def decks_of(commands: Iterable[str]) -> dict[str, Deck]:
    """The decks a set-up adds, by id (their contents as the set-up has them)."""
    out: dict[str, Deck] = {}
    for cmd in commands:
        if cmd.startswith("+/"):
            did, dtype, dstate = (seqenc.decode(cmd[2:], "/") + ["", ""])[:3]
            if dtype.startswith(DECK) and (deck := Deck.parse(did, dtype, dstate)) is not None:
                out[did] = deck
    return out


def undo_pairs(steps: Iterable[Step]) -> dict[int, int]:
    """Undo step index -> the step it undid, as ``BasicLogger`` picks it.

    The engine keeps every logged step in a list and a pointer to the next one to undo: a new step moves the
    pointer to itself, an Undo takes back the step under the pointer and moves it one step back (the Undo's
    own step is added without moving it).  An Undo whose pointer lands on an earlier Undo re-does what that
    one took back; it is then a step like any other (its commands re-apply the changes), and is not paired.
    """
    pointer = UndoPointer()
    pairs: dict[int, int] = {}
    for step in steps:
        target = pointer.add(step)
        if target is not None:
            pairs[step.index] = target
    return pairs


class UndoPointer:
    """``BasicLogger``'s list of logged steps and its undo pointer, a step at a time (:func:`undo_pairs`)."""

    def __init__(self) -> None:
        self.logged: list[int] = []
        self.undos: set[int] = set()
        self.pointer = -1

    def add(self, step: Step) -> int | None:
        """Log ``step``; the step it takes back when it is an Undo that is paired with one, else None."""
        if step.commands and step.commands[0].startswith(UNDO_REPORT) and self.pointer >= 0:
            target = self.logged[self.pointer]
            self.pointer -= 1
            paired = target not in self.undos
            self.undos.add(step.index)
            self.logged.append(step.index)
            return target if paired else None
        self.logged.append(step.index)
        if not referee_lines(step):
            # The link logs its lines with no undo of their own: the engine's pointer stays on the act.
            self.pointer = len(self.logged) - 1
        return None

    def drop_last(self, pointer: int) -> None:
        """Forget the last step logged (a step read and not kept); ``pointer``: the pointer before it."""
        index = self.logged.pop()
        self.undos.discard(index)
        self.pointer = pointer


def referee_lines(step: Step) -> bool:
    """A step the referee link logged: only its chat lines (the referee's rulings, as the players saw them)."""
    return bool(step.commands) and all(c.startswith(REFEREE_LINE) for c in step.commands)


def with_roll_totals(step_facts: list[Fact | PropertyChanged]) -> list[Fact]:
    """The step's facts; a roll takes the value its die recorded in the same step, not the chat's words.

    A dice button logs its report (``*** d10 = 6 ***``) and, as sub-commands of it, the properties it set:
    ``d10_result`` and ``d10_total``.  The report is text anyone can edit in the file; the properties are the
    engine's record of the die.  The roll's ``value`` is the record (``d10_total``, else ``d10_result``) and
    ``recorded`` says there was one; a report that says otherwise keeps its number in ``reported``, so the
    reader can name both.  The engine (3.6) also leaves a die out of the report when its result is below the
    button's keep threshold: our d10 (1-10 with ``plus=-1``, keep >= 1) reports a 0 as ``*** d10 =  ***``,
    while ``d10_total = 0``.  Property changes are no facts of their own.
    """
    out: list[Fact] = []
    records: dict[int, dict[str, str]] = {}          # position of a roll in ``out`` -> its die's properties
    for f in step_facts:
        if not isinstance(f, PropertyChanged):
            out.append(f)
            continue
        last = out[-1] if out else None
        if isinstance(last, Rolled) and f.name in (f"{last.die}_total", f"{last.die}_result"):
            records.setdefault(len(out) - 1, {})[f.name[len(last.die) + 1:]] = f.value
    for at, props in records.items():
        roll = out[at]
        assert isinstance(roll, Rolled)
        value = next((int(v) for v in (props.get("total"), props.get("result"))
                      if v is not None and v.lstrip("-").isdigit()), None)
        if value is not None:
            out[at] = replace(roll, value=value, recorded=value,
                              reported=roll.value if roll.value not in (None, value) else None)
    return out


def _command_facts(table: MutableMapping[str, PieceInfo], step: int, cmd: str,
                   decks: Mapping[str, Deck] | None = None) -> Iterator[Fact | PropertyChanged]:
    try:
        if cmd.startswith("CHAT"):
            yield _chat_fact(step, cmd[4:])
        elif cmd.startswith(PROPERTY_PREFIX):
            fields = cmd.split("\t")      # MutableProperty, name, old value, new value, container
            if len(fields) >= 4:
                yield PropertyChanged(step, fields[1], fields[3])
        elif cmd.startswith("+/"):
            pid, ptype, pstate = (seqenc.decode(cmd[2:], "/") + ["", ""])[:3]
            if ptype != "stack" and not ptype.startswith(DECK):     # containers, not pieces
                table[pid] = parse_piece(pid, ptype, pstate)
                yield PieceChange(step, None, table[pid])
        elif cmd.startswith("-/"):
            gone = table.pop(cmd[2:], None)
            if gone is not None:
                yield PieceChange(step, gone, None)
        elif cmd.startswith("D/"):
            pid, new_state = (seqenc.decode(cmd[2:], "/") + [""])[:2]
            if pid in table:
                yield from _changed(table, step, pid, parse_piece(pid, table[pid].type, new_state), None)
        elif cmd.startswith("M/"):
            parts = seqenc.decode(cmd[2:], "/")
            pid, map_id, x, y = parts[0], parts[1], int(parts[2]), int(parts[3])
            player = parts[9] if len(parts) > 9 else None
            if pid in table:
                moved = replace(table[pid], map=None if map_id in ("null", "") else map_id, x=x, y=y)
                yield from _deck_move(decks or {}, table, step, pid, moved, player)
    except VassalFileError as e:
        yield Unreadable(step, str(e))
    except (IndexError, ValueError):
        yield Unreadable(step, f"command {cmd[:60]!r} is not one this reader understands (a field is missing "
                               "or a number is not one)")


def _deck_move(decks: Mapping[str, Deck], table: MutableMapping[str, PieceInfo], step: int, pid: str, moved: PieceInfo,
               player: str | None) -> Iterator[Fact]:
    """A move out of a deck is a draw; onto a deck's position, a return into it; else a piece change."""
    source = next((d for d in decks.values() if pid in d.contents), None)
    target = next((d for d in decks.values() if (d.map, d.x, d.y) == (moved.map, moved.x, moved.y)), None)
    if source is not None:
        source.contents.discard(pid)
    if target is not None:
        target.contents.add(pid)
    if source is not None and source is not target:
        table[pid] = moved
        yield Drawn(step, source.name, moved, player)
    elif target is not None:
        table[pid] = moved
        yield Returned(step, target.name, moved)
    else:
        yield from _changed(table, step, pid, moved, player)


def _changed(table: MutableMapping[str, PieceInfo], step: int, pid: str, new: PieceInfo,
             player: str | None) -> Iterator[PieceChange]:
    old = table[pid]
    table[pid] = new
    # A drag also rewrites bookkeeping properties (OldX, ClickedX...); only what the game sees counts.
    if (old.map, old.x, old.y) != (new.map, new.x, new.y) or _visible(old) != _visible(new):
        yield PieceChange(step, old, new, player)


def _visible(p: PieceInfo) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, v) for k, v in p.properties.items()
                        if k.endswith(("_Active", "_Level", "_Facing", "_State"))))


def _chat_fact(step: int, raw: str) -> Fact:
    if len(raw) > MAX_CHAT_CHARS:
        return Unreadable(step, f"a chat line of {len(raw)} characters is too long to be a declaration "
                                f"(at most {MAX_CHAT_CHARS})", line=html.unescape(raw[:SHOWN_CHARS]) + "...")
    text = html.unescape(raw)
    if m := PLAYER_CHAT.match(text):
        return Said(step, m["player"], m["text"].strip())
    if m := ROLL_REPORT.match(text):
        return Rolled(step, m["die"].strip(), int(m["value"]) if m["value"] else None, m["player"])
    return Reported(step, text)


def moved_to(reports: list[Reported], name: str) -> str | None:
    """Where the engine's move report says piece ``name`` went (its location name), if it said so."""
    for r in reports:
        m = MOVE_REPORT.match(r.text)
        if m and m["name"] == name:
            return m["dst"]
    return None
