"""``/api/v1/replays`` and the hosted games' what-if: what the web page needs to walk through a game on the board.

An uploaded log is sent once (``POST /replays``) and gets an id (the digest of its bytes, as ``POST /check``'s
cache uses).  The answer comes as soon as the log is read — with the set-up on the board — while the replay runs
in a background thread; ``GET /replays/<id>`` waits for it and gives every ruling with its words (the lines of
``referee check --format text``, referee/report.py), the events and where each one happened.  Every step is
then ``GET /replays/<id>/board?step=N``: the counters' placements from a snapshot of the engine (at most 31
engine steps away, referee/service/replays.py), drawn by the page on a map it fetched once per scenario.

Why the replay runs here and not through ``replays.replay_log``: the words need the ruling objects (a shock's
attackers, defenders and the natural rolls per result are not in the JSON), so this loop keeps them long
enough to word them.

The replay runs in the service's bounded checking workers, as ``POST /check`` does (referee/service/heavy.py
``page_replay``: the worker rules and words every event; this process gets the rulings, their lines and the
engine's snapshots back, unpickled piecewise): under the pool's admission (503 ``busy`` + ``Retry-After`` before
the body is read, when as many logs are being checked as the service allows; the place is held until the
replay is done), its time budget (503 ``over_budget``), memory limit and CPU priority, so a page replay cannot
take the CPU the hosted games' requests want.  The answer to ``POST /replays`` does not wait for it; the
requests that read the rulings or a step do, and get its error if it failed (a failed replay is started again
when the log is sent again).

A replay id is known only to the worker process that read the log (caches are per process, docs/service.md);
another worker answers 404 ``replay_not_found`` and the page sends the log again.

"What if" (``POST /replays/<id>/whatif``, ``POST /games/<id>/whatif``) rules on an event against a position
without keeping the result: states are immutable, the ruling is not stored, and the event is ruled with
players' dice, so no referee roll is drawn; a roll the asker leaves out is owed, and the answer gives its
chance (``pass_max``/``p_success``, or the table bands of a shock).  Several events may be asked in turn
(declare an assault, then its commitment) — each on the position the previous one left, all thrown away.
A hosted game's what-if is asked from the caller's seat, at any position, on the state as that side may know
it there (the section "hosted games" below).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, TypeVar

from flask import Blueprint, Response, current_app, jsonify, request

from referee.engine import actors, hidden
from referee.engine.replay import Game, new_game, step
from referee.logs import Log
from referee.logs.jsonlog import check_events
from referee.logs.problems import InputError
from referee.report import Words, event_summary, ruling_from_dict, ruling_lines, words_for
from referee.service.hosting import hidden_acts
from referee.service import board, heavy, scenarios
from referee.service.errors import ApiError
from referee.service.extension import ext
from referee.service.request_parts import json_body, request_token
from referee.service.luck import luck
from referee.service.replays import EVERY, Replayed, ReplayView, build, replay_log
from referee.service.logs import Upload, upload_from

bp = Blueprint("replay_view", __name__)

VIEW_CACHE_SIZE = 8          # replays (with their words) a worker keeps for the page
MAX_ACTIONS = 5000           # a bound on the answer's size, above any unit's acts (a cavalry unit has hundreds)
MAX_PROBE_EVENTS = 50        # events one what-if may play in turn


def unit_table(scenario: Any) -> dict[str, dict[str, Any]]:
    """Printed name, side and kind of every unit and leader, for the page's search and labels."""
    out: dict[str, dict[str, Any]] = {}
    for u in scenario.counters.units:
        out[u.id] = {"name": u.name, "side": u.side, "kind": getattr(u, "kind", None)}
    for ldr in scenario.counters.leaders:
        out[ldr.id] = {"name": ldr.name, "side": ldr.side, "kind": "leader"}
    return out


