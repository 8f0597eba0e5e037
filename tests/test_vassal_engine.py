"""The module in the REAL VASSAL engine (shared/tools/vassal-check): grids, set-ups, Borodino.

Skipped with a reason when the engine is not installed, except with CI=true, where the session installs
it first (the tools' own one-time set-up) and the tests must run.
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from fixtures.vassal.scenarios import ALL_KINDS, grid, scenario
from modulebuilder.hexgrid import HexGrid
from modulebuilder.model import Scenario
from modulebuilder.render.map import map_layout
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal.facing import facing_hour

pytestmark = pytest.mark.vassal
PROPS = ("UnitId", "Facing_Facing", "Disorder_Active")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def engine() -> None:
    reason = enginecheck.unavailable()
    if reason and os.environ.get("CI") == "true":
        enginecheck.prepare()
        reason = enginecheck.unavailable()
        if reason:
            pytest.fail(f"CI=true but the VASSAL engine could not be prepared: {reason}")
    if reason:
        pytest.skip(reason)


def _setup_files(vmod: Path, out: Path) -> list[Path]:
    with zipfile.ZipFile(vmod) as z:
        names = [n for n in z.namelist() if n.endswith(".vsav")]
        for n in names:
            (out / n).write_bytes(z.read(n))
    return [out / n for n in names]


def assert_engine_places_every_unit(scenario_: Scenario, run: enginecheck.EngineRun) -> None:
    """Hex, facing, disorder and stacking of every unit of ``scenario_`` as the engine reports them."""
    pieces = {p.props["UnitId"]: p for p in run.pieces_after("loaded") if p.props.get("UnitId", "null") != "null"}
    orientation = scenario_.map.grid.orientation
    kinds = {u.id: u for u in scenario_.counters.units}
    for placement in scenario_.setup:
        if placement.hex is None:
            continue
        p = pieces[placement.unit]
        assert (p.map, p.location) == ("Main Map", placement.hex), placement
        if placement.unit in kinds:
            hour = placement.facing if placement.facing is not None else facing_hour(orientation, 0)
            assert facing_hour(orientation, int(p.props["Facing_Facing"]) - 1) == hour, placement
            if kinds[placement.unit].back is not None:
                assert p.props["Disorder_Active"] == str(placement.status == "disordered").lower(), placement
    # units sharing a hex share one engine stack
    by_hex: dict[str, set[str]] = {}
    for placement in scenario_.setup:
        if placement.hex:
            by_hex.setdefault(placement.hex, set()).add(pieces[placement.unit].parent)
    assert all(len(parents) == 1 for parents in by_hex.values())


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_engine_names_every_hex_and_places_the_set_up(engine, kind, tmp_path: Path):
    s = scenario(grid(*kind))
    vmod = build([s], tmp_path).path
    (save,) = _setup_files(vmod, tmp_path)
    layout, _ = map_layout(s.map)
    hexes = HexGrid.from_model(s.map.grid).hexes()
    points = [(round(layout.center(h)[0]), round(layout.center(h)[1])) for h in hexes]
    run = enginecheck.vcheck(vmod, save, props=PROPS, points=points)
    assert run.ok, run.problems or run.lines[-5:]
    assert [loc[2] for loc in run.locations] == hexes            # the engine's name of every centre
    assert all(abs(sx - x) <= 2 and abs(sy - y) <= 2 for x, y, _, sx, sy in run.locations)   # snap stays put
    assert_engine_places_every_unit(s, run)
    boxes = {p.props["UnitId"]: p.location for p in run.pieces_after("loaded")}
    assert boxes["psk-b"] == "Withdrawn" and boxes["psk-c"] == "Reinforcements, turn 3"


def test_engine_replays_the_recorded_log(engine):
    fx = ROOT / "tests" / "fixtures" / "vassal"
    run = enginecheck.vcheck(fx / "small.vmod", fx / "small.vsav", fx / "recorded.vlog", props=PROPS)
    assert run.ok, run.problems
    final = {p.props["UnitId"]: p for p in run.pieces_after("final:")}
    assert final["psk-a"].location == "1803" and final["guy-a"].props["Disorder_Active"] == "true"


BORODINO = [ROOT / "scenarios" / "borodino.yaml", ROOT / "scenarios" / "schevardino.yaml"]


@pytest.mark.skipif(not all(p.exists() for p in BORODINO), reason="the Borodino scenarios are not in this checkout")
def test_borodino_module_and_both_set_ups_in_the_engine(engine, tmp_path: Path):
    from modulebuilder.definitions import load_scenario
    scenarios = [load_scenario(p) for p in BORODINO]
    vmod = build(scenarios, tmp_path).path
    saves = {p.stem: p for p in _setup_files(vmod, tmp_path)}
    for s in scenarios:
        run = enginecheck.vcheck(vmod, saves[s.id], props=PROPS)
        assert run.ok, run.problems[:10]
        assert_engine_places_every_unit(s, run)
