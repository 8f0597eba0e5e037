"""Legal-action listing per call, the kept candidates (``candidates``) against the from-scratch listing, A/B.

    .venv/bin/python bench/bench_listing.py [LOG] [--rounds N] [--profile]

Replays LOG (default the sample *Borodino* game) and times ``legal_actions`` alone (CPU) at every position where
an action is due, as ``bench_peer_rtt.py`` part (c) does; each round runs both variants, interleaved, each in a
fresh game; the medians and their ratio are printed, with the entries kept and computed.  ``--profile`` prints a
cProfile of one kept-candidates pass instead.  Compare with the RTT peer through ``bench_peer_rtt.py``.
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", nargs="?", default=str(ROOT / "tests/fixtures/logs/sample-borodino.json"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    log = read_log(args.log)
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