class Views:
    """Per application: logs read and their replays, built in the background, an LRU of ``VIEW_CACHE_SIZE``."""

    def __init__(self, size: int = VIEW_CACHE_SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, Future[ReplayView]] = OrderedDict()
        self._logs: dict[str, Log] = {}
        self._art_jobs: dict[str, heavy.Job] = {}    # how the workers draw each log's map again, if it was dropped
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="replay")

    def start(self, key: str, upload: Upload, log: Log, pool: heavy.HeavyPool) -> None:
        """Replay ``log`` (read from ``upload``) in ``pool``'s workers, waited for in the background; the place
        ``pool.admit()`` took is given back when it is done."""
        with self._lock:
            running = self._items.get(key)
            if running is not None and not (running.done() and running.exception() is not None):
                pool.release()
                return
            self._logs[key] = log
            art_job = self._art_jobs[key] = heavy.Job("art", upload.data, upload.filename, upload.module,
                                                      more=upload.more)

            def work() -> ReplayView:
                try:
                    # The first picture waits for the art, not for the replay; a map sent in is drawn in the
                    # workers, under their budget (a tiny log can name a huge map: docs/service.md, Security).
                    heavy.pictures(pool, log.scenario, art_job, admit=False)
                    r = heavy.page_replay(pool, upload, log)
                    return ReplayView(r.replayed, r.lines, words_for(log.scenario, log.ruleset))
                finally:
                    pool.release()
            self._items[key] = self._pool.submit(work)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                old, _ = self._items.popitem(last=False)
                self._logs.pop(old, None)
                self._art_jobs.pop(old, None)

    def log(self, key: str) -> Log:
        with self._lock:
            log = self._logs.get(key)
        if log is None:
            raise _not_found(key)
        return log

    def pictures(self, key: str) -> Any:
        """The scenario of replay ``key``, with its map and counter sheet in this process (heavy.pictures)."""
        log = self.log(key)
        with self._lock:
            job = self._art_jobs.get(key)
        heavy.pictures(heavy.pool_for(current_app.config), log.scenario, job)
        return log.scenario

    def get(self, key: str) -> ReplayView:
        with self._lock:
            fut = self._items.get(key)
        if fut is None:
            raise _not_found(key)
        return fut.result()


def _not_found(key: str) -> ApiError:
    return ApiError(404, "replay_not_found",
                    f"no replay '{key[:16]}…' on this server (it keeps the last {VIEW_CACHE_SIZE} per process): "
                    "upload the log again")


_views_lock = threading.Lock()
T_ = TypeVar("T_")


def _per_app(key: str, make: Callable[[], T_]) -> T_:
    """The application's one ``key`` object, made on first use (two threads asking at once get the same one)."""
    found = current_app.extensions.get(key)
    if found is None:
        with _views_lock:
            found = current_app.extensions.setdefault(key, make())
    return found


def views() -> Views:
    """This application's replays (made on first use)."""
    return _per_app("referee.replay_view", Views)


# ------------------------------------------------------------------ uploaded logs

@bp.post("/replays")
def create() -> tuple[Response, int]:
    pool = heavy.pool_for(current_app.config)
    pool.admit()                               # 503 busy before the body is read, as POST /check
    try:
        # Read and checked in the checking workers: seconds of CPU for the largest log allowed, which this
        # route, like POST /check, may be asked for by anyone without a token (heavy.read_for_page).
        upload = upload_from(request)
        log = heavy.read_for_page(pool, upload)
    except BaseException:
        pool.release()
        raise
    key = upload.digest
    views().start(key, upload, log, pool)
    initial = new_game(log.ruleset, log.scenario)
    turn, phase = log.ruleset.progress(initial.state)
    units = log.ruleset.view(initial.state, None).get("units", [])
    return jsonify({"id": key, "steps": len(log.events), "ruleset": log.ruleset.id,
                    "scenario": getattr(log.scenario, "name", ""), "sides": [s.name for s in log.scenario.sides],
                    "units": unit_table(log.scenario), "warnings": list(log.warnings),
                    "board": {"step": 0, "place": {"turn": turn, "phase": phase},
                              "units": board.placements(log.scenario, units)}}), 201


