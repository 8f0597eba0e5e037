"""Helpers the storage tests import directly (conftest.py is not importable by name when several
test folders have one)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import Any, Sequence

import psycopg

from referee.storage import Storage
from referee.storage.postgres import PostgresStorage
from referee.storage.sqlite import SQLiteStorage


class RawDatabase:
    """Direct SQL on the database behind a URL, bypassing the storage layer: to read what was
    really stored and to plant triggers.  SQL uses '?' placeholders on both backends."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite:///")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.is_sqlite:
            with closing(sqlite3.connect(self.url[len("sqlite:///"):])) as lite, lite:
                return lite.execute(sql, params).fetchall()
        with psycopg.connect(self.url, autocommit=True) as pg:
            # Without parameters, psycopg must not read '%' in the SQL as a placeholder.
            cur = pg.execute(sql.replace("?", "%s"), params) if params else pg.execute(sql)
            return cur.fetchall() if cur.description else []


def open_with_timeout(url: str, timeout: float) -> Storage:
    """Like open_storage, with a short lock/busy timeout."""
    if url.startswith("sqlite:///"):
        return SQLiteStorage(url[len("sqlite:///"):], busy_timeout=timeout)
    return PostgresStorage(url, timeout=timeout)
