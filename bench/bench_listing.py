"""Legal-action listing per call, the kept candidates (``candidates``) against the from-scratch listing, A/B.

    .venv/bin/python bench/bench_listing.py [LOG] [--rounds N] [--profile]
    .venv/bin/python bench/bench_listing.py [LOG] --ab TREE_A TREE_B [--rounds N]
    .venv/bin/python bench/bench_listing.py [LOG] --free PART[,PART...] [--rounds N]

Replays LOG (default the sample *Borodino* game) and times ``legal_actions`` alone (CPU) at every position where
an action is due, as ``bench_peer_rtt.py`` part (c) does; each round runs both variants, interleaved, each in a
fresh game; the medians and their ratio are printed, with the entries kept and computed.  ``--profile`` prints a
cProfile of one kept-candidates pass instead.  ``--ab`` times two source trees instead (a change's figure on a
shared machine): one worker process per tree imports that tree's ``referee``, makes one warm-up pass, then the
two pass over the game in turn (A B, B A, A B ...), each reporting the CPU of its ``legal_actions`` calls;
printed: min, first quartile and median µs per call for each tree and the B/A ratios.  Compare with the RTT
peer through ``bench_peer_rtt.py``.

``--free`` is an ablation (``ablation.py``): what a call would cost if the named parts of the listing cost
nothing.  Each round makes a live pass that records the parts' answers, then a pass in a fresh game where they
answer from that record; both are timed with the cyclic collector off, and the medians are printed with the
parts' share of a call.  The parts (``FREE_PARTS``) are the listing's own steps as ``legal`` calls them:
``search`` (a unit's movement search and its paths, ``_search_paths``), ``moves`` (a unit's
whole list of moves, entries included), ``fire``, ``counter_battery``, ``rally``, ``assault`` (assault and
charge declarations) and ``orders`` (the individual-order predicate).  The passes are checked to list as many
actions in as many calls.
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

if "--worker" in sys.argv:                      # an A/B worker: the tree given, not this one
    sys.path.insert(0, sys.argv[sys.argv.index("--worker") + 1])
from ablation import answering, collector_off  # noqa: E402  (bench/, this script's folder)
from interleave import interleaved, print_ab  # noqa: E402
from referee.engine.replay import new_game, step  # noqa: E402
from referee.logs import read_log  # noqa: E402
from referee.rulesets.triumph_and_glory import candidates  # noqa: E402


def one_pass(log, scratch: bool, profile: cProfile.Profile | None = None) -> tuple[float, int, int, list[int]]:
    """(CPU s in legal_actions, calls, actions listed, [entries kept, computed]) over one fresh game."""
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    la = log.ruleset.legal_actions
    cpu = 0.0
    calls = listed = 0
    before = list(candidates.hits)
    ctx = candidates.from_scratch() if scratch else contextlib.nullcontext()
    with ctx:
        for i, event in enumerate(log.events):
            if game.pending is None and not log.ruleset.is_over(game.state):
                if profile:
                    profile.enable()
                c = time.process_time()
                listed += len(la(game.state))
                cpu += time.process_time() - c
                if profile:
                    profile.disable()
                calls += 1
            _, game, _ = step(game, i, event)
    return cpu, calls, listed, [a - b for a, b in zip(candidates.hits, before)]


FREE_PARTS = {"search": "_search_paths", "moves": "_unit_moves", "fire": "fire_actions",
              "counter_battery": "counter_battery_actions", "rally": "rally_actions", "assault": "assault_actions",
              "orders": "individual_order_error"}


def free(log, parts: list[str], rounds: int) -> int:
    """The ablation (see the module's docstring): live and free passes alternated, medians printed."""
    unknown = [p for p in parts if p not in FREE_PARTS]
    if unknown:
        print(f"bench_listing: unknown part(s) {', '.join(unknown)} (known: {', '.join(FREE_PARTS)})",
              file=sys.stderr)
        return 2
    from referee.rulesets.triumph_and_glory import legal
    one_pass(log, False)                                  # warm: the static map's tables, the imports
    live_us, free_us = [], []
    for _ in range(rounds):
        record: dict[str, list] = {FREE_PARTS[p]: [] for p in parts}
        with answering(legal, record, live=True), collector_off():
            cpu, calls, listed, _ = one_pass(log, False)
        live_us.append(cpu / calls * 1e6)
        with answering(legal, record, live=False), collector_off():
            cpu_f, calls_f, listed_f, _ = one_pass(log, False)
        free_us.append(cpu_f / calls_f * 1e6)
        assert (calls, listed) == (calls_f, listed_f), "the free pass listed other actions"
    lv, fr = statistics.median(live_us), statistics.median(free_us)
    print(f"{calls} calls, {listed / calls:.1f} actions listed per call")
    print(f"live               {lv:8.1f} µs CPU/call  (rounds: {', '.join(f'{x:.0f}' for x in live_us)})")
    print(f"{'+'.join(parts) + ' free':18} {fr:8.1f} µs CPU/call  (rounds: {', '.join(f'{x:.0f}' for x in free_us)})")
    # The share from each round's own pair (the two passes run back to back): steadier on a shared machine
    # than the ratio of the medians, which come from different rounds.
    kept = statistics.median(f / v for f, v in zip(free_us, live_us))
    print(f"share of a call {100 * (1 - kept):.1f} % (median of the rounds' free/live; "
          f"{100 * (lv - fr) / lv:.1f} % from the medians); the call {1 / kept:.2f}× faster without them")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    return 0


def worker(log_path: str) -> None:
    log = read_log(log_path)
    one_pass(log, False)
    print("ready", flush=True)
    for _ in sys.stdin:
        cpu, calls, _, _ = one_pass(log, False)
        print(cpu / calls * 1e6, flush=True)


def ab(trees: list[str], log_path: str, rounds: int) -> int:
    trees = [str(Path(t).resolve()) for t in trees]
    times = interleaved([[__file__, log_path, "--worker", t] for t in trees], trees, rounds)
    if times is None:
        return 1
    print_ab(trees, times, "call", "passes")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", nargs="?", default=str(ROOT / "tests/fixtures/logs/sample-borodino.json"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--ab", nargs=2, metavar=("TREE_A", "TREE_B"))
    ap.add_argument("--free", metavar="PARTS", help="comma-separated parts of the listing answered from a record "
                    f"(ablation): {', '.join(FREE_PARTS)}")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(str(Path(args.log).resolve()))
        return 0
    if args.ab:
        return ab(args.ab, str(Path(args.log).resolve()), args.rounds)
    log = read_log(args.log)
    if args.free:
        return free(log, args.free.split(","), args.rounds)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    if args.profile:
        pr = cProfile.Profile()
        one_pass(log, False, pr)
        st = pstats.Stats(pr)
        st.sort_stats("cumulative").print_stats(40)
        st.sort_stats("tottime").print_stats(25)
        return 0
    kept_us, scratch_us = [], []
    for _ in range(args.rounds):
        cpu, calls, listed, hits = one_pass(log, False)
        kept_us.append(cpu / calls * 1e6)
        cpu_s, calls_s, listed_s, _ = one_pass(log, True)
        scratch_us.append(cpu_s / calls_s * 1e6)
        assert listed == listed_s, "the two listings differ"
    k, s = statistics.median(kept_us), statistics.median(scratch_us)
    print(f"{calls} calls, {listed / calls:.1f} actions listed per call; entries kept {hits[0]}, computed {hits[1]}")
    print(f"kept candidates {k:8.1f} µs CPU/call  (rounds: {', '.join(f'{x:.0f}' for x in kept_us)})")
    print(f"from scratch    {s:8.1f} µs CPU/call  (rounds: {', '.join(f'{x:.0f}' for x in scratch_us)})")
    print(f"speed-up {s / k:.2f}×")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
