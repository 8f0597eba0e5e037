"""Games to submit in tests and benchmarks: random legal play on the small scenario, made with the engine.

``players_events`` carry their rolls (the engine's referee rolls written in), so a ``dice: players`` game
replays them exactly; ``bare_events`` are the same acts without rolls, for ``dice: referee`` games (where the
other rolls may make some of them illegal — that is a ruling, not an error).
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from referee.engine import registry
from referee.engine.replay import new_game, step
from service_scenario import SMALL


@lru_cache(maxsize=8)
def _play(seed: int) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    from referee.service import scenarios
    scenario = scenarios.resolve(SMALL)
    ruleset = registry.get(scenario.ruleset)
    game = new_game(ruleset, scenario, "referee", f"play-{seed}")
    rng = random.Random(seed)
    bare, filled = [], []
    for i in range(2000):                      # bounded: the small scenario ends after ~60 events
        actions = ruleset.legal_actions(game.state)
        if not actions or ruleset.is_over(game.state):
            break
        event = rng.choice(actions)
        ruling, game, played = step(game, i, event)
        assert ruling.legal, ruling
        bare.append(dict(event))
        filled.append(played)
    return tuple(bare), tuple(filled)


def players_events(seed: int = 1) -> list[dict[str, Any]]:
    return [dict(e) for e in _play(seed)[1]]


def bare_events(seed: int = 1) -> list[dict[str, Any]]:
    return [dict(e) for e in _play(seed)[0]]


def submitter(event: dict[str, Any], default: str = "French") -> str:
    """The side that submits ``event``: its own side, else ``default``."""
    return str(event.get("side") or default)
