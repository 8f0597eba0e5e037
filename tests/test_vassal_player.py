"""The module as a player sees it, in the REAL engine's player window (modulebuilder/vassal/probe/VProbe.java
under Xvfb): one turn track with the set-up's own turns and phases, Charts / Notes / About, the palette open at
the start, Delete last in a unit's menu, the map opening zoomed to fit.  Each of these failed on the old module.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from modulebuilder.definitions import load_scenario
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal.turns import TG_PHASES

pytestmark = pytest.mark.vassal
ROOT = Path(__file__).resolve().parents[1]
BORODINO = [ROOT / "scenarios" / "borodino.yaml", ROOT / "scenarios" / "schevardino.yaml"]
MAP_LINE = re.compile(r"^(\S.*?) zoom=([\d.]+) size=(\d+)x(\d+) visible=(\d+)x(\d+) showing=(\w+)$")
NAME = "Borodino, 7 September 1812"


@pytest.fixture(scope="module")
def borodino(engine, tmp_path_factory):
    out = tmp_path_factory.mktemp("player")
    vmod = build([load_scenario(p) for p in BORODINO], out).path
    with zipfile.ZipFile(vmod) as z:
        for n in ("borodino.vsav", "schevardino.vsav"):
            (out / n).write_bytes(z.read(n))
    view = enginecheck.probe(vmod, out / "borodino.vsav", out, "menu=Old Gd Gren a", "menu=AM I Corps (Davout) 1",
                             "next=7", "charts=charts")
    assert view.run.ok, view.run.problems or view.run.lines[-10:]
    return vmod, out, view


def test_one_turn_button_whose_track_is_borodino_turns_and_the_t_and_g_phases(borodino):
    _, _, view = borodino
    buttons = [b.split(" | ")[0] for b in view.values("toolbar")]
    assert buttons.count("Turn") == 1 and not any(b.startswith("Turn (") for b in buttons)
    assert view.value("turn") == "Turn = Turn 1 (0600): Orders Phase"
    steps = view.value("turns").split(" ; ")
    assert steps == [f"Turn 1 (0600): {p}" for p in TG_PHASES[1:]] + ["Turn 2 (0715): Orders Phase",
                                                                        "Turn 2 (0715): Initiative Phase"]


def test_schevardino_set_up_steps_through_its_own_five_turns_and_phases_only(borodino):
    vmod, out, _ = borodino
    view = enginecheck.probe(vmod, out / "schevardino.vsav", out, "next=16")
    assert view.run.ok, view.run.problems
    assert view.value("turn") == "Turn = Turn 1: Command Activation"
    steps = view.value("turns").split(" ; ")
    assert steps[:3] == ["Turn 1: French Movement and Combat", "Turn 1: Russian Movement and Combat",
                         "Turn 2: Command Activation"]
    assert {s.split(":")[0] for s in steps} == {f"Turn {n}" for n in range(1, 6)}   # never Borodino's turns
    assert steps[-2:] == ["Turn 1: Command Activation", "Turn 1: French Movement and Combat"]   # 15 phases, round


def test_charts_notes_and_about_are_there(borodino):
    _, out, view = borodino
    buttons = [b.split(" | ")[0] for b in view.values("toolbar")]
    assert {"Charts", "Notes", "Counters", "Holding boxes", "d10 (0-9)"} <= set(buttons)
    assert view.value("chart") == "Charts"
    help_menu = view.menu("Help")
    assert f"About {NAME}" in help_menu and f"{NAME}: version and sources" in help_menu
    assert (out / "charts.png").stat().st_size > 10_000


def test_the_palette_is_open_at_the_start_and_wide_enough_for_a_row_of_counters(borodino):
    _, _, view = borodino
    m = re.match(r"Counters showing=(\w+) size=(\d+)x(\d+)", view.value("palette"))
    assert m and m.group(1) == "true" and int(m.group(2)) >= 600


def test_delete_is_the_last_item_of_every_menu(borodino):
    _, _, view = borodino
    menus = dict(v.split(" = ", 1) for v in view.values("pieceMenu"))
    assert menus["Old Gd Gren a"].split(" ; ") == ["Rotate CW  Ctrl+]", "Rotate CCW  Ctrl+[", "Disorder  Ctrl+F",
                                                   "Delete  Delete"]
    assert menus["AM I Corps (Davout) 1"].split(" ; ") == ["Return to cup  Ctrl+R", "Delete  Delete"]


def test_the_main_map_opens_zoomed_so_that_all_of_it_is_in_view(borodino):
    _, _, view = borodino
    maps = {m.group(1): m for m in (MAP_LINE.match(v) for v in view.values("map")) if m}
    main = maps["Main Map"]
    zoom, w, h, vw, vh = float(main.group(2)), *(int(main.group(i)) for i in range(3, 7))
    assert main.group(7) == "true" and zoom < 1
    assert w * zoom <= vw and h * zoom <= vh          # the whole map in the visible part of the window


def test_a_3_7_module_warns_in_the_3_6_engine_and_names_its_version(borodino):
    _, _, view = borodino
    dialogs = view.values("dialog")
    assert any(d.startswith("Version Mismatch") and "3.7.0" in d for d in dialogs)
