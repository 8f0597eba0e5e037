"""The live route's cost per post as a game grows: ``POST /games/<id>/vassal`` over a long game, one move a post.

    .venv/bin/python bench/bench_live_route.py [--moves 1000] [--synchronous full|normal] [--in-process]

``referee serve`` (one worker, SQLite) on 127.0.0.1; Tinyvka in the French activation, and Dumon a dragged back
and forth ``--moves`` times as the referee link sends VASSAL's steps, one step per request on one kept-alive
connection (tests/service/live_moves.py: the first drag is legal, every later one a full ruling of 7.31).
Figures: the median and p90 time of a post (request to answer) around move 10 (posts 1-20), move 500 and the last
moves; then the service is stopped and started again and the first post after the restart (with the whole exchange
the link has then: before the steps were stored, a 409 and every step sent again) and the median of the next ten
are timed.  ``--in-process``: the same posts through the Flask test client, CPU time per post (the service's own
work, whatever the machine's load).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "service"))

from live import Server  # noqa: E402
from live_moves import UNDO, drag, tiny_game  # noqa: E402
from test_live_steps import start_text  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def run(moves: int, synchronous: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'games.sqlite'}?synchronous={synchronous}").start()
        try:
            gid, tokens, _ = tiny_game(lambda m, p, b, t: server.request(m, p, b, t))
            token = tokens["French"]
            conn = server.connection()
            times: list[float] = []

            def post(i: int) -> float:
                """Move i sent as the link sends it: on a 409 with next_index (a service that asks for the steps
                again) it sends from there, 500 steps a request, until move i is taken; the time of the whole."""
                t = time.perf_counter()
                at = i
                while True:
                    body: dict[str, object] = {"link": "bench", "expected_index": at,
                                               "steps": [drag(k) for k in range(at, min(i + 1, at + 500))]}
                    if at == 0:
                        body["start"] = start_text(UNDO)
                    status, answer = server.request("POST", f"/api/v1/games/{gid}/vassal", body, token, conn=conn)
                    if status == 409:
                        at = answer["error"]["next_index"]
                        continue
                    assert status == 200, answer
                    at = answer["next_index"]
                    if at == i + 1:
                        return (time.perf_counter() - t) * 1000

            for i in range(moves):
                times.append(post(i))
            conn.close()
            server.stop()
            server.start()
            conn = server.connection()
            restart = post(moves)
            after = [post(moves + 1 + k) for k in range(10)]
            conn.close()
        finally:
            server.stop()
    mid = moves // 2
    return {"moves": moves, "at 10": times[:20], f"at {mid}": times[mid - 10:mid + 10],
            f"at {moves}": times[-20:], "restart": restart, "after": after, "load": os.getloadavg()[0]}


def cpu(moves: int) -> tuple[list[float], list[float]]:
    """CPU ms per post in process (Flask's test client on a SQLite file): the first twenty posts, the last twenty."""
    from referee.service import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE_URL": f"sqlite:///{Path(tmp) / 'games.sqlite'}", "TESTING": True})
        client = app.test_client()

        def call(method: str, path: str, body: object, token: str | None) -> tuple[int, object]:
            r = client.open(path, method=method, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
            return r.status_code, r.get_json()
        gid, tokens, _ = tiny_game(call)
        times = []
        for i in range(moves):
            body: dict[str, object] = {"link": "bench", "expected_index": i, "steps": [drag(i)]}
            if i == 0:
                body["start"] = start_text(UNDO)
            t = time.process_time()
            status, answer = call("POST", f"/api/v1/games/{gid}/vassal", body, tokens["French"])
            times.append((time.process_time() - t) * 1000)
            assert status == 200, answer
    return times[:20], times[-20:]


def cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--synchronous", choices=("full", "normal"), default="full",
                    help="SQLite's durability (full: a disk flush per commit, as `referee serve` runs by default)")
    ap.add_argument("--in-process", action="store_true", help="CPU time per post through Flask's test client")
    args = ap.parse_args()
    if args.in_process:
        first, last = cpu(args.moves)
        print(f"CPU per post, in process: posts 1-20 median {statistics.median(first):.2f} ms, "
              f"posts {args.moves - 19}-{args.moves} median {statistics.median(last):.2f} ms")
        return
    r = run(args.moves, args.synchronous)
    for key, values in r.items():
        if key.startswith("at "):
            assert isinstance(values, list)
            print(f"post {key:>9}: median {statistics.median(values):6.1f} ms, p90 {percentile(values, 90):6.1f} ms")
    after = r["after"]
    assert isinstance(after, list)
    print(f"after a restart: first post {r['restart']:.1f} ms, "
          f"then median {statistics.median(after):.1f} ms (load average {r['load']:.2f})")


if __name__ == "__main__":
    cli()
