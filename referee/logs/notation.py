"""What a ruleset contributes to reading a VASSAL log: its chat notation and the completion of board moves.

The reader (``chat``, ``vassal_events``, ``vassal_paths``) knows VASSAL and the shape of a declaration; what the
words mean is the ruleset's (``referee.logs`` imports no ruleset internals: docs/architecture.md, contract 4).  A ruleset names the
module of its hook in one attribute, ``notation = "referee.rulesets.<id>.notation"``, and that module's
``NOTATION`` is a mapping of the :class:`Notation` fields it sets (plain data and functions: a ruleset imports
no front end, so it never sees this module; what it is handed -- the words of a line, the names, a read
event -- it uses by their methods and fields):

* ``verbs``: its ``!`` commands (docs/chat-notation.md), the word after ``!`` -> the reader of the rest,
  and ``flags``, the words that end a list of units (``barrage``);
* ``names(scenario)``: ``{"markers": {id: side or None}, "commands": {id: side}}``, its activation markers
  and named commands (*Schevardino*);
* ``event_side(roster, event)``: the side an event belongs to by what it names (a unit, a marker...);
* ``sideless``: event types that belong to no side unless one is typed (a draw from the cup);
* ``board_move(uid, side, leader)``: the event a unit dragged on the board is;
* ``drawn(roster, properties)``: the event a piece drawn from a deck is (an activation marker from the cup
  is a ``draw``), from the drawn piece's properties; None when it means nothing to the rules;
* ``complete(state, read)``: a read event finished against the live game state just before it is ruled
  (a dragged unit's path, a first marker the initiative holder settles).

A ruleset without a hook is read with :data:`GENERIC`: ``!side`` and ``!scenario``, board moves as straight
lines, the d10 button's rolls.  The module is named by a string and imported here, lazily, so that a ruleset
never imports the log reader to register.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import importlib
from typing import Any, Callable, Mapping

from referee.engine import registry

# What a hook is handed, made by the reader above this module (``chat``'s Roster -- which holds its Notation --,
# Tokens and meanings, ``vassal_events``' ReadEvent): a hook uses them by their fields and methods, as the
# rulesets' notation modules do, so this contract names them without importing the reader.
Tokens = Meaning = Roster = ReadEvent = Any


def no_names(scenario: Any) -> Mapping[str, Mapping[str, Any]]:
    return {}


def unit_side(roster: Roster, event: Mapping[str, Any]) -> str | None:
    """The side of the unit an event names in ``unit`` or first in ``units``."""
    uid = event.get("unit") or next(iter(event.get("units", ())), None)
    return roster.unit_side.get(uid) if uid else None


def plain_move(uid: str, side: str, leader: bool) -> dict[str, Any]:
    return {"type": "move", "side": side, "unit": uid}


def nothing_drawn(roster: Roster, properties: Mapping[str, str]) -> dict[str, Any] | None:
    return None


def straight_path(state: Any, read: ReadEvent) -> dict[str, Any]:
    """The destination as the whole path: the ruleset rules on the move as typed."""
    return {**read.event, "path": [read.destination]} if read.destination is not None else read.event


@dataclass(frozen=True)
class Notation:
    verbs: Mapping[str, Callable[[Tokens], Meaning]] = field(default_factory=dict)
    flags: frozenset[str] = frozenset()               # words that end a list of units (``barrage``...)
    names: Callable[[Any], Mapping[str, Mapping[str, Any]]] = no_names
    event_side: Callable[[Roster, Mapping[str, Any]], str | None] = unit_side
    sideless: frozenset[str] = frozenset()
    side_optional: frozenset[str] = frozenset()       # the side when known, else none (the schema allows it)
    board_move: Callable[[str, str, bool], dict[str, Any]] = plain_move
    drawn: Callable[[Roster, Mapping[str, str]], dict[str, Any] | None] = nothing_drawn
    complete: Callable[[Any, ReadEvent], dict[str, Any]] = straight_path


GENERIC = Notation()


def of(ruleset: Any) -> Notation:
    """The ruleset's notation (its ``notation`` module's ``NOTATION``), else :data:`GENERIC`."""
    ref = getattr(ruleset, "notation", None)
    if not ref:
        return GENERIC
    found = getattr(importlib.import_module(ref), "NOTATION", None) if isinstance(ref, str) else ref
    if isinstance(found, Notation):
        return found
    if isinstance(found, Mapping):
        return Notation(**{k: (frozenset(v) if k in _SETS else v) for k, v in found.items()})
    return GENERIC


_SETS = ("flags", "sideless", "side_optional")


def of_scenario(scenario: Any) -> Notation:
    """The notation of the scenario's ruleset (GENERIC when it is not installed: the reader says so later)."""
    try:
        return of(registry.get(scenario.ruleset))
    except (registry.UnknownRuleset, AttributeError):
        return GENERIC
