"""A .vsav: the position, read as one step from the scenario's set-up."""
from __future__ import annotations

import zipfile

from modulebuilder.vassal import savecodec, seqenc
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.zipio import deterministic_zip
from referee.logs.vassal import read_vassal

from .recordings import fixture


def _setup_vsav() -> bytes:
    with zipfile.ZipFile(fixture("tiny.vmod")) as z:
        return z.read("tiny.vsav")


def test_the_modules_own_set_up_has_nothing_to_rule():
    log = read_vassal(_setup_vsav(), fixture("tiny.vmod"))
    assert log.scenario.id == "tiny"               # found from the module's PredefinedSetup
    assert log.events == []


def test_a_position_reached_in_the_engine_is_read_as_moves():
    # The engine's own state after the recorded drag and turn of Psk a, saved as a .vsav: the log's
    # starting position with the steps' commands applied.
    game = read_game(fixture("tiny.vlog"))
    *_, (_, pieces) = game.replay()
    psk_a = next(p for p in pieces.values() if p.unit_id == "psk-a")
    start = game.text.split("\x1bend_save")[0]
    moved = start.replace(next(c for c in game.setup_commands if c.startswith(f"+/{psk_a.id}/")),
                          "+/" + seqenc.encode([psk_a.id, psk_a.type, psk_a.state], "/"))
    vsav = deterministic_zip([("savedGame", savecodec.obfuscate(moved + "\x1bend_save", 7))])
    log = read_vassal(vsav, fixture("tiny.vmod"))
    assert log.events == [{"type": "move", "side": "Russian", "unit": "psk-a", "path": ["0403", "0302"],
                           "facing": 12}]
