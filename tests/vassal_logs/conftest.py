"""The service the page's tests post their files to."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from flask.testing import FlaskClient

from referee.service import create_app
from referee.service.extension import ext


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    # The page's replay runs in the checking workers, at SCHED_IDLE by default: on two busy cores they would wait
    # out their budget, so here they run at normal priority on any CPU (as in tests/service/conftest.py).
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}", "TESTING": True,
                      "CHECK_PRIORITY": "0", "CHECK_CPUS": "all", "CHECK_BUDGET": 300.0})
    yield app.test_client()
    with app.app_context():
        ext().close()
