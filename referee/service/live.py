"""``POST /api/v1/games/<id>/vassal``: a hosted game played live in VASSAL, one logged step at a time.

The referee link inside the module (``modulebuilder/vassal/link``) sends VASSAL's own commands as the player
makes them: each step is the list of commands one ``LOG`` step of the ``.vlog`` would hold (the engine's
encoding, bookkeeping ``null`` left out), and the first request carries the position the game started from
(the engine's restore command: a ``.vsav``'s text).  The service keeps the steps of every game it hosts live
and reads them exactly as the ``.vlog`` reader reads a finished file (``referee.logs.vassal_steps`` ->
``vassal_events`` -> the ruleset's notation), so a game played live and the same game checked later from its
``.vlog`` are read into the same events; each event not yet ruled is completed against the hosted game's
state and submitted as ``POST /games/<id>/events`` would take it, with the side of the token -- identity comes
from the token only.  The answer holds the rulings and their lines for VASSAL's chat (``live_words``).

``expected_index`` counts the steps this side's link has had accepted, so a link that lost its connection
sends what it queued and catches up in order; a service that restarted has lost the steps (it keeps them in
memory) and answers 409 ``resend`` with ``next_index`` 0: the link sends the starting position and every step
again, and the events already stored are recognised and not ruled twice.

An Undo in VASSAL is a step like any other: the reader leaves out both it and the step it undid, and the
events that step had produced are taken back from the hosted game when they are the game's latest and the
same side's (``Storage.take_back_events``).  A step that says nothing to the referee (a move of a marker, a
chat line) gets no line.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Mapping

from flask import Blueprint, Response, jsonify

from modulebuilder.records import replace
from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.savefile import GameFile, Step, parse_text
from referee.logs import notation
from referee.logs.jsonlog import check_events
from referee.logs.pbem import board_position, on_hexes, position
from referee.logs.vassal import provisional
from referee.logs.vassal_board import BoardGeometry, from_scenario
from referee.logs.vassal_events import UNREADABLE, ReadEvent, read_events
from referee.logs.vassal_steps import UNDO_REPORT, facts
from referee.service import board_changes, live_words
from referee.service.errors import ApiError, bad_input
from referee.service.extension import ext
from referee.service.request_parts import json_body, request_token

bp = Blueprint("live", __name__)

MAX_STEPS_PER_REQUEST = 2000
MAX_COMMANDS_PER_STEP = 5000
MAX_START_CHARS = 20_000_000


@dataclass
class Session:
    """The steps of one game played live, in the order they reached the referee."""
    start: GameFile
    board: BoardGeometry
    pieces: dict[str, Any] = field(default_factory=dict)        # the starting position's pieces, parsed once
    steps: list[Step] = field(default_factory=list)
    accepted: dict[tuple[str, str], int] = field(default_factory=dict)   # (side, link) -> steps accepted
    read: list[dict[str, Any]] = field(default_factory=list)   # the events read so far, as read (before paths)
    stored: list[int] = field(default_factory=list)            # the hosted index of each of those
    differences: dict[str, str] = field(default_factory=dict)  # unit -> the board difference last said
    seen: int = 0                                              # the game's event count when last answered
    lock: threading.Lock = field(default_factory=threading.Lock)


class Sessions:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[str, Session] = {}

    def get(self, game_id: str) -> Session | None:
        with self._lock:
            return self._items.get(game_id)

    def put(self, game_id: str, session: Session) -> Session:
        with self._lock:
            return self._items.setdefault(game_id, session)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)


def sessions() -> Sessions:
    found = ext().__dict__.setdefault("live_sessions", Sessions())
    assert isinstance(found, Sessions)
    return found


@bp.post("/<game_id>/vassal")
def steps(game_id: str) -> Response:
    body = json_body()
    stored, side = ext().host.caller(game_id, request_token())
    link, expected, start, new_steps = _request(body)
    scenario, ruleset = ext().host.setup(stored)
    session = sessions().get(game_id)
    if session is None:
        if start is None:
            raise ApiError(409, "resend", "the referee has not got this game's steps (it restarted): send the "
                                          "starting position and every step again, from index 0", next_index=0)
        begun = _start(start)
        session = sessions().put(game_id, Session(begun, from_scenario(scenario), begun.pieces(),
                                                  seen=ext().storage.get_game(game_id).event_count))
    with session.lock:
        if _stale(session, game_id, side):
            # Another process (a worker with its own steps of this game) has stored this side's acts since this
            # one last looked: its steps are not these.  Start again from the link's full record.
            sessions().drop(game_id)
            raise ApiError(409, "resend", "the referee's record of this game's steps is out of date here: send "
                                          "the starting position and every step again, from index 0",
                           next_index=0)
        have = session.accepted.get((side, link), 0)
        if expected != have:
            raise ApiError(409, "stale_index", f"the referee has {have} of this side's steps, not {expected}: "
                                               f"send them from index {have}", next_index=have)
        for commands in new_steps:
            session.steps.append(Step(len(session.steps) + 1, commands))
        session.accepted[(side, link)] = have + len(new_steps)
        answer = _rule_new(session, stored, side, scenario, ruleset, body.get("apply") is True)
        answer["next_index"] = session.accepted[(side, link)]
        session.seen = ext().storage.get_game(game_id).event_count
    return jsonify(answer)


@bp.get("/<game_id>/vassal")
def status(game_id: str) -> Response:
    """What the referee holds of the game played live: its steps, and how many came from the caller's side."""
    _, side = ext().host.caller(game_id, request_token())
    session = sessions().get(game_id)
    if session is None:
        return jsonify({"steps": 0, "yours": 0})
    with session.lock:
        return jsonify({"steps": len(session.steps),
                        "yours": sum(n for (s, _), n in session.accepted.items() if s == side)})


