"""Random legal play: both sides choose uniformly (seeded) among the actions the ruleset lists as legal, the
referee rolls every die.  It checks the ruleset's promises — every listed action is ruled legal, nothing
crashes, the game never gets stuck and reaches the end of its last turn — and writes sample game logs.

    python -m referee.play --scenario borodino --seed 23 --out tests/fixtures/logs/sample-borodino.json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from referee.engine import registry
from referee.engine.replay import Game, new_game, step
from referee.engine.ruling import Ruling
from referee.logs import InputError
from referee.logs.jsonlog import load_scenario


class PlayError(AssertionError):
    """The ruleset broke a promise: a listed action was illegal, or the game got stuck."""


@dataclass
class PlayedGame:
    scenario_ref: Any
    seed: str
    events: list[dict[str, Any]] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    game: Game | None = None

    def log(self) -> dict[str, Any]:
        """The game as a DESIGN §5 log: referee dice, the seed, the events without rolls (re-derived)."""
        return {"scenario": self.scenario_ref, "dice": "referee", "seed": self.seed, "events": self.events}


def truncate(scenario: Any, turns: int | None) -> Any:
    """The scenario ending after ``turns`` turns (for short test games)."""
    if turns is None:
        return scenario
    tt = scenario.turns
    return replace(scenario, turns=replace(tt, last=min(tt.last, tt.first + turns - 1)))


def play_game(ruleset: Any, scenario: Any, seed: int | str, *, max_steps: int = 200_000,
              scenario_ref: Any = None) -> PlayedGame:
    rng = random.Random(f"choices:{seed}")
    game = new_game(ruleset, scenario, "referee", f"dice:{seed}")
    out = PlayedGame(scenario_ref=scenario_ref if scenario_ref is not None else scenario.id, seed=f"dice:{seed}")
    for i in range(max_steps):
        if ruleset.is_over(game.state):
            out.game = game
            return out
        actions = ruleset.legal_actions(game.state)
        if not actions:
            raise PlayError(f"stuck at step {i}: no legal action in {ruleset.progress(game.state)}")
        action = rng.choice(actions)
        ruling, game, _ = step(game, i, action)
        if not ruling.legal:
            raise PlayError(f"step {i}: listed action {action} was ruled illegal: "
                            + "; ".join(e.message for e in ruling.errors))
        if game.pending is not None:
            raise PlayError(f"step {i}: {action} owes a roll although the referee rolls")
        out.events.append(action)
        out.rulings.append(ruling)
    raise PlayError(f"no end after {max_steps} steps")


def dump_log(log: dict[str, Any]) -> str:
    """JSON with one event per line: small, diff-friendly and still readable."""
    head = {k: v for k, v in log.items() if k != "events"}
    lines = [json.dumps(head)[:-1] + ', "events": [']
    events = log["events"]
    lines += [" " + json.dumps(e) + ("," if i < len(events) - 1 else "") for i, e in enumerate(events)]
    return "\n".join(lines) + "\n]}\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m referee.play", description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", required=True, help="scenario id (scenarios/<id>.yaml) or a YAML/JSON file")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--turns", type=int, help="stop after this many turns")
    ap.add_argument("--out", help="write the game log here (JSON)")
    args = ap.parse_args(argv)
    try:
        scenario = load_scenario(args.scenario, Path.cwd())
    except InputError as exc:
        print("\n".join(exc.problems), file=sys.stderr)
        return 1
    ruleset = registry.get(scenario.ruleset)
    played = play_game(ruleset, truncate(scenario, args.turns), args.seed, scenario_ref=args.scenario)
    illegal = sum(not r.legal for r in played.rulings)
    print(f"{len(played.events)} events, {illegal} illegal, "
          f"final: {' / '.join(ruleset.progress(played.game.state))}", file=sys.stderr)
    if args.out:
        log = played.log()
        if args.turns:
            log["note"] = f"truncated to {args.turns} turns"
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(dump_log(log), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
