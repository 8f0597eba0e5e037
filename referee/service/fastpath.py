"""``POST /api/v1/games/<id>/events`` without Flask's per-request machinery: a thin WSGI layer in front of the app.

A submission is the service's hot path: one small JSON body in, one ruling out, hundreds of times a second.
Flask's request and app contexts, URL matching, signals and response object cost about as much CPU as ruling
the event itself (profile in docs/service.md, Performance), so this middleware answers the route directly,
with the same code underneath (``Host.caller``, ``Host.submit``), the same checks in the same order as
``games.submit`` (415, 400, 401/404, then the submission's own), and the same error bodies
(``errors.describe``).  Anything unusual — another route or method, another content type, no or an oversized
``Content-Length`` (413), a chunked body — goes to Flask untouched, so there is one behaviour per request.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterable

import orjson
from flask import Flask

from referee.service import limits
from referee.service.config import API_PREFIX
from referee.service.encoding import dumps
from referee.service.errors import ApiError, describe
from referee.service.extension import KEY

_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]{1,512}=*")
_ROUTE = re.compile(rf"^{re.escape(API_PREFIX)}/games/([^/]+)/events$")

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def bearer(header: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; 401 when there is none."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "send the side's token: 'Authorization: Bearer <token>'")
    token = token.strip()
    if not _TOKEN.fullmatch(token):        # RFC 6750 b64token; anything else is no side's token
        raise ApiError(401, "invalid_token", "this token belongs to no side of this game")
    return token


def parse_json(data: bytes, status: int = 400, code: str = "malformed_json", where: str = "the body") -> Any:
    """A JSON body; 400 ``malformed_json`` when it is not JSON, nests deeper than orjson's 1024 levels, holds
    an integer of more than limits.MAX_DIGITS digits, or a lone surrogate (an escape that is no character:
    it could not be stored or written back)."""
    try:
        limits.prescan(data, yaml=False, where=where)
    except ApiError as exc:
        raise ApiError(status, code, exc.message) from None
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if limits.json_depth_error(exc):
            raise ApiError(status, code, f"{where} nests deeper than 1024 levels ({exc})") from None
        if limits.lone_surrogate(data):
            raise ApiError(status, code, f"{where} holds a lone surrogate escape (\\ud800-\\udfff without its "
                                         "pair): not a character") from None
        first = exc
    try:       # orjson refuses a few documents the standard library reads (NaN, integers beyond 64 bits)
        return json.loads(data)
    except (UnicodeDecodeError, ValueError, RecursionError):
        # Our own message: Flask's outside debug mode says nothing about where the JSON broke.
        raise ApiError(status, code, f"{where} is not valid JSON ({first})") from None


class SubmissionFastPath:
    """WSGI middleware: ``app.wsgi_app = SubmissionFastPath(app, app.wsgi_app)``."""

    def __init__(self, app: Flask, inner: WSGIApp) -> None:
        self.app = app
        self.inner = inner

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "POST":
            match = _ROUTE.match(environ.get("PATH_INFO", ""))
            if match is not None:
                length = self._plain_json_length(environ)
                if length is not None:
                    return self._submit(match.group(1), environ, length, start_response)
        return self.inner(environ, start_response)

    def _plain_json_length(self, environ: dict[str, Any]) -> int | None:
        """The body's length when this is a JSON body the fast path reads as Flask would, else None."""
        mimetype = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
        if mimetype != "application/json" or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        raw = environ.get("CONTENT_LENGTH", "")
        if not raw.isdigit():
            return None
        length = int(raw)
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        if limit is not None and length > int(limit):
            return None                                     # Flask answers 413
        return length

    @staticmethod
    def _read(environ: dict[str, Any], length: int) -> bytes:
        """The body; 400 when the client sent less than its ``Content-Length`` (it went away, or lied)."""
        try:
            data = environ["wsgi.input"].read(length) if length else b""
        except Exception:  # noqa: BLE001 — the server's reader signals a short body its own way
            data = None
        if data is None or len(data) != length:
            raise ApiError(400, "bad_request", "the body ended before its Content-Length")
        return bytes(data)

    def _submit(self, raw_id: str, environ: dict[str, Any], length: int,
                start_response: StartResponse) -> Iterable[bytes]:
        # PATH_INFO is WSGI's latin-1 view of the path's bytes; Flask decodes the id as UTF-8.
        game_id = raw_id.encode("latin-1").decode("utf-8", "replace")
        headers: dict[str, str] = {}
        try:
            body = parse_json(self._read(environ, length))
            host = self.app.extensions[KEY].host
            stored, side = host.caller(game_id, bearer(environ.get("HTTP_AUTHORIZATION", "")))
            status, payload = 200, host.submit(stored, side, body)
        except Exception as exc:  # noqa: BLE001 — every failure becomes its JSON error, as in errors.register
            status, payload, headers = describe(exc)
        try:
            data = dumps(payload) + b"\n"
        except Exception as exc:  # noqa: BLE001 — never an exception out of the app: gunicorn answers HTML
            status, payload, headers = describe(exc)
            data = dumps(payload) + b"\n"
        start_response(_STATUS[status] if status in _STATUS else str(status),
                       [("Content-Type", "application/json"), ("Content-Length", str(len(data))),
                        *headers.items()])
        return [data]


_STATUS = {200: "200 OK", 400: "400 BAD REQUEST", 401: "401 UNAUTHORIZED", 403: "403 FORBIDDEN",
           404: "404 NOT FOUND", 409: "409 CONFLICT", 415: "415 UNSUPPORTED MEDIA TYPE",
           422: "422 UNPROCESSABLE ENTITY", 500: "500 INTERNAL SERVER ERROR", 503: "503 SERVICE UNAVAILABLE"}
