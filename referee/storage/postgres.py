"""The PostgreSQL backend, for several service instances sharing one database.

* Connections come from a ``psycopg_pool.ConnectionPool``; each is checked before it is lent, so a
  restarted server costs a reconnect, not an error.
* Write transactions run at READ COMMITTED and lock the game row (``SELECT … FOR UPDATE``) before
  counting its events.  Appenders of one game therefore run one after the other, and each
  statement of the one that waited sees the rows the other committed.  Different games never wait
  for each other.  The events primary key (game_id, event_index) stands behind this: even a writer
  that skipped the lock could not store two events at one index.
* Read transactions run at REPEATABLE READ, READ ONLY: one snapshot for all their SELECTs.
* Migrations take a transaction-scoped advisory lock, so instances that start together migrate one
  at a time.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Iterator, Sequence

import psycopg
import psycopg.errors
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from . import schema
from .base import Storage
from .errors import StorageBusy, StorageError
from .session import Row, Session

log = logging.getLogger(__name__)

_MIGRATION_LOCK = 0x7265_6665_7265_6501
"""Advisory lock key for migrations (arbitrary, fixed; "referee" in ASCII)."""


@lru_cache(maxsize=64)
def _pg(sql: str) -> str:
    # The shared SQL uses '?' (sqlite3's style); psycopg wants '%s'.  The statements contain no
    # literal '?' or '%'.
    return sql.replace("?", "%s")


class _PostgresSession(Session):
    lock_game_suffix = " FOR UPDATE"

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._conn.execute(_pg(sql), params)

    def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cur:
            cur.executemany(_pg(sql), rows)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return self._conn.execute(_pg(sql), params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn.execute(_pg(sql), params).fetchall()

    def time_in(self, when: datetime) -> datetime:
        return when

    def time_out(self, value: Any) -> datetime:
        # psycopg returns an aware datetime in the session's time zone; answer in UTC, as SQLite does.
        assert isinstance(value, datetime)
        return value.astimezone(timezone.utc)

    def lock_for_migration(self) -> None:
        self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))


class PostgresStorage(Storage):
    migrations = schema.POSTGRES

    def __init__(self, url: str, *, pool_size: int = 10, timeout: float = 10.0) -> None:
        """``url``: ``postgresql://user:password@host:port/database``.  ``timeout`` (seconds)
        bounds the first connection at start-up, the wait for a pooled connection, and the wait
        for a lock (another transaction writing to the same game); past it, StorageBusy."""
        self._where = _describe(url)
        lock_timeout_ms = max(1, int(timeout * 1000))

        def configure(conn: psycopg.Connection[Any]) -> None:
            # A writer never queues forever behind a stuck transaction on the game row.
            conn.execute(f"SET lock_timeout = {lock_timeout_ms}")

        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=timeout,
            # autocommit: transactions are explicit (conn.transaction()), none is left open
            # by a stray SELECT.
            kwargs={"autocommit": True},
            configure=configure,
            check=ConnectionPool.check_connection,
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except PoolTimeout:
            self._pool.close()
            raise StorageError(f"cannot connect to PostgreSQL at {self._where}") from None
        try:
            self.migrate()
        except BaseException:
            self._pool.close()
            raise

    @contextmanager
    def _session(self, *, write: bool) -> Iterator[Session]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                if not write:
                    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield _PostgresSession(conn)
        except PoolTimeout:
            raise StorageBusy("no database connection became free in time") from None
        except psycopg.Error as exc:
            raise _translate(exc, self._where) from None

    def close(self) -> None:
        self._pool.close()


def _translate(exc: psycopg.Error, where: str) -> StorageError:
    log.warning("PostgreSQL error at %s: %s: %s", where, type(exc).__name__, exc)
    if isinstance(exc, (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled)):
        return StorageBusy("the database stayed locked longer than the timeout")
    if isinstance(exc, psycopg.errors.IntegrityError):
        return StorageError(f"constraint violated ({exc.diag.constraint_name or exc.sqlstate})")
    if isinstance(exc, psycopg.OperationalError):
        return StorageError(f"lost the connection to PostgreSQL at {where}")
    return StorageError(f"PostgreSQL error {exc.sqlstate or type(exc).__name__}")


def _describe(url: str) -> str:
    """host:port/dbname for messages: the URL minus its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        raise StorageError("DATABASE_URL is not a valid PostgreSQL URL") from None
    return f"{parts.get('host', 'localhost')}:{parts.get('port', 5432)}/{parts.get('dbname', '')}"
