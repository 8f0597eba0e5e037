"""The live route's cost per post as a game grows: ``POST /games/<id>/vassal`` over a long game, one move a post.

    .venv/bin/python bench/bench_live_route.py [--moves 1000] [--synchronous full|normal]

``referee serve`` (one worker, SQLite) on 127.0.0.1; Tinyvka in the French activation, and Dumon a dragged back
and forth ``--moves`` times as the referee link sends VASSAL's steps, one step per request on one kept-alive
connection (tests/service/live_moves.py: the first drag is legal, every later one a full ruling of 7.31).
Figures: the median and p90 time of a post (request to answer) around move 10 (posts 1-20), move 500 and the last
moves; then the service is stopped and started again and the first post after the restart (which reads the game
from the database once) and the median of the next ten are timed.
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
                body: dict[str, object] = {"link": "bench", "expected_index": i, "steps": [drag(i)]}
                if i == 0:
                    body["start"] = start_text(UNDO)
                t = time.perf_counter()
                status, answer = server.request("POST", f"/api/v1/games/{gid}/vassal", body, token, conn=conn)
                took = (time.perf_counter() - t) * 1000
                assert status == 200 and answer["next_index"] == i + 1, answer
                return took

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


def cli() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--synchronous", choices=("full", "normal"), default="full",
                    help="SQLite's durability (full: a disk flush per commit, as `referee serve` runs by default)")
    args = ap.parse_args()
    r = run(args.moves, args.synchronous)
    for key, values in r.items():
        if key.startswith("at "):
            assert isinstance(values, list)
            print(f"post {key:>9}: median {statistics.median(values):6.1f} ms, p90 {percentile(values, 90):6.1f} ms")
    after = r["after"]
    assert isinstance(after, list)
    print(f"after a restart: first post {r['restart']:.1f} ms (reads the game from the database), "
          f"then median {statistics.median(after):.1f} ms (load average {r['load']:.2f})")


if __name__ == "__main__":
    cli()
