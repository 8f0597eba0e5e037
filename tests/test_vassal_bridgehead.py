"""Bridgehead (examples/bridgehead, the classic-hex game) as a VASSAL module, built here and checked in the
REAL engine: every unit on its set-up hex, a d6 button (its README 1.3), its American-then-German Movement
and Combat phases (2.1-2.2), its tables (TEC, CRT) in the Charts window.  Its distribution must be installed
for its definitions to load (its contribution says what its fields and tables are): the fixture installs it
as the game's README says (unless it is installed already), or skips with pip's reason."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from bridgehead_dist import ensure_installed
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def scenario():
    from modulebuilder.definitions import DefinitionError, load_scenario
    from modulebuilder.definitions import rulesets
    why = ensure_installed()                 # only when not installed already: see bridgehead_dist
    if why:
        pytest.skip(why)
    for f in (getattr(rulesets, n) for n in dir(rulesets)):
        if hasattr(f, "cache_clear"):
            f.cache_clear()
    try:
        return load_scenario(GAME / "scenarios" / "bridgehead.yaml")
    except DefinitionError as exc:
        pytest.skip(f"the definitions loader refuses the Bridgehead data: {str(exc).splitlines()[0]}")


@pytest.fixture(scope="module")
def module(scenario, tmp_path_factory) -> Path:
    return build([scenario], tmp_path_factory.mktemp("bridgehead")).path


def test_the_module_has_a_d6_its_phases_and_its_tables(module):
    text = zipfile.ZipFile(module).read("buildFile.xml").decode()
    assert 'nSides="6"' in text and 'plus="0"' in text and 'text="d6 (1-6)"' in text
    assert "American Movement Phase,American Combat Phase,German Movement Phase,German Combat Phase" in text
    assert 'chartName="CRT"' in text and "chart-crt.png" in text and "VASSAL.build.module.map.DrawPile" not in text


@pytest.mark.vassal
def test_bridgehead_loads_in_the_engine_with_every_unit_on_its_hex(engine, scenario, module, tmp_path: Path):
    with zipfile.ZipFile(module) as z:
        (tmp_path / "bridgehead.vsav").write_bytes(z.read("bridgehead.vsav"))
    run = enginecheck.vcheck(module, tmp_path / "bridgehead.vsav", props=("UnitId",))
    assert run.ok, run.problems or run.lines[-5:]
    where = {p.props["UnitId"]: (p.map, p.location) for p in run.pieces_after("loaded")}
    for p in scenario.setup:
        assert where[p.unit] == ("Main Map", p.hex), p
    assert not [ln for ln in run.lines if ln.startswith("slot ") and "reEncodedIdentical=true" not in ln]

    view = enginecheck.probe(module, tmp_path / "bridgehead.vsav", tmp_path, "next=4")
    assert view.run.ok, view.run.problems
    buttons = [b.split(" | ")[0] for b in view.values("toolbar")]
    assert "d6 (1-6)" in buttons and "Charts" in buttons and buttons.count("Turn") == 1
    assert view.value("turn") == "Turn = Turn 1: American Movement Phase"
    assert view.value("turns").split(" ; ") == ["Turn 1: American Combat Phase", "Turn 1: German Movement Phase",
                                                "Turn 1: German Combat Phase", "Turn 2: American Movement Phase"]


@pytest.mark.vassal
def test_the_d6_button_rolls_one_to_six(engine, module, tmp_path: Path):
    import json
    import re
    with zipfile.ZipFile(module) as z:
        (tmp_path / "bridgehead.vsav").write_bytes(z.read("bridgehead.vsav"))
    script = tmp_path / "rolls.json"
    script.write_text(json.dumps([{"roll": "d6"}] * 40))
    run = enginecheck.vrecord(module, tmp_path / "bridgehead.vsav", script, tmp_path / "rolls.vlog")
    assert run.ok, run.problems or run.lines[-5:]
    shown = [int(m.group(1)) for ln in run.lines if "logged step" in ln
             for m in [re.search(r"CHAT\*\*\* d6 = (\d+) \*\*\*", ln)] if m]
    assert len(shown) == 40 and set(shown) <= set(range(1, 7)) and len(set(shown)) >= 4
