"""A VASSAL game read as its steps arrive: the ``.vlog`` reader's reading, kept up to date a step at a time.

``read_events(facts(game))`` reads a finished file whole.  The live route (referee/service/live.py) gets the
steps one request at a time and must not read the whole game again for each: :class:`LiveReading` folds each
new step into the reading it has (the pieces, the decks, the reader's context and events), so a step costs the
work of that step.  What it reads after any number of steps is exactly what ``read_events`` reads from a file of
those steps, minus the moves announced in the chat that still wait for their piece to move (the file reader
rules those unreadable only at the end of the file).

Two things change what earlier steps read as, and both are taken back through a journal of every change the
reading made (each table records the value it overwrote):

* an **Undo** pairs with an earlier step (``vassal_steps.UndoPointer``): neither is read, so the reading goes
  back to what it was before the undone step and reads the steps after it again (work proportional to the steps
  since the undone one, usually one or two);
* :meth:`LiveReading.rewind` forgets the last steps (steps read but not kept: the live route read them for an
  answer it could not store).

:attr:`LiveReading.changed` is the first event that may differ from what the caller last saw, so comparing the
reading with what was ruled costs the new events, not the whole game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Iterator, MutableMapping

from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.savefile import GameFile, PieceInfo, Step

from .vassal_board import BoardGeometry
from .vassal_events import ReadEvent, Reader
from .vassal_steps import Deck, UndoPointer, Undone, decks_of, step_facts

_MISSING = object()
Journal = list[tuple["JournalDict | JournalSet", Any, Any]]


class JournalDict(dict):  # type: ignore[type-arg]
    """A dict that records, in a shared journal, the value each assignment or removal replaced."""

    def __init__(self, journal: Journal, *args: Any) -> None:
        super().__init__(*args)
        self._journal = journal

    def __setitem__(self, key: Any, value: Any) -> None:
        self._journal.append((self, key, dict.get(self, key, _MISSING)))
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        self._journal.append((self, key, self[key]))
        super().__delitem__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        if key in self:
            self._journal.append((self, key, self[key]))
        return super().pop(key, *default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def popitem(self) -> tuple[Any, Any]:
        raise TypeError("a journal dict does not pop an arbitrary item")

    def clear(self) -> None:
        raise TypeError("a journal dict is not cleared")

    def restore(self, key: Any, old: Any) -> None:
        if old is _MISSING:
            dict.pop(self, key, None)
        else:
            dict.__setitem__(self, key, old)


class JournalSet(set):  # type: ignore[type-arg]
    """A set that records, in a shared journal, each member it gained or lost."""

    def __init__(self, journal: Journal, *args: Any) -> None:
        super().__init__(*args)
        self._journal = journal

    def add(self, item: Any) -> None:
        if item not in self:
            self._journal.append((self, item, False))
            super().add(item)

    def discard(self, item: Any) -> None:
        if item in self:
            self._journal.append((self, item, True))
            super().discard(item)

    def remove(self, item: Any) -> None:
        if item not in self:
            raise KeyError(item)
        self.discard(item)

    def restore(self, item: Any, was_in: bool) -> None:
        if was_in:
            set.add(self, item)
        else:
            set.discard(self, item)


@dataclass
class _Mark:
    """The reading before a step: where the journal and the reading's lists stood, and the last event's fields
    (a turn read from a later step is folded into the move before it, in place: 6.12)."""
    journal: int
    events: int
    last: dict[str, Any] | None
    notes: int
    problems: int
    warnings: int


class LiveReading:
    """The reading of one game's steps so far (see the module's docstring)."""

    def __init__(self, start: GameFile, scenario: Any, board: BoardGeometry) -> None:
        self._journal: Journal = []
        self.board = board
        self.table: MutableMapping[str, PieceInfo] = JournalDict(self._journal, start.pieces())
        self._decks: dict[str, Deck] = decks_of(start.setup_commands)
        for deck in self._decks.values():
            deck.contents = JournalSet(self._journal, deck.contents)
        self._reader = Reader(scenario, board, mapping=lambda: JournalDict(self._journal))
        self.steps: list[Step] = []
        self._undo = UndoPointer()
        self._pointers: list[int] = []            # the undo pointer before each step
        self._pairs: dict[int, int] = {}          # Undo step index -> the step index it took back
        self._taken: set[int] = set()             # the steps those took back
        self._marks: list[_Mark] = []             # the reading before each step read so far
        self.changed = 0
        self.steps_read = 0                       # steps folded into the reading, again after an Undo included

    @property
    def events(self) -> list[ReadEvent]:
        """The events read so far (the moves announced and still waiting for their piece are not among them)."""
        return self._reader.out.events

    def add(self, commands: Iterable[tuple[str, ...]]) -> None:
        """Read the next steps (each a step's commands, as a ``.vlog`` step holds them)."""
        for c in commands:
            step = Step(len(self.steps) + 1, tuple(c))
            self._pointers.append(self._undo.pointer)
            self.steps.append(step)
            target = self._undo.add(step)
            if target is None:
                self._read(step)
                continue
            # An Undo of step `target`: read again from before it, with neither it nor the Undo read.
            self._pairs[step.index] = target
            self._taken.add(target)
            self._back_to(target - 1)
            for again in self.steps[target - 1:]:
                self._read(again)

    def rewind(self, count: int) -> None:
        """Forget every step after the first ``count``: the reading is what it was after them."""
        if count >= len(self.steps):
            return
        back_to = count
        for step in reversed(self.steps[count:]):
            self._undo.drop_last(self._pointers.pop())
            target = self._pairs.pop(step.index, None)
            if target is not None:
                self._taken.discard(target)
                back_to = min(back_to, target - 1)
        self._back_to(back_to)
        kept = self.steps[back_to:count]
        del self.steps[count:]
        for step in kept:
            self._read(step)

    def take_changes(self) -> int:
        """The first event position that may have changed since the last call (the events before it did not)."""
        changed, self.changed = self.changed, len(self.events)
        return changed

    def _read(self, step: Step) -> None:
        out = self._reader.out
        mark = _Mark(len(self._journal), len(out.events), dict(out.events[-1].event) if out.events else None,
                     len(out.notes), len(out.problems), len(out.warnings))
        self._marks.append(mark)
        self.changed = min(self.changed, max(0, mark.events - 1))
        self.steps_read += 1
        if step.index in self._pairs:
            self._reader.step([Undone(step.index, self._pairs[step.index])])
        elif step.index not in self._taken:
            try:
                self._reader.step(step_facts(self.table, step, self._decks))
            except VassalFileError as e:
                self._restore(mark)
                out.problems.append(f"step {step.index}: {e}")

    def _back_to(self, position: int) -> None:
        """The reading as it was before the step at ``position`` (0-based) was read."""
        if position >= len(self._marks):
            return
        mark = self._marks[position]
        self._restore(mark)
        del self._marks[position:]
        self.changed = min(self.changed, max(0, mark.events - 1))

    def _restore(self, mark: _Mark) -> None:
        while len(self._journal) > mark.journal:
            container, key, old = self._journal.pop()
            container.restore(key, old)
        out = self._reader.out
        del out.events[mark.events:]
        if mark.last is not None:
            out.events[-1].event = dict(mark.last)
        del out.notes[mark.notes:]
        del out.problems[mark.problems:]
        del out.warnings[mark.warnings:]


def prefixes(game: GameFile, scenario: Any, board: BoardGeometry) -> Iterator[list[ReadEvent]]:
    """The events read after each step of ``game``, one step at a time (for tests and benchmarks)."""
    reading = LiveReading(game, scenario, board)
    for step in game.steps:
        reading.add([step.commands])
        yield reading.events
