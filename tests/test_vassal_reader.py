"""Our reader on files the real engine wrote (tests/fixtures/vassal/record.sh made them with vrecord.sh)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from modulebuilder.vassal.facing import facing_hour
from modulebuilder.vassal.savefile import read_game

FIXTURES = Path(__file__).parent / "fixtures" / "vassal"


def _final_pieces():
    game = read_game(FIXTURES / "recorded.vlog")
    *_, (_, pieces) = game.replay()
    return game, {p.unit_id: p for p in pieces.values() if p.unit_id}


def test_the_log_has_one_step_per_scripted_action():
    game = read_game(FIXTURES / "recorded.vlog")
    script = json.loads((FIXTURES / "script.json").read_text())
    assert len(game.steps) == len(script["actions"])


def test_the_move_lands_where_the_engine_dropped_it():
    game, units = _final_pieces()
    drop = re.search(r"drop at (\d+),(\d+) \(1803\)", (FIXTURES / "recorded.vrecord.txt").read_text())
    assert drop, "the recording shows the drop point"
    assert (units["psk-a"].map, units["psk-a"].x, units["psk-a"].y) == ("Main Map", int(drop[1]), int(drop[2]))
    assert "CHAT* Psk a moves 1804 -> 1803 *" in game.steps[0].commands


def test_disorder_flip_by_key_and_by_menu_is_read():
    game, units = _final_pieces()
    start = game.by_unit()
    assert start["guy-a"].get("Disorder_Active") == "false"
    assert units["guy-a"].get("Disorder_Active") == "true"
    assert units["psk-a"].get("Disorder_Active") == "true"
    assert units["guy-a"].name == "Guy a"    # the basic name; the layer adds " (D)" on screen
    assert "* 1402: Guy a (D) Disorder *" in game.steps[1].chat


def test_rotation_moves_the_facing_one_vertex_clockwise():
    game, units = _final_pieces()
    before = int(game.by_unit()["art-1"].get("Facing_Facing"))
    after = int(units["art-1"].get("Facing_Facing"))
    assert after == before + 1
    # art-1 starts facing 9 o'clock on this flat map and ends at 11 o'clock
    assert (facing_hour("flat", before - 1), facing_hour("flat", after - 1)) == (9, 11)


def test_roll_and_chat_are_in_their_steps():
    game, _ = _final_pieces()
    roll = game.steps[4].chat[0]
    assert re.fullmatch(r"\*\*\* d10 = [0-9] \*\*\* &lt;Alice&gt;", roll)   # the engine adds a "*"
    assert game.steps[5].chat == ("&lt;Alice&gt; - Hello from the script",)


def test_setup_positions_read_from_our_own_set_up():
    game = read_game(FIXTURES / "small.vsav")
    units = game.by_unit()
    assert units["dumon-b"].get("Disorder_Active") == "true"
    assert units["psk-b"].map == "Holding"
    assert {u.map for u in units.values()} == {"Main Map", "Holding"}


def test_the_engine_keeps_our_stack_order_first_listed_on_top():
    # The log's starting position is the engine's own encoding of the game after loading our set-up.
    game = read_game(FIXTURES / "recorded.vlog")
    units = {p.id: p.unit_id for p in game.pieces().values()}
    stacks = {tuple(units[i] for i in s.pieces_top_first) for s in game.stacks().values()}
    # scenarios.py lists hex 1402 as dumon-a, dumon-b, guy-a: dumon-a on top
    assert ("dumon-a", "dumon-b", "guy-a") in stacks


def test_module_grid_names_every_recorded_piece_as_the_engine_did():
    from modulebuilder.vassal.gridmap import location_name
    from modulebuilder.vassal.modulefile import read_module
    module = read_module(FIXTURES / "small.vmod")
    assert module.setups == {"Small small": "small.vsav"}
    assert "Withdrawn" in module.zones["Holding"]
    grid = module.grids["Main Map"]
    engine_said = dict(re.findall(r"drop at (\d+,\d+) \((\d{4})\)", (FIXTURES / "recorded.vrecord.txt").read_text()))
    assert engine_said
    for xy, hex_name in engine_said.items():
        x, y = map(int, xy.split(","))
        assert location_name(grid, x, y) == hex_name
    # and every piece of the set-up is named by the hex the scenario put it on
    from fixtures.vassal.scenarios import grid as small_grid, scenario
    units = read_game(FIXTURES / "small.vsav").by_unit()
    for placement in scenario(small_grid("flat", "odd", 13, 0)).setup:
        if placement.hex:
            piece = units[placement.unit]
            assert location_name(grid, piece.x, piece.y) == placement.hex


def test_a_module_with_broken_xml_is_refused():
    import pytest
    from modulebuilder.vassal.errors import VassalFileError
    from modulebuilder.vassal.modulefile import read_module
    from modulebuilder.vassal.zipio import deterministic_zip
    bomb = b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>'
    with pytest.raises(VassalFileError, match="declares XML entities"):      # refused, never resolved
        read_module(deterministic_zip([("buildFile.xml", bomb)]))
    with pytest.raises(VassalFileError, match="not well-formed"):
        read_module(deterministic_zip([("buildFile.xml", b"<a>")]))
