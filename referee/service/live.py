"""``POST /api/v1/games/<id>/vassal``: a hosted game played live in VASSAL, one logged step at a time.

The referee link inside the module (``modulebuilder/vassal/link``) sends VASSAL's own commands as the player
makes them: each step is the list of commands one ``LOG`` step of the ``.vlog`` would hold (the engine's
encoding, bookkeeping ``null`` left out), and the first request of a link carries the position its game started
from (the engine's restore command: a ``.vsav``'s text).  The steps are read exactly as the ``.vlog`` reader reads
a finished file (``referee.logs.vassal_live``: ``vassal_steps`` -> ``vassal_events`` -> the ruleset's notation),
so a game played live and the same game checked later from its ``.vlog`` are read into the same events; each
event not yet ruled is completed against the hosted game's state and ruled as ``POST /games/<id>/events`` would
rule it, with the side of the token -- identity comes from the token only.  The answer holds the rulings and
their lines for VASSAL's chat (``live_words``).

**Storage is the truth.**  The starting position, every step (side, link, in the order taken), what each event
read became (its hosted index, or none) and the board differences already said are stored with the game
(``Storage.commit_live``), in one transaction with the events ruled from the steps and any take-back: a crash
leaves the steps and the events of an answer both stored or both absent.  A process keeps its reading of the
games it serves (:class:`LiveGame`: the reading, the engine states) and brings it up to date from storage before
each answer -- the steps and read events stored since by another process, or everything after a restart -- and
the commit is refused (``LiveChanged``) if anything moved while the answer was worked out: the answer is then
worked out again.  So a restarted service or a second process carries on where the game is, with no resend.

``expected_index`` counts the steps this link (``link``, one VASSAL run) has had accepted, so a link that lost its
connection sends what it queued and catches up in order; any other count is 409 ``stale_index`` with the count
held (``next_index``).  409 ``resend`` (``next_index`` 0) only when storage holds no step of the game and the
request has no starting position.

An Undo in VASSAL is a step like any other: the reader leaves out both it and the step it undid, and the events
that step had produced are taken back from the hosted game when they are the game's latest and the same side's.
A step that says nothing to the referee (a move of a marker, a chat line) gets no line.
"""
from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

import orjson
from flask import Blueprint, Response, jsonify

from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.savefile import GameFile, parse_text
from referee.logs import notation
from referee.logs.jsonlog import check_events
from referee.logs.pbem import board_position, on_hexes, position
from referee.logs.vassal import provisional
from referee.logs.vassal_board import from_scenario
from referee.logs.vassal_events import UNREADABLE
from referee.logs.vassal_live import LiveReading
from referee.logs.vassal_steps import UNDO_REPORT
from referee.service import board_changes, live_words
from referee.service.errors import ApiError, bad_input
from referee.service.extension import ext
from referee.service.hosting import Played
from referee.service.request_parts import json_body, request_token
from referee.storage import GameEnded, LiveChanged, LiveCommit, LiveHead, StaleIndex, TakeBackRefused

bp = Blueprint("live", __name__)

MAX_STEPS_PER_REQUEST = 2000
MAX_COMMANDS_PER_STEP = 5000
MAX_START_CHARS = 20_000_000
ATTEMPTS = 8          # answers worked out again when another process stored first
STATES_KEPT = 64      # engine states kept per game, by event index: where a take-back starts from


@dataclass
class LiveGame:
    """One process's reading of a game played live: what storage held at ``version``, read."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: int | None = None                 # the live version this reflects (None: nothing stored read)
    reading: LiveReading | None = None
    accepted: dict[tuple[str, str], int] = field(default_factory=dict)   # (side, link) -> steps stored
    read: list[Any] = field(default_factory=list)      # the events read so far, as read (JSON values)
    stored: list[int] = field(default_factory=list)    # the hosted index of each of those (-1: none)
    said: dict[str, str] = field(default_factory=dict)  # unit -> the board difference last said
    states: OrderedDict[int, Played] = field(default_factory=OrderedDict)


class LiveGames:
    """The games this process serves live, the least recently played forgotten first (storage keeps them)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, LiveGame] = OrderedDict()

    def get(self, game_id: str) -> LiveGame:
        with self._lock:
            found = self._items.get(game_id)
            if found is None:
                found = self._items[game_id] = LiveGame()
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
            return found


