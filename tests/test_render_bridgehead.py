"""The second example game, Bridgehead (examples/bridgehead, ruleset classic-hex), drawn with the classic
NATO template and built into sheets: every unit's attack-defence-movement and echelon on its counter."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from modulebuilder.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def scenario():  # type: ignore[no-untyped-def]
    """The scenario, with the game's distribution installed (it contributes the classic-hex schemas)."""
    if not GAME.is_dir():
        pytest.skip("examples/bridgehead is not in this checkout")
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                          "--no-index", str(GAME)], capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        out = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", str(GAME)],
                             capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        pytest.skip(f"examples/bridgehead does not install here: {out.stderr.strip()[-200:]}")
    from modulebuilder.definitions import load_scenario
    s = load_scenario(GAME / "scenarios" / "bridgehead.yaml")
    if not getattr(s.counters.units[0], "fields", None):
        pytest.skip("the model does not carry the game's factor fields yet (Unit.fields, from defs)")
    return s


def test_bridgehead_sheets_with_the_nato_template(scenario, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src = str(GAME / "scenarios" / "bridgehead.yaml")
    assert main(["sheets", src, "--template", "nato", "--png", "--dpi", "150", "--out", str(tmp_path)]) == 0
    pdf = tmp_path / "counters-duplex.pdf"
    data = pdf.read_bytes()
    assert b"/FontFile2" in data and b"/Subtype /Image" not in data
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        for u in scenario.counters.units:
            f = u.fields
            assert f"{f['attack']}-{f['defence']}-{f['movement']}" in text, u.id
            assert u.name in text
        assert "II" in text                                  # battalion echelon marks
    assert (tmp_path / "counters-duplex-01-front.png").is_file()