def _stale(session: Session, game_id: str, side: str) -> bool:
    """True when events of ``side`` were stored since this session last looked, by someone else."""
    return any(e.side == side for e in ext().storage.list_events(game_id, since=session.seen))


def _request(body: Any) -> tuple[str, int, str | None, list[tuple[str, ...]]]:
    if not isinstance(body, Mapping):
        raise bad_input(["body: expected an object with link, expected_index and steps"])
    problems = [f"{key}: unexpected field" for key in body
                if key not in ("link", "expected_index", "start", "steps", "apply")]
    link = body.get("link", "")
    if not isinstance(link, str) or len(link) > 64:
        problems.append("link: expected the id of this VASSAL run's link (a string of at most 64 characters)")
    expected = body.get("expected_index")
    if isinstance(expected, bool) or not isinstance(expected, int) or expected < 0:
        problems.append("expected_index: required, the number of steps the referee has from this side (>= 0)")
    if not isinstance(body.get("apply", False), bool):
        problems.append("apply: true when the link applies the answer's board changes itself, else false")
    start = body.get("start")
    if start is not None and (not isinstance(start, str) or len(start) > MAX_START_CHARS):
        problems.append(f"start: expected the game's starting position as VASSAL encodes it (at most "
                        f"{MAX_START_CHARS} characters)")
    raw = body.get("steps", [])
    if not isinstance(raw, list) or len(raw) > MAX_STEPS_PER_REQUEST:
        problems.append(f"steps: expected a list of at most {MAX_STEPS_PER_REQUEST} steps")
        raw = []
    out = []
    for i, step in enumerate(raw):
        if not isinstance(step, list) or len(step) > MAX_COMMANDS_PER_STEP \
                or not all(isinstance(c, str) for c in step):
            problems.append(f"steps[{i}]: expected a list of VASSAL commands (strings)")
        else:
            out.append(tuple(c for c in step if c and c != "null"))
    if problems:
        raise bad_input(problems)
    return link, expected, start, out


def _start(text: str) -> GameFile:
    try:
        return parse_text(text, what="start")
    except VassalFileError as e:
        raise bad_input([f"start: {e}"]) from None


