"""What a backend provides to the shared operations: one open transaction on one connection."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import Any, Sequence

Row = tuple[Any, ...]


class Session(ABC):
    """One open transaction.  SQL uses ``?`` placeholders whatever the driver."""

    lock_game_suffix: str = ""
    """Appended to the SELECT that reads a game row before writing to it.  PostgreSQL needs
    ``FOR UPDATE`` to serialise writers of one game; SQLite already holds the database's write
    lock from BEGIN IMMEDIATE."""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    @abstractmethod
    def execute_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abstractmethod
    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    def time_in(self, when: datetime) -> Any:
        """A timezone-aware datetime as the driver stores it."""

    @abstractmethod
    def time_out(self, value: Any) -> datetime:
        """A stored time back as a timezone-aware datetime."""

    def lock_for_migration(self) -> None:
        """Keep other processes from migrating at the same time (SQLite: BEGIN IMMEDIATE did)."""
