"""Fixtures for the service tests: an app on a fresh SQLite file per test, its test client, auth helpers."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.service import create_app
from referee.service.extension import ext
from service_scenario import SMALL

# The checking workers run at SCHED_IDLE by default: only on CPU nothing else wants (heavy.py).  A test suite on
# two busy cores (pytest -n 2, other jobs) leaves them none, and a /check would wait out its budget; these tests
# are about answers, so their workers (in-process apps and the gunicorn they start) run at normal priority.
# The default itself is tested in test_service_limits.py (test_the_checking_workers_use_only_idle_cpu).
os.environ.setdefault("REFEREE_CHECK_PRIORITY", "0")
os.environ.setdefault("REFEREE_CHECK_CPUS", "all")       # the suite's checks may use every CPU (cpus.py; tested on its own)
# Every test client is one address: the per-client creation rate and quota are off here, and tested on their own
# (test_service_strangers.py).
os.environ.setdefault("REFEREE_CREATE_PER_MINUTE", "0")
os.environ.setdefault("REFEREE_CREATE_QUOTA", "0")


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'referee.sqlite'}"


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    app = create_app({"DATABASE_URL": database_url, "TESTING": True})
    yield app
    with app.app_context():
        ext().close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def small_game(client: FlaskClient) -> dict[str, Any]:
    """A hosted players'-dice game on the small scenario."""
    resp = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"})
    assert resp.status_code == 201, resp.json
    return resp.json
