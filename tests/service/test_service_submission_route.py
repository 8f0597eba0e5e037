"""The submission route (``POST /api/v1/games/<id>/events``) and the cached token check behind it: a cached
token must never let a wrong token, or another game's token, through; every refusal is JSON."""
from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.service.extension import ext
from service_helpers import bearer
from service_play import players_events, submitter
from service_scenario import SMALL


def new_game(client: FlaskClient) -> dict[str, Any]:
    resp = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"})
    assert resp.status_code == 201
    return resp.json


def test_a_cached_token_lets_no_other_token_in(client: FlaskClient) -> None:
    one, two = new_game(client), new_game(client)
    event = players_events(1)[0]
    side = submitter(event)
    other_side = "Russian" if side == "French" else "French"

    def post(game: dict[str, Any], token: str, index: int = 0) -> Any:
        return client.post(f"/api/v1/games/{game['id']}/events", headers=bearer(token),
                           json={"expected_index": index, "events": [event]})

    # Both games' tokens are checked once and cached (a submission each).
    assert post(one, one["tokens"][side]).status_code == 200
    assert post(two, two["tokens"][side]).status_code == 200
    for token in ("not-a-token", one["tokens"][side][:-1], one["tokens"][side] + "x", two["tokens"][side],
                  two["tokens"][other_side]):
        resp = post(one, token, 1)
        assert resp.status_code == 401 and resp.json["error"]["code"] == "invalid_token", token
    # The other side's token of the same game is its own side, cached or not: its events are refused.
    wrong = post(one, one["tokens"][other_side], 1)
    assert wrong.status_code == 403 and wrong.json["error"]["code"] == "wrong_side"
    resp = client.post(f"/api/v1/games/{one['id']}/events", json={"expected_index": 1, "events": [event]})
    assert resp.status_code == 401 and resp.json["error"]["code"] == "unauthorized"
    assert resp.headers["WWW-Authenticate"].startswith("Bearer")


def test_unusual_submissions_are_refused_or_read_as_json(app: Flask, client: FlaskClient, small_game: dict[str, Any]) -> None:
    gid, token = small_game["id"], small_game["tokens"]["French"]
    url = f"/api/v1/games/{gid}/events"
    csv = client.post(url, headers=bearer(token), data="x", content_type="text/csv")
    assert csv.status_code == 415 and csv.json["error"]["code"] == "unsupported_media_type"
    app.config["MAX_CONTENT_LENGTH"] = 100
    big = client.post(url, headers=bearer(token), json={"expected_index": 0, "events": [{"pad": "x" * 200}]})
    assert big.status_code == 413 and big.json["error"]["code"] == "payload_too_large"
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024 * 1024
    assert client.get(url, headers=bearer(token)).status_code == 405
    assert client.post(url + "/", headers=bearer(token), json={}).status_code in (308, 404)
    event = players_events(1)[0]
    charset = client.post(url, headers=bearer(small_game["tokens"][submitter(event)]),
                          data=json.dumps({"expected_index": 0, "events": [event]}),
                          content_type="application/json; charset=utf-8")
    assert charset.status_code == 200 and charset.json["next_index"] == 1


def test_a_bug_is_a_logged_500_in_json(app: Flask, client: FlaskClient, small_game: dict[str, Any],
                                      monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    with app.app_context():
        host = ext().host

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(host, "submit", broken)
    event = players_events(1)[0]
    resp = client.post(f"/api/v1/games/{small_game['id']}/events", headers=bearer(small_game["tokens"]["French"]),
                       json={"expected_index": 0, "events": [event]})
    assert resp.status_code == 500 and resp.json["error"]["code"] == "internal_error"
    assert "a bug" not in resp.get_data(as_text=True)
    assert any("unhandled error" in r.getMessage() for r in caplog.records)
