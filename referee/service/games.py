"""``/api/v1/games``: hosted games.  Every route but creation and the export needs the bearer token of a side."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from referee.service import board
from referee.service.errors import ApiError
from referee.service.extension import ext
from referee.service.replay_view import game_pictures
from referee.service.request_parts import json_body, request_token
from referee.storage import GameNotFound
from referee.storage.model import Game as StoredGame

bp = Blueprint("games", __name__)


def _caller(game_id: str, fresh: bool = True) -> tuple[StoredGame, str]:
    """The game and the side whose token came with the request (404 for an unknown game, 401 otherwise).
    ``fresh``: read the game's current count and status (a submission leaves that to storage's append)."""
    stored, side = ext().host.caller(game_id, request_token())
    return (ext().storage.get_game(game_id) if fresh else stored), side


@bp.post("")
def create() -> tuple[Response, int]:
    body = json_body()
    creator = ext().creation.admit(request.remote_addr, ext().storage)      # 429 past the client's rate or quota
    created = ext().host.create(body, creator)
    resp = jsonify(created)
    resp.headers["Location"] = url_for("games.view", game_id=created["id"])
    return resp, 201


@bp.get("/<game_id>")
def view(game_id: str) -> Response:
    stored, side = _caller(game_id)
    return jsonify(ext().host.view(stored, side))


@bp.post("/<game_id>/events")
def submit(game_id: str) -> Response:
    body = json_body()
    stored, side = _caller(game_id, fresh=False)
    return jsonify(ext().host.submit(stored, side, body))


@bp.post("/<game_id>/dice")
def contribute(game_id: str) -> Response:
    body = json_body()
    stored, side = _caller(game_id)
    if stored.status != "active":
        raise ApiError(409, "game_ended", f"game '{game_id}' has ended and takes no more contributions")
    return jsonify(ext().host.contribute(stored, side, body))


@bp.post("/<game_id>/end")
def end(game_id: str) -> Response:
    _, side = _caller(game_id)
    ended = ext().storage.end_game(game_id)
    return jsonify({"id": game_id, "status": ended.status, "ended_by": side,
                    "dice": {"mode": ended.dice_mode, "commitment": ended.dice_commitment,
                             "seed": ended.dice_seed}})


@bp.get("/<game_id>/export")
def export(game_id: str) -> Response:
    try:
        stored = ext().storage.get_game(game_id)
    except GameNotFound:
        raise ApiError(404, "game_not_found", f"no ended game '{game_id}': the export (both sides' orders, the dice "
                                              "seed) is available once a game has ended") from None
    return jsonify(ext().host.export(stored))


@bp.get("/<game_id>/board.png")
def board_png(game_id: str) -> Response:
    stored, side = _caller(game_id)
    scenario, units = ext().host.units(stored, side)
    game_pictures(stored)                 # a map sent in is drawn in the checking workers
    return Response(board.png(scenario, units), mimetype="image/png")
