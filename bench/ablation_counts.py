"""The ablation of ``bench_listing.py --free`` and ``bench_replay.py --free`` in instructions, not seconds: run under
cachegrind, which counts the same on a loaded machine.

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/ablation_counts.py listing|replay PARTS STAGE [LOG]

PARTS: for ``listing`` the names of ``bench_listing.FREE_PARTS`` (``moves``, ``search``, ``fire`` ...), for
``replay`` ``MODULE.FUNCTION`` of the T&G ruleset (``movement.check_move``), comma-separated.  Each STAGE runs
the one before it and one step more, so the difference of two runs' totals is that step alone:

* ``listing``: 0 = start-up, a warm-up pass, then the positions of the log stepped (no listing); 1 = 0 and the
  live listing over them, recording the parts' answers; 2 = 1 and the positions stepped again; 3 = 2 and the
  listing over those with the parts answered from the record.  Live = I(1) − I(0), free = I(3) − I(2).  The
  listing is asked over positions stepped beforehand so that a pass counts the listing alone: asked while
  stepping, as ``bench_listing.py`` times it, the replay would also run on memos the listing filled.
* ``replay``: 0 = start-up and a warm-up replay; 1 = 0 and a live replay, recording; 2 = 1 and a replay
  answering from the record.  Live = I(1) − I(0), free = I(2) − I(1).

The cyclic collector is off throughout (see ``ablation.py``); the listings and rulings are checked equal.
"""
from __future__ import annotations

import gc
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ablation import answering, answering_all, functions_of  # noqa: E402  (bench/, this script's folder)
from bench_listing import FREE_PARTS  # noqa: E402
from referee.engine.replay import new_game, replay, step  # noqa: E402
from referee.logs import read_log  # noqa: E402

DEFAULT_LOG = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def positions(log) -> list:
    """The state at every position where an action is due (as ``bench_listing.one_pass`` asks the listing)."""
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    out = []
    for i, event in enumerate(log.events):
        if game.pending is None and not log.ruleset.is_over(game.state):
            out.append(game.state)
        _, game, _ = step(game, i, event)
    return out


def listing(log, parts: list[str], stage: int) -> None:
    from referee.rulesets.triumph_and_glory import legal
    la = log.ruleset.legal_actions
    record: dict[str, list] = {FREE_PARTS[p]: [] for p in parts}
    listed = [sum(len(la(s)) for s in positions(log))]         # warm-up
    states = positions(log)
    if stage >= 1:
        with answering(legal, record, live=True):
            listed.append(sum(len(la(s)) for s in states))
    if stage >= 2:
        states = positions(log)
    if stage >= 3:
        with answering(legal, record, live=False):
            listed.append(sum(len(la(s)) for s in states))
    assert len(set(listed)) == 1, f"the passes listed {listed} actions"


def replayed(log, names: list[str], stage: int) -> None:
    records = functions_of("referee.rulesets.triumph_and_glory", names)

    def rulings(live: bool) -> list:
        with answering_all(records, live):
            return replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False).rulings

    first = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False).rulings   # warm-up
    for live in (True, False)[:stage]:
        # Compared by the records' own equality, in every pass alike, so that it adds the same to live and free.
        assert rulings(live) == first, "the replay ruled otherwise"


def main() -> int:
    what, parts, stage = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
    log = read_log(sys.argv[4] if len(sys.argv) > 4 else str(DEFAULT_LOG))
    gc.disable()
    if what == "listing":
        listing(log, parts, stage)
    elif what == "replay":
        try:
            replayed(log, parts, stage)
        except LookupError as exc:
            print(f"ablation_counts: {exc}", file=sys.stderr)
            return 2
    else:
        print("ablation_counts: listing or replay", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
