"""The SQLite backend: the default, one file next to the service.

* WAL journal: readers never block the writer, nor the writer readers.
* ``synchronous = FULL`` (the default): a commit returns only once it is on disk, so an acknowledged
  submission survives a crash of the process *and* of the machine.  ``synchronous="NORMAL"`` (URL
  ``sqlite:///file.db?synchronous=normal``) skips the flush per commit: in WAL mode a commit is still
  atomic and survives a crash of the process (it is in the OS's page cache), but the last transactions
  before a power loss or OS crash may be lost (never corrupted); flushes then happen at checkpoints.
* Every write transaction starts with BEGIN IMMEDIATE, which takes the database's single write lock
  up front.  Two appenders can then never both read the same event count and both insert: the
  second waits (up to the busy timeout) and reads the count the first one committed.  A DEFERRED
  transaction would instead take the lock only at its first INSERT, and could fail with
  SQLITE_BUSY after having read a stale count.
* Within one process, write transactions queue on a mutex before BEGIN IMMEDIATE (SQLite's busy handler
  polls with growing sleeps; a mutex wakes the next writer at once).  Other processes still meet
  at SQLite's lock, through the busy timeout.
* ``foreign_keys = ON`` per connection (SQLite's default is off).
* Checkpoints (copying the WAL back into the database file, with a flush) run in a background thread
  every ``CHECKPOINT_EVERY`` seconds, not inside a commit: SQLite's automatic checkpoint runs in whichever
  commit crosses 1,000 WAL pages, and that commit — with the group commit, every submission queued behind
  it — then waits for the flushes (most of the service's p99 latency, docs/service.md).  A passive checkpoint
  waits for nobody and nobody waits for it.  The automatic one stays, at ``AUTOCHECKPOINT_PAGES``, as a
  bound on the WAL should the thread fall behind.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Iterator, Sequence

from . import schema
from .base import Storage
from .errors import StorageBusy, StorageError
from .session import Row, Session

log = logging.getLogger(__name__)

MEMORY = ":memory:"
# Durability levels offered (module docstring); OFF is not: a crash of the machine could corrupt the file.
SYNCHRONOUS = ("FULL", "NORMAL")
MAX_IDLE = 8
"""Idle connections kept for reuse; more are opened when more threads need one at once."""
CHECKPOINT_EVERY = 0.2
"""Seconds between background passive checkpoints (file databases)."""
AUTOCHECKPOINT_PAGES = 20_000
"""SQLite's own checkpoint, in the committing connection, once the WAL holds this many pages (~80 MB)."""


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

    def __init__(self, path: str, *, busy_timeout: float = 10.0, synchronous: str = "FULL") -> None:
        """``path`` is a file name, or ``:memory:`` (one private database for this object: tests
        only, it is gone when the object is closed).  ``synchronous``: FULL or NORMAL (module docstring)."""
        synchronous = synchronous.upper()
        if synchronous not in SYNCHRONOUS:
            raise StorageError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
        self._synchronous = synchronous
        self._path = path
        self._busy_timeout = busy_timeout
        # Connections are reused (an idle list, like a pool), one transaction at a time each:
        # opening one per transaction would also make SQLite checkpoint and delete the WAL every
        # time the last connection closes.  ":memory:" exists only inside its one connection, so
        # that connection is the only one, lent to one transaction at a time.
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._memory_lock = threading.Lock()
        self._shared: sqlite3.Connection | None = None
        self._closed = False
        self._stop = threading.Event()
        self._write_lock = threading.Lock()
        self._checkpointer: threading.Thread | None = None
        try:
            if path == MEMORY:
                self._shared = self._connect()
            else:
                conn = self._connect()
                # WAL is a property of the file, set once; it needs no transaction.
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                self._idle.append(conn)
                if mode != "wal":
                    self.close()
                    raise StorageError(f"SQLite refused WAL mode for {path!r} (got {mode!r})")
        except sqlite3.Error as exc:
            self.close()
            raise _translate(exc, f"cannot open SQLite database {path!r}") from None
        try:
            self.migrate()
        except BaseException:
            self.close()
            raise
        if path != MEMORY:
            self._checkpointer = threading.Thread(target=self._checkpoints, name="referee-sqlite-checkpoint",
                                                  daemon=True)
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        """Passive checkpoints until ``close``: they copy what they can without waiting for readers or the
        writer, and the commits never wait for them."""
        try:
            conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            log.warning("SQLite checkpoint thread cannot open %r: %s", self._path, exc)
            return
        try:
            while not self._stop.wait(CHECKPOINT_EVERY):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:       # another process checkpointing, a full disk: next time
                    log.debug("SQLite passive checkpoint: %s", exc)
        finally:
            conn.close()

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: the sqlite3 module issues no BEGIN/COMMIT of its own; _session does.
        conn = sqlite3.connect(self._path, timeout=self._busy_timeout, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
        conn.execute(f"PRAGMA synchronous = {self._synchronous}")
        if self._path != MEMORY:
            conn.execute(f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}")   # the thread does it
        return conn

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        if self._path == MEMORY:
            with self._memory_lock:
                if self._shared is None:
                    raise StorageError("storage is closed")
                yield self._shared
            return
        with self._lock:
            if self._closed:
                raise StorageError("storage is closed")
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect()
        try:
            yield conn
        finally:
            # A connection whose transaction could not even be rolled back is not reused.
            with self._lock:
                keep = not self._closed and not conn.in_transaction and len(self._idle) < MAX_IDLE
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    @contextmanager
    def _session(self, *, write: bool) -> Iterator[Session]:
        if write and self._path != MEMORY:
            # One writer at a time in this process, queued on a mutex: a second BEGIN IMMEDIATE would only
            # find SQLite's lock taken and sleep in its busy handler (growing sleeps between tries), long
            # after the lock is free — a game created while a group commit ran waited that long.
            if not self._write_lock.acquire(timeout=self._busy_timeout):
                raise StorageBusy("another transaction of this process held the database longer than the busy "
                                  "timeout")
            try:
                with self._begin(write=True) as session:
                    yield session
            finally:
                self._write_lock.release()
            return
        with self._begin(write=write) as session:
            yield session

    @contextmanager
    def _begin(self, *, write: bool) -> Iterator[Session]:
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
        """Close the idle connections; those lent out close when their transaction ends."""
        self._stop.set()
        if self._checkpointer is not None and self._checkpointer is not threading.current_thread():
            self._checkpointer.join(timeout=10)
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        with self._memory_lock:
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
