"""Load on the referee service: hosted-game submissions and POST /check, against ``referee serve`` on 127.0.0.1.

    .venv/bin/python bench/bench_service.py [--clients 32] [--seconds 15] [--warmup 1] [--workers 1] [--threads 8]
        [--rate N] [--synchronous full|normal] [--postgres] [--skip-check] [--flood [N]] [--slow N]

Set-up: one SQLite database (WAL; synchronous=NORMAL unless ``--synchronous full``) in a temporary folder, or
the test PostgreSQL server (``--postgres``); ``referee serve`` with ``--workers`` processes (1: waitress, as
the default runs; more: gunicorn's gthread workers) and ``--threads`` threads each.

Load generator: ``--clients`` kept-alive connections driven by ONE thread of this process with ``selectors``,
sending raw HTTP/1.1 requests built once per game, so that the clients cost ~0.1 ms CPU per request on the
two cores they share with the server (the earlier generator, a Python thread per client with http.client,
cost ~0.45 ms).  Each client plays its own hosted game (dice: players) on the small test scenario (8x8 map,
two corps, two turns: tests/service/service_scenario.py), one event per request with its real
expected_index and the submitting side's token; when its game ends it creates a new one.  The events are a
random legal game made beforehand by the engine, with their rolls written in, so every submission is ruled
on for real and stored with its ruling; any answer but 200 is reported as a failure.  Figures: submissions
per second, latency percentiles, CPU per request (server: gunicorn's processes from /proc; and the
generator's): the figure that depends least on the load of this shared machine, and the load average.
Closed loop by default (each client sends its next request when it has the answer: zero think time);
``--rate`` for an open loop at a fixed total rate.

``--flood [N]``: while the submissions run, N processes (default 4) post the largest log the service takes
(16 MiB of JSON: the sample game's events repeated) to ``POST /check`` back to back, each with a new note so no
cache answers it: the checking workers stay saturated (their answers: 503 busy or over_budget), and the
submissions' figures show whether hosted games starve (issue 12: ≥ 500/s and p99 ≤ 50 ms at 32 clients).
The checking workers run at ``REFEREE_CHECK_PRIORITY`` (default ``idle``, SCHED_IDLE; e.g. ``10`` for nice 10)
from this process's environment; run the same command without ``--flood`` in the same minute for the ratio.

Then POST /check of the whole sample game (tests/fixtures/logs/sample-borodino.json): over HTTP on a fresh
one-worker server (the first request, which waits for the worker's scenario warm-up; a log it has not seen,
i.e. the full replay; the same log again, from the worker's replay cache), and in this process by stage (CPU,
best of 3): total, of which the engine's replay, and the rest (reading and validating the log, the service's
own part of the replay, writing the JSON).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service"), str(ROOT / "tests" / "storage")]

from live import Server  # noqa: E402
from service_play import players_events, submitter  # noqa: E402
from service_scenario import SMALL  # noqa: E402

SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"
# The bench's clients are one address: the per-client creation rate and quota (creation.py) would stop them.
os.environ.setdefault("REFEREE_CREATE_PER_MINUTE", "0")
os.environ.setdefault("REFEREE_CREATE_QUOTA", "0")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def server_cpu(server: Server) -> float:
    """CPU seconds (user + system) used so far by the server's processes, from /proc: the figure that
    does not depend on how loaded the shared machine is."""
    assert server.proc is not None
    pids = [str(server.proc.pid)]
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children")
    if children.is_file():
        pids += children.read_text().split()
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])           # utime, stime (clock ticks)
    return total / os.sysconf("SC_CLK_TCK")


class _Client:
    """One simulated client: a kept-alive connection, its current game and the requests made for it."""
    __slots__ = ("sock", "buf", "want", "game", "requests", "i", "limit", "t0", "due", "creating")

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.buf, self.want = sock, b"", -1
        self.game: dict[str, Any] | None = None
        self.requests: list[bytes] = []
        self.i, self.limit, self.t0, self.due, self.creating = 0, 0, 0.0, 0.0, False


def submissions(server: Server, clients: int, seconds: float, rate: float | None = None,
                warmup: float = 1.0) -> dict[str, Any]:
    """``clients`` connections driven by one thread with ``selectors`` (the load generator must cost little CPU:
    it shares the two cores with the server).  Requests are raw HTTP/1.1 bytes built once per game: each
    submission carries its game's id, the submitting side's token and its real ``expected_index``, and must be
    answered 200 (a ruled and stored event) — anything else stops that client and is reported.

    Closed loop (``rate`` None: a client sends its next request as soon as it has the answer), or open loop at
    ``rate`` requests per second in all (each client on its own fixed schedule).  Open-loop latency counts from
    when the request was due, not when it was sent, so a server that falls behind its schedule is charged for
    the wait (no coordinated omission).  Game creations (one per game of ~60 events) are not counted.

    Each client's first game stops after a random number of events, so that the clients' games do not all
    end, and new ones start, at the same moment (in the open loop they would, every game's length).  Figures
    count from ``warmup`` seconds after the start (every client creates its first game at once), and one
    whole game is played before the start, so that the worker has met every event type (the ruleset's
    validators and modules load on first use)."""
    events = players_events(1)
    host = f"127.0.0.1:{server.port}".encode()
    create_body = json.dumps({"scenario": SMALL, "dice": "players"}).encode()
    create = (b"POST /api/v1/games HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
              b"Content-Length: " + str(len(create_body)).encode() + b"\r\n\r\n" + create_body)
    bodies = [json.dumps({"expected_index": i, "events": [e]}).encode() for i, e in enumerate(events)]
    sides = [submitter(e) for e in events]

    def requests_for(game: dict[str, Any]) -> list[bytes]:
        head = (b"POST /api/v1/games/" + game["id"].encode() + b"/events HTTP/1.1\r\nHost: " + host
                + b"\r\nContent-Type: application/json\r\n")
        auth = {side: b"Authorization: Bearer " + token.encode() + b"\r\n" for side, token in game["tokens"].items()}
        return [head + auth[sides[i]] + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
                for i, body in enumerate(bodies)]

    # Warm-up: one whole game first, over one connection, so that the worker has met every event type of the
    # game (the ruleset's validators and modules load on first use) before the clock starts.
    # The first game of an inline scenario resolves it in a checking worker (then it is cached by its digest): under
    # a flood of checks that waits for a worker, as any client would on 503 busy.
    deadline = time.monotonic() + 120
    while True:
        status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"})
        if status != 503 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert status == 201, game
    for i, event in enumerate(events):
        status, body = server.request("POST", f"/api/v1/games/{game['id']}/events",
                                      {"expected_index": i, "events": [event]}, game["tokens"][submitter(event)])
        assert status == 200, body
    selector = selectors.DefaultSelector()
    everyone = []
    for _ in range(clients):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        everyone.append(_Client(sock))
    latencies: list[float] = []
    failures: list[str] = []
    interval = clients / rate if rate else 0.0
    waiting: list[_Client] = []                 # open loop: clients waiting for their next due time

    def send(c: _Client, now: float) -> None:
        c.creating = c.game is None or c.i == c.limit
        if c.creating:
            c.sock.sendall(create)
        else:
            c.t0 = c.due if rate else now
            c.sock.sendall(c.requests[c.i])

    def retire(c: _Client, why: str | None = None) -> None:
        if why:
            failures.append(why)
        selector.unregister(c.sock)

    start = time.perf_counter()
    measure_from = start + warmup
    stop = measure_from + seconds
    cpu0, client0 = 0.0, 0.0
    measuring = False
    done = 0                                    # submissions answered since measure_from
    for c in everyone:
        selector.register(c.sock, selectors.EVENT_READ, c)
        if rate:
            c.due = start + interval * random.random()          # spread the clients' phases
            waiting.append(c)
        else:
            send(c, start)
    live = clients
    while live:
        timeout = max(0.0, min(c.due for c in waiting) - time.perf_counter()) if waiting else 1.0
        if time.perf_counter() > stop + 10:            # a server that stopped answering: count who waits
            for key in list(selector.get_map().values()):
                retire(key.data, "no answer within 10 s of the end")
            break
        for key, _ in selector.select(timeout):
            c = key.data
            data = c.sock.recv(65536)
            if not data:
                retire(c, "the server closed a connection")
                live -= 1
                continue
            c.buf += data
            head_end = c.buf.find(b"\r\n\r\n")
            if head_end < 0:
                continue
            if c.want < 0:
                head = c.buf[:head_end + 2].lower()
                k = head.find(b"content-length:")
                c.want = head_end + 4 + int(head[k + 15:head.find(b"\r\n", k)])
            if len(c.buf) < c.want:
                continue
            now = time.perf_counter()
            if not measuring and now >= measure_from:
                cpu0, client0, measuring = server_cpu(server), time.process_time(), True
            status, body, c.buf, c.want = c.buf[9:12], c.buf[head_end + 4:c.want], c.buf[c.want:], -1
            if c.creating:
                if status != b"201":
                    retire(c, f"create: {status.decode()} {body[:300]!r}")
                    live -= 1
                    continue
                c.limit = len(events) if c.game is not None else random.randint(1, len(events))
                c.game, c.i = json.loads(body), 0
                c.requests = requests_for(c.game)
            else:
                if status != b"200":
                    retire(c, f"submit: {status.decode()} {body[:300]!r}")
                    live -= 1
                    continue
                if c.t0 >= measure_from:
                    latencies.append(now - c.t0)
                done += measuring
                c.i += 1
            if now >= stop:
                retire(c)
                live -= 1
            elif rate and not c.creating:
                c.due += interval
                if c.due > now:
                    waiting.append(c)
                else:
                    send(c, now)
            else:
                send(c, now)
        if waiting:
            now = time.perf_counter()
            for c in [c for c in waiting if c.due <= now]:
                waiting.remove(c)
                if now >= stop:
                    retire(c)
                    live -= 1
                else:
                    send(c, now)
    elapsed = time.perf_counter() - measure_from
    cpu, client_cpu = server_cpu(server) - cpu0, time.process_time() - client0
    for c in everyone:
        c.sock.close()
    n = max(1, done)
    return {"requests": done, "per_second": done / elapsed,
            "server_cpu_ms": 1000 * cpu / n, "client_cpu_ms": 1000 * client_cpu / n,
            "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
            "p99_ms": 1000 * percentile(latencies, 99) if latencies else None,
            "tail_ms": [round(1000 * percentile(latencies, p), 1) for p in (90, 95, 99.9, 100)] if latencies else None,
            "failures": failures[:3]}


def flood_body(limit: int = 16 * 1024 * 1024) -> bytes:
    """The largest log the service takes: the sample game's events repeated up to the body limit (JSON)."""
    body = json.loads(SAMPLE.read_text())
    one = len(json.dumps(body["events"]).encode())
    body["events"] = body["events"] * max(1, (limit - 4096) // one)
    data = json.dumps(body).encode()
    while len(data) > limit - 64:
        body["events"] = body["events"][: len(body["events"]) * 9 // 10]
        data = json.dumps(body).encode()
    return data


def _flooder(port: int, data: bytes, seconds: float, out: Any) -> None:
    """POST /check of ``data`` (a fresh note each time, so no cache answers it) back to back for ``seconds``."""
    import http.client
    import os as _os
    statuses: dict[int, int] = {}
    stop = time.monotonic() + seconds
    n = 0
    rest = data[1:]                                     # the log without its opening brace, shared by every request
    while time.monotonic() < stop:
        n += 1
        head = f'{{"note": "flood {_os.getpid()} {n}", '.encode()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            # An iterable body with its Content-Length: sent as it is, no 16 MiB copy per request.
            conn.request("POST", "/api/v1/check", iter((head, rest)),
                         {"Content-Type": "application/json", "Content-Length": str(len(head) + len(rest))})
            resp = conn.getresponse()
            resp.read()
            statuses[resp.status] = statuses.get(resp.status, 0) + 1
            conn.close()
            if resp.status == 503:
                time.sleep(0.05)
        except OSError:
            statuses[-1] = statuses.get(-1, 0) + 1
            time.sleep(0.05)
    out.put(statuses)


def flood(server: Server, flooders: int, seconds: float) -> tuple[list[Any], Any]:
    """Start ``flooders`` processes that keep POST /check saturated with the largest bodies allowed."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")        # this process is single-threaded here
    data = flood_body()
    out = ctx.Queue()
    procs = [ctx.Process(target=_flooder, args=(server.port, data, seconds, out), daemon=True)
             for _ in range(flooders)]
    for p in procs:
        p.start()
    return procs, out


def _trickler(port: int, each: int, seconds: float, out: Any) -> None:
    """``each`` slow-body and ``each`` slow-header clients, each sending one byte a second (a new connection
    when the server drops one), for ``seconds``; puts how many connections were opened and dropped."""
    host = f"127.0.0.1:{port}".encode()
    body_head = (b"POST /api/v1/games/slowgame/events HTTP/1.1\r\nHost: " + host +
                 b"\r\nContent-Type: application/json\r\nAuthorization: Bearer x\r\nContent-Length: 100000\r\n\r\n")
    header_head = b"POST /api/v1/check HTTP/1.1\r\nHost: " + host + b"\r\nX-Slow: "
    opened = dropped = 0

    def connect(kind: str) -> socket.socket | None:
        nonlocal opened
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2)
            sock.sendall(body_head if kind == "body" else header_head)
            opened += 1
            return sock
        except OSError:
            return None
    clients: list[tuple[str, socket.socket | None]] = [(k, connect(k)) for k in ("body", "header") for _ in range(each)]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(1.0)
        for i, (kind, sock) in enumerate(clients):
            try:
                if sock is None:
                    raise OSError
                sock.sendall(b"a")
            except OSError:
                dropped += sock is not None
                if sock is not None:
                    sock.close()
                clients[i] = (kind, connect(kind))
    for _, sock in clients:
        if sock is not None:
            sock.close()
    out.put({"opened": opened, "dropped": dropped})


def trickle(server: Server, each: int, seconds: float) -> tuple[Any, Any]:
    """Start ``each`` slow-body and ``each`` slow-header clients in a process of their own."""
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    proc = ctx.Process(target=_trickler, args=(server.port, each, seconds, out), daemon=True)
    proc.start()
    return proc, out


def check_sample(server: Server) -> dict[str, Any] | None:
    if not SAMPLE.is_file():
        return None
    body = json.loads(SAMPLE.read_text())
    out: dict[str, Any] = {"events": len(body["events"])}
    conn = server.connection(timeout=600)        # one connection: one worker, so the later calls are warm
    # first: right after start (waits for the worker's scenario warm-up); replay: a log the worker has not
    # seen (its note differs) with the scenario loaded, i.e. the full replay; cached: the same log again.
    # (the best of three logs not seen: the worker's background warm-up may still be loading other scenarios)
    for label, note in (("first_s", "a"), ("replay_s", "b"), ("replay_s", "c"), ("replay_s", "d"),
                        ("cached_s", "d")):
        t0 = time.perf_counter()
        status, result = server.request("POST", "/api/v1/check", {**body, "note": note}, conn=conn)
        out[label] = min(out.get(label, float("inf")), time.perf_counter() - t0)
        assert status == 200 and len(result["rulings"]) == len(body["events"]), status
    conn.close()
    return out


def check_stages(reps: int = 3) -> dict[str, float] | None:
    """POST /check of the sample game in this process (Flask's test client, the scenario loaded), and the same
    work by stage: reading the log (JSON parse and the events' validation), the engine's replay alone, the
    service's replay (the engine plus rulings as dicts, turn/phase per step, snapshots) and writing the JSON.
    CPU seconds, best of ``reps``: "replay" is the engine's part, "rest" is total - replay."""
    if not SAMPLE.is_file():
        return None
    from referee.engine.replay import new_game, step
    from referee.service import create_app, scenarios
    from referee.service.encoding import dumps
    from referee.service.logs import Upload, read
    from referee.service.replays import replay_log

    data = SAMPLE.read_bytes()
    scenarios.resolve(json.loads(data)["scenario"])
    best: dict[str, float] = {}

    def timed(label: str, work: Any) -> Any:
        t0 = time.process_time()
        out = work()
        best[label] = min(best.get(label, float("inf")), time.process_time() - t0)
        return out

    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(tmp) / 'r.sqlite'}", "REPLAY_CACHE_SIZE": 0})
        client = app.test_client()
        for rep in range(reps + 1):                      # the first round warms up (validators, caches)
            if rep == 1:
                best.clear()
            resp = timed("total", lambda: client.post("/api/v1/check", data=data, content_type="application/json"))
            assert resp.status_code == 200
            log = timed("read", lambda: read(Upload(data, "")))

            def engine() -> None:
                game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
                for i, event in enumerate(log.events):
                    _, game, _ = step(game, i, event)

            timed("replay", engine)
            replayed = timed("service_replay", lambda: replay_log(log))
            timed("write", lambda: dumps(replayed.body()))
    best["rest"] = best["total"] - best["replay"]
    best["events"] = len(log.events)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds run before the figures count")
    parser.add_argument("--workers", type=int, default=1)          # SQLite: see commands.default_workers
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--rate", type=float, default=None,
                        help="open loop: this many submissions per second in all (default: closed loop)")
    parser.add_argument("--synchronous", choices=("full", "normal"), default="normal",
                        help="SQLite synchronous (docs/service.md: NORMAL survives process crashes, not power loss)")
    parser.add_argument("--postgres", action="store_true",
                        help="submissions against the test PostgreSQL server (tests/storage/pg_server.py; it runs "
                             "with fsync=off, on the same two cores) instead of SQLite")
    parser.add_argument("--slow", type=int, default=0, metavar="N",
                        help="during the submissions, N clients trickle a body and N more their headers, a byte a "
                             "second each (they must not hold the submissions up)")
    parser.add_argument("--skip-check", action="store_true", help="skip POST /check of the sample game")
    parser.add_argument("--flood", type=int, nargs="?", const=4, default=0, metavar="N",
                        help="during the submissions, N processes (default 4) keep POST /check saturated with the "
                             "largest body allowed (16 MiB of JSON log): hosted games must not starve")
    args = parser.parse_args()
    players_events(1)                                   # make the game before timing anything
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'referee.sqlite'}?synchronous={args.synchronous}"
        pg = None
        if args.postgres:
            from pg_server import start_server
            pg = start_server()
        try:
            run_url = pg.new_database_url() if pg is not None else url
            with Server(run_url, workers=args.workers, threads=args.threads) as server:
                load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                print(f"load average {load} (2-core machine shared with other work)")
                store = "PostgreSQL (fsync=off)" if pg else f"SQLite {url}"
                print(f"referee serve: {args.workers} process(es) x {args.threads} threads "
                      f"({'waitress' if args.workers == 1 else 'gunicorn gthread'}), {store}")
                flooding = None
                if args.flood:
                    flooding = flood(server, args.flood, args.seconds + args.warmup + 6)
                    time.sleep(5)                       # let the bodies arrive and the checking worker fill up
                slow = None
                if args.slow:
                    slow = trickle(server, args.slow, args.seconds + args.warmup + 14)
                    time.sleep(2)                       # the slow clients are in
                r = submissions(server, args.clients, args.seconds, args.rate, args.warmup)
                if slow is not None:
                    proc, out = slow
                    proc.join(60)
                    got = out.get() if not out.empty() else {}
                    print(f"slow clients: {args.slow} sending a body and {args.slow} sending headers, one byte a second "
                          f"each, reconnecting when dropped: {got}")
                if flooding is not None:
                    procs, out = flooding
                    statuses: dict[int, int] = {}
                    for p in procs:
                        p.join(180)
                        if p.is_alive():
                            p.terminate()
                    while not out.empty():
                        for k, v in out.get().items():
                            statuses[k] = statuses.get(k, 0) + v
                    priority = os.environ.get("REFEREE_CHECK_PRIORITY", "idle")
                    print(f"flood: {args.flood} processes posting {len(flood_body()) / 2 ** 20:.1f} MiB logs to "
                          f"/check back to back during the submissions (checking workers at priority {priority}); "
                          f"their answers: {dict(sorted(statuses.items()))}")
                loop = f"open loop at {args.rate:.0f}/s" if args.rate else "closed loop"
                print(f"submissions: {args.clients} clients, {loop}, {args.seconds:.0f} s: {r['requests']} requests, "
                      f"{r['per_second']:.0f}/s, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms "
                      f"(p90, p95, p99.9, max: {r['tail_ms']}); CPU per request: "
                      f"server {r['server_cpu_ms']:.2f} ms, bench clients {r['client_cpu_ms']:.2f} ms"
                      + (f", failures {r['failures']}" if r["failures"] else ""))
        finally:
            if pg is not None:
                pg.stop()
        if not args.skip_check:
            with Server(url, workers=1, threads=2, preload=True) as server:
                c = check_sample(server)
            if c is None:
                print(f"check: {SAMPLE} is missing")
            else:
                print(f"POST /check sample-borodino ({c['events']} events) over HTTP: first after start "
                      f"{c['first_s']:.2f} s, full replay (best of 3) {c['replay_s']:.2f} s, same log again {c['cached_s']:.3f} s")
            st = check_stages()
            if st is not None:
                print(f"POST /check in-process, CPU (best of 3): total {st['total']:.2f} s, of which replay (engine) "
                      f"{st['replay']:.2f} s, the rest {st['rest']:.2f} s [read+validate {st['read']:.2f} s, "
                      f"rulings as dicts + turn/phase + snapshots {st['service_replay'] - st['replay']:.2f} s, "
                      f"write JSON {st['write']:.3f} s]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
