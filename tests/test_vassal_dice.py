"""The module's d10 button in the REAL VASSAL engine: every roll reports a number 0-9 in the chat.

Regression: with ``reportTotal="false"`` the 3.6 engine's keep-dice threshold dropped a die that came up 0
after the ``plus="-1"``, so the chat said ``*** d10 =  ***`` and a player could not read the zero.
"""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from modulebuilder.definitions import load_scenario
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build

pytestmark = pytest.mark.vassal
ROOT = Path(__file__).resolve().parents[1]
ROLL = re.compile(r"logged step \d+: CHAT\*\*\* d10 = (?P<shown>[^*]*?) \*\*\*.*?"
                  r"MutableProperty<TAB>d10_total<TAB>-?\d*<TAB>(?P<total>-?\d+)<TAB>")
ROLLS = 60      # P(no zero at all in 60 rolls) = 0.9**60 < 0.2%: the zero case is all but always exercised


def test_every_d10_roll_reports_its_number_zero_included(engine, tmp_path: Path) -> None:
    vmod = build([load_scenario(ROOT / "examples/tiny/scenario.yaml")], tmp_path).path
    with zipfile.ZipFile(vmod) as z:
        setup = tmp_path / "tiny.vsav"
        setup.write_bytes(z.read("tiny.vsav"))
    script = tmp_path / "rolls.json"
    script.write_text(json.dumps([{"roll": "d10"}] * ROLLS))
    run = enginecheck.vrecord(vmod, setup, script, tmp_path / "rolls.vlog")
    assert run.returncode == 0, "\n".join(run.lines[-20:])
    rolls = [ROLL.search(ln) for ln in run.lines if "d10 =" in ln and "logged step" in ln]
    assert len(rolls) == ROLLS and all(rolls)
    for m in rolls:
        assert m["shown"] == m["total"], f"chat shows {m['shown']!r} for a roll of {m['total']}"
        assert 0 <= int(m["shown"]) <= 9
