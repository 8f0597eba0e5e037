"""Facts and events from the modulebuilder's own engine recording (tests/fixtures/vassal/record.sh): a flat
grid whose first column is 13 and first row 0, a drag, Disorder by key and by menu, a rotation, a d10, chat."""
from __future__ import annotations

from pathlib import Path

from fixtures.vassal.scenarios import grid, scenario
from modulebuilder.vassal.savefile import read_game
from referee.logs.vassal_board import from_build_file, module_build_file
from referee.logs.vassal_events import read_events
from referee.logs.vassal_steps import PieceChange, Reported, Rolled, Said, facts

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "vassal"
SMALL = scenario(grid("flat", "odd", 13, 0))


def _facts():
    return list(facts(read_game(RECORDED / "recorded.vlog")))


def test_one_fact_per_visible_change_in_engine_order():
    kinds = [(type(f).__name__, f.step) for f in _facts()]
    assert kinds == [("PieceChange", 1), ("Reported", 1), ("PieceChange", 2), ("Reported", 2),
                     ("PieceChange", 3), ("Reported", 3), ("PieceChange", 4), ("Reported", 4),
                     ("Rolled", 5), ("Said", 6)]
    fs = _facts()
    assert isinstance(fs[0], PieceChange) and fs[0].player == "Alice" and fs[0].after.unit_id == "psk-a"
    assert isinstance(fs[1], Reported) and fs[1].text == "* Psk a moves 1804 -> 1803 *"
    assert isinstance(fs[8], Rolled) and (fs[8].die, fs[8].player) == ("d10", "Alice") and 0 <= fs[8].value <= 9
    assert fs[9] == Said(6, "Alice", "Hello from the script")


def test_events_on_a_flat_grid():
    board = from_build_file(module_build_file((RECORDED / "small.vmod").read_bytes()))
    reading = read_events(_facts(), SMALL, board)
    roll = next(f.value for f in _facts() if isinstance(f, Rolled))
    start = read_game(RECORDED / "recorded.vlog").by_unit()
    # Art 1 starts at rotator state 4 (9 o'clock on a flat grid); one turn clockwise is 11 o'clock.
    assert start["art-1"].get("Facing_Facing") == "5"
    assert [(e.step, e.event, e.destination) for e in reading.events] == [
        (1, {"type": "move", "side": "Russian", "unit": "psk-a"}, "1803"),     # the path comes later
        (3, {"type": "face", "side": "Russian", "unit": "art-1", "facing": 11}, None),
        (5, {"type": "roll", "roll": roll, "side": "Russian"}, None),          # Alice moved a Russian unit
    ]
    assert reading.notes == [
        "step 2: guy-a flipped to disordered; the referee applies disorder and rallies by the rules",
        "step 4: psk-a flipped to disordered; the referee applies disorder and rallies by the rules"]
    assert reading.problems == []
