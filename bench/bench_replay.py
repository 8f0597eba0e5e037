"""Replay speed: rule on the committed sample Borodino game and print rulings per second (one core).

    .venv/bin/python bench/bench_replay.py [LOG] [--repeat N] [--profile] [--check]

The scenario is loaded once (its YAML loading is not the referee's work); each repeat replays every event
from the set-up, with the referee re-deriving every roll from the log's seed.  The first replay is printed
on its own ("cold"): later ones find the scenario's static map already built (``board._board_map``), as a
service that keeps a game's scenario loaded does, so best-of-N is the warm figure.

``--check`` times the whole ``referee check LOG --format json`` path in-process, stage by stage: reading and
checking the log (JSON parse, schema, references, scenario load), the replay, the rulings' ``to_dict`` and
``final_state``, and the JSON text; once in the fresh process, then again in the same process.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.replay import final_state, replay  # noqa: E402
from referee.logs import read_log  # noqa: E402

DEFAULT_LOG = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def check_stages(path: str) -> None:
    """``referee check PATH --format json`` in-process (as ``referee.cli.cmd_check`` does it), CPU per stage."""
    stages: list[tuple[str, float, float]] = []

    def timed(name, fn):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        stages.append((name, time.perf_counter() - t, time.process_time() - c))
        return out

    log = timed("read_log (parse, schema, references, scenario)", lambda: read_log(path))
    result = timed("replay", lambda: replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False))
    body = timed("rulings to_dict + final_state",
                 lambda: {"rulings": [r.to_dict() for r in result.rulings], "state": final_state(result.game)})

    def dump() -> str:
        buf = io.StringIO()
        json.dump(body, buf, ensure_ascii=False, indent=1)
        return buf.getvalue()

    text = timed("json.dump (indent=1, as the CLI writes it)", dump)
    wall = sum(s[1] for s in stages)
    cpu = sum(s[2] for s in stages)
    print(f"referee check --format json, in-process, {len(log.events)} events, {len(text):,} bytes out "
          f"(load average {_load()}):")
    for name, w, c in stages:
        print(f"  {name:50s} wall {w:6.3f} s  CPU {c:6.3f} s  ({100 * c / cpu:4.1f} % of CPU)")
    print(f"  {'total':50s} wall {wall:6.3f} s  CPU {cpu:6.3f} s")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("log", nargs="?", default=str(DEFAULT_LOG))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--check", action="store_true", help="time the whole `referee check --format json` path")
    args = ap.parse_args()
    if args.check:
        print("first, in a fresh process (imports, scenario files read):")
        check_stages(args.log)
        print("again, in the same process (as a running service would, modules and parsed files cached):")
        check_stages(args.log)
        return 0
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
    cold_cpu = None
    for _ in range(args.repeat):
        t, c = time.perf_counter(), time.process_time()
        result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
        best = min(best, time.perf_counter() - t)
        cpu = time.process_time() - c
        cold_cpu = cpu if cold_cpu is None else cold_cpu
        best_cpu = min(best_cpu, cpu)
    n = len(result.rulings)
    illegal = sum(not r.legal for r in result.rulings)
    # CPU time as well as wall time: on a shared machine the wall clock mostly measures the other processes.
    print(f"{n} rulings ({illegal} illegal), first (cold) replay: CPU {cold_cpu:.3f} s = {n / cold_cpu:,.0f} events/s")
    print(f"{n} rulings ({illegal} illegal), best of {args.repeat}: wall {best:.3f} s = {n / best:,.0f} events/s; "
          f"CPU {best_cpu:.3f} s = {n / best_cpu:,.0f} events/s (load average {_load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
