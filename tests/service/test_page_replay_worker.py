"""``POST /replays`` (the page's upload) is ruled in the service's bounded checking workers
(referee/service/heavy.py ``page_replay``), not in the server's process: 503 + Retry-After when they are full or
the replay is over its time budget, and a failed replay is started again when the log is sent again."""
from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.service import create_app, heavy, replay_view
from referee.service.extension import ext

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"
SMALL_LOG = ROOT / "tests" / "fixtures" / "logs" / "small-inline.yaml"


def _post(client: FlaskClient, data: bytes, kind: str = "application/yaml"):
    return client.post("/api/v1/replays", data=data, content_type=kind)


def test_post_replays_rules_in_the_checking_workers_not_in_this_process(client: FlaskClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def in_this_process(log: object) -> None:
        raise AssertionError("the page's replay ran in the server's process")
    monkeypatch.setattr(replay_view, "build", in_this_process)   # the worker process has its own, unpatched
    created = _post(client, SMALL_LOG.read_bytes())
    assert created.status_code == 201, created.json
    body = client.get(f"/api/v1/replays/{created.json['id']}")
    assert body.status_code == 200, body.json
    check = client.post("/api/v1/check", data=SMALL_LOG.read_bytes(), content_type="application/yaml").json
    assert body.json["rulings"] == check["rulings"]
    step = client.get(f"/api/v1/replays/{created.json['id']}/board?step=9")       # a step from its snapshots
    assert step.status_code == 200 and step.json["before"] == {"guy-a": "0806"}


def test_post_replays_is_503_with_retry_after_when_the_workers_are_full(client: FlaskClient) -> None:
    pool = heavy.pool_for(client.application.config)
    taken = 0
    try:
        while True:                                  # every place the pool admits (workers + waiting)
            pool.admit()
            taken += 1
    except Exception as exc:  # noqa: BLE001 — the 503 that ends the loop
        assert getattr(exc, "status", None) == 503
    try:
        resp = _post(client, SMALL_LOG.read_bytes())
        assert resp.status_code == 503 and resp.json["error"]["code"] == "busy", resp.json
        assert resp.headers["Retry-After"]
    finally:
        for _ in range(taken):
            pool.release()
    assert _post(client, SMALL_LOG.read_bytes()).status_code == 201


def test_a_page_replay_over_its_budget_is_503_and_is_started_again_when_the_log_is_sent_again(
        database_url: str) -> None:
    # The budget is set per request (as the /check budget test does): 0.2 s is far below the sample game's
    # replay anywhere, 120 s leaves a small log room at any load.
    app = create_app({"DATABASE_URL": database_url, "TESTING": True, "CHECK_BUDGET": 120.0})
    client = app.test_client()
    pool = heavy.pool_for(app.config)
    # Only the replay gets the short budget: the log is read in the workers too (heavy.read_for_page), and
    # reading the sample must not be what runs over.
    budgets = {"page": 0.2}
    real_run = pool.run

    def run(job: heavy.Job) -> heavy.Answer:
        pool.budget = budgets.get(job.kind, 120.0)
        return real_run(job)

    pool.run = run  # type: ignore[method-assign]
    try:
        created = _post(client, SAMPLE.read_bytes(), "application/json")
        assert created.status_code == 201, created.json
        late = client.get(f"/api/v1/replays/{created.json['id']}")
        assert late.status_code == 503 and late.json["error"]["code"] == "over_budget", late.json
        assert late.headers["Retry-After"]
        budgets.clear()
        # The small log is fine meanwhile, and the sample sent again is replayed again (not the failure kept).
        assert client.get(f"/api/v1/replays/{_post(client, SMALL_LOG.read_bytes()).json['id']}").status_code == 200
        again = _post(client, SAMPLE.read_bytes(), "application/json")
        assert again.status_code == 201 and again.json["id"] == created.json["id"]
        assert client.get(f"/api/v1/replays/{again.json['id']}/board?step=40").status_code == 200
    finally:
        pool.close()
        with app.app_context():
            ext().close()