def live_games() -> LiveGames:
    found = ext().__dict__.get("live_games")
    if found is None:
        found = ext().__dict__.setdefault("live_games", LiveGames(int(ext().config["GAME_CACHE_SIZE"])))
    assert isinstance(found, LiveGames)
    return found


@bp.post("/<game_id>/vassal")
def steps(game_id: str) -> Response:
    body = json_body()
    stored, side = ext().host.caller(game_id, request_token())
    link, expected, start, new_steps = _request(body)
    scenario, ruleset = ext().host.setup(stored)
    start_game = None if start is None else _start(start)
    live = live_games().get(game_id)
    with live.lock:
        for _ in range(ATTEMPTS):
            head = _sync(live, stored, scenario, start_game)
            assert live.reading is not None
            have = live.accepted.get((side, link), 0)
            if expected != have:
                raise ApiError(409, "stale_index", f"the referee has {have} of this link's steps, not {expected}: "
                                                   f"send them from index {have}", next_index=have)
            mark = len(live.reading.steps)
            live.reading.add(new_steps)
            try:
                answer = _answer(live, head, stored, side, link, have, new_steps, start, scenario, ruleset,
                                 body.get("apply") is True)
            except (LiveChanged, StaleIndex, TakeBackRefused):
                # Another process stored steps or events of this game meanwhile: read them, and work it out again
                # (after a short random wait, so that two processes that keep meeting part).
                live.reading.rewind(mark)
                time.sleep(random.uniform(0.005, 0.05))
                continue
            except BaseException:
                live.reading.rewind(mark)
                raise
            live.accepted[(side, link)] = have + len(new_steps)
            answer["next_index"] = have + len(new_steps)
            return jsonify(answer)
    raise ApiError(409, "stale_index", "the game changed while these steps were read (it is being played from "
                                       f"another process): send them again from index {expected}",
                   next_index=expected)


@bp.get("/<game_id>/vassal")
def status(game_id: str) -> Response:
    """What the referee holds of the game played live: its steps, and how many came from the caller's side."""
    _, side = ext().host.caller(game_id, request_token())
    counts = ext().storage.live_counts(game_id)
    return jsonify({"steps": sum(counts.values()), "yours": sum(n for (s, _), n in counts.items() if s == side)})


def _sync(live: LiveGame, stored: Any, scenario: Any, start: GameFile | None) -> LiveHead:
    """Bring ``live`` up to what storage holds (the truth) and return storage's head of the game."""
    storage = ext().storage
    head = storage.live_head(stored.id)
    if head.status != "active":
        raise GameEnded(stored.id)
    if head.version is None:
        if start is None:
            raise ApiError(409, "resend", "the referee has no steps of this game: send the starting position and "
                                          "every step, from index 0", next_index=0)
        # Nothing stored yet: the game is read from this request's starting position (stored with its answer).
        live.version, live.reading = None, LiveReading(start, scenario, from_scenario(scenario))
        live.accepted, live.read, live.stored, live.said = {}, [], [], {}
        live.states.clear()
        return head
    if live.version == head.version and live.reading is not None:
        return head
    if live.version is None or live.reading is None:
        # A restarted process, or a game this one has not served yet: everything, read once.
        text = storage.live_start(stored.id)
        assert text is not None
        live.reading = LiveReading(parse_text(text, what="start"), scenario, from_scenario(scenario))
        live.accepted, live.read, live.stored = {}, [], []
    new = storage.live_steps(stored.id, since=len(live.reading.steps))
    reads = storage.live_reads(stored.id, after_version=-1 if live.version is None else live.version)
    live.reading.add(s.commands for s in new)
    live.reading.take_changes()
    for s in new:
        live.accepted[(s.side, s.link)] = live.accepted.get((s.side, s.link), 0) + 1
    del live.read[head.reads:]
    del live.stored[head.reads:]
    for r in reads:
        index = -1 if r.stored_index is None else r.stored_index
        if r.position < len(live.read):
            live.read[r.position], live.stored[r.position] = r.event, index
        else:
            live.read.append(r.event)
            live.stored.append(index)
    live.said = dict(head.said)
    live.version = head.version
    # Another process may have taken events back and stored others at the same indexes: a state kept here is
    # kept only if the chain of the events stored still runs through it.
    live.states.clear()
    cached = ext().host.cache.get(stored.id)
    if cached is not None and cached.index:
        last = storage.list_events(stored.id, since=cached.index - 1)[:1]
        if not last or last[0].chain != cached.head:
            ext().host.cache.drop(stored.id)
    return head


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


