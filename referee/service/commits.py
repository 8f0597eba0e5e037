"""Group commit: the submissions that arrive while a commit is under way share the next one.

A durable commit costs a disk flush (SQLite ``synchronous = FULL``: some milliseconds), and SQLite has one
writer at a time, so committing each submission on its own caps a process at one flush per submission.
Here appends queue up, and whichever request thread holds the commit lock (the *leader*) stores everything
queued — its own append and the others' — in one transaction (``Storage.transaction()``): one flush for the
lot.  The threads whose appends it stored find them done when they get the lock and return at once; the
others take their turn as leader.  No artificial delay and no committer thread: a lone submission on an idle
server commits itself, with no hand-over to another thread (which would cost every submission CPU).

Each append keeps its own outcome: ``append_events`` raises StaleIndex / GameEnded / GameNotFound before it
writes anything, so a refused append leaves the rest of the batch intact and its request gets the refusal.
If the transaction itself fails (a database error), every append of the batch is retried on its own, so one
bad append cannot fail its neighbours.  Batches take games' locks in id order: two processes batching the
same games (PostgreSQL, row locks) cannot deadlock.
"""
from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Sequence

from referee.storage import GameEnded, GameNotFound, NewEvent, StaleIndex, Storage

log = logging.getLogger(__name__)

MAX_BATCH = 64
_PENDING = object()


@dataclass(eq=False)
class Append:
    game_id: str
    side: str
    expected_index: int
    events: Sequence[NewEvent]
    after: str | None = None                      # the chain head the events were ruled after
    outcome: object = field(default=_PENDING)     # the new count, or the exception to raise


class Committer:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: deque[Append] = deque()       # appends and pops are atomic
        self._lock = threading.Lock()              # held by the leader while it commits a batch

    def append(self, game_id: str, side: str, expected_index: int, events: Sequence[NewEvent],
               after: str | None = None) -> int:
        """Store ``events`` as ``storage.append_events`` would (same result, same exceptions), batched."""
        item = Append(game_id, side, expected_index, events, after)
        self._queue.append(item)
        while item.outcome is _PENDING:
            with self._lock:
                if item.outcome is not _PENDING:   # a leader stored it while this thread waited
                    break
                batch = []
                while self._queue and len(batch) < MAX_BATCH:
                    batch.append(self._queue.popleft())
                if batch:
                    self._commit(batch)
        if isinstance(item.outcome, BaseException):
            raise item.outcome
        assert isinstance(item.outcome, int)
        return item.outcome

    def close(self) -> None:
        """Nothing to stop: appends are committed by the threads that make them."""

    def _commit(self, batch: list[Append]) -> None:
        try:
            self._commit_batch(batch)
        finally:
            for item in batch:                     # never leave a waiter without an answer
                if item.outcome is _PENDING:
                    item.outcome = RuntimeError("the group commit stopped before storing this append")

    def _commit_batch(self, batch: list[Append]) -> None:
        batch = sorted(batch, key=lambda a: a.game_id)
        outcomes: list[object] = []
        try:
            with self.storage.transaction() as tx:
                for item in batch:
                    try:
                        outcomes.append(tx.append_events(item.game_id, item.side, item.expected_index, item.events,
                                                        after=item.after))
                    except (StaleIndex, GameEnded, GameNotFound) as exc:   # refused before writing anything
                        outcomes.append(exc)
        except Exception as exc:  # noqa: BLE001 — the batch's transaction failed: each append on its own
            if len(batch) == 1:
                batch[0].outcome = exc
                return
            log.warning("group commit of %d appends failed (%s); committing them one by one", len(batch), exc)
            for item in batch:
                self._commit_batch([item])
            return
        for item, outcome in zip(batch, outcomes):
            item.outcome = outcome
