"""Time loading the Borodino scenarios' definitions, cold (fresh process) and warm (files already parsed).

    .venv/bin/python bench/bench_load.py [--runs 5] [SCENARIO ...]

Cold: each run is a new Python process that imports ``modulebuilder.definitions`` and loads one scenario
(its map, counters and tables too), so the figures include everything the module build and the referee's
``check`` pay on their first load; import and load are reported apart.  Warm: ``load_scenario`` again in
the same process (parsed files come from the per-file cache; the checks and the model are rebuilt).
CPU is the process's CPU time (``time.process_time``), which on a loaded machine says more than wall time;
both are shown, as medians over the runs.  Target: cold load <= 0.5 s CPU.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [ROOT / "scenarios" / "borodino.yaml", ROOT / "scenarios" / "schevardino.yaml"]
TARGET_CPU_S = 0.5

# Runs in the child process: prints one JSON line of timings.
_CHILD = """
import json, sys, time
c0, w0 = time.process_time(), time.perf_counter()
from modulebuilder.definitions import load_scenario
c1, w1 = time.process_time(), time.perf_counter()
load_scenario(sys.argv[1])
c2, w2 = time.process_time(), time.perf_counter()
warm_cpu, warm_wall = [], []
for _ in range(int(sys.argv[2])):
    c, w = time.process_time(), time.perf_counter()
    load_scenario(sys.argv[1])
    warm_cpu.append(time.process_time() - c)
    warm_wall.append(time.perf_counter() - w)
print(json.dumps({"import_cpu": c1 - c0, "import_wall": w1 - w0, "load_cpu": c2 - c1, "load_wall": w2 - w1,
                  "warm_cpu": min(warm_cpu), "warm_wall": min(warm_wall)}))
"""


def one_run(scenario: Path, warm_runs: int) -> dict[str, float]:
    """Timings of one fresh process loading ``scenario`` once cold, then ``warm_runs`` times warm."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(scenario), str(warm_runs)],
                          check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def report(scenario: Path, m: dict[str, float], runs: int) -> str:
    verdict = "ok" if m["load_cpu"] <= TARGET_CPU_S else "MISSED"
    return (f"{scenario.name}: cold load {m['load_cpu']:.3f} s CPU / {m['load_wall']:.3f} s wall "
            f"(+ import {m['import_cpu']:.3f} s CPU / {m['import_wall']:.3f} s wall); "
            f"warm load {m['warm_cpu']:.3f} s CPU / {m['warm_wall']:.3f} s wall; "
            f"medians of {runs} runs; target cold <= {TARGET_CPU_S} s CPU: {verdict}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenarios", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--runs", type=int, default=5, help="fresh processes per scenario")
    ap.add_argument("--warm", type=int, default=3, help="warm loads per process (the best is kept)")
    args = ap.parse_args()
    missed = False
    for scenario in args.scenarios:
        m = medians([one_run(scenario.resolve(), args.warm) for _ in range(args.runs)])
        print(report(scenario, m, args.runs))
        missed |= m["load_cpu"] > TARGET_CPU_S
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
