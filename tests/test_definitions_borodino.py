"""The Borodino data (written by the data engineer against docs/definitions.md) validates, loads, and its
resolved form comes back to an equal model."""
from __future__ import annotations

from pathlib import Path

import pytest

from modulebuilder.definitions import load_resolved, load_scenario, resolve, validate_files

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
DATA = [*SCENARIOS, *sorted((ROOT / "maps").glob("*.yaml")), *sorted((ROOT / "tables").glob("*.yaml")),
        *sorted((ROOT / "counters").glob("*/*.yaml"))]

pytestmark = pytest.mark.skipif(not SCENARIOS, reason="no game data in this checkout")


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_all_game_data_validates() -> None:
    assert [str(p) for p in validate_files([p.relative_to(ROOT) for p in DATA])] == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_resolved_round_trip(path: Path) -> None:
    scenario = load_scenario(path.relative_to(ROOT))
    assert load_resolved(resolve(scenario)) == scenario


def test_borodino_has_both_armies_on_the_map() -> None:
    s = load_scenario("scenarios/borodino.yaml")
    assert {x.name for x in s.sides} == {"French", "Russian"}
    assert len(s.counters.units) > 200
    assert all(p.hex is None or s.map.grid.columns > 0 for p in s.setup)