@bp.get("/replays/<key>")
def rulings(key: str) -> Response:
    v = views().get(key)
    r = v.replayed
    return jsonify({"id": key, "steps": r.steps, "rulings": r.rulings, "events": r.log.events,
                    "places": [{"turn": v.words.text(t), "phase": v.words.text(p)} for t, p in r.places],
                    "lines": v.lines})


@bp.get("/replays/<key>/art")
def art(key: str) -> Response:
    scenario = views().log(key).scenario
    return jsonify({"geometry": board.geometry(scenario), "sheet": board.sheet_index(scenario)})


def _png(data: bytes) -> Response:
    resp = Response(data, mimetype="image/png")
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp


@bp.get("/replays/<key>/map.png")
def map_png(key: str) -> Response:
    return _png(board.map_png(views().pictures(key)))


@bp.get("/replays/<key>/counters.png")
def counters_png(key: str) -> Response:
    return _png(board.sheet_png(views().pictures(key)))


def _step_arg(steps: int) -> int:
    raw = request.args.get("step", "0")
    if not raw.isdigit() or int(raw) > steps:
        raise ApiError(400, "bad_step", f"step: expected a number of events from 0 (the set-up) to {steps}, "
                                        f"not {raw!r}")
    return int(raw)


def _involved(event: Mapping[str, Any]) -> list[str]:
    """The units an event names (its actor, its list, the attackers of its assaults)."""
    out = [event["unit"]] if isinstance(event.get("unit"), str) else []
    out += [u for u in event.get("units") or () if isinstance(u, str)]
    for a in event.get("assaults") or ():
        out += [u for u in a.get("attackers", ()) or () if isinstance(u, str)]
    return out


@bp.get("/replays/<key>/board")
def board_at(key: str) -> Response:
    """The counters after ``step`` events, and where the units of the event just played (those it names and
    those its ruling moved: retreats, advances) stood before it."""
    v = views().get(key)
    r = v.replayed
    n = _step_arg(r.steps)
    before: dict[str, Any] = {}
    if n > 0:
        previous = r.game_at(n - 1)
        named = set(_involved(r.log.events[n - 1]))
        named |= {x["unit"] for x in r.rulings[n - 1]["results"] if isinstance(x.get("unit"), str)}   # retreats
        before = {u["id"]: u.get("hex") for u in previous.ruleset.view(previous.state, None).get("units", [])
                  if u["id"] in named}
        _, game, _ = step(previous, n - 1, r.log.events[n - 1])
    else:
        game = r.game_at(0)
    units = game.ruleset.view(game.state, None).get("units", [])
    turn, phase = game.ruleset.progress(game.state)
    return jsonify({"step": n, "place": {"turn": v.words.text(turn), "phase": v.words.text(phase)},
                    "units": board.placements(r.log.scenario, units), "before": before})


@bp.get("/replays/<key>/luck")
def luck_report(key: str) -> Response:
    v = views().get(key)
    r = v.replayed
    sides = {uid: u["side"] for uid, u in unit_table(r.log.scenario).items()}
    return jsonify(luck(r.rulings, r.log.events, r.places, sides))


# ------------------------------------------------------------------ what if

def _probe_events(game: Game[Any], scenario: Any, body: Any) -> list[dict[str, Any]]:
    """The event (``{"event": …}``) or events (``{"events": [...]}``, played one after the other) to ask about,
    checked as a log's events are (bad ones are a 422 naming the field, not a ruling)."""
    if not isinstance(body, Mapping):
        raise InputError(["body: expected an object with 'event' (or 'events'), and for a log 'step'"])
    events = body.get("events") if "events" in body else [body.get("event")]
    if not isinstance(events, list) or not events or len(events) > MAX_PROBE_EVENTS:
        raise InputError([f"events: expected a list of 1 to {MAX_PROBE_EVENTS} events"])
    if not all(isinstance(e, Mapping) for e in events):
        raise InputError(["event: expected an object (an event of the log format, DESIGN §5)"])
    problems = check_events(game.ruleset, scenario, list(events))
    if problems:
        where = "event" if "events" not in body else "events"
        raise InputError([p.replace("events[0]", "event", 1) if where == "event" else p for p in problems])
    return [dict(e) for e in events]


