"""Load on the referee service: hosted-game submissions and POST /check, against gunicorn on 127.0.0.1.

    .venv/bin/python bench/bench_service.py [--clients 32] [--seconds 15] [--workers 1] [--threads 32]

Set-up: one SQLite database (WAL, synchronous=FULL) in a temporary folder; gunicorn with ``--workers`` gthread
workers.  Each of ``--clients`` threads plays its own hosted game (dice: players) on the small test scenario
(8x8 map, two corps, two turns: tests/service/service_scenario.py), submitting one event per request with
its expected_index, over a kept-alive connection; when its game ends it creates a new one.  The events are a
random legal game made beforehand by the engine, with their rolls written in, so every submission is ruled
on for real (and stored with its ruling).  Figures: submissions per second and p50/p99 latency.

Then POST /check of the whole sample game (tests/fixtures/logs/sample-borodino.json) on a fresh one-worker
server: the first request (waits for the worker's scenario warm-up), a log it has not seen (the full replay
of 5,740 events), and the same log again (the worker's replay cache).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "service")]

from live import Gunicorn  # noqa: E402
from service_play import players_events, submitter  # noqa: E402
from service_scenario import SMALL  # noqa: E402

SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def submissions(server: Gunicorn, clients: int, seconds: float) -> dict[str, Any]:
    events = players_events(1)
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()
    start_gate = threading.Barrier(clients + 1)
    stop_at: list[float] = [0.0]

    def client() -> None:
        conn = server.connection()
        mine: list[float] = []
        game: dict[str, Any] | None = None
        i = 0
        start_gate.wait()
        while time.monotonic() < stop_at[0]:
            if game is None or i == len(events):
                status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"},
                                              conn=conn)
                i = 0
                if status != 201:
                    failures.append(f"create: {status}")
                    break
            event = events[i]
            t0 = time.perf_counter()
            status, body = server.request("POST", f"/api/v1/games/{game['id']}/events",
                                          {"expected_index": i, "events": [event]},
                                          game["tokens"][submitter(event)], conn=conn)
            mine.append(time.perf_counter() - t0)
            if status != 200:
                failures.append(f"submit: {status} {body}")
                break
            i += 1
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    stop_at[0] = time.monotonic() + seconds
    t0 = time.monotonic()
    start_gate.wait()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    return {"requests": len(latencies), "per_second": len(latencies) / elapsed,
            "p50_ms": 1000 * statistics.median(latencies) if latencies else None,
            "p99_ms": 1000 * percentile(latencies, 99) if latencies else None, "failures": failures[:3]}


def check_sample(server: Gunicorn) -> dict[str, Any] | None:
    if not SAMPLE.is_file():
        return None
    body = json.loads(SAMPLE.read_text())
    out: dict[str, Any] = {"events": len(body["events"])}
    conn = server.connection(timeout=600)        # one connection: one worker, so the later calls are warm
    # first: right after start (waits for the worker's scenario warm-up); replay: a log the worker has not
    # seen (its note differs) with the scenario loaded, i.e. the full replay; cached: the same log again.
    for label, note in (("first_s", "a"), ("replay_s", "b"), ("cached_s", "b")):
        t0 = time.perf_counter()
        status, result = server.request("POST", "/api/v1/check", {**body, "note": note}, conn=conn)
        out[label] = time.perf_counter() - t0
        assert status == 200 and len(result["rulings"]) == len(body["events"]), status
    conn.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=1)          # SQLite: see commands.default_workers
    parser.add_argument("--threads", type=int, default=32)
    parser.add_argument("--skip-check", action="store_true", help="skip POST /check of the sample game")
    args = parser.parse_args()
    players_events(1)                                   # make the game before timing anything
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'referee.sqlite'}"
        with Gunicorn(url, workers=args.workers, threads=args.threads) as server:
            print(f"gunicorn: {args.workers} gthread workers x {args.threads} threads, SQLite {url}")
            r = submissions(server, args.clients, args.seconds)
            print(f"submissions: {args.clients} clients, {args.seconds:.0f} s: {r['requests']} requests, "
                  f"{r['per_second']:.0f}/s, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms"
                  + (f", failures {r['failures']}" if r["failures"] else ""))
        if not args.skip_check:
            with Gunicorn(url, workers=1, threads=2, preload=True) as server:
                c = check_sample(server)
            if c is None:
                print(f"check: {SAMPLE} is missing")
            else:
                print(f"POST /check sample-borodino ({c['events']} events): first after start {c['first_s']:.2f} s, "
                      f"full replay {c['replay_s']:.2f} s, same log again {c['cached_s']:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