def _rule_new(session: Session, stored: Any, side: str, scenario: Any, ruleset: Any,
              apply: bool = False) -> dict[str, Any]:
    """Read every step again as the .vlog reader would and rule the events not ruled yet.  The answer's
    ``changes`` put the results on the board (``board_changes``); ``apply``: the link applies them, so the
    comparison with the referee's position is made on the board as it will be."""
    game = GameFile("", None, [], session.start.setup_commands, tuple(session.steps))
    pieces = dict(session.pieces)                   # the board after the steps, as the reading leaves it
    try:
        reading = read_events(facts(game, pieces), scenario, session.board)
    except VassalFileError as e:
        return {"rulings": [], "lines": [f"cannot read the last step: {e}"], "status": stored.status,
                "changes": []}
    # Claims still waiting for their move are not ruled yet (the .vlog reader rules them unreadable only at
    # the end of the file).
    events = [r for r in reading.events if not (r.event["type"] == UNREADABLE and "never did" in r.event["why"])]
    read = [r.event for r in events]
    same = 0
    while same < min(len(read), len(session.read)) and read[same] == session.read[same]:
        same += 1
    lines: list[str] = []
    host = ext().host
    if same < len(session.read):
        said, kept = _take_back(session, stored, side, same)
        lines += said
        if kept:
            # Refused (another side acted since): what was ruled stands.  The events still read are the ones
            # ruled before, in order, and only those after them are new.
            same = _keep_ruled(session, read)
    words = live_words.words(scenario, ruleset)
    status = stored.status
    rulings: list[dict[str, Any]] = []
    if not session.read and ext().storage.get_game(stored.id).event_count:
        # A restarted service, or a link that starts on a game played before: the game's latest events may
        # have been read from these same steps already (the link sends every step again after a restart).
        mine = [e for e in ext().storage.list_events(stored.id) if e.side == side]
        same = _already_stored(session, read, mine)
    for r in events[same:]:
        as_read = r.event               # what the next reading is compared with (before a side is given to it)
        if r.event["type"] == UNREADABLE:
            # Ruled illegal by the .vlog reader's replay and never stored: the player sees why, once.
            lines.append(f"✗ step {r.step}: cannot read '{r.event['line']}': {r.event['why']}")
            session.read.append(as_read)
            session.stored.append(-1)
            continue
        if stored.strict_dice and (r.dice or {}).get("by") == "typed":
            # The game takes rolls from VASSAL's die button only: a typed roll is refused, never stored.
            lines.append(f"✗ step {r.step}: '{r.line}' types its roll in the chat; this game takes rolls from "
                         "VASSAL's die button only (strict_dice)")
            session.read.append(as_read)
            session.stored.append(-1)
            continue
        if r.side_from_state:
            # Nothing in the steps says whose declaration it is: in a hosted game it is the sender's.
            r = replace(r, event={**r.event, "side": side}, side_from_state=False)
        problems = check_events(ruleset, scenario, [provisional(r, side)])
        if problems:
            lines.append(f"step {r.step}: " + "; ".join(problems))
            session.read.append(as_read)
            session.stored.append(-1)
            continue
        played = host.current(stored)
        event = notation.of(ruleset).complete(played.game.state, r)
        try:
            out = host.submit(stored, side, {"expected_index": played.index, "events": [event]})
        except ApiError as e:
            if stored.dice_mode == "referee" and event.get("type") == "roll":
                lines.append(live_words.REFEREE_ROLLS)
            else:
                lines.append(live_words.refused(event, e.message, words))
            session.read.append(as_read)
            session.stored.append(-1)
            continue
        ruling = out["rulings"][0]
        status = out["status"]
        rulings.append({"index": played.index, "step": r.step, "event": event, "ruling": ruling})
        lines += live_words.lines(ruling, event, words, out.get("chain"))
        session.read.append(as_read)
        session.stored.append(played.index)
    state = host.current(stored).game.state
    units = ruleset.view(state, side).get("units", [])
    shows_back = getattr(ruleset, "shows_back", None)
    ruled = [r["ruling"] for r in rulings]
    changes = board_changes.changes(ruled, pieces, units, shows_back, scenario, session.board.game_maps(), words.name)
    board = board_changes.applied(pieces, changes) if apply else pieces
    told = {f"{uid} side" for uid in board_changes.changed_units(ruled)}      # said by the results' own lines
    lines += _board_differences(session, board, state, scenario, words,
                                lambda hexes: board_changes.status_differences(
                                    board, units, shows_back, scenario, session.board.game_maps(), words.name,
                                    hexes), told)
    return {"rulings": rulings, "lines": lines, "status": status, "changes": changes}


