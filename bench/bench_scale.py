"""Scale: a game ten times the sample, and several ``referee check`` processes at once.

    .venv/bin/python bench/bench_scale.py [LOG] [--sizes 1,2,5,10] [--procs 1,2,4] [--rounds N]

1. Length.  A game of the sample's rules cannot simply be made ten times longer (the scenario ends after its
   last turn and every event after that is ruled "the game is over", a path far cheaper than real play), so the
   long log is the sample game's replays concatenated: K copies, each replayed from its own set-up, through
   the same stages as ``referee check LOG --format json`` (read and check the log, replay, ``to_dict`` +
   ``final_state``, the indented JSON).  Each K runs in a fresh process that reports its CPU time, wall time
   and peak RSS (``ru_maxrss``).  Two ways to hold the output:
   * ``keep``: all K × 5,886 rulings are kept and written as one JSON document at the end, as one ``check`` of
     a 55,000-event log does today — memory must grow with K (the output is held);
   * ``stream``: each copy's rulings are written and dropped before the next, each copy read afresh (a new
     scenario object each time, as K different games in one process would be) — the engine's memory plus the
     per-scenario map memos the ruleset keeps for up to 16 scenarios (``triumph_and_glory`` ``_board_map``,
     ~4.6 MiB each), so it grows with K up to 16 copies and then drops;
   * ``same``: as ``stream`` but every copy replays the one scenario object read first — one long game's
     engine memory, which must stay flat if nothing leaks from event to event.
   Linear time shows as a constant CPU per event across K; bounded memory as a flat ``stream`` RSS.
2. Concurrency.  1, 2 and 4 ``referee check`` processes of the sample game started together; wall time until
   all have finished and the CPU they used.  With C cores, k ≤ C processes should finish in about the wall
   time of one (throughput × k) and k > C in about k / C of it.  On a machine loaded by other work the wall
   clock is shared with them: read the load average printed beside the figures.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_LOG = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def child(path: str, copies: int, hold: str) -> None:
    """One measured process: ``copies`` replays of ``path`` as ``referee check --format json`` does them."""
    from referee.engine.replay import final_state, replay
    from referee.logs import read_log
    w0, c0 = time.perf_counter(), time.process_time()
    kept: list = []
    events = 0
    out_bytes = 0
    first = read_log(path) if hold == "same" else None
    with open(os.devnull, "w", encoding="utf-8") as sink:
        for _ in range(copies):
            log = first or read_log(path)
            result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
            events += len(log.events)
            rulings = [r.to_dict() for r in result.rulings]
            state = final_state(result.game)
            if hold == "keep":
                kept.extend(rulings)
                last_state = state
            else:
                buf = io.StringIO()
                json.dump({"rulings": rulings, "state": state}, buf, ensure_ascii=False, indent=1)
                out_bytes += len(buf.getvalue())
                sink.write(buf.getvalue())
            del result, rulings
            log = None
        if hold == "keep":
            buf = io.StringIO()
            json.dump({"rulings": kept, "state": last_state}, buf, ensure_ascii=False, indent=1)
            out_bytes = len(buf.getvalue())
            sink.write(buf.getvalue())
    print(json.dumps({"events": events, "cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - w0,
                      "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "out_bytes": out_bytes}))


def run_child(path: str, copies: int, hold: str) -> dict:
    out = subprocess.run([sys.executable, __file__, path, "--child", str(copies), "--hold", hold],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def concurrent_checks(path: str, k: int) -> tuple[float, float]:
    """(wall s until all k have finished, CPU s of all k) for k ``referee check`` processes started together."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        procs = [subprocess.Popen([sys.executable, "-m", "referee.cli", "check", path, "--format", "json"],
                                  stdout=sink, env=env) for _ in range(k)]
        codes = [p.wait() for p in procs]
    wall = time.perf_counter() - w0
    if any(codes):
        raise SystemExit(f"referee check failed: exit codes {codes}")
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", nargs="?", default=str(DEFAULT_LOG))
    ap.add_argument("--sizes", default="1,2,5,10")
    ap.add_argument("--holds", default="keep,stream,same")
    ap.add_argument("--procs", default="1,2,4")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of the concurrency runs (medians)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--hold", default="keep", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.log, args.child, args.hold)
        return 0

    print(f"{Path(args.log).name} concatenated K times; {os.cpu_count()} cores; load average {load()}")
    print("  (CPU and wall from the first read of the log to the last byte written, imports excluded; 'marginal' "
          "is (CPU(K) − CPU(first K)) / the added events: the cost of one more event once the scenario is loaded)")
    for hold in args.holds.split(","):
        first: dict | None = None
        for k in (int(x) for x in args.sizes.split(",")):
            r = run_child(args.log, k, hold)
            per = r["cpu_s"] / r["events"] * 1e6
            marginal = ""
            if first is None:
                first = r
            else:
                m = (r["cpu_s"] - first["cpu_s"]) / (r["events"] - first["events"]) * 1e6
                marginal = f", marginal {m:6.1f} µs/event"
            print(f"  {hold:6s} K={k:2d}: {r['events']:6d} events, CPU {r['cpu_s']:7.2f} s = {per:6.1f} µs/event"
                  f"{marginal}, wall {r['wall_s']:7.2f} s, peak RSS {r['maxrss_mib']:6.1f} MiB, "
                  f"{r['out_bytes'] / 2**20:6.1f} MiB JSON (load average {load()})", flush=True)

    print(f"\nconcurrent `referee check {Path(args.log).name} --format json` processes, "
          f"medians of {args.rounds} rounds:")
    ks = [int(x) for x in args.procs.split(",")]
    walls: dict[int, list[float]] = {k: [] for k in ks}
    cpus: dict[int, list[float]] = {k: [] for k in ks}
    for _ in range(args.rounds):
        for k in ks:
            w, c = concurrent_checks(args.log, k)
            walls[k].append(w)
            cpus[k].append(c)
    w1 = statistics.median(walls[ks[0]]) / ks[0]
    for k in ks:
        w, c = statistics.median(walls[k]), statistics.median(cpus[k])
        print(f"  {k} at once: wall {w:6.2f} s for all, CPU {c / k:5.2f} s per process; throughput "
              f"{k * w1 / w:4.2f}× one process's (ideal on {os.cpu_count()} cores: {min(k, os.cpu_count()):d}×) "
              f"(load average {load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
