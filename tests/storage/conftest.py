"""Fixtures for the storage suite: every test that takes ``storage`` or ``database_url`` runs
once on SQLite (a file in the test's temporary folder) and once on a real PostgreSQL server that
the session starts itself (pg_server.py).

Without PostgreSQL the PostgreSQL half is skipped with the reason, except under CI (CI=true),
where it fails: CI must never pass by skipping it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from storage.pg_server import PostgresServer
from raw_db import RawDatabase
from referee.storage import Storage, open_storage

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A URL for a fresh, empty database of the backend under test."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'referee.sqlite'}"  # absolute path: sqlite:////tmp/...
    server: PostgresServer = request.getfixturevalue("pg_server")
    return server.new_database_url()


@pytest.fixture
def storage(database_url: str) -> Iterator[Storage]:
    with open_storage(database_url) as s:
        yield s


@pytest.fixture
def raw(database_url: str) -> RawDatabase:
    return RawDatabase(database_url)
