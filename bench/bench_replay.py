"""Replay speed: rule on the committed sample Borodino game and print rulings per second (one core).

    .venv/bin/python bench/bench_replay.py [LOG] [--repeat N] [--profile] [--check]
    .venv/bin/python bench/bench_replay.py [LOG] --free MODULE.FUNCTION[,...] [--repeat N]

The scenario is loaded once (its YAML loading is not the referee's work); each repeat replays every event
from the set-up, with the referee re-deriving every roll from the log's seed.  The first replay is printed
on its own ("cold"): later ones find the scenario's static map already built (``board._board_map``), as a
service that keeps a game's scenario loaded does, so best-of-N is the warm figure.

``--check`` times the whole ``referee check LOG --format json`` path in-process, stage by stage: reading and
checking the log (JSON parse, schema, references, scenario load), the replay, the rulings' ``to_dict`` and
``final_state``, and the JSON text; once in the fresh process, then again in the same process.

``--free`` is an ablation (``ablation.py``): the replay's CPU per event if the named functions of the
Triumph & Glory ruleset (``movement.check_move``, ``movement.apply_move``: modules of
``referee.rulesets.triumph_and_glory`` whose callers reach them through the module) cost nothing.  Each round
replays live, recording their answers, then replays answering from the record, the cyclic collector off in
both; the rulings are checked equal.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.replay import final_state, replay  # noqa: E402
from referee.logs import read_log  # noqa: E402
from ablation import answering_all, collector_off, functions_of  # noqa: E402  (bench/, this script's folder)

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


def free(log, names: list[str], repeat: int) -> int:
    """Live and free replays alternated (see the module's docstring); medians of CPU per event printed."""
    try:
        records = functions_of("referee.rulesets.triumph_and_glory", names)
    except LookupError as exc:
        print(f"bench_replay: {exc}", file=sys.stderr)
        return 2

    def timed_replay(live: bool) -> tuple[float, list[Any]]:
        with answering_all(records, live), collector_off():
            c = time.process_time()
            result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
            return (time.process_time() - c) / len(log.events) * 1e6, result.rulings

    replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)   # warm: memos, imports
    live_us, free_us = [], []
    for _ in range(repeat):
        for record in records.values():
            for answers in record.values():
                answers.clear()
        us, rulings = timed_replay(live=True)
        us_free, rulings_free = timed_replay(live=False)
        live_us.append(us)
        free_us.append(us_free)
        assert rulings == rulings_free, "the free replay ruled otherwise"
    lv, fr = statistics.median(live_us), statistics.median(free_us)
    print(f"{len(log.events)} events; medians of {repeat} (load average {_load()})")
    print(f"live          {lv:7.1f} µs CPU/event  (rounds: {', '.join(f'{x:.1f}' for x in live_us)})")
    print(f"{', '.join(names)} free: {fr:7.1f} µs CPU/event  (rounds: {', '.join(f'{x:.1f}' for x in free_us)})")
    kept = statistics.median(f / v for f, v in zip(free_us, live_us))      # each round's own pair: steadier
    print(f"share of the replay {100 * (1 - kept):.1f} % (median of the rounds' free/live; "
          f"{100 * (lv - fr) / lv:.1f} % from the medians); the replay {1 / kept:.2f}× faster without them")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("log", nargs="?", default=str(DEFAULT_LOG))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--check", action="store_true", help="time the whole `referee check --format json` path")
    ap.add_argument("--free", metavar="NAMES", help="comma-separated MODULE.FUNCTION of the T&G ruleset answered "
                    "from a record (ablation), e.g. movement.check_move,movement.apply_move")
    args = ap.parse_args()
    if args.free:
        return free(read_log(args.log), args.free.split(","), args.repeat)
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
