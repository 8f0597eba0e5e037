"""What a game route reads from a request: the side's bearer token and a JSON body, each refused in one sentence."""
from __future__ import annotations

import json
import re
from typing import Any

import orjson
from flask import request

from referee.service import limits
from referee.service.errors import ApiError

_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]{1,512}=*")


def bearer(header: str) -> str:
    """The token of an ``Authorization: Bearer <token>`` header; 401 when there is none."""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "send the side's token: 'Authorization: Bearer <token>'")
    token = token.strip()
    if not _TOKEN.fullmatch(token):        # RFC 6750 b64token; anything else is no side's token
        raise ApiError(401, "invalid_token", "this token belongs to no side of this game")
    return token


def request_token() -> str:
    """The bearer token of the current request (401 when there is none)."""
    return bearer(request.headers.get("Authorization", ""))


def json_body() -> Any:
    """The current request's JSON body: 415 for another content type, else as :func:`parse_json`."""
    if request.mimetype != "application/json":
        raise ApiError(415, "unsupported_media_type", "send a JSON body (Content-Type: application/json)")
    return parse_json(request.get_data(cache=True))


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