def _board_differences(session: Session, pieces: dict[str, Any], state: Any, scenario: Any, w: Any,
                       sides: Any = None, told: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """"on the board:" lines for every unit the VASSAL board has somewhere else than the referee, said once per
    difference (a piece left where an illegal move dropped it, a unit the referee eliminated...); ``sides(hexes)``
    adds the counters that show another side than the referee's status, except those ``told`` by this answer's
    results."""
    orientation = scenario.map.grid.orientation
    board = on_hexes(position(pieces.values(), session.board, orientation))
    referee = board_position(state, (), {})
    now: dict[str, str] = {}
    for uid, (hex_, facing) in sorted(board.items()):
        theirs = referee.get(uid)
        if theirs is None:
            continue
        where, their_facing = theirs
        if where != hex_:
            there = f"on {where}" if where is not None and where.isdigit() else \
                f"off the map ({where})" if where else "off the map"
            now[uid] = f"on the board: {w.name(uid)} stands on {hex_}, the referee has it {there}"
        elif facing is not None and their_facing is not None and facing != their_facing:
            now[uid] = (f"on the board: {w.name(uid)} on {hex_} faces {facing} o'clock, the referee has it facing "
                        f"{their_facing}")
    if sides is not None:
        now.update(sides({uid: hex_ for uid, (hex_, _) in board.items()}))
    new = [line for uid, line in now.items() if session.differences.get(uid) != line and uid not in told]
    session.differences = now
    return new


def _already_stored(session: Session, read: list[dict[str, Any]], mine: list[Any]) -> int:
    """How many of the first read events are already ruled: the storable ones among them are the caller side's
    latest stored events, in order (a line that could not be read was never stored).  Records them in the
    session and returns the count."""
    storable = [i for i, e in enumerate(read) if e["type"] != UNREADABLE]
    for m in range(min(len(storable), len(mine)), 0, -1):
        tail = mine[len(mine) - m:]
        if all(_same_event(read[storable[j]], tail[j].event) for j in range(m)):
            done = storable[m - 1] + 1
            index = {storable[j]: tail[j].index for j in range(m)}
            session.read += read[:done]
            session.stored += [index.get(i, -1) for i in range(done)]
            return done
    return 0


def _same_event(read: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """A read event and the stored one it became (the stored one has its path completed)."""
    return all(stored.get(k) == v for k, v in read.items() if k not in ("path",))


def _take_back(session: Session, stored: Any, side: str, keep: int) -> tuple[list[str], bool]:
    """The last step changed what earlier steps read as: an Undo took an act back, or a piece turned after its
    move (the turn is part of the move, 6.12).  The hosted game takes back the events ruled from there, and
    the loop after this rules the act as it now reads.  Returns the lines, and True when the take-back was
    refused (the session's bookkeeping is then left as it was)."""
    gone = [i for i in session.stored[keep:] if i >= 0]
    undo = bool(session.steps) and any(c.startswith(UNDO_REPORT) for c in session.steps[-1].commands[:1])
    what = "Undo" if undo else f"step {len(session.steps)} changes an act already ruled"
    if gone:
        try:
            ext().host.take_back(stored, side, min(gone))
        except ApiError as e:
            return [f"{what}: {e.message}"], True
    del session.read[keep:]
    del session.stored[keep:]
    if not gone:
        return ([f"{what}: nothing the referee had ruled is taken back"] if undo else []), False
    return [f"{what}: the referee takes back event{'s' if len(gone) > 1 else ''} "
            + ", ".join(f"[{i}]" for i in gone) + ("; its position is as before" if undo else " to rule it again")], False


def _keep_ruled(session: Session, read: list[dict[str, Any]]) -> int:
    """After a refused take-back: the read events matched, in order, to those ruled before (an event no longer
    read keeps its ruling; a changed one keeps the ruling it had); returns how many of ``read`` are ruled."""
    j = 0
    kept_read: list[dict[str, Any]] = []
    kept_stored: list[int] = []
    for old, index in zip(session.read, session.stored):
        if j < len(read) and read[j] == old:
            kept_read.append(old)
            kept_stored.append(index)
            j += 1
    undo = bool(session.steps) and any(c.startswith(UNDO_REPORT) for c in session.steps[-1].commands[:1])
    if not undo and j < len(read) and len(kept_read) < len(session.read):
        # The first event read differently is the changed act (a turn folded into its move): ruled already.
        kept_read.append(read[j])
        kept_stored.append(-1)
        j += 1
    session.read, session.stored = kept_read, kept_stored
    return j
