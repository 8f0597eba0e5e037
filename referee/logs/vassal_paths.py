"""Completing the events read from VASSAL against the live game state: paths for dragged units and the like.

VASSAL records where a piece ended, not how it got there; a ruleset's ``move`` needs the hexes entered, and
the path depends on the position *when the move is made* (other units, zones of control, what already
moved).  So the events are replayed through the engine, and each is completed by the ruleset's notation
(``notation.complete``: e.g. Triumph & Glory's cheapest legal path) from the state just before it is ruled.
A ruleset without a notation gets the destination as the whole path.
"""
from __future__ import annotations

from typing import Any, Sequence

from referee.engine.replay import new_game, step

from . import notation
from .vassal_events import ReadEvent


def resolve(ruleset: Any, scenario: Any, events: Sequence[ReadEvent], dice: str = "players") -> list[dict[str, Any]]:
    """The events, each completed by the ruleset's notation on the state before it, in order."""
    complete = notation.of(ruleset).complete
    game = new_game(ruleset, scenario, dice)
    out: list[dict[str, Any]] = []
    for i, read in enumerate(events):
        event = complete(game.state, read)
        _, game, _ = step(game, i, event)
        out.append(event)
    return out
