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
from werkzeug.exceptions import HTTPException, SecurityError

from referee.engine.registry import UnknownRuleset
from referee.logs.problems import InputError
from referee.storage import GameEnded, GameNotFound, StaleHead, StaleIndex, StorageBusy, StorageError

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error a view reports to the client.  ``extra`` adds fields next to code and message."""

    def __init__(self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extra = extra


def bad_input(problems: list[str], status: int = 422, code: str = "invalid_input") -> ApiError:
    """The one-line problems of a log or events (referee.logs) as one error; the list is kept too."""
    return ApiError(status, code, "; ".join(problems), problems=problems)


def error_body(status: int, code: str, message: str, **extra: Any) -> tuple[int, dict[str, Any], dict[str, str]]:
    """(status, body, extra headers) of an error: what every handler below answers, with or without Flask."""
    headers: dict[str, str] = {}
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="referee"'          # RFC 6750: how to authenticate
    return status, {"error": {"code": code, "message": message, **extra}}, headers


def describe(exc: Exception) -> tuple[int, dict[str, Any], dict[str, str]]:
    """The answer to a failure that is not werkzeug's: the service's own errors, a log or events that cannot be
    ruled on, an unknown ruleset, storage's refusals and failures; anything else is a bug (logged, 500)."""
    if isinstance(exc, ApiError):
        status, body, headers = error_body(exc.status, exc.code, exc.message, **exc.extra)
        return status, body, {**headers, **exc.headers}
    if isinstance(exc, InputError):
        return error_body(422, "invalid_input", "; ".join(exc.problems), problems=list(exc.problems))
    if isinstance(exc, UnknownRuleset):
        return error_body(422, "unknown_ruleset", str(exc))
    if isinstance(exc, StorageError):
        return _storage(exc)
    log.error("unhandled error", exc_info=exc)
    return error_body(500, "internal_error", "internal error (logged); please report it")


def _storage(exc: StorageError) -> tuple[int, dict[str, Any], dict[str, str]]:
    if isinstance(exc, GameNotFound):
        return error_body(404, "game_not_found", f"no game '{exc.game_id}'")
    if isinstance(exc, StaleHead):
        return error_body(409, "stale_index",
                          f"the game's events before index {exc.current} were taken back and played again since: "
                          "fetch the game and submit again", current_index=exc.current)
    if isinstance(exc, StaleIndex):
        return error_body(409, "stale_index",
                          f"expected_index is {exc.expected} but the game is at {exc.current}: fetch the "
                          "game and submit again at its current index", current_index=exc.current)
    if isinstance(exc, GameEnded):
        return error_body(409, "game_ended", f"game '{exc.game_id}' has ended and takes no more events")
    if isinstance(exc, StorageBusy):
        status, body, headers = error_body(503, "busy", "the database is busy; try again")
        headers["Retry-After"] = "1"
        return status, body, headers
    log.error("storage failure: %s", exc)
    return error_body(503, "storage_unavailable", "the database is unavailable; try again later")


def _flask(answer: tuple[int, dict[str, Any], dict[str, str]]) -> Response:
    status, body, headers = answer
    resp = jsonify(body)
    resp.status_code = status
    resp.headers.update(headers)
    return resp


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    return _flask(error_body(status, code, message, **extra))


# werkzeug's exception names as stable, lower-case codes.
_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 406: "not_acceptable", 409: "conflict", 413: "payload_too_large",
               415: "unsupported_media_type", 422: "invalid_input", 429: "too_many_requests"}


def _http(exc: HTTPException) -> Response:
    if isinstance(exc, SecurityError):          # a Host outside TRUSTED_HOSTS (browser_policy)
        return error_response(400, "unknown_host", f"{exc.description} Set REFEREE_ALLOWED_HOSTS to the host "
                                                   "names clients use.")
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


def register(app: Flask) -> None:
    for kind in (ApiError, InputError, UnknownRuleset, StorageError, Exception):
        app.register_error_handler(kind, lambda e: _flask(describe(e)))
    app.register_error_handler(HTTPException, _http)
