"""Hosted games through the HTTP API: tokens, sides, expected_index, hidden information, dice, export."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import cli
from referee.engine import registry
from referee.engine.replay import replay
from referee.service import create_app, scenarios
from referee.service.commands import cmd_verify_dice
from referee.service.extension import ext
from service_helpers import bearer
from service_play import bare_events, players_events, referee_game, submitter
from service_scenario import SMALL


def submit(client: FlaskClient, game: dict[str, Any], index: int, events: list[dict[str, Any]],
           side: str | None = None) -> Any:
    side = side or submitter(events[0])
    return client.post(f"/api/v1/games/{game['id']}/events", headers=bearer(game["tokens"][side]),
                       json={"expected_index": index, "events": events})


def play_all(client: FlaskClient, game: dict[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rulings = []
    for i, event in enumerate(events):
        resp = submit(client, game, i, [event])
        assert resp.status_code == 200, resp.json
        rulings += resp.json["rulings"]
        assert resp.json["next_index"] == i + 1
    return rulings


def test_a_whole_game_through_the_api_gets_the_engines_rulings(client: FlaskClient,
                                                              small_game: dict[str, Any]) -> None:
    events = players_events(1)
    rulings = play_all(client, small_game, events)
    expected = replay(registry.get("triumph-and-glory"), scenarios.resolve(SMALL), events, "players")
    assert rulings == [r.to_dict() for r in expected.rulings]
    view = client.get(f"/api/v1/games/{small_game['id']}", headers=bearer(small_game["tokens"]["French"])).json
    assert view["status"] == "ended" and view["next_index"] == len(events)   # the scenario's end ends the game


def test_tokens_are_required_and_checked(client: FlaskClient, small_game: dict[str, Any]) -> None:
    gid = small_game["id"]
    assert client.get(f"/api/v1/games/{gid}").status_code == 401
    wrong = client.get(f"/api/v1/games/{gid}", headers=bearer("not-a-token"))
    assert wrong.status_code == 401 and wrong.json["error"]["code"] == "invalid_token"
    other = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"}).json
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(other["tokens"]["French"])).status_code == 401
    # Issue 12.8: an unknown game and a wrong token get the same answer, so ids cannot be probed.
    missing = client.get("/api/v1/games/no-such-game", headers=bearer(small_game["tokens"]["French"]))
    assert missing.status_code == 401 and missing.json == wrong.json
    for path in ("", "/board.png"):
        assert client.get(f"/api/v1/games/no-such-game{path}", headers=bearer("x")).json == wrong.json
    assert client.post("/api/v1/games/no-such-game/events", headers=bearer("x"),
                       json={"expected_index": 0, "events": [{"type": "draw"}]}).json == wrong.json
    assert client.get(f"/api/v1/games/{gid}/board.png").status_code == 401


def test_a_side_cannot_submit_the_other_sides_events(client: FlaskClient, small_game: dict[str, Any]) -> None:
    first = players_events(1)[0]
    other = "Russian" if first["side"] == "French" else "French"
    resp = submit(client, small_game, 0, [first], side=other)
    assert resp.status_code == 403 and resp.json["error"]["code"] == "wrong_side"
    assert submit(client, small_game, 0, [first]).status_code == 200


def test_expected_index_stops_doubled_and_lost_submissions(client: FlaskClient,
                                                           small_game: dict[str, Any]) -> None:
    events = players_events(1)
    assert submit(client, small_game, 0, [events[0]]).status_code == 200
    assert submit(client, small_game, 1, [events[1]]).status_code == 200
    at = 2
    again = submit(client, small_game, 0, [events[0]])            # a retry of an acknowledged submission
    assert again.status_code == 409
    assert again.json["error"]["code"] == "stale_index" and again.json["error"]["current_index"] == at
    ahead = submit(client, small_game, at + 3, [events[at]])      # a client that missed a submission
    assert ahead.status_code == 409 and ahead.json["error"]["current_index"] == at
    after = client.get(f"/api/v1/games/{small_game['id']}", headers=bearer(small_game["tokens"]["French"])).json
    assert after["next_index"] == at


def test_malformed_submissions_are_4xx(client: FlaskClient, small_game: dict[str, Any]) -> None:
    gid, token = small_game["id"], small_game["tokens"]["French"]
    url = f"/api/v1/games/{gid}/events"
    bad = client.post(url, headers=bearer(token), json={"expected_index": 0,
                                                        "events": [{"type": "move", "side": "French"}]})
    assert bad.status_code == 422 and bad.json["error"]["problems"][0].startswith("events[0]")
    assert client.post(url, headers=bearer(token), json={"events": []}).status_code == 422
    notjson = client.post(url, headers=bearer(token), data="{oops", content_type="application/json")
    assert notjson.status_code == 400 and notjson.json["error"]["code"] == "malformed_json"
    assert client.post(url, headers=bearer(token), data="x", content_type="text/csv").status_code == 415


def test_creating_games_checks_its_input(client: FlaskClient) -> None:
    for body in ({"scenario": "nope"}, {"scenario": SMALL, "dice": "coins"}, {"dice": "players"},
                 {"scenario": SMALL, "seeds": {"Prussian": "x"}}, {"scenario": SMALL, "extra": 1},
                 {"scenario": SMALL, "dice": "players", "seeds": {"French": "x"}}, [1, 2]):
        resp = client.post("/api/v1/games", json=body)
        assert resp.status_code == 422, (body, resp.json)
        assert resp.json["error"]["message"]


def test_each_side_sees_only_its_own_orders(client: FlaskClient, small_game: dict[str, Any]) -> None:
    orders = [e for e in players_events(1)[:2] if e["type"] == "orders"]
    for i, event in enumerate(orders):
        assert submit(client, small_game, i, [event]).status_code == 200
    french = client.get(f"/api/v1/games/{small_game['id']}", headers=bearer(small_game["tokens"]["French"])).json
    russian = client.get(f"/api/v1/games/{small_game['id']}", headers=bearer(small_game["tokens"]["Russian"])).json
    assert {g["status"] for g in russian["state"]["orders"]["French"]["groups"]} == {"hidden"}
    assert "hidden" not in {g["status"] for g in french["state"]["orders"]["French"]["groups"]}
    french_entry = next(e for e in russian["log"] if e["side"] == "French")
    assert "event" not in french_entry and "ruling" not in french_entry       # 5.23: its under_orders list


def test_referee_dice_are_committed_revealed_and_verifiable(client: FlaskClient, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = referee_game(client)
    gid, token = game["id"], game["tokens"]["French"]
    with_roll = {"type": "orders_delay", "side": "French", "roll": 3}
    assert submit(client, game, 0, [with_roll]).json["error"]["code"] == "invalid_input"
    events = bare_events(2)[:40]
    rulings = play_all(client, game, events)
    assert any(roll["natural"] is not None for r in rulings for roll in r["rolls"])
    early = client.get(f"/api/v1/games/{gid}/export")
    unknown = client.get("/api/v1/games/no-such-game/export")
    assert early.status_code == unknown.status_code == 404        # an active game is not told from none
    assert early.json["error"]["code"] == unknown.json["error"]["code"] == "game_not_found"
    assert "seed" not in client.get(f"/api/v1/games/{gid}", headers=bearer(token)).json["dice"]
    ended = client.post(f"/api/v1/games/{gid}/end", headers=bearer(token)).json
    assert ended["status"] == "ended" and ended["dice"]["commitment"] == game["dice_commitment"]
    export = client.get(f"/api/v1/games/{gid}/export").json
    assert export["dice"]["seed"] == ended["dice"]["seed"]
    assert [e["ruling"] for e in export["events"]] == rulings
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))

    class Args:
        export = str(path)
        head = None
    assert cmd_verify_dice(Args()) == 0
    # The export's log, checked offline, reproduces every ruling: the rolls really came from the seed.
    (tmp_path / "log.json").write_text(json.dumps(export["log"]))
    capsys.readouterr()
    assert cli.main(["check", str(tmp_path / "log.json"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rulings"] == rulings
    # One changed roll is named.
    entry = next(e for e in export["events"] if any(r["natural"] is not None for r in e["ruling"]["rolls"]))
    roll = next(r for r in entry["ruling"]["rolls"] if r["natural"] is not None)
    roll["natural"] = (roll["natural"] + 1) % 10
    path.write_text(json.dumps(export))
    assert cmd_verify_dice(Args()) == 1
    assert f"events[{entry['index']}]" in capsys.readouterr().err
    # After the end the game takes no more events, at its index or (issue 12.8) a stale one.
    late = submit(client, game, len(events), [events[-1]])
    assert late.status_code == 409 and late.json["error"]["code"] == "game_ended"
    stale = submit(client, game, 3, [events[-1]])
    assert stale.status_code == 409 and stale.json["error"]["code"] == "game_ended", stale.json


def test_two_app_instances_on_one_database_agree(database_url: str, small_game: dict[str, Any],
                                                 client: FlaskClient) -> None:
    """Each instance keeps its own engine state; one that fell behind catches up from the stored events."""
    second: Flask = create_app({"DATABASE_URL": database_url})
    other = second.test_client()
    events = players_events(1)
    try:
        rulings = []
        for i, event in enumerate(events):
            resp = submit(client if i % 3 else other, small_game, i, [event])
            assert resp.status_code == 200, resp.json
            rulings += resp.json["rulings"]
        expected = replay(registry.get("triumph-and-glory"), scenarios.resolve(SMALL), events, "players")
        assert rulings == [r.to_dict() for r in expected.rulings]
    finally:
        with second.app_context():
            ext().close()


def test_board_png_shows_the_game(client: FlaskClient, small_game: dict[str, Any]) -> None:
    resp = client.get(f"/api/v1/games/{small_game['id']}/board.png", headers=bearer(small_game["tokens"]["Russian"]))
    assert resp.status_code == 200 and resp.data[:4] == b"\x89PNG"


def test_a_fresh_instance_shows_an_ended_game(database_url: str, client: FlaskClient,
                                              small_game: dict[str, Any]) -> None:
    play_all(client, small_game, players_events(1))
    fresh: Flask = create_app({"DATABASE_URL": database_url})
    try:
        view = fresh.test_client().get(f"/api/v1/games/{small_game['id']}",
                                       headers=bearer(small_game["tokens"]["Russian"]))
        assert view.status_code == 200 and view.json["status"] == "ended"
        assert view.json["next_index"] == len(players_events(1))
    finally:
        with fresh.app_context():
            ext().close()


def test_5_23_the_view_hides_only_the_opponents_orders_and_everything_once_the_game_has_ended(
        client: FlaskClient, small_game: dict[str, Any]) -> None:
    """The opponent's rulings, rolls and results are the viewer's to read (what shocked or fired at its units);
    only what the rules keep secret is withheld — the orders (5.23) — and nothing once the game has ended."""
    events = players_events(1)
    play_all(client, small_game, events)
    view = client.get(f"/api/v1/games/{small_game['id']}", headers=bearer(small_game["tokens"]["Russian"])).json
    assert view["status"] == "ended"
    french = [e for e in view["log"] if e["side"] == "French"]
    assert french and all("ruling" in e and "event" in e and "hidden" not in e for e in french)
    assert any(r["natural"] is not None for e in french for r in e["ruling"]["rolls"])      # the rolls, too
    assert all(e["lines"][0].startswith(f"[{e['index']}] ") for e in view["log"])          # and in words


def test_5_23_while_the_game_goes_on_the_opponents_orders_are_hidden_and_the_rest_is_shown(
        client: FlaskClient, small_game: dict[str, Any]) -> None:
    events = players_events(1)
    first_draw = next(i for i, e in enumerate(events) if e["type"] in ("first_marker", "draw")) + 3
    play_all(client, small_game, events[:first_draw])
    view = client.get(f"/api/v1/games/{small_game['id']}", headers=bearer(small_game["tokens"]["Russian"])).json
    assert view["status"] == "active"
    french = [e for e in view["log"] if e["side"] == "French"]
    orders = [e for e in french if e["type"] == "orders"]
    assert orders and all(e.get("hidden") == "5.23" and "event" not in e and "ruling" not in e for e in orders)
    shown = [e for e in french if "ruling" in e]
    assert shown and all(e["event"]["type"] != "orders" for e in shown)
    assert all(e["ruling"] == events_ruling for e, events_ruling in
               ((e, client.get(f"/api/v1/games/{small_game['id']}",
                               headers=bearer(small_game["tokens"]["French"])).json["log"][e["index"]]["ruling"])
                for e in shown))


def test_6_3_3_an_open_order_pick_is_hidden_until_every_side_has_chosen(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"scenario": "mp-sample", "dice": "players"}).json
    first, second = game["sides"]
    assert submit(client, game, 0, [{"type": "open_order_setup", "side": first, "units": []}]).status_code == 200

    def other_entry(viewer: str) -> dict[str, Any]:
        log = client.get(f"/api/v1/games/{game['id']}", headers=bearer(game["tokens"][viewer])).json["log"]
        return next(e for e in log if e["side"] == first)
    assert other_entry(second) == {"index": 0, "side": first, "type": "open_order_setup", "verdict": "legal",
                                   "hidden": "6.3.3"}
    assert submit(client, game, 1, [{"type": "open_order_setup", "side": second, "units": []}]).status_code == 200
    shown = other_entry(second)                                    # 6.3.3: revealed all at once
    assert shown["event"]["units"] == [] and shown["ruling"]["verdict"] == "legal"
