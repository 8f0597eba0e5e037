"""Two worker processes timed in turn (A B, B A, A B …), so that both see the same load: the A/B figure of a
change on a shared machine, for ``bench_replay_ab.py`` and ``bench_listing.py --ab``.

A worker is this interpreter running a command in a tree's folder; it prints ``ready`` once warm, then one figure
(µs of CPU) for each line it reads on its standard input, and ends when that closes.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys


def interleaved(commands: list[list[str]], trees: list[str], rounds: int) -> list[list[float]] | None:
    """Each worker's figures, ``rounds`` of them, the two asked in turn; None when a worker did not start."""
    procs = [subprocess.Popen([sys.executable, *cmd], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True) for cmd, tree in zip(commands, trees)]
    try:
        for p in procs:
            if p.stdout.readline().strip() != "ready":      # type: ignore[union-attr]
                print("a worker failed to start", file=sys.stderr)
                return None
        times: list[list[float]] = [[] for _ in procs]
        for i in range(rounds):
            for j in ((0, 1) if i % 2 == 0 else (1, 0)):
                procs[j].stdin.write("\n")                  # type: ignore[union-attr]
                procs[j].stdin.flush()                      # type: ignore[union-attr]
                times[j].append(float(procs[j].stdout.readline()))   # type: ignore[union-attr]
        return times
    finally:
        for p in procs:
            p.stdin.close()                                 # type: ignore[union-attr]
            p.wait()


def print_ab(trees: list[str], times: list[list[float]], unit: str, runs: str) -> None:
    """min, first quartile and median per tree, then the B/A ratios with the load average."""
    q = [sorted(t) for t in times]
    for name, tree, t in zip("AB", trees, q):
        print(f"{name} {tree}: min {t[0]:6.1f}  q1 {t[len(t) // 4]:6.1f}  median {statistics.median(t):6.1f} "
              f"µs/{unit} CPU ({len(t)} {runs})")
    a, b = q
    print(f"B/A: min {b[0] / a[0]:.3f}  q1 {b[len(b) // 4] / a[len(a) // 4]:.3f}  "
          f"median {statistics.median(b) / statistics.median(a):.3f}  "
          f"(load average {', '.join(f'{x:.2f}' for x in os.getloadavg())})")
