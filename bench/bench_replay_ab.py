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
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

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
    procs = [subprocess.Popen([sys.executable, __file__, "--worker", t, "--log", str(Path(args.log).resolve())],
                              cwd=t, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for t in trees]
    for p in procs:
        if p.stdout.readline().strip() != "ready":        # type: ignore[union-attr]
            print("a worker failed to start", file=sys.stderr)
            return 1
    times: list[list[float]] = [[], []]
    for i in range(args.rounds):
        for j in ((0, 1) if i % 2 == 0 else (1, 0)):
            procs[j].stdin.write("\n")                       # type: ignore[union-attr]
            procs[j].stdin.flush()                           # type: ignore[union-attr]
            times[j].append(float(procs[j].stdout.readline()))   # type: ignore[union-attr]
    for p in procs:
        p.stdin.close()                                      # type: ignore[union-attr]
        p.wait()
    q = [sorted(t) for t in times]
    for name, t in zip("AB", q):
        print(f"{name} {trees[ord(name) - 65]}: min {t[0]:6.1f}  q1 {t[len(t) // 4]:6.1f}  "
              f"median {statistics.median(t):6.1f} µs/event CPU ({len(t)} replays)")
    a, b = q
    print(f"B/A: min {b[0] / a[0]:.3f}  q1 {b[len(b) // 4] / a[len(a) // 4]:.3f}  "
          f"median {statistics.median(b) / statistics.median(a):.3f}  "
          f"(load average {', '.join(f'{x:.2f}' for x in os.getloadavg())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
