"""Fixtures for the storage suite: every test that takes ``storage`` or ``database_url`` runs
once on SQLite (a file in the test's temporary folder) and once on a real PostgreSQL server that
the session starts itself (pg_server.py).

Without PostgreSQL the PostgreSQL half is skipped with the reason, except under CI (CI=true),
where it fails: CI must never pass by skipping it.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any, Iterator, Sequence

import psycopg
import pytest

from pg_server import PostgresServer, PostgresUnavailable, start_server
from referee.storage import Storage, open_storage
from referee.storage.postgres import PostgresStorage
from referee.storage.sqlite import SQLiteStorage

BACKENDS = ("sqlite", "postgres")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if in_ci():
            pytest.fail(f"CI=true, so the PostgreSQL tests must run, but: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL is not available here: {exc}")
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A URL for a fresh, empty database of the backend under test."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'referee.sqlite'}"  # absolute path: sqlite:////tmp/...
    server: PostgresServer = request.getfixturevalue("pg_server")
    return server.create_database()


def open_with_timeout(url: str, timeout: float) -> Storage:
    """Like open_storage, with a short lock/busy timeout."""
    if url.startswith("sqlite:///"):
        return SQLiteStorage(url[len("sqlite:///"):], busy_timeout=timeout)
    return PostgresStorage(url, timeout=timeout)


@pytest.fixture
def storage(database_url: str) -> Iterator[Storage]:
    with open_storage(database_url) as s:
        yield s


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


@pytest.fixture
def raw(database_url: str) -> RawDatabase:
    return RawDatabase(database_url)
