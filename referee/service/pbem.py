"""``POST /api/v1/games/<id>/vlog``: a hosted game played by e-mail in VASSAL, one ``.vlog`` per turn.

Each player sends the log of their turn (multipart: ``log`` = the ``.vlog``, optionally ``module`` = the
``.vmod``) with their side's bearer token.  The log must start from the position the game is at: the board
as the last accepted log left it -- the referee's position, except that a piece whose move the referee ruled
illegal is still where the player dropped it (VASSAL keeps it there; ``referee.logs.pbem.board_position``).
Only units on map hexes are compared: boxes are the referee's business.  A log that starts from an earlier
position of the game *rewinds* it, one that starts elsewhere *forks* it: both are refused with 409
``not_continuous`` and a sentence saying where.  Otherwise the log's own steps are read on the game's
scenario (the begin_save part is the earlier turns, not moves) and submitted as the side's events, exactly as
``POST /games/<id>/events`` would take them (same side checks, same storage transaction); lines the reader
could not read come back under ``unreadable`` and are not stored.  A log that begins with VASSAL's turn track
elsewhere than the game is gets a warning naming both (``referee.logs.pbem.track_differs``); the game's own
sequence of play rules it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from flask import Blueprint, Response, jsonify, request

from modulebuilder.vassal.errors import VassalFileError
from referee.engine.replay import new_game, step
from referee.logs.pbem import Position, board_position, forks, on_hexes, position, track_differs
from referee.logs.problems import InputError
from referee.logs.vassal import open_game, read_opened, typed_rolls
from referee.service.dice import game_seed
from referee.service.errors import ApiError, bad_input
from referee.service.extension import ext
from referee.service.request_parts import request_token
from referee.service.logs import upload_from

bp = Blueprint("pbem", __name__)


@bp.post("/<game_id>/vlog")
def submit_turn(game_id: str) -> Response:
    _, side = ext().host.caller(game_id, request_token())
    stored = ext().storage.get_game(game_id)
    upload = upload_from(request)
    if Path(upload.filename).suffix.lower() != ".vlog":
        raise ApiError(400, "not_a_vlog", "send the turn as a VASSAL log: a multipart 'log' file ending in .vlog")
    scenario, ruleset = ext().host.setup(stored)
    try:
        opened = open_game(upload.data, upload.module, scenario=scenario,
                           from_setup=False)        # a later turn: where it starts is checked below
        log = read_opened(opened, upload.filename or None)
    except InputError as e:
        raise bad_input(e.problems) from None
    except VassalFileError as e:
        raise bad_input([str(e)]) from None
    if stored.strict_dice and (typed := typed_rolls(log)):
        raise ApiError(422, "typed_roll", f"this game takes rolls from VASSAL's die button only (strict_dice): "
                                          f"{typed[0]}" + (f" (and {len(typed) - 1} more)" if len(typed) > 1 else ""))
    start = position(opened.game.pieces().values(), opened.board, scenario.map.grid.orientation)
    sentence = _continuity(stored, scenario, ruleset, upload.filename, start)
    if sentence is not None:
        raise ApiError(409, "not_continuous", sentence)
    place = ruleset.progress(ext().host.current(stored).game.state)
    if (track := track_differs(upload.filename, opened.game, scenario, place)) is not None:
        log.warnings.append(track)
    events = [e for e in log.events if e.get("type") != "unreadable"]
    unreadable = [{"step": e["step"], "line": e["line"], "why": e["why"]} for e in log.events
                  if e.get("type") == "unreadable"]
    out: dict[str, Any] = {"next_index": stored.event_count, "rulings": [], "status": stored.status}
    if events:
        out = ext().host.submit(stored, side, {"expected_index": stored.event_count, "events": events})
    return jsonify({**out, "unreadable": unreadable, "warnings": log.warnings})


def _continuity(stored: Any, scenario: Any, ruleset: Any, label: str, start: Position) -> str | None:
    """None when the log starts where the game is; else the sentence saying where it starts."""
    cincs = {s.name: s.cinc for s in scenario.sides if getattr(s, "cinc", None)}
    history = [(e.event, e.ruling) for e in ext().storage.list_events(stored.id)]
    boards = list(_boards(stored, scenario, ruleset, history, cincs))
    mine = on_hexes(start)

    def same(p: Position) -> bool:
        theirs = on_hexes(p)
        shared = set(mine) & set(theirs)
        return all(mine[u] == theirs[u] for u in shared)
    n = len(history)
    if same(boards[n]):
        return None
    earlier = [k for k in range(n - 1, -1, -1) if same(boards[k])]
    if earlier:
        k = earlier[0]
        return (f"{label} starts from the game's position after {k} of its {n} events, not after the last: it "
                f"rewinds events {k}-{n - 1}")
    names = {u.id: u.name for u in list(scenario.counters.units) + list(scenario.counters.leaders)}
    ended = {u: pl for u, pl in on_hexes(boards[n]).items() if u in mine}
    return forks("the game", ended, n, label, {u: pl for u, pl in mine.items() if u in ended}, names) \
        .replace("ended (step", "is (event")


def _boards(stored: Any, scenario: Any, ruleset: Any, history: list[tuple[Mapping[str, Any], Mapping[str, Any]]],
            cincs: Mapping[str, str]) -> Iterable[Position]:
    """The board after 0, 1, ... len(history) of the game's events."""
    seed = game_seed(ext().storage.dice_seed(stored.id), stored.side_seeds) if stored.dice_mode == "referee" \
        else None
    game = new_game(ruleset, scenario, stored.dice_mode, seed)
    yield board_position(game.state, (), cincs)
    for i, (event, _) in enumerate(history):
        _, game, _ = step(game, i, event)
        yield board_position(game.state, history[:i + 1], cincs)
