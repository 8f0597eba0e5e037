"""The submission fast path (referee/service/fastpath.py) and the cached token check behind it.

The fast path answers POST /api/v1/games/<id>/events in front of Flask; every answer it gives must be the one
the Flask route gives (the same checks in the same order, the same error bodies), and a cached token must
never let a wrong token, or another game's token, through.
"""
from __future__ import annotations

import io
import json
import sys
from typing import Any, Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.service.extension import ext
from referee.service.fastpath import SubmissionFastPath
from service_helpers import bearer
from service_play import players_events, submitter
from service_scenario import SMALL


def wsgi_call(wsgi: Callable[..., Any], path: str, body: bytes, headers: dict[str, str],
              content_type: str = "application/json") -> tuple[int, dict[str, str], Any]:
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
               "SERVER_NAME": "test", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "wsgi.url_scheme": "http",
               "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)), "CONTENT_TYPE": content_type,
               "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": False,
               "wsgi.run_once": False, "wsgi.version": (1, 0)}
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    answer: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        answer["status"], answer["headers"] = int(status.split()[0]), dict(response_headers)

    data = b"".join(wsgi(environ, start_response))
    return answer["status"], answer["headers"], json.loads(data)


def both_ways(app: Flask, path: str, body: Any, headers: dict[str, str]) -> tuple[Any, Any]:
    """The same request through the fast path and through Flask's own route (the middleware bypassed)."""
    fast = app.wsgi_app
    assert isinstance(fast, SubmissionFastPath)
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return wsgi_call(fast, path, raw, headers), wsgi_call(fast.inner, path, raw, headers)


def new_game(client: FlaskClient) -> dict[str, Any]:
    resp = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"})
    assert resp.status_code == 201
    return resp.json


def test_every_refusal_is_the_one_flask_gives(app: Flask, client: FlaskClient, small_game: dict[str, Any]) -> None:
    events = players_events(1)
    first, gid = events[0], small_game["id"]
    own = bearer(small_game["tokens"][submitter(first)])
    other_side = "Russian" if submitter(first) == "French" else "French"
    url = f"/api/v1/games/{gid}/events"
    assert client.post(url, headers=own, json={"expected_index": 0, "events": [first]}).status_code == 200
    cases = [
        (url, b"{oops", own),                                                        # 400 malformed_json
        (url, {"expected_index": 1, "events": [events[1]]}, {}),                     # 401 unauthorized
        (url, {"expected_index": 1, "events": [events[1]]}, bearer("not-a-token")),  # 401 invalid_token
        ("/api/v1/games/no-such-game/events", {"expected_index": 0, "events": [first]}, own),   # 401 as a bad token
        (url, {"expected_index": 0, "events": [first]}, own),                        # 409 stale_index
        (url, {"expected_index": 5, "events": [events[1]]}, own),                    # 409 stale_index (ahead)
        (url, {"expected_index": 1, "events": [{**first, "side": other_side}]}, own),   # 403 wrong_side
        (url, {"expected_index": 1, "events": [{"type": "move", "side": submitter(first)}]}, own),   # 422
        (url, {"expected_index": -1, "events": []}, own),                            # 422
        (url, [1, 2], own),                                                          # 422
    ]
    seen = set()
    for path, body, headers in cases:
        fast, flask = both_ways(app, path, body, headers)
        assert (fast[0], fast[2]) == (flask[0], flask[2]), body
        assert fast[1].get("WWW-Authenticate") == flask[1].get("WWW-Authenticate")
        assert fast[0] >= 400 and set(fast[2]) == {"error"}
        seen.add(fast[0])
    assert seen == {400, 401, 403, 409, 422}


def test_the_fast_path_rules_and_stores_like_the_route(app: Flask, client: FlaskClient) -> None:
    events = players_events(1)[:6]
    fast_game, flask_game = new_game(client), new_game(client)
    fast_wsgi = app.wsgi_app
    assert isinstance(fast_wsgi, SubmissionFastPath)
    for i, event in enumerate(events):
        body = json.dumps({"expected_index": i, "events": [event]}).encode()
        fast = wsgi_call(fast_wsgi, f"/api/v1/games/{fast_game['id']}/events", body,
                         bearer(fast_game["tokens"][submitter(event)]))
        flask = wsgi_call(fast_wsgi.inner, f"/api/v1/games/{flask_game['id']}/events", body,
                          bearer(flask_game["tokens"][submitter(event)]))
        # The same answer but the chain head: two games, two set-ups (their ids differ).
        assert fast[0] == flask[0] == 200 and {**fast[2], "chain": ""} == {**flask[2], "chain": ""}
        assert fast[1]["Content-Type"] == "application/json"
    with app.app_context():
        stored = [ext().storage.list_events(g["id"]) for g in (fast_game, flask_game)]
    assert [(e.index, e.event, e.ruling) for e in stored[0]] == [(e.index, e.event, e.ruling) for e in stored[1]]


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


def test_unusual_requests_go_to_flask(app: Flask, client: FlaskClient, small_game: dict[str, Any]) -> None:
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


def test_a_body_shorter_than_its_content_length_is_400(app: Flask, small_game: dict[str, Any]) -> None:
    fast = app.wsgi_app
    assert isinstance(fast, SubmissionFastPath)
    environ_body = b'{"expected_index": 0, "events": []}'
    status, _, body = wsgi_call(fast, f"/api/v1/games/{small_game['id']}/events", environ_body,
                                bearer(small_game["tokens"]["French"]))
    assert status == 422                                         # the whole body: read and judged
    short = _ShortInput(environ_body[:10])
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": f"/api/v1/games/{small_game['id']}/events",
               "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(environ_body)), "wsgi.input": short,
               **{"HTTP_" + k.upper(): v for k, v in bearer(small_game["tokens"]["French"]).items()}}
    answer: dict[str, Any] = {}
    data = b"".join(fast(environ, lambda s, h, e=None: answer.update(status=s)))
    assert answer["status"].startswith("400") and json.loads(data)["error"]["code"] == "bad_request"


class _ShortInput:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def read(self, n: int = -1) -> bytes:
        return self.data
