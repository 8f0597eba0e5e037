"""Pixels to hexes and boxes, checked against the location names the real engine printed while recording."""
from __future__ import annotations

import pytest

from referee.logs.vassal_board import box_key, from_build_file, from_scenario, module_build_file

from .recordings import engine_pieces, fixture, scenario


def _module_board(name: str):
    return from_build_file(module_build_file(fixture(name).read_bytes()))


@pytest.mark.parametrize("module, log", [("tiny.vmod", "tiny"), ("borodino-facts.vmod", "borodino")])
def test_every_location_the_engine_printed(module, log):
    board = _module_board(module)
    seen = engine_pieces(fixture(f"{log}.vrecord.txt"))
    assert len(seen) > 20
    for name, map_id, x, y, location in seen:
        where = board.locate(map_id, x, y)
        assert (where.hex if map_id == "Main Map" else where.where) == location, (name, x, y)


@pytest.mark.slow
@pytest.mark.parametrize("module, ref", [("tiny.vmod", "tiny"), ("borodino-facts.vmod", "borodino")])
def test_the_module_grid_and_the_scenario_grid_agree(module, ref):
    assert _module_board(module).maps["Main Map"].grid == from_scenario(scenario(ref)).maps["Main Map"].grid


def test_the_module_lists_its_set_ups_and_boxes():
    board = _module_board("tiny.vmod")
    assert board.setups == {"Tinyvka": "tiny.vsav"}
    assert [z.name for z in board.maps["Holding"].zones] == ["Reinforcements, turn 2", "Withdrawn", "Recovery",
                                                             "Eliminated"]
    assert [box_key(z.name) for z in board.maps["Holding"].zones] == ["reinforcement", "withdrawn", "recovery",
                                                                      "eliminated"]


def test_without_the_module_a_box_is_named_by_the_engines_move_report():
    from modulebuilder.vassal.savefile import read_game
    from referee.logs.vassal_events import read_events
    from referee.logs.vassal_steps import facts
    reading = read_events(facts(read_game(fixture("tiny.vlog"))), scenario("tiny"), from_scenario(scenario("tiny")))
    assert "step 16: vi-art put in the Withdrawn box; the referee moves units off the map itself" in reading.notes


def test_every_set_up_and_holding_box_of_the_module_is_there():
    """The set-ups the referee may start a log from are real entries of the .vmod, and every holding box is a
    zone the referee can name as a scenario box."""
    import zipfile
    for name in ("tiny.vmod", "borodino-facts.vmod"):
        board = _module_board(name)
        entries = set(zipfile.ZipFile(fixture(name)).namelist())
        assert board.setups and set(board.setups.values()) <= entries
        boxes = {box_key(z.name) for m in board.maps.values() for z in m.zones}
        assert {"withdrawn", "reinforcement"} <= boxes, boxes


def test_without_a_module_the_grid_answers_to_both_names_the_writer_gives_a_map():
    board = from_scenario(scenario("tiny"))
    assert set(board.maps) == {"Main Map", "Tinyvka, a test of arms"}
    assert board.locate("Tinyvka, a test of arms", 277, 204).hex == board.locate("Main Map", 277, 204).hex == "0302"
