"""Replay speed of two source trees, A/B, interleaved: the figure for a change to the replay on a shared machine.

    .venv/bin/python bench/bench_replay_ab.py TREE_A TREE_B [--rounds N] [--log LOG]

One worker process per tree imports that tree's ``referee`` (its folder first on ``sys.path``), reads the log
once and replays it once to warm the scenario's static map; then the two workers replay in turn (A B, B A,
A B …), so both see the same load, and each reports the CPU time of its replay.  Printed: min, first quartile
and median µs per event for each tree and the B/A ratios, with the load average.  A tree is any checkout of the
project (``git archive COMMIT | tar -x -C DIR`` makes one); the workers run under this interpreter.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from interleave import interleaved, print_ab   # bench/, this script's folder

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_LOG = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def worker(tree: str, log_path: str) -> None:
    sys.path.insert(0, tree)
    from referee.engine.replay import replay
    from referee.logs import read_log
    log = read_log(log_path)
    replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
    print("ready", flush=True)
    for _ in sys.stdin:
        c = time.process_time()
        replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
        print((time.process_time() - c) / len(log.events) * 1e6, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("trees", nargs="*")
    ap.add_argument("--rounds", type=int, default=12, help="replays per tree")
    ap.add_argument("--log", default=str(DEFAULT_LOG))
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.log)
        return 0
    if len(args.trees) != 2:
        ap.error("give two trees: TREE_A TREE_B")
    trees = [str(Path(t).resolve()) for t in args.trees]
    log = str(Path(args.log).resolve())
    times = interleaved([[__file__, "--worker", t, "--log", log] for t in trees], trees, args.rounds)
    if times is None:
        return 1
    print_ab(trees, times, "event", "replays")
    return 0

if __name__ == "__main__":
    sys.exit(main())
