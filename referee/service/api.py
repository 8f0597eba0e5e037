"""``/api/v1``: rulesets, scenarios, checking a log, and the OpenAPI document.

``POST /check`` answers exactly what ``referee check --format json`` prints.  ``POST /replay`` and
``POST /replay/board.png`` serve the web page: the same replay with the (turn, phase) of every step, and a
picture of the board after any step.  Both take the log again rather than an id, so that any worker of a
multi-process server can answer (a worker that has not seen the log replays it once and keeps it).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from typing import Any

from flask import Blueprint, Response, jsonify, request

from referee.engine import registry
from referee.logs.jsonlog import event_types
from referee.service import board, scenarios
from referee.service.errors import ApiError
from referee.service.extension import ext
from referee.service.logs import read, upload_from
from referee.service.replays import Replayed, replay_log

bp = Blueprint("api", __name__)


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    return json.loads(files("referee.service").joinpath("openapi.json").read_text(encoding="utf-8"))


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())


@bp.get("/rulesets")
def rulesets() -> Response:
    out = []
    for rid in registry.available():
        rs = registry.get(rid)
        out.append({"id": rid, "name": rs.name, "event_types": event_types(rs)})
    return jsonify({"rulesets": out})


@bp.get("/scenarios")
def list_scenarios() -> Response:
    return jsonify({"scenarios": scenarios.available()})


def _replayed() -> Replayed:
    upload = upload_from(request)
    return ext().replays.get(upload.digest, lambda: replay_log(read(upload)))


@bp.post("/check")
def check() -> Response:
    return Response(_replayed().check_json, mimetype="application/json")


@bp.post("/replay")
def replay() -> Response:
    r = _replayed()
    return jsonify({**r.body(), "steps": r.steps, "events": r.log.events,
                    "places": [{"turn": t, "phase": p} for t, p in r.places]})


@bp.post("/replay/board.png")
def replay_board() -> Response:
    step = request.args.get("step", "0")
    if not step.isdigit():
        raise ApiError(400, "bad_step", f"step: expected a number of events (0 = the set-up), not {step!r}")
    r = _replayed()
    n = int(step)
    if n > r.steps:
        raise ApiError(400, "bad_step", f"step: the log has {r.steps} events, so step is 0–{r.steps}")
    game = r.game_at(n)
    units = game.ruleset.view(game.state, None).get("units", [])
    return Response(board.png(r.log.scenario, units), mimetype="image/png")
