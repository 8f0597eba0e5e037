"""Orne Bridgehead (examples/orne-1944), a game of another era with no referee ruleset, as a VASSAL module
checked in the REAL engine: every piece on its set-up hex of the painted map art, the flip of a two-step unit to its
reduced side (the engine's name, layer property and the back's own values), the d6 button and the game's own
phases on the turn track, no activation cup."""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from modulebuilder.definitions import load_scenario
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "orne-1944" / "scenarios" / "hill-112.yaml"
ART = ROOT / "examples" / "orne-1944" / "art"
PROPS = ("UnitId", "attack", "defence", "Reduced_attack", "Reduced_defence", "Reduced_Active")


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


@pytest.fixture(scope="module")
def module(scenario, tmp_path_factory) -> Path:
    return build([scenario], tmp_path_factory.mktemp("orne")).path


def _painter():
    """The example's painting script (examples/orne-1944/art/paint_map.py), for its hex centres."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("paint_map", ART / "paint_map.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_painted_map_is_what_its_script_paints_and_the_grid_is_offset() -> None:
    """The art in the repository is the script's output (deterministic), and hex 0101 is not at the corner."""
    import io
    painter = _painter()
    picture, anchors = painter.paint()
    buf = io.BytesIO()
    picture.save(buf, "JPEG", quality=90, optimize=True)
    assert buf.getvalue() == (ART / "orne.jpg").read_bytes()
    assert anchors == {"0101": (101, 87), "1612": (1316, 1163)}
    first = painter.centre("0101")
    assert first[0] - painter.SIZE > 40 and first[1] - painter.SIZE * 3 ** 0.5 / 2 > 30


def _setup(module: Path, tmp_path: Path) -> Path:
    with zipfile.ZipFile(module) as z:
        (tmp_path / "hill-112.vsav").write_bytes(z.read("hill-112.vsav"))
    return tmp_path / "hill-112.vsav"


@pytest.mark.vassal
def test_every_piece_stands_on_its_hex_in_the_engine(engine, scenario, module, tmp_path: Path):
    run = enginecheck.vcheck(module, _setup(module, tmp_path), props=PROPS)
    assert run.ok, run.problems or run.lines[-5:]
    pieces = {p.props["UnitId"]: p for p in run.pieces_after("loaded")}
    assert len(pieces) == len(scenario.setup) == 18
    painter = _painter()
    for p in scenario.setup:
        piece = pieces[p.unit]
        assert (piece.map, piece.location) == ("Main Map", p.hex), p
        # on its hex of the painted map: where the painting script drew that hex (the grid is offset from the
        # image's corner; the module's map is the art at its own pixels)
        x, y = painter.centre(p.hex)
        assert abs(piece.x - x) <= 1 and abs(piece.y - y) <= 1, (p, piece.x, piece.y, x, y)
    assert not [ln for ln in run.lines if ln.startswith("slot ") and "reEncodedIdentical=true" not in ln]
    assert "dice: d6 nSides=6 plus=0" in run.lines
    assert not [ln for ln in run.lines if "Activation cup" in ln or "Disorder" in ln]


@pytest.mark.vassal
def test_the_flip_shows_the_reduced_side_with_its_own_values(engine, module, tmp_path: Path):
    script = tmp_path / "flip.json"
    script.write_text(json.dumps([{"menu": "7 RTR", "item": "Reduced"}, {"key": "s.Pz 102", "keystroke": "70,130"},
                                  {"roll": "d6"}] + [{"roll": "d6"}] * 29))
    run = enginecheck.vrecord(module, _setup(module, tmp_path), script, tmp_path / "flip.vlog", props=PROPS)
    assert run.ok, run.problems or run.lines[-5:]
    final = {p.props["UnitId"]: p for p in run.pieces_after("final:") if p.props.get("UnitId") != "null"}
    rtr, tiger, other = final["br-7-rtr"], final["de-s-102"], final["br-9-rtr"]
    assert rtr.name == "7 RTR (Reduced)" and rtr.props["Reduced_Active"] == "true"
    assert (rtr.props["attack"], rtr.props["Reduced_attack"], rtr.props["Reduced_defence"]) == ("6", "3", "3")
    assert tiger.name == "s.Pz 102 (Reduced)" and tiger.props["Reduced_attack"] == "4"
    assert other.name == "9 RTR" and other.props["Reduced_Active"] == "false"
    assert rtr.location == "0304" and tiger.location == "1406"
    shown = [int(m.group(1)) for ln in run.lines if "logged step" in ln
             for m in [re.search(r"CHAT\*\*\* d6 = (\d+) \*\*\*", ln)] if m]
    assert len(shown) == 30 and set(shown) <= set(range(1, 7)) and len(set(shown)) >= 4


@pytest.mark.vassal
def test_the_player_sees_the_games_die_and_phases(engine, module, tmp_path: Path):
    view = enginecheck.probe(module, _setup(module, tmp_path), tmp_path, "next=3", "menu=7 RTR")
    assert view.run.ok, view.run.problems
    buttons = [b.split(" | ")[0] for b in view.values("toolbar")]
    assert "d6 (1-6)" in buttons and buttons.count("Turn") == 1
    assert view.value("turn") == "Turn = Turn 1 (0500): British Movement Phase"
    assert view.value("turns").split(" ; ") == ["Turn 1 (0500): British Combat Phase",
                                                "Turn 1 (0500): British Exploitation Phase",
                                                "Turn 1 (0500): German Movement Phase"]
    menus = dict(v.split(" = ", 1) for v in view.values("pieceMenu"))
    assert menus["7 RTR"].split(" ; ") == ["Reduced  Ctrl+F", "Delete  Delete"]      # the flip; no facing