def _json(value: Any) -> Any:
    """A read event as storage gives it back (JSON's values), so that what was read compares with what is stored."""
    return orjson.loads(orjson.dumps(value))


@dataclass
class _Plan:
    """An answer being worked out: the read events from ``reads_from`` on, and what the hosted game gets."""
    reads_from: int
    tail: list[tuple[Any, int]]                       # (read event, hosted index or -1)
    played: Played
    take_back: int | None = None
    events: list[Any] = field(default_factory=list)  # NewEvents to store
    states: list[Played] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    ended: bool = False


def _answer(live: LiveGame, head: LiveHead, stored: Any, side: str, link: str, have: int,
            new_steps: list[tuple[str, ...]], start: str | None, scenario: Any, ruleset: Any,
            apply: bool = False) -> dict[str, Any]:
    """Rule the events the new steps read as, store the whole answer in one transaction, and return it.  The
    answer's ``changes`` put the results on the board (``board_changes``); ``apply``: the link applies them, so
    the comparison with the referee's position is made on the board as it will be."""
    host = ext().host
    reading = live.reading
    assert reading is not None
    events = reading.events
    changed = reading.take_changes()
    read = [_json(r.event) for r in events[changed:]]           # the events from `changed` on, as read
    same = changed
    while same - changed < len(read) and same < len(live.read) and read[same - changed] == live.read[same]:
        same += 1
    played = host.state_at(stored, head.event_count)
    plan = _Plan(same, [], played)
    at = same                                 # the first read event not ruled yet
    if same < len(live.read):
        at = _take_back(live, plan, stored, side, same, read[same - changed:], reading.steps)
    elif head.version is None and head.event_count and not live.read:
        # A game whose steps storage lost or never had (played live before the steps were stored): the link
        # sends every step again, and the game's latest events may already be what these steps read.
        at = _already_stored(plan, read, [e for e in ext().storage.list_events(stored.id) if e.side == side])
    words = live_words.words(scenario, ruleset)
    for position, r in enumerate(events[at:], at):
        _rule(plan, r, read[position - changed], stored, side, scenario, ruleset, words)
    state = plan.played.game.state
    units = ruleset.view(state, side).get("units", [])
    shows_back = getattr(ruleset, "shows_back", None)
    ruled = [r["ruling"] for r in plan.rulings]
    game_maps = reading.board.game_maps()
    changes = board_changes.changes(ruled, reading.table, units, shows_back, scenario, game_maps, words.name)
    board = board_changes.applied(reading.table, changes) if apply else reading.table
    told = {f"{uid} side" for uid in board_changes.changed_units(ruled)}      # said by the results' own lines
    differences, said = _board_differences(
        live.said, board, reading.board, state, scenario, words,
        lambda hexes: board_changes.status_differences(board, units, shows_back, scenario, game_maps, words.name,
                                                       hexes), told)
    plan.lines += differences
    commit = LiveCommit(version=head.version, side=side, link=link, link_index=have, steps=tuple(new_steps),
                        event_count=head.event_count, events=tuple(plan.events), take_back=plan.take_back,
                        reads_from=plan.reads_from, reads=tuple((e, None if i < 0 else i) for e, i in plan.tail),
                        said=said, start=start if head.version is None else None, end=plan.ended)
    live.version = ext().storage.commit_live(stored.id, commit)
    # Stored: this process's reading and states follow.
    del live.read[plan.reads_from:]
    del live.stored[plan.reads_from:]
    live.read += [e for e, _ in plan.tail]
    live.stored += [i for _, i in plan.tail]
    live.said = said
    if plan.take_back is not None:
        host.cache.drop(stored.id)
        for index in [i for i in live.states if i > plan.take_back]:
            del live.states[index]
    for p in [*plan.states, plan.played]:
        live.states[p.index] = p
    while len(live.states) > STATES_KEPT:
        live.states.popitem(last=False)
    host.cache.put(stored.id, plan.played)
    return {"rulings": plan.rulings, "lines": plan.lines, "status": "ended" if plan.ended else "active",
            "changes": changes}


