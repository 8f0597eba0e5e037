"""JSON errors for every failure: ``{"error": {"code", "message"}}`` (DESIGN §6), never an HTML page.

Handlers translate, in one place, the three sources of failure — the service's own ``ApiError``, werkzeug's
HTTP exceptions (404 unknown route, 405, 413 oversized body), and the storage layer's
exceptions — so that views raise and never build error responses themselves.  Anything else is a bug: it is
logged with its traceback and answered 500 without details.
"""
from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from referee.engine.registry import UnknownRuleset
from referee.logs.problems import InputError
from referee.storage import GameEnded, GameNotFound, StaleIndex, StorageBusy, StorageError

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error a view reports to the client.  ``extra`` adds fields next to code and message."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def bad_input(problems: list[str], status: int = 422, code: str = "invalid_input") -> ApiError:
    """The one-line problems of a log or events (referee.logs) as one error; the list is kept too."""
    return ApiError(status, code, "; ".join(problems), problems=problems)


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    resp = jsonify({"error": {"code": code, "message": message, **extra}})
    resp.status_code = status
    return resp


# werkzeug's exception names as stable, lower-case codes.
_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 406: "not_acceptable", 409: "conflict", 413: "payload_too_large",
               415: "unsupported_media_type", 422: "invalid_input", 429: "too_many_requests"}


def _http(exc: HTTPException) -> Response:
    status = exc.code or 500
    code = _HTTP_CODES.get(status, "http_error")
    message = exc.description or exc.name
    resp = error_response(status, code, message)
    if status == 405 and exc.response is None:
        # Keep the Allow header werkzeug computed for the route.
        allow = getattr(exc, "valid_methods", None)
        if allow:
            resp.headers["Allow"] = ", ".join(sorted(allow))
    return resp


def _storage(exc: StorageError) -> Response:
    if isinstance(exc, GameNotFound):
        return error_response(404, "game_not_found", f"no game '{exc.game_id}'")
    if isinstance(exc, StaleIndex):
        return error_response(409, "stale_index",
                              f"expected_index is {exc.expected} but the game is at {exc.current}: fetch the "
                              "game and submit again at its current index", current_index=exc.current)
    if isinstance(exc, GameEnded):
        return error_response(409, "game_ended", f"game '{exc.game_id}' has ended and takes no more events")
    if isinstance(exc, StorageBusy):
        resp = error_response(503, "busy", "the database is busy; try again")
        resp.headers["Retry-After"] = "1"
        return resp
    log.error("storage failure: %s", exc)
    return error_response(503, "storage_unavailable", "the database is unavailable; try again later")


def _api(exc: ApiError) -> Response:
    resp = error_response(exc.status, exc.code, exc.message, **exc.extra)
    if exc.status == 401:
        resp.headers["WWW-Authenticate"] = 'Bearer realm="referee"'     # RFC 6750: how to authenticate
    return resp


def _unexpected(exc: Exception) -> Response:
    log.exception("unhandled error")
    return error_response(500, "internal_error", "internal error (logged); please report it")


def register(app: Flask) -> None:
    app.register_error_handler(ApiError, _api)
    app.register_error_handler(InputError, lambda e: error_response(422, "invalid_input", "; ".join(e.problems),
                                                                    problems=list(e.problems)))
    app.register_error_handler(UnknownRuleset, lambda e: error_response(422, "unknown_ruleset", str(e)))
    app.register_error_handler(HTTPException, _http)
    app.register_error_handler(StorageError, _storage)
    app.register_error_handler(Exception, _unexpected)
