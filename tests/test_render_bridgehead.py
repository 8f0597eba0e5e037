"""The second example game, Bridgehead (examples/bridgehead, ruleset classic-hex), drawn with the classic
NATO template and built into sheets: every unit's attack-defence-movement and echelon on its counter."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from modulebuilder.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def scenario():  # type: ignore[no-untyped-def]
    """The scenario, when the game's distribution is installed (it contributes the classic-hex schemas;
    tests/engine/test_third_ruleset.py installs it).  Not installed here: an installed ruleset distribution
    changes what a bare counters file validates against for every later test in the environment."""
    from importlib.metadata import entry_points
    if not GAME.is_dir():
        pytest.skip("examples/bridgehead is not in this checkout")
    if not any(ep.name == "classic-hex" for ep in entry_points(group="modulebuilder.rulesets")):
        pytest.skip("examples/bridgehead is not installed (pip install --no-deps examples/bridgehead)")
    from modulebuilder.definitions import DefinitionError, load_scenario
    try:
        s = load_scenario(GAME / "scenarios" / "bridgehead.yaml")
    except DefinitionError as exc:             # e.g. installed by another process after this one looked
        pytest.skip(f"the definitions loader refuses the Bridgehead data: {exc.problems[0]}")
    if not getattr(s.counters.units[0], "fields", None):
        pytest.skip("the Bridgehead data gives the model no factor fields yet (Unit.fields is empty: the game "
                    "declares no factors)")
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
