"""The chat notation: declarations players type in VASSAL's chat, read as referee events (docs/chat-notation.md).

A declaration is a chat line starting with ``!``: ``!orders ney-a davout-b barrage``, ``!draw i-corps``,
``!assault dumon-a dumon-b > 2313``, ``!end``.  Everything else in the chat is conversation and is ignored.
Acts that *are* board actions (a move, a retreat) may be announced first, and the unit's next move on the
board then supplies the destination (:class:`Claim`).

This module is the notation's grammar: names (:class:`Roster`), the words of a line (:class:`Tokens`) and
what a line may mean.  The commands themselves -- which words exist and what event each makes -- are the
ruleset's (``referee.rulesets.<id>.notation``, found through :mod:`referee.logs.notation`); only ``!side``
and ``!scenario`` are the reader's own.

Names are forgiving but never ambiguous: a unit is its id, a unique id suffix after a ``-`` (``damas-b`` for
``fr-th-damas-b``) or its printed name with ``-`` for spaces; a side is a unique prefix of its name; an
activation marker is a marker id or a unique suffix of one.  Anything else is a :class:`ChatError` whose
message says what was not understood.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import re
from typing import Any, Mapping, Union

from .notation import GENERIC, Notation, of_scenario

ARROW = ">"


class ChatError(ValueError):
    """A declaration that cannot be read; the message says why (the caller adds step and text)."""


# --------------------------------------------------------------------------------------------- what names mean

def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Roster:
    """The scenario's names: units and their sides, sides, markers, named commands, hex digits -- and the
    notation whose commands read them."""
    sides: tuple[str, ...]
    unit_side: Mapping[str, str]
    unit_names: Mapping[str, tuple[str, ...]]       # slug of the printed name -> unit ids
    markers: tuple[str, ...]
    commands: tuple[str, ...] = ()
    cincs: Mapping[str, str] = field(default_factory=dict)   # side -> commander-in-chief id
    digits: int = 2
    ag_side: Mapping[str, str] = field(default_factory=dict)  # marker id -> side (markers with one)
    command_side: Mapping[str, str] = field(default_factory=dict)  # named command -> side
    notation: Notation = GENERIC

    @classmethod
    def from_scenario(cls, scenario: Any, notation: Notation | None = None) -> "Roster":
        """The scenario's roster, read with ``notation`` (default: that of the scenario's ruleset)."""
        notation = of_scenario(scenario) if notation is None else notation
        sides = tuple(s.name for s in scenario.sides)
        people = list(scenario.counters.units) + list(scenario.counters.leaders)
        names: dict[str, tuple[str, ...]] = {}
        for p in people:
            names[_slug(p.name)] = names.get(_slug(p.name), ()) + (p.id,)
        extra = notation.names(scenario)
        markers, commands = dict(extra.get("markers", {})), dict(extra.get("commands", {}))
        return cls(sides, {p.id: p.side for p in people}, names, tuple(markers), tuple(commands),
                   {s.name: s.cinc for s in scenario.sides if getattr(s, "cinc", None)},
                   scenario.map.grid.digits, {m: side for m, side in markers.items() if side},
                   commands, notation)

    def unit(self, token: str) -> str:
        low = token.lower()
        if low in self.unit_side:
            return low
        found = [u for u in self.unit_side if u.endswith("-" + low)] or list(self.unit_names.get(_slug(low), ()))
        return _one(found, token, "unit")

    def side(self, token: str) -> str | None:
        """The side ``token`` names, or None when it is not a side name."""
        low = token.lower()
        found = [s for s in self.sides if s.lower().startswith(low)]
        return found[0] if len(found) == 1 and len(low) >= 2 else None

    def marker(self, token: str, side: str | None = None) -> str:
        """An activation marker; ``side`` settles a suffix both sides share (``viii-corps``)."""
        low = token.lower()
        if low in self.markers:
            return low
        if ":" in low:
            kind, side = low.split(":", 1)
            named = self.side(side)
            if named and f"{kind}:{named}" in self.markers:
                return f"{kind}:{named}"
        found = [m for m in self.markers if m.endswith("-" + low)]
        if len(found) > 1 and side is not None:
            found = [m for m in found if self.ag_side.get(m) == side] or found
        return _one(found, token, "activation marker")

    def command(self, token: str) -> str:
        """A Schevardino command: its id, a unique end of it (``ii-cav-corps``) or a unique part (``cav``)."""
        low = _slug(token)
        if low in self.commands:
            return low
        found = [c for c in self.commands if c.endswith("-" + low)] or [c for c in self.commands if low in c]
        return _one(found, token, "command")

    def marker_side(self, marker: str) -> str | None:
        """The side an activation marker belongs to (an AG's side, ``barrage:French``'s French), if any."""
        return self.ag_side.get(marker)

    def marker_candidates(self, token: str) -> list[str]:
        """Every marker ``token`` may name (one when it is unambiguous)."""
        low = token.lower()
        if low in self.markers:
            return [low]
        return sorted(m for m in self.markers if m.endswith("-" + low))


def _one(found: list[str], token: str, what: str) -> str:
    if len(found) == 1:
        return found[0]
    if not found:
        raise ChatError(f"no {what} {token!r}")
    raise ChatError(f"{what} {token!r} is ambiguous ({', '.join(sorted(found)[:5])})")


# --------------------------------------------------------------------------------------------- what a line says

@dataclass(frozen=True)
class Declared:
    """A complete event, except perhaps its ``side`` (the reader knows who typed it).

    ``markers``: a ``first_marker`` whose name both sides share (``viii-corps``) and whose side nothing typed
    says; the side holding the initiative when it is ruled settles it (4.0: the holder picks the first AM)."""
    event: dict[str, Any]
    markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """An event that waits for ``unit``'s next move on the board to give it ``field`` (``to`` or ``path``)."""
    unit: str
    field: str
    event: dict[str, Any]