def _rule(plan: _Plan, r: Any, as_read: Any, stored: Any, side: str, scenario: Any, ruleset: Any,
          words: Any) -> None:
    """Rule one read event on the plan's state (nothing is stored here)."""
    host = ext().host
    if r.event["type"] == UNREADABLE:
        # Ruled illegal by the .vlog reader's replay and never stored: the player sees why, once.
        plan.lines.append(f"✗ step {r.step}: cannot read '{r.event['line']}': {r.event['why']}")
        plan.tail.append((as_read, -1))
        return
    if stored.strict_dice and (r.dice or {}).get("by") == "typed":
        # The game takes rolls from VASSAL's die button only: a typed roll is refused, never stored.
        plan.lines.append(f"✗ step {r.step}: '{r.line}' types its roll in the chat; this game takes rolls from "
                          "VASSAL's die button only (strict_dice)")
        plan.tail.append((as_read, -1))
        return
    if r.side_from_state:
        # Nothing in the steps says whose declaration it is: in a hosted game it is the sender's.
        r = replace(r, event={**r.event, "side": side}, side_from_state=False)
    problems = check_events(ruleset, scenario, [provisional(r, side)])
    if problems:
        plan.lines.append(f"step {r.step}: " + "; ".join(problems))
        plan.tail.append((as_read, -1))
        return
    played = plan.played
    event = notation.of(ruleset).complete(played.game.state, r)
    try:
        if plan.ended:
            raise ApiError(409, "game_ended", "the game has ended")
        host.check(stored, side, [event])
        rulings, new_events, after = host.rule(side, played, [event])
    except ApiError as e:
        if stored.dice_mode == "referee" and event.get("type") == "roll":
            plan.lines.append(live_words.REFEREE_ROLLS)
        else:
            plan.lines.append(live_words.refused(event, e.message, words))
        plan.tail.append((as_read, -1))
        return
    ruling = rulings[0]
    plan.events += new_events
    plan.states.append(played)
    plan.played = after
    plan.rulings.append({"index": played.index, "step": r.step, "event": event, "ruling": ruling})
    plan.lines += live_words.lines(ruling, event, words, after.head)
    plan.tail.append((as_read, played.index))
    plan.ended = plan.ended or ruleset.is_over(after.game.state)


def _board_differences(said: Mapping[str, str], pieces: Mapping[str, Any], board_geometry: Any, state: Any,
                       scenario: Any, w: Any, sides: Any = None,
                       told: set[str] | frozenset[str] = frozenset()) -> tuple[list[str], dict[str, str]]:
    """"on the board:" lines for every unit the VASSAL board has somewhere else than the referee, said once per
    difference (a piece left where an illegal move dropped it, a unit the referee eliminated...), and every
    difference now; ``sides(hexes)`` adds the counters that show another side than the referee's status, except
    those ``told`` by this answer's results."""
    orientation = scenario.map.grid.orientation
    board = on_hexes(position(pieces.values(), board_geometry, orientation))
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
    return [line for uid, line in now.items() if said.get(uid) != line and uid not in told], now


