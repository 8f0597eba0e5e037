"""Storage for hosted games: SQLite (the default) or PostgreSQL behind one interface.

    storage = open_storage()            # from DATABASE_URL, else ./referee.sqlite
    created = storage.create_game(NewGame(scenario="borodino", ruleset="triumph-and-glory",
                                          sides=("French", "Russian")))
    side = storage.authenticate(created.game_id, token)            # None if the token is wrong
    storage.append_events(created.game_id, side, expected_index, [NewEvent(event, ruling)])

See docs/storage.md for the schema and the guarantees.
"""

from __future__ import annotations

import os
from urllib.parse import parse_qsl

from .base import Storage
from .crypto import seed_commitment
from .errors import (GameEnded, GameNotFound, LiveChanged, StaleHead, StaleIndex, StorageBusy, StorageError,
                     TakeBackRefused)
from .model import (Contribution, CreatedGame, Game, LiveCommit, LiveHead, LiveRead, LiveStep, NewEvent, NewGame,
                    StoredEvent)
from .transaction import Transaction

__all__ = [
    "DEFAULT_URL", "Contribution", "CreatedGame", "Game", "GameEnded", "GameNotFound", "LiveChanged", "LiveCommit",
    "LiveHead", "LiveRead", "LiveStep", "NewEvent", "NewGame",
    "StaleHead", "StaleIndex", "Storage", "StorageBusy", "StorageError", "StoredEvent", "TakeBackRefused",
    "Transaction",
    "open_storage", "seed_commitment",
]

DEFAULT_URL = "sqlite:///referee.sqlite"
"""A file in the working folder."""


def open_storage(url: str | None = None) -> Storage:
    """Open (creating and migrating as needed) the database at ``url``, or at ``$DATABASE_URL``,
    or at DEFAULT_URL.

    * ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db`` (SQLAlchemy's convention:
      the path is everything after ``sqlite:///``), ``sqlite:///:memory:`` (tests only); an optional
      ``?synchronous=normal`` trades durability against power loss for speed (see .sqlite);
    * ``postgresql://user:password@host:port/database`` (also ``postgres://``).
    """
    if url is None:
        url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if url.startswith("sqlite:///"):
        path, _, query = url[len("sqlite:///"):].partition("?")
        try:
            options = dict(parse_qsl(query, strict_parsing=True)) if query else {}
        except ValueError:
            raise StorageError(f"DATABASE_URL: cannot read the SQLite options {query!r} "
                               "(sqlite:///file.db?synchronous=normal)") from None
        unknown = sorted(set(options) - {"synchronous"})
        if unknown:
            raise StorageError(f"DATABASE_URL: unknown SQLite option(s) {', '.join(unknown)} (known: synchronous)")
        if not path:
            raise StorageError("DATABASE_URL names no SQLite file (sqlite:///path/to/file.db)")
        from .sqlite import SQLiteStorage

        return SQLiteStorage(path, synchronous=options.get("synchronous", "FULL"))
    if url.startswith(("postgresql://", "postgres://")):
        try:
            from .postgres import PostgresStorage
        except ImportError:
            raise StorageError("PostgreSQL support needs psycopg: "
                               "pip install 'hexwargame-tools[postgres]'") from None
        return PostgresStorage(url)
    scheme = url.split(":", 1)[0]
    raise StorageError(f"unsupported DATABASE_URL scheme {scheme!r} "
                       "(use sqlite:///path/to/file.db or postgresql://user:pass@host:port/db)")
