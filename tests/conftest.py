"""Fixtures shared across test folders."""
from __future__ import annotations

from typing import Iterator

import pytest

from modulebuilder.vassal import enginecheck
from storage.pg_server import PostgresServer, PostgresUnavailable, start_server
from testenv import in_ci


@pytest.fixture(scope="session")
def engine() -> None:
    """The REAL VASSAL engine (shared/tools/vassal-check), or a skip with the reason it is missing.

    In CI the engine's one-time set-up runs first and a failure is an error, never a skip.
    """
    reason = enginecheck.unavailable()
    if reason and in_ci():
        enginecheck.prepare()
        reason = enginecheck.unavailable()
        if reason:
            pytest.fail(f"CI=true but the VASSAL engine could not be prepared: {reason}")
    if reason:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """A throwaway PostgreSQL server for the session (tests/storage/pg_server.py), or a skip with the
    reason; in CI a failure to start it is an error."""
    try:
        server = start_server()
    except PostgresUnavailable as exc:
        if in_ci():
            pytest.fail(f"CI=true, so the PostgreSQL tests must run, but: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL is not available here: {exc}")
    yield server
    server.stop()