def what_if(game: Game[Any], index: int, events: list[dict[str, Any]], words: Words) -> list[dict[str, Any]]:
    """The rulings ``events`` would get from this position, played in turn on a copy: nothing is kept.  The
    copy rolls with players' dice, so a roll the asker leaves out is owed (its odds are in the ruling) and no
    referee roll is ever drawn."""
    probe = replace(game, dice="players", seed=None)
    out = []
    for k, event in enumerate(events):
        ruling, probe, _ = step(probe, index + k, event)
        out.append({"ruling": ruling.to_dict(), "lines": ruling_lines(ruling, event, words)})
    return out


def _answer(step_: int, answers: list[dict[str, Any]], many: bool) -> Response:
    return jsonify({"step": step_, "answers": answers} if many else {"step": step_, **answers[0]})


def unit_actions(game: Game[Any], unit: str, words: Words, side: str | None = None) -> dict[str, Any]:
    """Every legal event of ``unit`` now (moves as their paths), and the hexes its moves reach: the ruleset's
    ``unit_actions`` hook where it has one (``legal_actions`` may be bounded for random play), else the legal
    actions naming the unit."""
    hook = getattr(game.ruleset, "unit_actions", None)
    everything = hook(game.state, unit) if callable(hook) else [
        a for a in game.ruleset.legal_actions(game.state) if unit in _involved(a)]
    actions = [a for a in everything if side is None or a.get("side") in (None, side)]
    reach = sorted({a["path"][-1] for a in actions if a.get("type") == "move" and a.get("path")})
    return {"unit": unit, "count": len(actions), "reach": reach,
            "actions": [{"event": a, "summary": f"{a.get('type')} {event_summary(a, words)}"}
                        for a in actions[:MAX_ACTIONS]]}


@bp.post("/replays/<key>/whatif")
def replay_what_if(key: str) -> Response:
    v = views().get(key)
    r = v.replayed
    body = json_body()
    raw = body.get("step", r.steps) if isinstance(body, Mapping) else r.steps
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= r.steps:
        raise ApiError(400, "bad_step", f"step: expected a number of events from 0 to {r.steps}, not {raw!r}")
    game = r.game_at(raw)
    events = _probe_events(game, r.log.scenario, body)
    return _answer(raw, what_if(game, raw, events, v.words), "events" in body)


@bp.get("/replays/<key>/actions")
def replay_actions(key: str) -> Response:
    v = views().get(key)
    r = v.replayed
    n = _step_arg(r.steps)
    unit = request.args.get("unit", "")
    if unit not in unit_table(r.log.scenario):
        raise ApiError(400, "bad_unit", f"unit: no unit {unit!r} in the scenario")
    return jsonify({"step": n, **unit_actions(r.game_at(n), unit, v.words)})


# ------------------------------------------------------------------ hosted games (the caller's side only)
#
# A hosted game is looked at from one side's seat: the token names the side (never a field), the board is that
# side's view (the ruleset's ``view``, as GET /games/<id> gives it), and a what-if is judged on the state *as
# that side may know it* at the position asked — the ruleset's ``conceal`` hook seals the other side's secrets
# (T&G 5.23: orders face down until the group's first activation), so the answer is either computed without
# them or refused, and nothing in it can depend on them (referee.engine.hidden).  Each event of a what-if is
# ruled as the caller's act (referee.engine.actors, as a submission is: another side's act, or paying another
# side's owed roll, is illegal), with players' dice and no seed (no referee roll is drawn or consumed), on a
# copy that is thrown away.  A position is the game after ``step`` stored events (0 to the number stored): the
# events after it are never read, so neither is the future.

HISTORY_SIZE = 8             # hosted games whose states every EVERY events a process keeps


