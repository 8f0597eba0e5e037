"""``/api/v1``: rulesets, scenarios, checking a log, and the OpenAPI document.

``POST /check`` answers exactly what ``referee check --format json`` prints.  The three routes that replay an
uploaded log run in the checking workers (heavy.py: separate processes, a concurrency limit, a time budget).  ``POST /replay`` and
``POST /replay/board.png`` serve the web page: the same replay with the (turn, phase) of every step, and a
picture of the board after any step.  Both take the log again rather than an id, so that any worker of a
multi-process server can answer (a worker that has not seen the log replays it once and keeps it).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from referee.engine import registry
from referee.logs.jsonlog import event_types
from referee.service import heavy, scenarios
from referee.service.errors import ApiError
from referee.service.logs import request_body

bp = Blueprint("api", __name__)


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    """The hand-written document, with the scenario ids this server loads written in as an enum: it says
    exactly which ids ``POST /games`` accepts (so ``scenario: ""``, which it refuses, is not allowed here either)."""
    doc = json.loads(files("referee.service").joinpath("openapi.json").read_text(encoding="utf-8"))
    ids = [s["id"] for s in scenarios.available()]
    by_id = doc["components"]["schemas"]["NewGame"]["properties"]["scenario"]["oneOf"][0]
    by_id.pop("pattern", None)
    by_id["enum"] = ids
    return doc


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


def _heavy(kind: str, step: int = 0) -> Response:
    """Run a heavy request in the checking workers (heavy.py), or 503 when they are full."""
    pool = heavy.pool_for(current_app.config)
    pool.admit()
    try:
        # The body goes to the worker unread (logs.upload_of_body): parsing it is the worker's CPU.
        body = request_body(request)
        answer = pool.run(heavy.Job(kind, body, "", None, step,
                                    content_type=request.headers.get("Content-Type", "")))
    finally:
        pool.release()
    resp = Response(heavy.pieces(answer.body), status=answer.status, mimetype=answer.mimetype)
    resp.headers["Content-Length"] = str(len(answer.body))
    resp.headers.update(answer.headers)
    return resp


@bp.post("/check")
def check() -> Response:
    return _heavy("check")


@bp.post("/replay")
def replay() -> Response:
    return _heavy("replay")


@bp.post("/replay/board.png")
def replay_board() -> Response:
    step = request.args.get("step", "0")
    if not step.isdigit() or len(step) > 9:
        raise ApiError(400, "bad_step", f"step: expected a number of events (0 = the set-up), not {step!r}")
    return _heavy("board", int(step))
