"""The storage interface: ``Storage``, implemented by the SQLite and PostgreSQL backends.

A backend supplies ``_session`` (begin, commit or roll back, translate driver errors); the
operations themselves are ``Transaction``'s, the same for both.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Iterator, Sequence

from . import schema
from .errors import StorageError
from .model import (Contribution, CreatedGame, Game, JSONValue, LiveCommit, LiveHead, LiveRead, LiveStep, NewEvent,
                    NewGame, StoredEvent)
from .session import Session
from .transaction import Transaction

log = logging.getLogger(__name__)


class Storage(ABC):
    """Hosted games: their set-up, side tokens and event logs.  Thread-safe; every method is
    one transaction.  Use ``open_storage`` to get one."""

    migrations: tuple[schema.Migration, ...]

    @abstractmethod
    def _session(self, *, write: bool) -> AbstractContextManager[Session]:
        """Begin a transaction (``write`` takes the locks writers need),
        commit if the block succeeds, roll back if it raises.  Driver errors come out as
        StorageError."""

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> "Storage":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Several operations as one transaction: all of them happen or none does.  Keep it
        short: on SQLite it holds the database's write lock until it ends."""
        with self._session(write=True) as session:
            yield Transaction(session)

    @contextmanager
    def _read(self) -> Iterator[Transaction]:
        with self._session(write=False) as session:
            yield Transaction(session)

    def migrate(self) -> int:
        """Bring the schema up to date (idempotent, safe from several processes at once) and
        return its version."""
        with self._session(write=True) as s:
            s.lock_for_migration()
            s.execute(schema.VERSION_TABLE)
            row = s.one("SELECT version FROM schema_version WHERE id = 1")
            version = 0 if row is None else int(row[0])
            if version > len(self.migrations):
                raise StorageError(f"the database schema is version {version}, newer than this "
                                   f"program knows ({len(self.migrations)})")
            for number in range(version + 1, len(self.migrations) + 1):
                for statement in self.migrations[number - 1]:
                    s.execute(statement)
                log.info("storage: applied schema migration %d", number)
            if row is None:
                s.execute("INSERT INTO schema_version (id, version) VALUES (1, ?)",
                          (len(self.migrations),))
            elif version != len(self.migrations):
                s.execute("UPDATE schema_version SET version = ? WHERE id = 1",
                          (len(self.migrations),))
            return len(self.migrations)

    # The operations, each its own transaction.  Reads see one consistent snapshot.

    def create_game(self, new: NewGame, *, now: datetime | None = None) -> CreatedGame:
        with self.transaction() as tx:
            return tx.create_game(new, now=now)

    def authenticate(self, game_id: str, token: str) -> str | None:
        with self._read() as tx:
            return tx.authenticate(game_id, token)

    def count_created(self, creator: str, since: datetime) -> int:
        with self._read() as tx:
            return tx.count_created(creator, since)

    def expire_unplayed(self, before: datetime, limit: int = 1000) -> int:
        with self.transaction() as tx:
            return tx.expire_unplayed(before, limit)

    def get_game(self, game_id: str) -> Game:
        with self._read() as tx:
            return tx.get_game(game_id)

    def dice_seed(self, game_id: str) -> str:
        with self._read() as tx:
            return tx.dice_seed(game_id)

    def list_events(self, game_id: str, since: int = 0) -> list[StoredEvent]:
        with self._read() as tx:
            return tx.list_events(game_id, since)

    def list_contributions(self, game_id: str) -> list[Contribution]:
        with self._read() as tx:
            return tx.list_contributions(game_id)

    def add_contribution(self, game_id: str, side: str, kind: str, value: str, *,
                         now: datetime | None = None) -> Contribution:
        with self.transaction() as tx:
            return tx.add_contribution(game_id, side, kind, value, now=now)

    def append_events(self, game_id: str, side: str, expected_index: int,
                      events: Sequence[NewEvent | tuple[JSONValue, JSONValue]], *,
                      now: datetime | None = None, after: str | None = None) -> int:
        with self.transaction() as tx:
            return tx.append_events(game_id, side, expected_index, events, now=now, after=after)

    def take_back_events(self, game_id: str, side: str, from_index: int) -> int:
        with self.transaction() as tx:
            return tx.take_back_events(game_id, side, from_index)

    def end_game(self, game_id: str, *, now: datetime | None = None) -> Game:
        with self.transaction() as tx:
            return tx.end_game(game_id, now=now)

    # A game played live in VASSAL (referee/service/live.py): its steps, and what the events read from them became.

    def live_head(self, game_id: str) -> LiveHead:
        with self._read() as tx:
            return tx.live_head(game_id)

    def live_start(self, game_id: str) -> str | None:
        with self._read() as tx:
            return tx.live_start(game_id)

    def live_steps(self, game_id: str, since: int = 0) -> list[LiveStep]:
        with self._read() as tx:
            return tx.live_steps(game_id, since)

    def live_reads(self, game_id: str, after_version: int = -1) -> list[LiveRead]:
        with self._read() as tx:
            return tx.live_reads(game_id, after_version)

    def live_counts(self, game_id: str) -> dict[tuple[str, str], int]:
        with self._read() as tx:
            return tx.live_counts(game_id)

    def commit_live(self, game_id: str, commit: LiveCommit, *, now: datetime | None = None) -> int:
        with self.transaction() as tx:
            return tx.commit_live(game_id, commit, now=now)