def _already_stored(plan: _Plan, read: list[Any], mine: list[Any]) -> int:
    """How many of the first read events are already ruled: the storable ones among them are the caller side's
    latest stored events, in order (a line that could not be read was never stored).  Records them in the plan
    and returns the count."""
    storable = [i for i, e in enumerate(read) if e["type"] != UNREADABLE]
    for m in range(min(len(storable), len(mine)), 0, -1):
        tail = mine[len(mine) - m:]
        if all(_same_event(read[storable[j]], tail[j].event) for j in range(m)):
            done = storable[m - 1] + 1
            index = {storable[j]: tail[j].index for j in range(m)}
            plan.tail += [(read[i], index.get(i, -1)) for i in range(done)]
            return done
    return 0


def _same_event(read: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """A read event and the stored one it became (the stored one has its path completed)."""
    return all(stored.get(k) == v for k, v in read.items() if k not in ("path",))


def _take_back(live: LiveGame, plan: _Plan, stored: Any, side: str, same: int, read: list[Any],
               steps: list[Any]) -> int:
    """The last step changed what earlier steps read as: an Undo took an act back, or a piece turned after its
    move (the turn is part of the move, 6.12).  The hosted game takes back the events ruled from there, and the
    events are then ruled as they now read.  When the take-back is refused (another side acted since), what was
    ruled stands.  ``read``: the events read from ``same`` on.  Returns the position of the first event to rule."""
    gone = [i for i in live.stored[same:] if i >= 0]
    undo = bool(steps) and any(c.startswith(UNDO_REPORT) for c in steps[-1].commands[:1])
    what = "Undo" if undo else f"step {len(steps)} changes an act already ruled"
    if gone:
        frm = min(gone)
        since = ext().storage.list_events(stored.id, since=frm)
        if any(e.side != side for e in since):
            plan.lines.append(_kept(what, side, [e.side for e in since if e.index in gone]))
            return same + _keep_ruled(plan, live.read[same:], live.stored[same:], read, undo)
        plan.take_back = frm
        plan.played = live.states.get(frm) or ext().host.state_after(stored, frm)
        plan.lines.append(f"{what}: the referee takes back event{'s' if len(gone) > 1 else ''} "
                          + ", ".join(f"[{i}]" for i in gone)
                          + ("; its position is as before" if undo else " to rule it again"))
    elif undo:
        plan.lines.append(f"{what}: nothing the referee had ruled is taken back")
    return same


def _kept(what: str, side: str, acted: list[str]) -> str:
    """The line for a take-back refused, worded for the caller: an act of another side taken back on the VASSAL
    board (an Undo pressed online takes back the latest act logged, whoever made it), or the caller's own act
    with another side's acts after it."""
    others = sorted(set(acted) - {side})
    if others:
        whose = " and ".join(others)
        return (f"{what}: VASSAL took back {whose}'s act on your board; the referee keeps what was ruled "
                f"(only {whose} can take back {whose}'s acts)")
    return f"{what}: another side has acted since: the referee keeps what was ruled"


def _keep_ruled(plan: _Plan, old_read: list[Any], old_stored: list[int], read: list[Any], undo: bool) -> int:
    """After a refused take-back: the read events (from the first that differs) matched, in order, to those ruled
    before (an event no longer read keeps its ruling; a changed one keeps the ruling it had); records them in the
    plan and returns how many of ``read`` are ruled."""
    j = 0
    for old, index in zip(old_read, old_stored):
        if j < len(read) and read[j] == old:
            plan.tail.append((old, index))
            j += 1
    if not undo and j < len(read) and len(plan.tail) < len(old_read):
        # The first event read differently is the changed act (a turn folded into its move): ruled already.
        plan.tail.append((read[j], -1))
        j += 1
    return j
