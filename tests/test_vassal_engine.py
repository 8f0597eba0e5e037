"""The module in the REAL VASSAL engine (shared/tools/vassal-check): grids, set-ups, Borodino.

Skipped with a reason when the engine is not installed, except with CI=true, where the session installs
it first (the tools' own one-time set-up) and the tests must run.
"""
from __future__ import annotations

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
from modulebuilder.vassal.holding import STANDARD_BOXES

pytestmark = pytest.mark.vassal
PROPS = ("UnitId", "Facing_Facing", "Disorder_Active")
ROOT = Path(__file__).resolve().parents[1]




def _setup_files(vmod: Path, out: Path) -> list[Path]:
    with zipfile.ZipFile(vmod) as z:
        names = [n for n in z.namelist() if n.endswith(".vsav")]
        for n in names:
            (out / n).write_bytes(z.read(n))
    return [out / n for n in names]


def _round(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def _towards(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


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
    # each hex centre, then six points half-way to its corners (a piece dropped off-centre)
    points = [_round(layout.center(h)) for h in hexes]
    inner = [(h, _round(_towards(layout.center(h), corner, 0.5))) for h in hexes for corner in layout.corners(h)]
    run = enginecheck.vcheck(vmod, save, props=PROPS, points=points + [p for _, p in inner])
    assert run.ok, run.problems or run.lines[-5:]
    centres, off = run.locations[:len(hexes)], run.locations[len(hexes):]
    assert [loc[2] for loc in centres] == hexes                  # the engine's name of every centre
    assert all(abs(sx - x) <= 2 and abs(sy - y) <= 2 for x, y, _, sx, sy in centres)   # snap stays put
    snap = {h: (c[3], c[4]) for h, c in zip(hexes, centres)}
    assert [loc[2] for loc in off] == [h for h, _ in inner]      # an off-centre drop names its hex ...
    assert [(loc[3], loc[4]) for loc in off] == [snap[h] for h, _ in inner]   # ... and snaps to its centre
    assert_engine_places_every_unit(s, run)
    assert_boxes(s, run)


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
    layout, _ = map_layout(scenarios[0].map)
    hexes = HexGrid.from_model(scenarios[0].map.grid).hexes()
    for i, s in enumerate(scenarios):
        # the first run also asks the engine to name the centre of every hex of the map
        points = [(round(layout.center(h)[0]), round(layout.center(h)[1])) for h in hexes] if i == 0 else []
        run = enginecheck.vcheck(vmod, saves[s.id], props=PROPS, points=points)
        assert run.ok, run.problems[:10]
        if points:
            assert [loc[2] for loc in run.locations] == hexes
        assert_engine_places_every_unit(s, run)
        assert_boxes(s, run)


def assert_boxes(scenario_: Scenario, run: enginecheck.EngineRun) -> None:
    """Units set up in a box, and reinforcements, are in the holding box the engine names."""
    where = {p.props["UnitId"]: (p.map, p.location) for p in run.pieces_after("loaded")}
    on_map = {p.unit for p in scenario_.setup if p.hex}
    for r in scenario_.reinforcements:
        label = f"Reinforcements, turn {r.turn}" if r.turn is not None else "Reinforcements, later"
        for uid in r.units:
            if uid not in on_map:
                assert where[uid] == ("Holding", label), uid
    reinforcing = {u for r in scenario_.reinforcements for u in r.units}
    labels = {**dict(STANDARD_BOXES), **scenario_.map.boxes}
    for p in scenario_.setup:
        if p.box and p.box != "reinforcement" and p.unit not in reinforcing:
            assert where[p.unit] == ("Holding", labels[p.box]), p
