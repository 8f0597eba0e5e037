"""The heavy, unauthenticated routes (``POST /check``, ``/replay``, ``/replay/board.png``) under a concurrency
limit and a time budget, in worker processes of their own (docs/service.md, Security).

Ruling a whole uploaded log is seconds of CPU that anyone may ask for without a token.  Run in the threads
of the server's process, two such requests took the GIL from the hosted games (their submissions nearly stopped:
docs/service.md, Security).  So they run here:

* in **separate processes** (``REFEREE_CHECK_WORKERS``, default 1), fresh interpreters (never a ``fork`` of a
  threaded server) at the **lowest CPU priority** (``REFEREE_CHECK_PRIORITY``, default ``idle``: Linux's
  ``SCHED_IDLE``, which runs a process only on CPU that nothing else wants, falling back to ``nice`` 19
  elsewhere; or a nice value 0–19), so the server's own process keeps the CPU it needs for submissions: the
  operating system, not the GIL, shares the cores; and on **CPUs of their own** (``REFEREE_CHECK_CPUS``,
  cpus.py: at ``SCHED_IDLE`` alone, the server's threads still woke on the core a check had just filled
  with its log).  (At ``nice`` +10 a checking worker still had about a
  tenth of a contended core — CFS's weights, 110 against 1,024 — and was preempted less promptly.)
  On a machine with no idle CPU a check then waits, and past its budget it is 503 ``over_budget``: the
  hosted games come first;
* **admitted or refused at once**: at most ``workers + REFEREE_CHECK_QUEUE`` (default 1) such requests are
  in the service at a time; one more is answered 503 ``busy`` with ``Retry-After`` before its body is read,
  so waiting requests never hold more than a few of the server's threads;
* within a **time budget** (``REFEREE_CHECK_BUDGET``, default 30 seconds of wall time, several times what the sample game takes on a loaded machine): a worker still busy then is
  killed and the request answered 503 ``over_budget`` (``referee check`` on one's own machine has no
  budget); and a **memory limit** (``REFEREE_CHECK_MEMORY``, default 2 GiB address space per worker): a log
  whose replay needs more is 413.

Each worker keeps its own cache of replayed logs (the page asks for board pictures of the log it has just
checked; with one worker, every picture comes from the same cache).

**The page's replay** (``POST /replays``, referee/service/replay_view.py) runs here too, through
:func:`page_replay`: the worker rules every event and words every ruling (``replays.build``), and sends
back what the page's later requests read in the server's process — the rulings, their lines, the places, the
final state, and the snapshots of the engine every 32 events.  Sending those costs little of the server's
CPU if it is done with care (the figures for the sample game: docs/service.md, Performance):

* the rulings and lines travel in pickles of ``CHUNK`` items, unpickled one after the other, so that no single
  call holds the server's GIL for long (as one pickle of the sample's rulings would);
* the snapshots share most of their objects (states are persistent), so the first snapshot (the set-up) is
  pickled once and every later one refers to the set-up's objects by ``persistent_id`` and carries only what
  changed (a twentieth of the bytes of snapshots pickled one by one); the server unpickles a snapshot when a
  step needs it, not before.

Before the replay, the page's route answers the set-up at once, so it reads the log first: :func:`read_for_page`
does the reading and checking here too and hands back the same ``Log``.
"""
from __future__ import annotations

import atexit
import copyreg
import hashlib
import io
import json
import os
import pickle
import queue
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Iterator, Mapping

if TYPE_CHECKING:
    from referee.engine.replay import Game
    from referee.service.logs import Upload
    from referee.service.replays import Replayed

from referee.engine import registry
from referee.logs import Log
from referee.logs.jsonlog import check_events, parse_text
from referee.service import cpus
from referee.service.buffers import receive_buffer
from referee.service.errors import ApiError, describe

DEFAULT_WORKERS = 1
DEFAULT_QUEUE = 1
DEFAULT_BUDGET = 30.0
DEFAULT_MEMORY = 2 * 1024 ** 3
DEFAULT_PRIORITY = "idle"
RETRY_AFTER = "2"
START_TIMEOUT = 120.0
CHUNK = 256                       # rulings (or lines) per pickle sent back by a page replay
EVENT_CHUNK = 2048                # events per orjson chunk of a log read for the page (a short hold of the GIL each)


