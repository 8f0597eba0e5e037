"""Replay speed: rule on the committed sample Borodino game and print rulings per second (one core).

    .venv/bin/python bench/bench_replay.py [LOG] [--repeat N] [--profile]

The scenario is loaded once (its YAML loading is not the referee's work); each repeat replays every event
from the set-up, with the referee re-deriving every roll from the log's seed.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.replay import replay  # noqa: E402
from referee.logs import read_log  # noqa: E402

DEFAULT_LOG = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("log", nargs="?", default=str(DEFAULT_LOG))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    log = read_log(args.log)
    print(f"read and checked the log + scenario: {time.perf_counter() - t0:.2f} s, {len(log.events)} events")
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return 0
    best = best_cpu = float("inf")
    for _ in range(args.repeat):
        t, c = time.perf_counter(), time.process_time()
        result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
        best = min(best, time.perf_counter() - t)
        best_cpu = min(best_cpu, time.process_time() - c)
    n = len(result.rulings)
    illegal = sum(not r.legal for r in result.rulings)
    # CPU time as well as wall time: on a shared machine the wall clock mostly measures the other processes.
    print(f"{n} rulings ({illegal} illegal), best of {args.repeat}: wall {best:.3f} s = {n / best:,.0f} events/s; "
          f"CPU {best_cpu:.3f} s = {n / best_cpu:,.0f} events/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
