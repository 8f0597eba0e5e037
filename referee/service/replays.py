"""Replayed logs kept per process, with snapshots, so the web page can ask for the board at any step.

``POST /check`` and the board pictures of an uploaded log share one replay: the page posts the log once to
read the rulings, then asks for pictures of steps as the reader moves through them.  A snapshot of the engine
state every ``EVERY`` events (states are immutable, so a snapshot is a reference) bounds the work for any step
to ``EVERY - 1`` engine steps, without holding thousands of states in memory.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from referee.engine.replay import Game, fewer_collections, final_state, new_game, step
from referee.engine.ruling import Ruling
from referee.logs import Log
from referee.report import Words, ruling_lines, words_for
from referee.service.encoding import dumps

EVERY = 32


@dataclass
class Replayed:
    log: Log
    rulings: list[dict[str, Any]]
    state: dict[str, Any]
    places: list[tuple[str, str]]          # (turn, phase) before each event
    snapshots: list[Game[Any]]             # snapshots[k] = the game after k * EVERY events

    @property
    def steps(self) -> int:
        return len(self.log.events)

    def body(self) -> dict[str, Any]:
        """The response of POST /check and ``referee check --format json``."""
        return {"rulings": self.rulings, "state": self.state}

    @cached_property
    def check_json(self) -> bytes:
        """``body()`` encoded once (by orjson, ``encoding``): a whole game's rulings are megabytes of JSON, and the
        page asks again."""
        return dumps(self.body())

    def game_at(self, n: int) -> Game[Any]:
        """The game after the first ``n`` events (0 = the set-up)."""
        n = max(0, min(n, self.steps))
        game = self.snapshots[n // EVERY]
        for i in range(n - n % EVERY, n):
            _, game, _ = step(game, i, self.log.events[i])
        return game


def replay_log(log: Log, each: Callable[[Ruling, Any], None] | None = None) -> Replayed:
    """Rule on every event (as ``referee.engine.replay.replay``) and keep snapshots on the way; ``each`` is
    called with every ruling and the event as played (the page words them: :func:`build`)."""
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    rulings: list[dict[str, Any]] = []
    places: list[tuple[str, str]] = []
    snapshots = [game]
    sources = getattr(log, "sources", None) or ()       # a VASSAL log's: each ruling's file, step and roll source
    with fewer_collections():
        for i, event in enumerate(log.events):
            places.append(log.ruleset.progress(game.state))
            ruling, game, played = step(game, i, event)
            rulings.append({**ruling.to_dict(), "vassal": sources[i]} if sources else ruling.to_dict())
            if each is not None:
                each(ruling, played)
            if (i + 1) % EVERY == 0:
                snapshots.append(game)
    return Replayed(log, rulings, final_state(game), places, snapshots)


class ReplayCache:
    """A small LRU of replays keyed by the upload's digest; concurrent requests for one log replay it once."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, Replayed] = OrderedDict()
        self._building: dict[str, threading.Lock] = {}

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def get(self, key: str, build: Any) -> Replayed:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit
            gate = self._building.setdefault(key, threading.Lock())
        with gate:
            try:
                with self._lock:
                    hit = self._items.get(key)
                if hit is None:
                    hit = build()
                    with self._lock:
                        self._items[key] = hit
                        while len(self._items) > self.size:
                            self._items.popitem(last=False)
                return hit
            finally:
                with self._lock:
                    self._building.pop(key, None)


@dataclass
class ReplayView:
    """A replayed log as the page reads it: the shared ``Replayed`` plus the words of every ruling."""
    replayed: Replayed
    lines: list[list[str]]            # report lines per ruling (header first)
    words: Words

    @property
    def log(self) -> Log:
        return self.replayed.log


def build(log: Log) -> ReplayView:
    """Rule on every event (``replays.replay_log``, keeping snapshots) and word every ruling, with the VASSAL
    step and file it comes from when the log is a VASSAL log (``Log.sources``), as ``referee check`` says it."""
    words = words_for(log.scenario, log.ruleset)
    lines: list[list[str]] = []
    sources = getattr(log, "sources", None) or ()

    def word(ruling: Any, played: Any) -> None:
        k = len(lines)
        lines.append(ruling_lines(ruling, played, words, sources[k] if k < len(sources) else None))
    replayed = replay_log(log, word)
    return ReplayView(replayed, lines, words)
