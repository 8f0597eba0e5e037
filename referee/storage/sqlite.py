"""The SQLite backend: the default, one file next to the service.

* WAL journal: readers never block the writer, nor the writer readers.
* ``synchronous = FULL``: a commit returns only once it is on disk, so an acknowledged submission
  survives a crash of the process *and* of the machine.
* Every write transaction starts with BEGIN IMMEDIATE, which takes the database's single write lock
  up front.  Two appenders can then never both read the same event count and both insert: the
  second waits (up to the busy timeout) and reads the count the first one committed.  A DEFERRED
  transaction would instead take the lock only at its first INSERT, and could fail with
  SQLITE_BUSY after having read a stale count.
* ``foreign_keys = ON`` per connection (SQLite's default is off).
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Iterator, Sequence

from . import schema
from .base import Row, Session, Storage, log
from .errors import StorageBusy, StorageError

MEMORY = ":memory:"


class _SQLiteSession(Session):
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._conn.execute(sql, params)

    def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        row = self._conn.execute(sql, params).fetchone()
        return None if row is None else tuple(row)

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in self._conn.execute(sql, params).fetchall()]

    def time_in(self, when: datetime) -> str:
        return when.isoformat()  # always UTC (+00:00), so text order is time order

    def time_out(self, value: Any) -> datetime:
        return datetime.fromisoformat(value)


class SQLiteStorage(Storage):
    migrations = schema.SQLITE

    def __init__(self, path: str, *, busy_timeout: float = 10.0) -> None:
        """``path`` is a file name, or ``:memory:`` (one private database for this object: tests
        only, it is gone when the object is closed)."""
        self._path = path
        self._busy_timeout = busy_timeout
        # A file database gets a fresh connection per transaction: cheap for SQLite, and no
        # connection is ever shared between threads.  ":memory:" exists only inside its one
        # connection, so that connection is shared, one transaction at a time.
        self._shared: sqlite3.Connection | None = None
        self._shared_lock = threading.Lock()
        try:
            if path == MEMORY:
                self._shared = self._connect()
            else:
                with self._closing(self._connect()) as conn:
                    # WAL is a property of the file, set once; it needs no transaction.
                    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                    if mode != "wal":
                        raise StorageError(f"SQLite refused WAL mode for {path!r} (got {mode!r})")
        except sqlite3.Error as exc:
            raise _translate(exc, f"cannot open SQLite database {path!r}") from None
        self.migrate()

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: the sqlite3 module issues no BEGIN/COMMIT of its own; _session does.
        conn = sqlite3.connect(self._path, timeout=self._busy_timeout, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
        conn.execute("PRAGMA synchronous = FULL")
        return conn

    @staticmethod
    @contextmanager
    def _closing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        try:
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        if self._path == MEMORY:
            with self._shared_lock:
                if self._shared is None:
                    raise StorageError("storage is closed")
                yield self._shared
        else:
            with self._closing(self._connect()) as conn:
                yield conn

    @contextmanager
    def _session(self, *, write: bool) -> Iterator[Session]:
        try:
            with self._connection() as conn:
                # A read transaction (DEFERRED) sees one snapshot for all its SELECTs.
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield _SQLiteSession(conn)
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise _translate(exc, "SQLite error") from None

    def close(self) -> None:
        with self._shared_lock:
            if self._shared is not None:
                self._shared.close()
                self._shared = None


def _translate(exc: sqlite3.Error, context: str) -> StorageError:
    log.warning("%s: %s: %s", context, type(exc).__name__, exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StorageBusy("the database stayed locked longer than the busy timeout")
    if isinstance(exc, sqlite3.IntegrityError):
        return StorageError(f"{context}: constraint violated ({exc})")
    return StorageError(f"{context}: {type(exc).__name__}: {exc}")
