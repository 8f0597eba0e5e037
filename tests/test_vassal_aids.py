"""The module's Charts (render/charts.py, from the tables file), Notes and About, without the engine."""
from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest
import yaml
from PIL import Image

from modulebuilder.render.charts import charts, chart_pngs, render_chart
from modulebuilder.vassal import about
from modulebuilder.vassal.savefile import read_game

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "tables" / "borodino.yaml"


@pytest.fixture(scope="module")
def tables():
    return yaml.safe_load(TABLES.read_text())


def test_every_section_of_the_tables_file_is_on_a_chart(tables):
    keys = {c.key.split("-")[0] for c in charts(tables)}
    assert {k for k in tables if k not in ("game", "note")} == keys
    movement = next(c for c in charts(tables) if c.key == "movement_costs-rows")
    assert movement.columns == ("Terrain", "Infantry", "Cavalry", "Artillery", "Commander")
    woods = next(r for r in movement.rows if r[0] == "Woods")
    assert woods == ("Woods", "2", "3 D", "3", "2")             # cavalry 3 MP and Disordered
    odds = next(c for c in charts(tables) if c.key == "odds")
    assert odds.rows[0] == ("4:1", "+4") and odds.rows[-1] == ("0:1", "-4")
    results = next(c for c in charts(tables) if c.key == "shock_results")
    assert [r[0] for r in results.rows] == ["-1 or less", "0-4", "5-9", "10 or more"]


def test_charts_are_the_same_bytes_every_time_and_scale_for_print(tables):
    first = [hashlib.sha256(d).hexdigest() for _, d in chart_pngs(tables)]
    assert first == [hashlib.sha256(d).hexdigest() for _, d in chart_pngs(tables)]
    chart = charts(tables)[0]
    screen, paper = render_chart(chart, 1.6), render_chart(chart, 300 / 72)
    assert paper.width > 2.4 * screen.width


def test_the_module_carries_every_chart_the_notes_and_the_about_screen(tmp_path: Path):
    from modulebuilder.definitions import load_scenario
    from modulebuilder.vassal.assemble import build
    scenarios = [load_scenario(ROOT / "scenarios" / n) for n in ("borodino.yaml", "schevardino.yaml")]
    vmod = zipfile.ZipFile(build(scenarios, tmp_path).path)
    build_file = vmod.read("buildFile.xml").decode()
    for chart in charts(scenarios[0].tables):
        assert f"images/{chart.image_name}" in vmod.namelist() and f'fileName="{chart.image_name}"' in build_file
    assert 'VASSAL.build.module.NotesWindow' in build_file
    about_png = Image.open(io.BytesIO(vmod.read("images/about.png")))
    assert about_png.width >= 600
    page = vmod.read("help/about.html").decode()
    assert "Module version 1.0" in page
    assert "scenarios/borodino.yaml" in page and "counters/borodino/french.yaml" in page
    notes = [c for c in read_game(vmod.read("schevardino.vsav")).setup_commands if c.startswith("NOTES\t")]
    assert len(notes) == 1 and "Schevardino" in notes[0] and "SCH-COMMAND" in notes[0]


def test_the_version_comes_from_the_game_data_when_it_gives_one():
    import dataclasses
    from modulebuilder.definitions import load_scenario
    from modulebuilder.model import GameDef
    s = load_scenario(ROOT / "scenarios" / "schevardino.yaml")
    assert about.module_version([s]) == (s.game.version or about.DEFAULT_VERSION)
    assert about.module_version([dataclasses.replace(s, game=GameDef(version="2.1"))]) == "2.1"
    assert about.module_version([dataclasses.replace(s, game=GameDef())]) == about.DEFAULT_VERSION


def test_place_names_lie_below_the_counter_so_a_counter_does_not_hide_them():
    import dataclasses
    from PIL import ImageChops
    from modulebuilder.definitions import load_scenario
    from modulebuilder.render.map import map_layout, render_map
    from modulebuilder.vassal.assemble import default_counter_size
    from modulebuilder.vassal.mapnames import module_map_png
    mapdef = load_scenario(ROOT / "scenarios" / "schevardino.yaml").map
    assert mapdef.names["3908"] == "Schevardino Redoubt"
    counter = default_counter_size(mapdef, None)
    named = Image.open(io.BytesIO(module_map_png(mapdef, None, counter))).convert("RGB")
    bare = render_map(dataclasses.replace(mapdef, names={}))[0].convert("RGB")
    printed = render_map(mapdef)[0].convert("RGB")
    layout, _ = map_layout(mapdef)
    cx, cy = (round(v) for v in layout.center("3908"))
    half = counter // 2
    under = (cx - half, cy - half, cx + half, cy + half)           # what a counter in 3908 covers
    below = (cx - half, cy + half, cx + half, cy + round(layout.size * 0.87))
    assert ImageChops.difference(named.crop(under), bare.crop(under)).getbbox() is None
    assert ImageChops.difference(named.crop(below), bare.crop(below)).getbbox() is not None
    assert ImageChops.difference(printed.crop(under), bare.crop(under)).getbbox() is not None   # the old place
