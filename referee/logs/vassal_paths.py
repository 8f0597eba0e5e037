"""Completing the events read from VASSAL against the live game state: paths for dragged units and the like.

VASSAL records where a piece ended, not how it got there; a ruleset's ``move`` needs the hexes entered, and
the path depends on the position *when the move is made* (other units, zones of control, what already
moved).  So the events are replayed through the engine, and each is completed by the ruleset's notation
(``notation.complete``: e.g. Triumph & Glory's cheapest legal path) from the state just before it is ruled.
A ruleset without a notation gets the destination as the whole path.

A declaration whose side nothing told (``ReadEvent.side_from_state``: ``!shock 2`` at the start of a turn's
file, before its player moved anything) is the act of the side that may make it now: the one side for which
it is ruled legal, else the one side the pending step lets act; when neither settles it, it is ``unreadable``
with the line and how to say the side.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence


from referee.engine.replay import new_game, step

from . import notation
from .vassal_events import UNREADABLE, ReadEvent, no_side


def resolve(ruleset: Any, scenario: Any, events: Sequence[ReadEvent], dice: str = "players") -> list[dict[str, Any]]:
    """The events, each completed by the ruleset's notation on the state before it, in order."""
    complete = notation.of(ruleset).complete
    game = new_game(ruleset, scenario, dice)
    out: list[dict[str, Any]] = []
    sides = [s.name for s in scenario.sides]
    for i, read in enumerate(events):
        if read.side_from_state:
            read = side_from_state(ruleset, game, i, read, sides)
        event = read.event if read.event["type"] == UNREADABLE else complete(game.state, read)
        _, game, _ = step(game, i, event)
        out.append(event)
    return out


def side_from_state(ruleset: Any, game: Any, index: int, read: ReadEvent, sides: list[str]) -> ReadEvent:
    """``read`` with the side that may make it now (see the module's docstring), or an ``unreadable`` event."""
    legal = [s for s in sides if step(game, index, {**read.event, "side": s})[0].legal]
    if len(legal) != 1 and hasattr(ruleset, "step"):
        legal = [s for s in getattr(ruleset.step(game.state), "actors", ()) if s in sides]
    if len(legal) == 1:
        return replace(read, event={**read.event, "side": legal[0]}, side_from_state=False)
    return replace(read, event={"type": UNREADABLE, "step": read.step, "line": read.line or "",
                                "why": no_side(read.line or "!?", sides)})
