"""Record tiny-script.json again in the real engine, with a module built now, and read it.

Marked ``vassal``: skipped with a reason when the engine is not installed, except with CI=true, where the
engine is prepared first and the test must run.
"""
from __future__ import annotations

import shutil
import zipfile

import pytest

from modulebuilder.vassal import enginecheck
from referee.engine.replay import replay
from referee.logs.vassal import read_vassal

from .recordings import TINY_SCENARIO, fixture, recorded_rolls, scenario
from .test_vlog_tiny import expected_events

pytestmark = pytest.mark.vassal




def test_a_fresh_recording_reads_as_the_committed_one(engine, tmp_path):
    from modulebuilder.definitions import load_scenario
    from modulebuilder.vassal.assemble import build
    module = build([load_scenario(TINY_SCENARIO)], tmp_path / "build").path
    setup = tmp_path / "tiny.vsav"
    setup.write_bytes(zipfile.ZipFile(module).read("tiny.vsav"))
    script = tmp_path / "tiny-script.json"
    shutil.copy(fixture("tiny-script.json"), script)
    out = tmp_path / "tiny.vlog"
    run = enginecheck.vrecord(module, setup, script, out)
    assert run.ok, run.problems or run.lines[-20:]

    (roll,) = recorded_rolls(out)
    log = read_vassal(out, module)
    assert log.events == expected_events(roll)

    # The engine, replaying its own log, puts the pieces where the referee's rulings put the units.
    check = enginecheck.vcheck(module, setup, out, props=("UnitId", "Facing_Facing"))
    assert check.ok, check.problems
    final = {p.props["UnitId"]: p for p in check.pieces_after("final:") if p.props.get("UnitId", "null") != "null"}
    state = replay(log.ruleset, scenario("tiny"), log.events, log.dice).game.state
    assert final["psk-a"].location == state.board.units["psk-a"].hex == "0302"
    assert int(final["psk-a"].props["Facing_Facing"]) == 1          # rotator state 0: 12 o'clock (pointy)
    assert state.board.units["psk-a"].facing == 12
