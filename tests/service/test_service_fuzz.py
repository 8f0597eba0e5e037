"""Issue 12 ("never a 500, never HTML"): arbitrary JSON sent with a side's real token to the routes that take a
body on a live game — the submission (through the fast path, and through Flask when the body is chunked), the
dice contribution, the what-if — is always answered with a JSON status the route documents, never a 5xx.

schemathesis (test_service_openapi.py) generates requests that follow the document; this test sends what the
document does not allow: any JSON value, events of any shape, fields of any type, sides and units that exist
and that do not.  Every answer is also checked to be JSON with an error code and message when it is a 4xx."""
from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.service import create_app
from referee.service.extension import ext
from service_helpers import bearer
from service_scenario import SMALL

SIDES = ["French", "Russian", "", "nobody"]
TYPES = ["move", "end_activation", "activate", "roll", "orders", "draw", "shock", "", "x"]


def _json(depth: int = 3) -> st.SearchStrategy[Any]:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                       st.text(max_size=8), st.sampled_from(SIDES + TYPES + ["0101", "9999"]))
    return st.recursive(leaves, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), kids, max_size=4)),
                        max_leaves=12)


EVENT = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(TYPES), _json())},
    optional={"side": st.one_of(st.sampled_from(SIDES), _json()), "unit": _json(), "path": _json(),
              "roll": _json(), "rolls": _json(), "units": _json(), "target": _json(), "x": _json()})

SUBMISSION = st.one_of(
    _json(),
    st.fixed_dictionaries({"expected_index": st.one_of(st.integers(-2, 3), _json()),
                           "events": st.one_of(st.lists(EVENT, max_size=3), _json())},
                          optional={"extra": _json()}))

DOCUMENTED = {"events": {200, 400, 401, 403, 409, 413, 415, 422, 503},
              "dice": {200, 400, 401, 409, 413, 415, 422, 503},
              "whatif": {200, 400, 401, 403, 404, 415, 422}}


@pytest.fixture(scope="module")
def live() -> Any:
    tmp = tempfile.mkdtemp(prefix="fuzz-")
    app: Flask = create_app({"DATABASE_URL": f"sqlite:///{Path(tmp) / 'r.sqlite'}", "TESTING": True})
    client = app.test_client()
    players = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"}).json
    referee = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "referee"}).json
    yield client, players, referee
    with app.app_context():
        ext().close()


def _answered(resp: Any, route: str) -> None:
    assert resp.status_code in DOCUMENTED[route], (resp.status_code, resp.data[:300])
    assert resp.mimetype == "application/json", resp.data[:200]
    if resp.status_code >= 400:
        err = resp.json["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str) and err["message"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=SUBMISSION, side=st.sampled_from(["French", "Russian"]), chunked=st.booleans(),
       referee_dice=st.booleans())
def test_any_submission_with_a_real_token_is_a_documented_json_answer(live: Any, body: Any, side: str,
                                                                      chunked: bool, referee_dice: bool) -> None:
    client, players, referee = live
    game = referee if referee_dice else players
    url = f"/api/v1/games/{game['id']}/events"
    headers = bearer(game["tokens"][side])
    if chunked:                 # not the fast path: Flask's route, the body counted as it streams
        data = json.dumps(body).encode()
        resp = client.post(url, input_stream=io.BytesIO(data), content_type="application/json",
                           headers={**headers, "Transfer-Encoding": "chunked"})
    else:
        resp = client.post(url, json=body, headers=headers)
    _answered(resp, "events")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=_json(), side=st.sampled_from(["French", "Russian"]))
def test_any_dice_contribution_is_a_documented_json_answer(live: Any, body: Any, side: str) -> None:
    client, _, referee = live
    resp = client.post(f"/api/v1/games/{referee['id']}/dice", json=body, headers=bearer(referee["tokens"][side]))
    _answered(resp, "dice")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.one_of(_json(), st.fixed_dictionaries({"event": EVENT}),
                      st.fixed_dictionaries({"events": st.lists(EVENT, max_size=3)})),
       side=st.sampled_from(["French", "Russian"]))
def test_any_what_if_is_a_documented_json_answer(live: Any, body: Any, side: str) -> None:
    client, players, _ = live
    resp = client.post(f"/api/v1/games/{players['id']}/whatif", json=body, headers=bearer(players["tokens"][side]))
    _answered(resp, "whatif")


def test_the_fuzzed_game_still_reads_and_takes_its_next_event(live: Any) -> None:
    """What the fuzzing stored (illegal rulings, or legal ones) leaves a game whose view reads and which takes
    the next event at its index: 200 with a ruling, or 409 if the fuzzing ended it."""
    client, players, _ = live
    view = client.get(f"/api/v1/games/{players['id']}", headers=bearer(players["tokens"]["French"]))
    assert view.status_code == 200 and isinstance(view.json["next_index"], int)
    resp = client.post(f"/api/v1/games/{players['id']}/events", headers=bearer(players["tokens"]["French"]),
                       json={"expected_index": view.json["next_index"], "events": [{"type": "end_activation"}]})
    assert resp.status_code == 200 and len(resp.json["rulings"]) == 1 or resp.json["error"]["code"] == "game_ended"