@dataclass(frozen=True)
class SetSide:
    side: str


@dataclass(frozen=True)
class SetScenario:
    scenario: str


Meaning = Union[Declared, Claim, SetSide, SetScenario]


class Tokens:
    """The words after the command, consumed left to right by the command's reader."""

    def __init__(self, words: list[str], roster: Roster, player_side: str | None = None) -> None:
        self.words, self.roster, self.player_side = words, roster, player_side

    def peek(self) -> str | None:
        return self.words[0] if self.words else None

    def take(self) -> str:
        return self.words.pop(0)

    def side(self) -> str | None:
        w = self.peek()
        if w is not None and not w.isdigit() and self.roster.side(w):
            self.take()
            return self.roster.side(w)
        return None

    def unit(self) -> str:
        if not self.words or self.peek() == ARROW:
            raise ChatError("a unit is missing")
        return self.roster.unit(self.take())

    def units(self) -> list[str]:
        out = [self.unit()]
        while self.words and self.peek() not in (ARROW, ";") and not self.peek().isdigit() and not self._keyword():
            out.append(self.unit())
        return out

    def _keyword(self) -> bool:
        w = self.peek() or ""
        return w in self.roster.notation.flags or "=" in w

    def is_hex(self, w: str | None) -> bool:
        return w is not None and w.isdigit() and len(w) == 2 * self.roster.digits

    def hex(self) -> str:
        w = self.peek()
        if not self.is_hex(w):
            raise ChatError(f"expected a hex number ({'0' * 2 * self.roster.digits} style), not {w!r}"
                            if w else "a hex number is missing")
        return self.take()

    def arrow_hexes(self, required: bool) -> list[str]:
        if self.peek() != ARROW:
            if required:
                raise ChatError("'> hex' is missing")
            return []
        self.take()
        out = [self.hex()]
        while self.is_hex(self.peek()):
            out.append(self.take())
        return out

    def roll(self) -> dict[str, int]:
        w = self.peek()
        if w is not None and w.isdigit() and len(w) == 1:
            return {"roll": int(self.take())}
        return {}

    def number(self, what: str) -> int:
        w = self.peek()
        if w is None or not w.isdigit():
            raise ChatError(f"{what} is missing")
        return int(self.take())

    def flag(self, word: str) -> bool:
        if self.peek() == word:
            self.take()
            return True
        return False

    def option(self, key: str) -> dict[str, str]:
        w = self.peek()
        if w is not None and w.startswith(key + "="):
            self.take()
            return {key: w.split("=", 1)[1]}
        return {}

    # What a ruleset's reader (referee.rulesets.<id>.notation) makes, through the object it is given:
    # rulesets import no front end, so the meanings and the error are built here.
    @staticmethod
    def declared(event: dict[str, Any], markers: tuple[str, ...] = ()) -> "Declared":
        return Declared(event, markers)

    @staticmethod
    def claim(unit: str, fld: str, event: dict[str, Any]) -> "Claim":
        return Claim(unit, fld, event)

    @staticmethod
    def error(why: str) -> ChatError:
        return ChatError(why)

    def done(self) -> None:
        if self.words:
            raise ChatError(f"did not understand {' '.join(self.words)!r}")


def is_declaration(text: str) -> bool:
    return text.lstrip().startswith("!")


def words(text: str) -> list[str]:
    """Split on blanks, keeping ``>`` and ``;`` as words of their own (``>2313`` and ``a;b`` work too)."""
    return re.sub(r"([>;])", r" \1 ", text).split()


def read(text: str, roster: Roster, player_side: str | None = None) -> Meaning:
    """What the declaration ``text`` (starting with ``!``) means; ChatError if it cannot be read.

    ``player_side``: the side the typing player plays, if known; it only settles a marker name both sides
    share (the side of the event itself is the reader's business)."""
    ws = words(text.lstrip()[1:])
    if not ws:
        raise ChatError("an empty declaration")
    name = ws[0].lower()
    if name == "scenario":
        if len(ws) != 2:
            raise ChatError("give one scenario id, e.g. '!scenario borodino'")
        return SetScenario(ws[1])
    if name == "side":
        reader = set_side
    else:
        reader = roster.notation.verbs.get(name)
    if reader is None:
        raise ChatError(f"unknown command {ws[0]!r}")
    t = Tokens(ws[1:], roster, player_side)
    meaning = reader(t)
    t.done()
    return meaning


def side_of(side: str | None) -> dict[str, str]:
    """``{"side": side}`` when a side was typed, else nothing (the reader supplies it)."""
    return {"side": side} if side else {}


def set_side(t: Tokens) -> Meaning:
    """``!side SIDE``: the side the player's later declarations are for."""
    side = t.side()
    if side is None:
        raise ChatError(f"name a side ({', '.join(t.roster.sides)})")
    return SetSide(side)


def scenario_of(text: str) -> str | None:
    """The id a ``!scenario ID`` line names (read before the scenario, hence before any roster exists)."""
    ws = words(text.lstrip()[1:]) if is_declaration(text) else []
    return ws[1] if len(ws) == 2 and ws[0].lower() == "scenario" else None