class History:
    """Per application: the engine state of hosted games every ``EVERY`` stored events, built as far as asked
    (stored events never change: a game only grows), and the stored events themselves, an LRU of games."""

    def __init__(self, size: int = HISTORY_SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, tuple[list[Game[Any]], list[Any]]] = OrderedDict()

    def game_at(self, stored: Any, n: int) -> Game[Any]:
        """The engine's game after the first ``n`` stored events (``n`` ≤ the count stored)."""
        host = ext().host
        with self._lock:
            hit = self._items.get(stored.id)
            if hit is not None:
                self._items.move_to_end(stored.id)
        if hit is None:
            # The game as created, with its referee seed (so the stored rulings' rolls come out again).
            hit = ([host.as_created(stored).game], [])
        snapshots, events = hit
        if len(events) < n:
            events = events + ext().storage.list_events(stored.id, since=len(events))
        k = min(n // EVERY, len(snapshots) - 1)
        game = snapshots[k]
        for e in events[k * EVERY:n]:
            _, game, _ = actors.step(game, e.index, e.event, e.side)
            if (e.index + 1) % EVERY == 0 and (e.index + 1) // EVERY == len(snapshots):
                snapshots = snapshots + [game]
        with self._lock:
            self._items[stored.id] = (snapshots, events)
            self._items.move_to_end(stored.id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return game


def history() -> History:
    """This application's positions of hosted games (made on first use)."""
    return _per_app("referee.hosted_history", History)


@dataclass(frozen=True)
class Seat:
    """A hosted game at one position, from the caller's side."""
    stored: Any                  # the game as stored now (its count, its status)
    side: str
    step: int                    # the position: after this many stored events
    game: Game[Any]              # the true engine game there (for the caller's view only)
    scenario: Any
    words: Words

    def known(self) -> Game[Any]:
        """The game as ``side`` may know it at ``step``: the other sides' secrets sealed, players' dice, no
        seed.  409 when the ruleset cannot say what is hidden (no ``conceal`` hook)."""
        conceal = hidden.hook(self.game.ruleset)
        if conceal is None:
            raise ApiError(409, "no_conceal_hook",
                           f"ruleset '{self.game.ruleset.id}' does not say what a side may not know (no conceal "
                           "hook), so its hosted games answer no what-if: upload the game's log instead")
        return replace(self.game, state=conceal(self.game.state, self.side), dice="players", seed=None)


def _seat(step_: Any = None) -> Seat:
    """The caller's seat (side from the token) at ``step_`` (None: the position now)."""
    game_id = request.view_args["game_id"]  # type: ignore[index]
    _, side = ext().host.caller(game_id, request_token())
    stored = ext().storage.get_game(game_id)
    scenario, ruleset = ext().host.setup(stored)
    count = stored.event_count
    n = count if step_ is None else step_
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= count:
        raise ApiError(400, "bad_step", f"step: expected a number of events from 0 (the set-up) to {count} "
                                        f"(the events stored), not {step_!r}")
    game = ext().host.current(stored).game if n == count else history().game_at(stored, n)
    return Seat(stored, side, n, game, scenario, words_for(scenario, ruleset))


def _query_step() -> Any:
    """``?step=N`` as a number (None when absent; anything else is refused by ``_seat``)."""
    raw = request.args.get("step")
    return int(raw) if raw is not None and raw.isdigit() else raw


def _caller_owns(event: Mapping[str, Any], side: str, scenario: Any) -> None:
    """A side asks only about its own acts (a clear 403 before ruling; the engine's actor check follows)."""
    if event.get("side") not in (None, side):
        raise ApiError(403, "wrong_side", f"you play {side}: ask what-ifs about your own side's events")
    table = unit_table(scenario)
    foreign = [u for u in _involved(event) if table.get(u, {}).get("side") not in (None, side)]
    if foreign:
        raise ApiError(403, "wrong_side", f"{', '.join(table[u]['name'] for u in foreign)}: not a {side} unit")


def _hidden(exc: hidden.HiddenInformation, seat: Seat) -> ApiError:
    return ApiError(409, "hidden_information",
                    f"the rules would need {exc.what} to answer this, which {seat.side} does not know after "
                    f"{seat.step} events: a what-if is judged only with what your side knows")


def seat_what_if(seat: Seat, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``what_if`` from the caller's seat: on the game as it may know it, each event as its act."""
    probe = seat.known()
    out = []
    try:
        for k, event in enumerate(events):
            ruling, probe, _ = actors.step(probe, seat.step + k, event, seat.side)
            out.append({"ruling": ruling.to_dict(), "lines": ruling_lines(ruling, event, seat.words)})
    except hidden.HiddenInformation as exc:
        raise _hidden(exc, seat) from None
    return out


@bp.post("/games/<game_id>/whatif")
def game_what_if(game_id: str) -> Response:
    body = json_body()
    seat = _seat(body.get("step") if isinstance(body, Mapping) else None)
    events = _probe_events(seat.game, seat.scenario, body)
    for event in events:
        _caller_owns(event, seat.side, seat.scenario)
    return _answer(seat.step, seat_what_if(seat, events), "events" in body)


@bp.get("/games/<game_id>/actions")
def game_actions(game_id: str) -> Response:
    seat = _seat(_query_step())
    unit = request.args.get("unit", "")
    if unit_table(seat.scenario).get(unit, {}).get("side") != seat.side:
        raise ApiError(400, "bad_unit", f"unit: no {seat.side} unit {unit!r} in the scenario")
    try:
        return jsonify({"step": seat.step, **unit_actions(seat.known(), unit, seat.words, seat.side)})
    except hidden.HiddenInformation as exc:
        raise _hidden(exc, seat) from None


@bp.get("/games/<game_id>/board")
def game_board(game_id: str) -> Response:
    """The caller's view of the board after ``step`` events, as placements.  Without ``step`` (the page's first
    call): the position now, with the map's geometry, the counter sheet's index (the pictures:
    ``/games/<id>/map.png`` and ``counters.png``), the units' names and the stored events' lines."""
    asked = _query_step()
    seat = _seat(asked)
    game, scenario, words, side = seat.game, seat.scenario, seat.words, seat.side
    units = game.ruleset.view(game.state, side).get("units", [])
    turn, phase = game.ruleset.progress(game.state)
    out = {"step": seat.step, "steps": seat.stored.event_count,
           "place": {"turn": words.text(turn), "phase": words.text(phase)},
           "units": board.placements(scenario, units)}
    if asked is not None:
        return jsonify(out)            # a step of the page: the art and the words came with the first call
    # Every event in words, as GET /games/<id> gives them: another side's act the rules keep secret while the
    # game goes on (T&G 5.23 orders, M&P 6.3.3) as its type, verdict and the rule that hides it.
    lines = []
    secret = hidden_acts(game.ruleset, ext().host.current(seat.stored).game.state,
                         ended=seat.stored.status == "ended")
    for e in ext().storage.list_events(game_id):
        if e.index >= seat.stored.event_count:
            break
        rule = None if e.side == side else secret(e.event)
        if rule is None:
            lines.append(ruling_lines(ruling_from_dict(e.ruling), e.event, words))
        else:
            lines.append([f"[{e.index}] {e.event.get('type')} ({e.side}): {e.ruling.get('verdict')} "
                          f"(the rest is {e.side}'s secret, {rule})"])
    return jsonify({**out, "geometry": board.geometry(scenario), "sheet": board.sheet_index(scenario),
                    "names": unit_table(scenario), "lines": lines})


def _scenario_of_caller() -> Any:
    """The caller's game's scenario, with its map and counter sheet in this process (drawn in the workers when
    the game's scenario was sent in: heavy.pictures)."""
    game_id = request.view_args["game_id"]  # type: ignore[index]
    stored, _ = ext().host.caller(game_id, request_token())
    return game_pictures(stored)


def game_pictures(stored: Any) -> Any:
    scenario = ext().host.setup(stored)[0]
    inline = not isinstance(stored.scenario, str)
    heavy.pictures(heavy.pool_for(current_app.config), scenario, heavy.scenario_job(stored.scenario) if inline else None)
    return scenario


@bp.get("/games/<game_id>/map.png")
def game_map(game_id: str) -> Response:
    return _png(board.map_png(_scenario_of_caller()))


@bp.get("/games/<game_id>/counters.png")
def game_counters(game_id: str) -> Response:
    return _png(board.sheet_png(_scenario_of_caller()))

