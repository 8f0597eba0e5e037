"""A game played live, read again from a .vlog as ``referee check`` reads it: the events the .vlog reader finds,
each completed (notation) on the hosted game's position before it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from modulebuilder.vassal.savefile import read_game
from referee.engine.replay import new_game, step
from referee.logs import notation
from referee.logs.vassal_board import from_scenario
from referee.logs.vassal_events import read_events
from referee.logs.vassal_steps import facts


def events_read_again(vlog: Path, ruleset: Any, scenario: Any, before: list[dict[str, Any]], dice: str,
                      seed: str | None) -> list[dict[str, Any]]:
    """``before`` (the hosted events the .vlog starts after), then the .vlog's events completed on the game's
    position as it goes."""
    game = new_game(ruleset, scenario, dice, seed)
    for i, event in enumerate(before):
        _, game, _ = step(game, i, event)
    events = list(before)
    for read in read_events(facts(read_game(vlog)), scenario, from_scenario(scenario)).events:
        event = notation.of(ruleset).complete(game.state, read)
        _, game, _ = step(game, len(events), event)
        events.append(event)
    return events
