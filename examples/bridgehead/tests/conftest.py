"""Bridgehead's own tests, run from this folder (``python -m pytest -q tests``): the rules on the game's real
data (its scenario, map, counters and tables, loaded by the definitions loader), situations made by moving
the set-up, and the sample game."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))            # this folder's classic_hex, installed or not

from classic_hex import RULESET  # noqa: E402
from referee.engine.replay import replay  # noqa: E402

SCENARIO = HERE / "scenarios" / "bridgehead.yaml"


@pytest.fixture(scope="session")
def bridgehead() -> Any:
    from modulebuilder.definitions import DefinitionError, load_scenario
    from classic_hex.state import factor
    try:
        scenario = load_scenario(SCENARIO)
    except DefinitionError as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        pytest.skip(f"the definitions loader refuses the Bridgehead data ({problems[0]}; "
                    f"{len(problems)} problems): it needs the per-ruleset schemas")
    if factor(scenario.counters.units[0], "attack") is None:
        pytest.skip("the definitions model does not carry a game's factor fields (attack, defence, movement) yet")
    return scenario


def placed(scenario: Any, tables: dict | None = None, **hexes: str | None) -> Any:
    """The scenario with only the named units on the map, at the given hexes (``us_14_tk="0605"``)."""
    wanted = {k.replace("_", "-"): v for k, v in hexes.items()}
    from modulebuilder.model import Placement
    setup = tuple(Placement(unit=uid, hex=h) for uid, h in wanted.items() if h is not None)
    kept = tuple(u for u in scenario.counters.units if u.id in wanted)
    out = replace(scenario, setup=setup, counters=replace(scenario.counters, units=kept))
    if tables:
        out = replace(out, tables={**scenario.tables, **tables})
    return out


def run(scenario: Any, *events: dict[str, Any], dice: str = "players", seed: str | None = None):
    """Replay events; (rulings as dicts, final state)."""
    r = replay(RULESET, scenario, list(events), dice=dice, seed=seed)
    return [x.to_dict() for x in r.rulings], r.game.state


def last(scenario: Any, *events: dict[str, Any]) -> dict[str, Any]:
    rulings, _ = run(scenario, *events)
    for x in rulings[:-1]:
        assert x["verdict"] == "legal", x
    return rulings[-1]


END = {"type": "end_phase"}