def _proxy(items: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(items)


# Engine states hold read-only views (MappingProxyType), which pickle cannot take as they are.
_TABLE = {**copyreg.dispatch_table, MappingProxyType: lambda m: (_proxy, (dict(m),))}


def _dumps(obj: Any, known: Mapping[int, Any] | None = None) -> tuple[bytes, Any]:
    """``obj`` pickled; objects of ``known`` (a pickler's memo: ``id`` → (index, object)) as references to
    that index.  Returns the bytes and this pickler's memo."""
    out = io.BytesIO()
    p = pickle.Pickler(out, protocol=5)
    p.dispatch_table = _TABLE                                       # type: ignore[assignment]
    if known is not None:
        def reference(o: Any) -> int | None:
            hit = known.get(id(o))
            return None if hit is None else hit[0]
        p.persistent_id = reference                                 # type: ignore[method-assign]
    p.dump(obj)
    return out.getvalue(), p.memo


@dataclass(frozen=True)
class Job:
    kind: str                      # "check" | "replay" | "board" | "page" | "read" | "art" | "scenario"
    data: bytes
    filename: str
    module: bytes | None
    step: int = 0
    content_type: str | None = None    # set: ``data`` is the request's raw body, made an Upload in the worker
    more: tuple[tuple[str, bytes], ...] = ()   # the later turn files of a series (``Upload.more``)


ANSWER_PIECE = 1024 * 1024


def pieces(body: bytes | bytearray) -> Iterator[bytes]:
    """An answer's bytes as a WSGI body in pieces of ``ANSWER_PIECE``: each is one short copy, and the GIL is
    free while the server sends it, where one ``bytes`` copy of a 33 MB answer held it for milliseconds."""
    view = memoryview(body)
    for i in range(0, len(view), ANSWER_PIECE):
        yield bytes(view[i:i + ANSWER_PIECE])


@dataclass(frozen=True)
class Answer:
    status: int
    mimetype: str
    body: bytes | bytearray       # a bytearray as received from the worker (see :func:`pieces`)
    headers: Mapping[str, str]
    value: Any = None              # for the server's process: ``_PageParts``, ``_ReadParts`` (or "vassal")


@dataclass(frozen=True)
class _PageParts:
    """A page replay as the worker sends it back (pickles: see the module's docstring)."""
    rulings: list[bytes]
    lines: list[bytes]
    places: bytes
    state: bytes
    base: bytes                    # snapshot 0 (the set-up), without its ruleset
    snapshots: list[bytes]         # snapshots 1.., referring to the set-up's objects by their memo index


@dataclass(frozen=True)
class _ReadParts:
    """A JSON or YAML log read and checked by the worker: what the server's process needs to make its ``Log``
    (the scenario by its reference, for the process's cache) and the events as orjson chunks."""
    scenario: Any                  # the document's ``scenario``: an id or a resolved scenario document
    dice: str
    seed: str | None
    warnings: list[str]
    events: list[bytes]


def _read_parts(upload: Any, max_yaml: int) -> _ReadParts | None:
    """None for a VASSAL upload (its scenario is found inside the file: the caller reads it itself)."""
    import orjson
    from pathlib import Path
    from referee.service.logs import VASSAL_SUFFIXES, read
    if Path(upload.filename).suffix.lower() in VASSAL_SUFFIXES:
        return None
    log = read(upload, max_yaml)               # every check, every problem as the caller would raise it
    try:
        doc = orjson.loads(upload.data)
    except orjson.JSONDecodeError:
        doc = parse_text(upload.data.decode("utf-8"), upload.filename or "body")
    events = [orjson.dumps(log.events[i:i + EVENT_CHUNK]) for i in range(0, len(log.events), EVENT_CHUNK)]
    return _ReadParts(doc["scenario"], log.dice, log.seed, list(log.warnings), events)


def _page_parts(log: Any) -> _PageParts:
    from referee.service.replays import build
    view = build(log)
    r = view.replayed
    games = [replace(g, ruleset=None) for g in r.snapshots]        # the ruleset is the server's own
    base, memo = _dumps(games[0])
    known = memo.copy()
    chunks = [_dumps(r.rulings[i:i + CHUNK])[0] for i in range(0, len(r.rulings), CHUNK)]
    lines = [_dumps(view.lines[i:i + CHUNK])[0] for i in range(0, len(view.lines), CHUNK)]
    return _PageParts(chunks, lines, _dumps(r.places)[0], _dumps(r.state)[0], base,
                      [_dumps(g, known)[0] for g in games[1:]])


def lower_priority(priority: str = DEFAULT_PRIORITY) -> str:
    """Put this process at ``priority``: ``idle`` (``SCHED_IDLE``, else nice 19) or a nice value "0"–"19".
    Returns what it got, e.g. ``"SCHED_IDLE"`` or ``"nice 19"`` (a process may always lower its own)."""
    nice = 19 if priority == "idle" else int(priority)
    try:
        os.nice(max(0, nice - os.nice(0)))
    except OSError:
        pass
    if priority == "idle" and hasattr(os, "sched_setscheduler"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "SCHED_IDLE"
        except (AttributeError, OSError):
            pass
    return f"nice {os.nice(0)}"


class _Channel:
    """Messages over a socket pair: a small pickled header, then the bulk bytes (a log, an answer's body) raw.

    Why not multiprocessing's ``Connection``: it pickles the bulk bytes into its message (a copy), and reads a
    message with one ``os.read`` per piece, each sized for all that remains (a fresh buffer each time), then
    unpickles it (another copy): receiving the answer for the largest log allowed cost the server's process
    several times the CPU of reading it into one buffer (bench/bench_heavy_io.py).  ``timeout`` bounds every read on
    the server's side, so a worker stalled half-way through an answer cannot hold a request past its budget."""

    _HEAD = struct.Struct("!QQ")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def send(self, obj: Any, blob: bytes | bytearray = b"", timeout: float | None = None) -> None:
        self.sock.settimeout(timeout)
        head = pickle.dumps(obj, protocol=5)
        self.sock.sendall(self._HEAD.pack(len(head), len(blob)) + head)
        if blob:
            self.sock.sendall(blob)

    def poll(self, timeout: float) -> bool:
        return bool(select.select([self.sock], [], [], max(0.0, timeout))[0])

    def recv(self, timeout: float | None = None) -> tuple[Any, Any]:
        self.sock.settimeout(timeout)
        n_head, n_blob = self._HEAD.unpack(self._exactly(self._HEAD.size))
        obj = pickle.loads(self._exactly(n_head))
        return obj, self._exactly(n_blob)

    def _exactly(self, n: int) -> Any:
        buf = receive_buffer(n)
        view, got = memoryview(buf), 0
        while got < n:
            k = self.sock.recv_into(view[got:])
            if not k:
                raise EOFError("the other end closed the channel")
            got += k
        return buf

    def close(self) -> None:
        self.sock.close()


def _serve(conn: _Channel, settings: Mapping[str, Any]) -> None:
    """A worker process: answer jobs until the pipe closes.  Every failure is an answer, never an exit."""
    lower_priority(str(settings.get("priority", DEFAULT_PRIORITY)))     # before the imports: they are CPU too
    cpus.place(frozenset(settings.get("cpus", ())))                       # a CPU of their own (cpus.py)
    memory = int(settings["memory"])
    if memory > 0:
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        except (ImportError, ValueError, OSError):
            pass
    # Loaded before the budget's clock runs: the rulesets, their event validators, the service's modules.
    from referee.service import board, logs, replays  # noqa: F401
    for rid in registry.available():
        check_events(registry.get(rid), None, [])
    cache = replays.ReplayCache(int(settings["cache"]))
    conn.send("ready")
    while True:
        try:
            head, data = conn.recv()
        except (EOFError, OSError):
            return
        answer = _answer(replace(head, data=bytes(data)), cache, int(settings["max_yaml"]))
        conn.send(replace(answer, body=b""), answer.body)


def _answer(job: Job, cache: Any, max_yaml: int) -> Answer:
    from referee.service import board
    from referee.service.encoding import dumps
    from referee.service.logs import Upload, read, upload_of_body
    from referee.service.replays import replay_log
    try:
        if job.filename == SCENARIO_DOCUMENT:             # an inline scenario sent to POST /games, or a game's
            from referee.engine import actors
            from referee.service import scenarios
            scenario = scenarios.resolve(json.loads(job.data))
            if job.kind == "art":
                return Answer(200, "application/x-python-pickle", b"", {},
                              (board.map_png(scenario), board.sheet_png(scenario)))
            ruleset = registry.get(scenario.ruleset)
            return Answer(200, "application/x-python-pickle", b"", {},
                          (ruleset.id, tuple(scenarios.side_names(scenario)), actors.hostable(ruleset)))
        upload = (Upload(job.data, job.filename, job.module, job.more) if job.content_type is None
                  else upload_of_body(job.content_type, job.data))
        if job.kind == "art":
            scenario = read(upload, max_yaml).scenario
            return Answer(200, "application/x-python-pickle", b"", {},
                          (board.map_png(scenario), board.sheet_png(scenario)))
        if job.kind == "read":
            parts = _read_parts(upload, max_yaml)
            return Answer(200, "application/x-python-pickle", b"", {}, parts if parts is not None else "vassal")
        if job.kind == "page":
            return Answer(200, "application/x-python-pickle", b"", {},
                          _page_parts(read(upload, max_yaml)))
        r = cache.get(upload.digest, lambda: replay_log(read(upload, max_yaml)))
        if job.kind == "check":
            return Answer(200, "application/json", r.check_json, {})
        if job.kind == "replay":
            body = {**r.body(), "steps": r.steps, "events": r.log.events,
                    "places": [{"turn": t, "phase": p} for t, p in r.places]}
            return Answer(200, "application/json", dumps(body), {})
        if job.step > r.steps:
            raise ApiError(400, "bad_step", f"step: the log has {r.steps} events, so step is 0–{r.steps}")
        game = r.game_at(job.step)
        units = game.ruleset.view(game.state, None).get("units", [])
        return Answer(200, "image/png", board.png(r.log.scenario, units), {})
    except MemoryError:
        cache.clear()
        exc: Exception = ApiError(413, "payload_too_large", "ruling this log needs more memory than one request "
                                                            "may use; check it with `referee check`")
    except Exception as caught:  # noqa: BLE001 — the parent answers it as JSON
        exc = caught
    status, body, headers = describe(exc)
    return Answer(status, "application/json", dumps(body), headers)


def main() -> None:
    """The worker process's entry: ``python -c 'from referee.service.heavy import main; main()' FD SETTINGS``."""
    _serve(_Channel(socket.socket(fileno=int(sys.argv[1]))), json.loads(sys.argv[2]))


class _Worker:
    """A fresh interpreter (not multiprocessing's spawn, which re-imports the parent's ``__main__``: gunicorn,
    pytest), talking over a socket pair (``_Channel``)."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        mine, theirs = socket.socketpair()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from referee.service.heavy import main; main()", str(theirs.fileno()),
             json.dumps(dict(settings))], pass_fds=(theirs.fileno(),), env=env, stdin=subprocess.DEVNULL)
        theirs.close()
        self.conn = _Channel(mine)
        # Starting an interpreter and importing the referee is not the request's work: wait for it apart.
        if not self.conn.poll(START_TIMEOUT) or self.conn.recv(START_TIMEOUT)[0] != "ready":
            self.kill()
            raise ApiError(503, "busy", "the checking worker did not start; try again",
                           headers={"Retry-After": RETRY_AFTER})

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(5)
        self.conn.close()


class HeavyPool:
    """Worker processes for the heavy routes, with admission (503 when full) and a time budget."""

    def __init__(self, workers: int = DEFAULT_WORKERS, waiting: int = DEFAULT_QUEUE, budget: float = DEFAULT_BUDGET,
                 memory: int = DEFAULT_MEMORY, cache: int = 8, max_yaml: int = 64 * 1024,
                 priority: str = DEFAULT_PRIORITY, cpu_setting: str = cpus.DEFAULT) -> None:
        if priority != "idle" and not (priority.isdigit() and 0 <= int(priority) <= 19):
            raise ValueError(f"REFEREE_CHECK_PRIORITY: 'idle' or a nice value 0-19, not {priority!r}")
        placed = cpus.split(cpu_setting, max(1, workers), cpus.allowed())
        self.workers, self.waiting, self.budget = max(1, workers), max(0, waiting), budget
        self.settings = {"memory": memory, "cache": cache, "max_yaml": max_yaml, "priority": priority,
                         "cpus": sorted(placed[1]) if placed else []}
        self._admitted = threading.BoundedSemaphore(self.workers + self.waiting)
        self._idle: queue.Queue[_Worker | None] = queue.Queue()
        for _ in range(self.workers):
            self._idle.put(None)                 # started on first use, after gunicorn's fork
        self._all: list[_Worker] = []
        self._lock = threading.Lock()

    def admit(self) -> None:
        """Take a place, or 503 at once (before the body is read)."""
        if not self._admitted.acquire(blocking=False):
            raise ApiError(503, "busy", "the service is checking as many logs as it may at once; try again "
                                        "shortly, or check the log with `referee check`",
                           headers={"Retry-After": RETRY_AFTER})

    def release(self) -> None:
        self._admitted.release()

    def run(self, job: Job) -> Answer:
        """Run an admitted job.  The caller has called :meth:`admit` and calls :meth:`release` after."""
        try:
            worker = self._idle.get(timeout=self.budget)
        except queue.Empty:
            raise ApiError(503, "busy", "no worker became free in time; try again",
                           headers={"Retry-After": RETRY_AFTER}) from None
        try:
            if worker is None or not worker.alive():
                worker = self._start()
            deadline = time.monotonic() + self.budget
            try:
                worker.conn.send(replace(job, data=b""), job.data, timeout=self.budget)
                if not worker.conn.poll(deadline - time.monotonic()):
                    raise socket.timeout
                head, body = worker.conn.recv(max(0.1, deadline - time.monotonic()))
            except socket.timeout:
                worker.kill()
                worker = None
                raise ApiError(503, "over_budget", f"ruling this log took more than {self.budget:g} s, the budget "
                                                   "of one request here; check it with `referee check`",
                               headers={"Retry-After": RETRY_AFTER}) from None
            answer: Answer = replace(head, body=body)
            return answer
        except (EOFError, OSError, BrokenPipeError):
            if worker is not None:
                worker.kill()
            worker = None
            raise ApiError(503, "busy", "the checking worker stopped; try again",
                           headers={"Retry-After": RETRY_AFTER}) from None
        finally:
            self._idle.put(worker)

    def _start(self) -> _Worker:
        w = _Worker(self.settings)
        with self._lock:
            self._all = [x for x in self._all if x.alive()] + [w]
        return w

    def close(self) -> None:
        with self._lock:
            for w in self._all:
                if w.alive():
                    w.kill()
            self._all = []


class _Snapshots:
    """The page replay's snapshots as ``Replayed.snapshots`` reads them (``[k]`` = the game after k * 32 events),
    each unpickled when first asked for, against the set-up's objects."""

    def __init__(self, ruleset: Any, parts: _PageParts) -> None:
        self._ruleset = ruleset
        u = pickle.Unpickler(io.BytesIO(parts.base))
        self._base: Game[Any] = replace(u.load(), ruleset=ruleset)
        self._objects = u.memo.copy()          # memo index -> object: what the later snapshots refer to
        self._pickled = parts.snapshots
        self._games: dict[int, Game[Any]] = {}

    def __len__(self) -> int:
        return 1 + len(self._pickled)

    def __getitem__(self, k: int) -> Game[Any]:
        if k == 0 or k == -len(self):
            return self._base
        k = k % len(self)
        game = self._games.get(k)
        if game is None:
            u = pickle.Unpickler(io.BytesIO(self._pickled[k - 1]))
            u.persistent_load = self._objects.__getitem__        # type: ignore[method-assign]
            game = self._games[k] = replace(u.load(), ruleset=self._ruleset)
        return game


@dataclass
class PageReplay:
    """A log replayed for the page in a checking worker: the ``Replayed`` the page's routes read (its
    snapshots unpickled as steps need them) and the words of every ruling (``report.ruling_lines``)."""
    replayed: Replayed
    lines: list[list[str]] = field(default_factory=list)


def page_replay(pool: HeavyPool, upload: Upload, log: Log) -> PageReplay:
    """Replay ``upload`` (already read as ``log`` by the caller) for the page, in ``pool``'s worker processes,
    within its time budget and memory limit; the same ``Replayed`` and lines as ``replays.build(log)``.

    Admission is the caller's, as for the heavy routes: ``pool.admit()`` (503 ``busy`` + ``Retry-After`` when
    full, before the body is read), then this, then ``pool.release()``.  Raises the ``ApiError`` the
    replay ended in: 503 ``over_budget`` or ``busy``, 413 past the memory limit, 422 for a log that cannot be
    ruled on."""
    from referee.service.replays import Replayed
    answer = pool.run(Job("page", upload.data, upload.filename, upload.module, more=upload.more))
    parts = answer.value
    if not isinstance(parts, _PageParts):
        raise _error_of(answer)
    rulings: list[dict[str, Any]] = []
    for chunk in parts.rulings:             # one chunk per call: the GIL is free between them
        rulings += pickle.loads(chunk)
    lines: list[list[str]] = []
    for chunk in parts.lines:
        lines += pickle.loads(chunk)
    snapshots: Any = _Snapshots(log.ruleset, parts)
    return PageReplay(Replayed(log, rulings, pickle.loads(parts.state), pickle.loads(parts.places), snapshots),
                      lines)


def read_for_page(pool: HeavyPool, upload: Upload) -> Log:
    """``logs.read(upload)`` with the reading and checking done in ``pool``'s workers: the same ``Log`` (the
    same scenario object, from this process's cache), or the same error.  For ``POST /replays``, whose answer
    gives the set-up at once: checking the largest log is seconds of CPU (its events' schema and references), which
    the server's process spent there; now it decodes the checked events in chunks of ``EVENT_CHUNK`` (the GIL
    is free between them).  A VASSAL upload (its scenario is found inside the file) is still read here.
    Admission is the caller's, as for :func:`page_replay`."""
    import orjson
    from referee.service import scenarios
    from referee.service.logs import read
    answer = pool.run(Job("read", upload.data, upload.filename, upload.module, more=upload.more))
    parts = answer.value
    if parts == "vassal":
        return read(upload, int(pool.settings["max_yaml"]))
    if not isinstance(parts, _ReadParts):
        raise _error_of(answer)
    scenario = scenarios.resolve(parts.scenario)
    events: list[dict[str, Any]] = []
    for chunk in parts.events:
        events += orjson.loads(chunk)
    return Log(scenario=scenario, ruleset=registry.get(scenario.ruleset), dice=parts.dice, seed=parts.seed,
               events=events, warnings=parts.warnings)


SCENARIO_DOCUMENT = "<scenario>"       # a Job's filename when its data is a scenario document (JSON)


_setups: dict[str, tuple[str, tuple[str, ...], bool]] = {}
_setup_gates: dict[str, threading.Lock] = {}
_setups_lock = threading.Lock()
SETUP_CACHE_SIZE = 256


def inline_setup(pool: HeavyPool, document: Any) -> tuple[str, tuple[str, ...], bool]:
    """(ruleset id, sides, whether the ruleset can host) of an inline scenario sent to ``POST /games``, resolved
    in ``pool``'s workers (a huge one is seconds of CPU: docs/service.md), admitted as the heavy routes are.
    A document resolved before is answered from this process's memory (keyed by its SHA-256): players who
    host their own scenario send the same one again; requests with one new document at once wait for the
    first."""
    data = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str).encode()
    key = hashlib.sha256(data).hexdigest()
    with _setups_lock:
        hit = _setups.get(key)
        gate = _setup_gates.setdefault(key, threading.Lock()) if hit is None else None
    if hit is not None:
        return hit
    assert gate is not None
    with gate:
        with _setups_lock:
            hit = _setups.get(key)
        if hit is not None:
            return hit
        try:
            answer = _admitted(pool, Job("scenario", data, SCENARIO_DOCUMENT, None))
        finally:
            with _setups_lock:
                _setup_gates.pop(key, None)
        if not isinstance(answer.value, tuple):
            raise _error_of(answer)
        ruleset_id, sides, hostable = answer.value
        hit = str(ruleset_id), tuple(sides), bool(hostable)
        with _setups_lock:
            _setups[key] = hit
            while len(_setups) > SETUP_CACHE_SIZE:
                _setups.pop(next(iter(_setups)))
        return hit


def pictures(pool: HeavyPool, scenario: Any, source: Job | None, admit: bool = True) -> None:
    """Make sure this process holds the map and the counter sheet of ``scenario`` as PNG: the server's own
    scenarios are drawn here (once, from the disk cache: web.warm_once), any other in ``pool``'s workers, under
    their budget, from ``source`` (the upload it came in, or the scenario document).  ``admit``: take a place in
    the pool first (False when the caller holds one)."""
    from referee.service import board, scenarios
    if board.has_pictures(scenario):
        return
    board.check_budget(scenario)
    if source is None or scenarios.bundled(scenario):
        board.warm(scenario)
        return
    with _picture_gates_lock:
        gate = _picture_gates.setdefault(id(scenario), threading.Lock())
    try:
        with gate:                        # the page asks for the map and the sheet at once: one drawing serves both
            if board.has_pictures(scenario):
                return
            answer = _admitted(pool, source) if admit else pool.run(source)
            if not isinstance(answer.value, tuple):
                raise _error_of(answer)
            board.install(scenario, *answer.value)
    finally:
        with _picture_gates_lock:
            if _picture_gates.get(id(scenario)) is gate and not gate.locked():
                _picture_gates.pop(id(scenario), None)


_picture_gates: dict[int, threading.Lock] = {}
_picture_gates_lock = threading.Lock()


def scenario_job(document: Any) -> Job:
    """The job that draws the pictures of a scenario given as a document (a hosted game's inline scenario)."""
    return Job("art", json.dumps(document).encode(), SCENARIO_DOCUMENT, None)


def _admitted(pool: HeavyPool, job: Job) -> Answer:
    pool.admit()
    try:
        return pool.run(job)
    finally:
        pool.release()


def _error_of(answer: Answer) -> ApiError:
    """An error answer of the worker as the ``ApiError`` that gives the same answer again (code, message, the
    other fields such as ``problems``, the headers)."""
    try:
        err = dict(json.loads(bytes(answer.body))["error"])
        code, message = str(err.pop("code")), str(err.pop("message"))
    except (ValueError, KeyError, TypeError):
        code, message, err = "internal_error", "internal error (logged); please report it", {}
    return ApiError(answer.status, code, message, headers=dict(answer.headers), **err)


_pools: dict[tuple[Any, ...], HeavyPool] = {}
_pools_lock = threading.Lock()


def pool_for(config: Mapping[str, Any]) -> HeavyPool:
    """One pool per process and settings (apps made with the same settings share their workers)."""
    key = (int(config["CHECK_WORKERS"]), int(config["CHECK_QUEUE"]), float(config["CHECK_BUDGET"]),
           int(config["CHECK_MEMORY"]), int(config["REPLAY_CACHE_SIZE"]), int(config["MAX_YAML_LENGTH"]),
           str(config.get("CHECK_PRIORITY", DEFAULT_PRIORITY)), str(config.get("CHECK_CPUS", cpus.DEFAULT)),
           os.getpid())
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _pools[key] = HeavyPool(*key[:-1])
        return pool


@atexit.register
def _close_all() -> None:
    for pool in list(_pools.values()):
        pool.close()
