"""A hosted game played by e-mail (referee/service/pbem.py): each side uploads its turn's .vlog with its token;
the log must start where the game is.  Uses the engine recording of a Schevardino turn (schevardino-game.vlog)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from referee.service import create_app
from referee.service.extension import ext

from .recordings import fixture

pytestmark = pytest.mark.slow     # loads the Schevardino scenario


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}", "TESTING": True})
    yield app.test_client()
    with app.app_context():
        ext().close()


@pytest.fixture
def game(client: FlaskClient) -> dict[str, Any]:
    resp = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players"})
    assert resp.status_code == 201, resp.json
    return resp.json


def _upload(client: FlaskClient, game: dict[str, Any], side: str, name: str = "schevardino-game.vlog",
            with_module: bool = True) -> Any:
    data: dict[str, Any] = {"log": (fixture(name).open("rb"), name)}
    if with_module:
        data["module"] = (fixture("borodino-cup-facts.vmod").open("rb"), "borodino.vmod")
    return client.post(f"/api/v1/games/{game['id']}/vlog", data=data, content_type="multipart/form-data",
                       headers={"Authorization": f"Bearer {game['tokens'][side]}"})


def test_a_turn_s_vlog_is_ruled_and_stored_as_the_side_s_events(client, game):
    resp = _upload(client, game, "French")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    body = resp.json
    assert [(r["type"], r["verdict"]) for r in body["rulings"]] == [
        ("activate_command", "legal"), ("move", "legal"), ("fire", "legal"), ("roll", "legal"),
        ("end_phase", "legal")]
    assert body["next_index"] == 5
    assert body["unreadable"] == [{"step": 5, "line": "!comand friant", "why": "unknown command 'comand'"}]
    view = client.get(f"/api/v1/games/{game['id']}", headers={"Authorization": f"Bearer {game['tokens']['French']}"})
    assert view.status_code == 200


def test_the_same_turn_sent_again_rewinds_the_game_and_is_refused(client, game):
    assert _upload(client, game, "French").status_code == 200
    resp = _upload(client, game, "French")
    assert resp.status_code == 409
    assert resp.json["error"] == {
        "code": "not_continuous",
        "message": "schevardino-game.vlog starts from the game's position after 1 of its 5 events, not after the "
                   "last: it rewinds events 1-4"}


def test_the_other_side_s_token_cannot_send_this_side_s_turn(client, game):
    resp = _upload(client, game, "Russian")
    assert resp.status_code == 403 and resp.json["error"]["code"] == "wrong_side"


def test_no_token_no_upload_and_not_a_vlog(client, game):
    resp = client.post(f"/api/v1/games/{game['id']}/vlog", data={"log": (fixture("tiny.vlog").open("rb"), "x.vlog")},
                       content_type="multipart/form-data")
    assert resp.status_code == 401
    resp = client.post(f"/api/v1/games/{game['id']}/vlog", data={"log": (fixture("docs-script.json").open("rb"),
                                                                         "turn.json")},
                       content_type="multipart/form-data",
                       headers={"Authorization": f"Bearer {game['tokens']['French']}"})
    assert resp.status_code == 400 and resp.json["error"]["code"] == "not_a_vlog"
