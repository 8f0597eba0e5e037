"""Games to submit in tests and benchmarks: random legal play on the small scenario, made with the engine.

``players_events`` carry their rolls (the engine's referee rolls written in), so a ``dice: players`` game
replays them exactly; ``bare_events`` are the same acts without rolls, for ``dice: referee`` games (where the
other rolls may make some of them illegal — that is a ruling, not an error).

Both are written as the two sides would submit them in a hosted game (referee.engine.actors): an event whose
actor is a side carries that side where its schema has the field (``end_activation``), and a roll of both
sides (``initiative``, ``go_first``) is the event without rolls followed by one ``roll`` event per side, each
sent by its own side.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from referee.engine import actors, registry
from referee.engine.replay import new_game, step
from service_scenario import SMALL


def _sided(ruleset: Any, game: Any, event: dict[str, Any]) -> dict[str, Any]:
    """``event`` with its actor's ``side`` written in, where the event type has that field."""
    if "side" in event:
        return event
    owner = actors.owner(game, event)
    props = ruleset.event_schema()["$defs"]["events"]["properties"].get(event["type"], {}).get("properties", {})
    return {**event, "side": owner} if owner is not None and "side" in props else event


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
        event = _sided(ruleset, game, dict(rng.choice(actions)))
        ruling, game, played = step(game, i, event)
        assert ruling.legal, ruling
        bare.append(dict(event))
        rolls = played.get("rolls")
        if isinstance(rolls, dict) and len(rolls) > 1:
            filled.append({k: v for k, v in played.items() if k != "rolls"})
            filled += [{"type": "roll", "side": side, "roll": roll} for side, roll in rolls.items()]
        else:
            filled.append(played)
    return tuple(bare), tuple(filled)


def players_events(seed: int = 1) -> list[dict[str, Any]]:
    return [dict(e) for e in _play(seed)[1]]


def bare_events(seed: int = 1) -> list[dict[str, Any]]:
    return [dict(e) for e in _play(seed)[0]]


def submitter(event: dict[str, Any], default: str = "French") -> str:
    """The side that submits ``event``: its own side, else ``default`` (an act either side may make)."""
    return str(event.get("side") or default)


def referee_game(client: Any, scenario: Any = SMALL, seeds: dict[str, str] | None = None) -> dict[str, Any]:
    """A hosted game with referee dice whose seeds are in: the first side commits and then reveals, the
    second sends its seed (referee.service.dice).  The answer of creation, plus ``chain`` (the head now)."""
    import hashlib
    resp = client.post("/api/v1/games", json={"scenario": scenario, "dice": "referee"})
    assert resp.status_code == 201, resp.json
    game = dict(resp.json)
    first, second = game["sides"]
    seeds = seeds or {first: f"{first} seed", second: f"{second} seed"}
    url = f"/api/v1/games/{game['id']}/dice"

    def send(side: str, body: dict[str, str]) -> Any:
        r = client.post(url, json=body, headers={"Authorization": f"Bearer {game['tokens'][side]}"})
        assert r.status_code == 200, r.json
        return r.json

    send(first, {"commitment": hashlib.sha256(seeds[first].encode()).hexdigest()})
    send(second, {"seed": seeds[second]})
    game["chain"] = send(first, {"seed": seeds[first]})["chain"]
    return game
