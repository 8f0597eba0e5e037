"""The heavy, unauthenticated routes (``POST /check``, ``/replay``, ``/replay/board.png``) under a concurrency
limit and a time budget, in worker processes of their own (issue 12, point 2).

Ruling a whole uploaded log is seconds of CPU that anyone may ask for without a token.  Run in the threads
of the server's process, two such requests took the GIL from the hosted games (submissions fell from ~1,000/s
to 24/s).  So they run here:

* in **separate processes** (``REFEREE_CHECK_WORKERS``, default 1), fresh interpreters (never a ``fork`` of a
  threaded server) at the **lowest CPU priority** (``REFEREE_CHECK_PRIORITY``, default ``idle``: Linux's
  ``SCHED_IDLE``, which runs a process only on CPU that nothing else wants, falling back to ``nice`` 19
  elsewhere; or a nice value 0–19), so the server's own process keeps the CPU it needs for submissions: the
  operating system, not the GIL, shares the cores.  (At ``nice`` +10 a checking worker still took a tenth of
  a busy core and preempted the server's threads less promptly: measured in docs/service.md, Performance.)
  On a machine with no idle CPU a check then waits, and past its budget it is 503 ``over_budget``: the
  hosted games come first;
* **admitted or refused at once**: at most ``workers + REFEREE_CHECK_QUEUE`` (default 1) such requests are
  in the service at a time; one more is answered 503 ``busy`` with ``Retry-After`` before its body is read,
  so waiting requests never hold more than a few of the server's threads;
* within a **time budget** (``REFEREE_CHECK_BUDGET``, default 30 s of wall time: the sample game takes ~1 s idle, ~5 s at a load average of 20): a worker still busy then is
  killed and the request answered 503 ``over_budget`` (``referee check`` on one's own machine has no
  budget); and a **memory limit** (``REFEREE_CHECK_MEMORY``, default 2 GiB address space per worker): a log
  whose replay needs more is 413.

Each worker keeps its own cache of replayed logs (the page asks for board pictures of the log it has just
checked; with one worker, every picture comes from the same cache).
"""
from __future__ import annotations

import atexit
import json
import os
import queue
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Mapping

from referee.service.errors import ApiError

DEFAULT_WORKERS = 1
DEFAULT_QUEUE = 1
DEFAULT_BUDGET = 30.0
DEFAULT_MEMORY = 2 * 1024 ** 3
DEFAULT_PRIORITY = "idle"
RETRY_AFTER = "2"
START_TIMEOUT = 120.0


@dataclass(frozen=True)
class Job:
    kind: str                      # "check" | "replay" | "board"
    data: bytes
    filename: str
    module: bytes | None
    step: int = 0


@dataclass(frozen=True)
class Answer:
    status: int
    mimetype: str
    body: bytes
    headers: Mapping[str, str]


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


def _serve(conn: Connection, settings: Mapping[str, Any]) -> None:
    """A worker process: answer jobs until the pipe closes.  Every failure is an answer, never an exit."""
    lower_priority(str(settings.get("priority", DEFAULT_PRIORITY)))     # before the imports: they are CPU too
    memory = int(settings["memory"])
    if memory > 0:
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        except (ImportError, ValueError, OSError):
            pass
    # Loaded before the budget's clock runs: the rulesets, their event validators, the service's modules.
    from referee.engine import registry
    from referee.logs.jsonlog import check_events
    from referee.service import board, logs, replays  # noqa: F401
    for rid in registry.available():
        check_events(registry.get(rid), None, [])
    cache = replays.ReplayCache(int(settings["cache"]))
    conn.send("ready")
    while True:
        try:
            job: Job = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_answer(job, cache, int(settings["max_yaml"])))


def _answer(job: Job, cache: Any, max_yaml: int) -> Answer:
    from referee.service import board
    from referee.service.encoding import dumps
    from referee.service.errors import describe
    from referee.service.logs import Upload, read
    from referee.service.replays import replay_log
    try:
        upload = Upload(job.data, job.filename, job.module)
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
    conn = Connection(int(sys.argv[1]))
    _serve(conn, json.loads(sys.argv[2]))


class _Worker:
    """A fresh interpreter (not multiprocessing's spawn, which re-imports the parent's ``__main__``: gunicorn,
    pytest), talking over a socket pair with multiprocessing's ``Connection``."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        mine, theirs = socket.socketpair()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from referee.service.heavy import main; main()", str(theirs.fileno()),
             json.dumps(dict(settings))], pass_fds=(theirs.fileno(),), env=env, stdin=subprocess.DEVNULL)
        theirs.close()
        self.conn = Connection(mine.detach())
        # Starting an interpreter and importing the referee is not the request's work: wait for it apart.
        if not self.conn.poll(START_TIMEOUT) or self.conn.recv() != "ready":
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
                 priority: str = DEFAULT_PRIORITY) -> None:
        if priority != "idle" and not (priority.isdigit() and 0 <= int(priority) <= 19):
            raise ValueError(f"REFEREE_CHECK_PRIORITY: 'idle' or a nice value 0-19, not {priority!r}")
        self.workers, self.waiting, self.budget = max(1, workers), max(0, waiting), budget
        self.settings = {"memory": memory, "cache": cache, "max_yaml": max_yaml, "priority": priority}
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
            worker.conn.send(job)
            if not worker.conn.poll(self.budget):
                worker.kill()
                worker = None
                raise ApiError(503, "over_budget", f"ruling this log took more than {self.budget:g} s, the budget "
                                                   "of one request here; check it with `referee check`",
                               headers={"Retry-After": RETRY_AFTER})
            answer: Answer = worker.conn.recv()
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


_pools: dict[tuple[Any, ...], HeavyPool] = {}
_pools_lock = threading.Lock()


def pool_for(config: Mapping[str, Any]) -> HeavyPool:
    """One pool per process and settings (apps made with the same settings share their workers)."""
    key = (int(config["CHECK_WORKERS"]), int(config["CHECK_QUEUE"]), float(config["CHECK_BUDGET"]),
           int(config["CHECK_MEMORY"]), int(config["REPLAY_CACHE_SIZE"]), int(config["MAX_YAML_LENGTH"]),
           str(config.get("CHECK_PRIORITY", DEFAULT_PRIORITY)), os.getpid())
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _pools[key] = HeavyPool(*key[:-1])
        return pool


@atexit.register
def _close_all() -> None:
    for pool in list(_pools.values()):
        pool.close()
