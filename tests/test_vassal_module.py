"""The module writer without the engine: determinism, grid mapping, facings, pieces, buildFile content."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from fixtures.vassal.scenarios import ALL_KINDS, grid, scenario
from modulebuilder.hexgrid import HexGrid
from modulebuilder.render.map import map_layout
from modulebuilder.vassal import facing
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal.gridmap import centre_point, location_name, vassal_grid
from modulebuilder.vassal.pieces import expand, piece_specs, placed_piece, prototype_traits
from modulebuilder.vassal.traits import Piece


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_every_hex_centre_and_engine_centre_names_its_own_hex(kind):
    s = scenario(grid(*kind))
    layout, _ = map_layout(s.map)
    g = vassal_grid(s.map.grid, layout.center)
    for name in HexGrid.from_model(s.map.grid).hexes():
        x, y = layout.center(name)
        assert location_name(g, round(x), round(y)) == name
        ex, ey = centre_point(g, name, 2)
        assert location_name(g, ex, ey) == name
        assert abs(ex - x) <= 1.5 and abs(ey - y) <= 1.5      # the engine's snap lands on our centre


def test_building_twice_gives_identical_bytes(tmp_path: Path):
    s = scenario(grid("flat", "odd", 13, 0))
    first = build([s], tmp_path / "a").path.read_bytes()
    (tmp_path / "b").mkdir()
    second = build([s], tmp_path / "b").path.read_bytes()    # cold cache again
    assert first == second
    assert build([s], tmp_path / "a").images_rendered == 0    # warm: nothing drawn


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_the_six_rotator_states_are_the_six_vertex_facings(orientation):
    hours = [facing.facing_hour(orientation, i) for i in range(6)]
    assert hours == list(HexGrid(orientation, "even").vertex_hours)
    assert [facing.rotator_state(orientation, h) for h in hours] == list(range(6))
    with pytest.raises(ValueError, match="not a hex vertex"):
        facing.rotator_state(orientation, hours[0] % 12 + 1)


def test_flat_grids_turn_the_art_30_degrees_with_a_fixed_second_rotator():
    flat = facing.facing_traits("flat", 1)
    assert [t.type.split(";")[1] for t in flat] == ["6", "12"] and flat[1].state == "1"
    assert len(facing.facing_traits("pointy", 12)) == 1


def test_expanding_a_palette_piece_gives_the_placed_piece():
    s = scenario(grid("pointy", "even", 2, 0))
    for spec in piece_specs(s.counters):
        protos = {spec.prototype: prototype_traits(spec.side, spec.kind, "pointy")}
        placed = placed_piece(spec, "pointy", "null", 0, 0)
        assert expand(spec.palette_piece(), protos) == Piece(placed.traits)


def test_buildfile_declares_what_the_module_needs(tmp_path: Path):
    s = scenario(grid("flat", "even", 1, 1))
    vmod = zipfile.ZipFile(build([s], tmp_path).path)
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    root = etree.fromstring(vmod.read("buildFile.xml"), parser)
    assert root.get("VassalVersion") == "3.7.0"
    assert b"<VassalVersion>3.7.0</VassalVersion>" in vmod.read("moduledata")
    names = set(vmod.namelist())
    images = {el.get("image") for el in root.iter() if el.get("image")}
    images |= {img for el in root.iter("VASSAL.build.widget.PieceSlot") for img in _images(el.text)}
    assert images and all(f"images/{i}" in names for i in images)
    dice = root.find("VASSAL.build.module.DiceButton")
    assert (dice.get("nSides"), dice.get("plus")) == ("10", "-1")
    level = root.find(".//VASSAL.build.module.turn.ListTurnLevel")
    assert level.get("list").split(",")[:2] == ["Turn 1 (0600)", "Turn 2 (0715)"]
    gpids = [int(el.get("gpid")) for el in root.iter("VASSAL.build.widget.PieceSlot")]
    assert len(set(gpids)) == len(gpids) and int(root.get("nextPieceSlotId")) > max(gpids)
    assert [el.get("file") for el in root.iter("VASSAL.build.module.PredefinedSetup")] == ["small.vsav"]
    assert b"dateSaved" not in vmod.read("moduledata")


def _images(text: str) -> set[str]:
    return {tok for tok in text.replace("\\", "").replace("\t", ";").split(";") if tok.endswith(".png")}


ROOT = Path(__file__).resolve().parents[1]
BORODINO = [ROOT / "scenarios" / "borodino.yaml", ROOT / "scenarios" / "schevardino.yaml"]


@pytest.mark.slow
@pytest.mark.skipif(not all(p.exists() for p in BORODINO), reason="the Borodino scenarios are not in this checkout")
def test_build_command_writes_borodino_then_skips_an_unchanged_rebuild(tmp_path: Path, capsys):
    import shutil
    from modulebuilder.cli import main
    from modulebuilder.vassal.savefile import read_game
    for folder in ("scenarios", "maps", "counters", "tables"):     # a private copy we may edit
        shutil.copytree(ROOT / folder, tmp_path / folder)
    scenarios = [str(tmp_path / "scenarios" / p.name) for p in BORODINO]
    out = tmp_path / "out"
    assert main(["build", *scenarios, "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    vmod = zipfile.ZipFile(out / "borodino.vmod")
    setups = [n for n in vmod.namelist() if n.endswith(".vsav")]
    assert sorted(setups) == ["borodino.vsav", "schevardino.vsav"]
    for name in setups:
        units = read_game(vmod.read(name)).by_unit()
        assert units and all(u.map in ("Main Map", "Holding") for u in units.values())

    assert main(["build", *scenarios, "--out", str(out)]) == 0
    assert "is up to date" in capsys.readouterr().out
    with open(tmp_path / "counters" / "borodino" / "french.yaml", "a") as f:
        f.write("\n# an edit, even a comment, means a rebuild\n")
    assert main(["build", *scenarios, "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    assert main(["build", *scenarios, "--out", str(out)]) == 0
    assert "is up to date" in capsys.readouterr().out
    with open(tmp_path / "tables" / "borodino.yaml", "a") as f:     # the Charts window is drawn from it
        f.write("\n# a tables edit means a rebuild too\n")
    assert main(["build", *scenarios, "--out", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out


def test_build_command_reports_a_bad_scenario_in_one_line(tmp_path: Path, capsys):
    from modulebuilder.cli import main
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\n")
    assert main(["build", str(bad), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.strip() and "Traceback" not in err


def test_holding_boxes_order_reinforcements_by_turn_then_the_rest():
    from modulebuilder.vassal import holding
    cells = {"withdrawn": 2, "reinforcement-later": 1, "reinforcement-10": 3, "reinforcement-3": 1}
    boxes = holding.boxes(cells, {"withdrawn": "Withdrawn"})
    assert [b.label for b in boxes] == ["Reinforcements, turn 3", "Reinforcements, turn 10",
                                        "Reinforcements, later", "Withdrawn"]
    lay = holding.layout(boxes, 50)
    for b in boxes:    # every cell lies inside its own box, so the engine names it by that box
        x0, y0, x1, y1 = lay.rects[b.key]
        assert len(lay.cells[b.key]) == b.cells
        assert all(x0 < x < x1 and y0 < y < y1 for x, y in lay.cells[b.key])


def test_scenarios_on_different_maps_get_a_map_each(tmp_path: Path):
    from modulebuilder.vassal.modulefile import read_module
    from modulebuilder.vassal.savefile import read_game
    a = scenario(grid("flat", "odd", 13, 0), "north", "north-map")
    b = scenario(grid("flat", "even", 2, 0), "south", "south-map")
    path = build([a, b], tmp_path).path
    module = read_module(path)
    assert set(module.grids) == {"Test map north-map", "Test map south-map"}
    assert module.grids["Test map south-map"].h_off != module.grids["Test map north-map"].h_off
    vmod = zipfile.ZipFile(path)
    for s, map_name in ((a, "Test map north-map"), (b, "Test map south-map")):
        units = read_game(vmod.read(f"{s.id}.vsav")).by_unit()
        on_map = [p for p in s.setup if p.hex]
        assert {units[p.unit].map for p in on_map} == {map_name}


def test_maps_of_both_orientations_in_one_module_are_refused(tmp_path: Path):
    a = scenario(grid("flat", "odd", 13, 0), "north", "north-map")
    b = scenario(grid("pointy", "even", 2, 0), "south", "south-map")
    with pytest.raises(ValueError, match="same orientation"):
        build([a, b], tmp_path)
