"""/api/v1 outside hosted games: rulesets, scenarios, check (the same body as the CLI), JSON errors."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import cli
from referee.service import create_app
from referee.service.logs import vassal_reader
from service_play import players_events
from service_scenario import SMALL


def small_log(events: list[dict] | None = None) -> dict:
    return {"scenario": SMALL, "dice": "players", "events": players_events(1)[:20] if events is None else events}


def test_rulesets_lists_triumph_and_glory_with_its_event_types(client: FlaskClient) -> None:
    body = client.get("/api/v1/rulesets").json
    tg = next(r for r in body["rulesets"] if r["id"] == "triumph-and-glory")
    assert "move" in tg["event_types"] and "roll" in tg["event_types"]


def test_scenarios_lists_the_project_scenarios(client: FlaskClient) -> None:
    ids = {s["id"]: s for s in client.get("/api/v1/scenarios").json["scenarios"]}
    assert ids["borodino"]["ruleset"] == "triumph-and-glory"
    assert "schevardino" in ids


def test_check_answers_what_the_cli_prints(client: FlaskClient, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = small_log()
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert cli.main(["check", str(path), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    resp = client.post("/api/v1/check", json=log)
    assert resp.status_code == 200
    assert resp.json == printed
    assert [r["index"] for r in resp.json["rulings"]] == list(range(20))


def test_check_accepts_a_multipart_json_upload(client: FlaskClient) -> None:
    data = {"log": (io.BytesIO(json.dumps(small_log()).encode()), "game.json")}
    resp = client.post("/api/v1/check", data=data, content_type="multipart/form-data")
    assert resp.status_code == 200
    assert len(resp.json["rulings"]) == 20


def test_an_illegal_move_is_a_ruling_not_an_error(client: FlaskClient) -> None:
    events = [{"type": "move", "side": "French", "unit": "dumon-a", "path": ["0207"], "facing": 12}]
    ruling = client.post("/api/v1/check", json=small_log(events)).json["rulings"][0]
    assert ruling["verdict"] == "illegal" and ruling["errors"]


def test_a_malformed_event_is_422_with_one_line_per_problem(client: FlaskClient) -> None:
    events = [{"type": "move", "side": "French", "unit": "nobody", "path": ["0207"]},
              {"type": "roll", "roll": 12}]
    resp = client.post("/api/v1/check", json=small_log(events))
    assert resp.status_code == 422
    err = resp.json["error"]
    assert err["code"] == "invalid_input"
    assert any(p.startswith("events[0].unit") for p in err["problems"])
    assert any(p.startswith("events[1].roll") and "0–9" in p for p in err["problems"])


@pytest.mark.parametrize("body, content_type, status, code", [
    (b"{not json", "application/json", 422, "invalid_input"),
    (b"[1, 2]", "application/json", 422, "invalid_input"),
    (b"hello", "application/octet-stream", 415, "unsupported_media_type"),
    (b'{"scenario": "../../etc/passwd", "events": []}', "application/json", 422, "invalid_input"),
    (b'{"scenario": "no-such-scenario", "events": []}', "application/json", 422, "invalid_input"),
])
def test_bad_bodies_are_json_4xx(client: FlaskClient, body: bytes, content_type: str, status: int,
                                 code: str) -> None:
    resp = client.post("/api/v1/check", data=body, content_type=content_type)
    assert resp.status_code == status
    assert resp.json["error"]["code"] == code and resp.json["error"]["message"]


def test_oversized_bodies_are_413(database_url: str) -> None:
    app: Flask = create_app({"DATABASE_URL": database_url, "MAX_CONTENT_LENGTH": 1000})
    resp = app.test_client().post("/api/v1/check", data=b"{" + b" " * 5000 + b"}", content_type="application/json")
    assert resp.status_code == 413
    assert resp.json["error"]["code"] == "payload_too_large"


def test_unknown_routes_and_methods_are_json(client: FlaskClient) -> None:
    resp = client.get("/api/v1/nothing-here")
    assert resp.status_code == 404 and resp.json["error"]["code"] == "not_found"
    resp = client.delete("/api/v1/check")
    assert resp.status_code == 405 and resp.json["error"]["code"] == "method_not_allowed"
    assert "POST" in resp.headers["Allow"]


def test_vassal_uploads_are_read_or_refused_clearly(client: FlaskClient) -> None:
    data = {"log": (io.BytesIO(b"not really a vassal log"), "game.vlog")}
    resp = client.post("/api/v1/check", data=data, content_type="multipart/form-data")
    if vassal_reader() is None:
        assert resp.status_code == 415 and resp.json["error"]["code"] == "unsupported_format"
    else:
        assert resp.status_code == 422 and resp.json["error"]["message"]


def test_replay_gives_places_and_board_pictures_that_change(client: FlaskClient) -> None:
    log = small_log()
    body = client.post("/api/v1/replay", json=log).json
    assert body["steps"] == 20 and len(body["places"]) == 20
    first_move = next(i for i, e in enumerate(log["events"]) if e["type"] == "move")
    before = client.post(f"/api/v1/replay/board.png?step={first_move}", json=log)
    after = client.post(f"/api/v1/replay/board.png?step={first_move + 1}", json=log)
    assert before.mimetype == "image/png" and before.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert before.data != after.data
    assert client.post("/api/v1/replay/board.png?step=21", json=log).status_code == 400
    assert client.post("/api/v1/replay/board.png?step=x", json=log).status_code == 400


def test_openapi_document_is_served(client: FlaskClient) -> None:
    doc = client.get("/api/v1/openapi.json").json
    assert doc["openapi"].startswith("3.1")
    assert "/games/{game_id}/events" in doc["paths"]


def test_the_page_is_served(client: FlaskClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and b"upload-form" in page.data
    assert client.get("/static/app.js").status_code == 200


def test_board_pictures_carry_the_counter_art() -> None:
    """Each unit is its real counter face (not a blank tile) at its hex's centre, scaled to the picture."""
    from referee.engine import registry
    from referee.service import board, scenarios

    scenario = scenarios.resolve(SMALL)
    ruleset = registry.get(scenario.ruleset)
    units = ruleset.view(ruleset.initial_state(scenario), None)["units"]
    image = board.render(scenario, units)
    layout = board._art_for(scenario).layout
    half = int(board.HEX_SIZE * board.COUNTER_SCALE) // 2 - 1
    for u in units:
        x, y = (int(v) for v in layout.center(u["hex"]))
        tile = image.crop((x - half, y - half, x + half, y + half))
        assert len(tile.getcolors(maxcolors=4096) or ()) > 20, u["id"]     # text, symbol, band: many colours


def test_a_scenario_option_the_ruleset_does_not_know_is_422_not_500(client: FlaskClient) -> None:
    """A log may carry its own resolved scenario: an option value the ruleset cannot read is bad input,
    reported before any event is ruled on (it used to fail in the middle of building the board)."""
    log = small_log([])
    log["scenario"] = {**SMALL, "options": {"counter_charge_vs_infantry": "both", "artillery_cap": "x"}}
    resp = client.post("/api/v1/check", json=log)
    assert resp.status_code == 422, resp.json
    assert resp.json["error"]["problems"] == [
        "scenario.options.artillery_cap: expected a whole number, not 'x'"]
