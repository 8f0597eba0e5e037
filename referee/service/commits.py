"""Group commit: the submissions that arrive while a commit is on its way to disk share the next one.

A durable commit costs a disk flush (SQLite ``synchronous = FULL``: some milliseconds), and SQLite has one
writer at a time, so committing each submission on its own caps a process at one flush per submission.
Here the request threads hand their appends to one committer thread, which stores everything waiting in one
transaction (``Storage.transaction()``): one flush for the lot.  No artificial delay: a batch is whatever
queued up during the previous flush, so an idle server commits a lone submission at once.

Each append keeps its own outcome: ``append_events`` raises StaleIndex / GameEnded / GameNotFound before it
writes anything, so a refused append leaves the rest of the batch intact and its request gets the refusal.
If the transaction itself fails (a database error), every append of the batch is retried on its own, so one
bad append cannot fail its neighbours.  Batches take games' locks in id order: two processes batching the
same games (PostgreSQL, row locks) cannot deadlock.
"""
from __future__ import annotations

import logging
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Sequence

from referee.storage import GameEnded, GameNotFound, NewEvent, StaleIndex, Storage

log = logging.getLogger(__name__)

MAX_BATCH = 64


@dataclass
class Append:
    game_id: str
    side: str
    expected_index: int
    events: Sequence[NewEvent]
    done: Future[int] = field(default_factory=Future)


class Committer:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[Append | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="referee-committer", daemon=True)
        self._thread.start()

    def append(self, game_id: str, side: str, expected_index: int, events: Sequence[NewEvent]) -> int:
        """Store ``events`` as ``storage.append_events`` would (same result, same exceptions), batched."""
        item = Append(game_id, side, expected_index, events)
        self._queue.put(item)
        return item.done.result()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._commit(batch)
                    return
                batch.append(nxt)
            self._commit(batch)

    def _commit(self, batch: list[Append]) -> None:
        batch.sort(key=lambda a: a.game_id)
        outcomes: list[int | BaseException] = []
        try:
            with self.storage.transaction() as tx:
                for item in batch:
                    try:
                        outcomes.append(tx.append_events(item.game_id, item.side, item.expected_index, item.events))
                    except (StaleIndex, GameEnded, GameNotFound) as exc:   # refused before writing anything
                        outcomes.append(exc)
        except Exception as exc:  # noqa: BLE001 — the batch's transaction failed: each append on its own
            if len(batch) == 1:
                batch[0].done.set_exception(exc)
                return
            log.warning("group commit of %d appends failed (%s); committing them one by one", len(batch), exc)
            for item in batch:
                self._commit([item])
            return
        for item, outcome in zip(batch, outcomes):
            if isinstance(outcome, BaseException):
                item.done.set_exception(outcome)
            else:
                item.done.set_result(outcome)
