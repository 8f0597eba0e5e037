"""The OpenAPI document matches the behaviour (issue 12.5): schemathesis generates requests from it against the
app in-process and checks every response (no 5xx, documented status codes and content types, bodies that
conform to the schemas) — every operation on its own, and the stateful game routes through the document's
links: create a game, then contribute dice, submit, read the view and the board, end it, export it."""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterator

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from referee.service import create_app
from referee.service.api import openapi_document
from referee.service.extension import ext
from service_scenario import SMALL

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    url = f"sqlite:///{tmp_path_factory.mktemp('openapi') / 'referee.sqlite'}"
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    yield app
    with app.app_context():
        ext().close()


schema = schemathesis.openapi.from_dict(openapi_document())


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms(case: schemathesis.Case, app: Flask) -> None:
    case.call_and_validate(app=app, checks=CHECKS)


def test_the_document_says_which_scenarios_a_game_may_have(app: Flask) -> None:
    """``scenario: ""`` was allowed by the document and refused by the server."""
    served = app.test_client().get("/api/v1/openapi.json").json
    by_id = served["components"]["schemas"]["NewGame"]["properties"]["scenario"]["oneOf"][0]
    assert "" not in by_id["enum"] and set(by_id["enum"]) == {"borodino", "mp-sample", "schevardino"}
    assert app.test_client().post("/api/v1/games", json={"scenario": ""}).status_code == 422


def test_the_document_lists_exactly_the_routes_the_server_serves(app: Flask) -> None:
    """Every route under /api/v1 with its methods is an operation of the document, and every operation is
    served: POST /games/<id>/vlog (play by e-mail) was served and in no document, so nothing fuzzed it."""
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/") and rule.endpoint != "static":
            path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule[len("/api/v1"):])
            served |= {(m, path) for m in rule.methods or () if m not in ("HEAD", "OPTIONS")}
    documented = {(m.upper(), path) for path, ops in openapi_document()["paths"].items() for m in ops
                  if m in ("get", "post", "put", "patch", "delete")}
    assert served == documented, {"served, not documented": served - documented,
                                  "documented, not served": documented - served}


def test_the_stateful_game_routes_conform(app: Flask) -> None:
    """The state machine follows the links from POST /games; the side's token of each game it made is sent
    with the requests on that game (the document cannot say which token: the test knows it).  It must really
    have made games and used them."""
    tokens: dict[str, list[str]] = {}
    seen: Counter[tuple[str, str, int]] = Counter()

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def before_call(self, case: Any) -> None:
            game = (case.path_parameters or {}).get("game_id")
            if game in tokens:
                side_tokens = tokens[game]
                pick = sum(map(ord, str(case.id))) % len(side_tokens)
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {side_tokens[pick]}"}

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"app": app}

        def after_call(self, response: Any, case: Any) -> None:
            game = (case.path_parameters or {}).get("game_id")
            known = game in tokens
            seen[(case.method.upper(), case.path, response.status_code if (known or game is None) else -1)] += 1
            if case.path == "/games" and response.status_code == 201:
                body = response.json()
                tokens[body["id"]] = [body["tokens"][s] for s in body["sides"]]

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Workflow.run(settings=settings(max_examples=25, stateful_step_count=8, deadline=None, derandomize=True,
                                   suppress_health_check=list(HealthCheck)))
    assert tokens, seen                                            # games were made ...
    played = {(m, p) for (m, p, status) in seen if status != -1 and p != "/games"}
    # ... and used: several operations on games it made, some answered 200 (which ones a walk reaches varies
    # from process to process: hash seeds; test_every_game_route_conforms_on_a_real_game covers each one).
    assert len(played) >= 3, seen
    assert any(s == 200 and p.startswith("/games/{game_id}") for (m, p, s) in seen), seen
    # The page's game routes and play by e-mail are linked too (they had no links: never reached with a token);
    # which of them a random walk reaches varies, so test_every_game_route_conforms_on_a_real_game covers each.
    page = {("GET", "/games/{game_id}/board"), ("GET", "/games/{game_id}/map.png"), ("GET", "/games/{game_id}/actions"),
            ("GET", "/games/{game_id}/counters.png"), ("POST", "/games/{game_id}/whatif"),
            ("POST", "/games/{game_id}/vlog")}
    assert page & played, seen


GAME_OPERATIONS = sorted((method.upper(), path) for path, ops in openapi_document()["paths"].items()
                         if "{game_id}" in path for method in ops)


@pytest.mark.parametrize(("method", "path"), GAME_OPERATIONS, ids=[f"{m} {p}" for m, p in GAME_OPERATIONS])
def test_every_game_route_conforms_on_a_real_game(app: Flask, method: str, path: str) -> None:
    """Each operation on a game, its requests generated from the document, sent on a game made for it with
    one of its sides' tokens (the random walk above may miss one): no 5xx, documented statuses and bodies."""
    client = app.test_client()
    made = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"})
    assert made.status_code == 201, made.json
    game = made.json
    operation = schema[path][method]

    @given(case=operation.as_strategy(), seat=st.sampled_from(game["sides"]))
    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    def run(case: schemathesis.Case, seat: str) -> None:
        case.path_parameters = {**(case.path_parameters or {}), "game_id": game["id"]}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['tokens'][seat]}"}
        case.call_and_validate(app=app, checks=CHECKS)

    run()
