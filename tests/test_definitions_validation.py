"""Validation that catches it first (issue 14): mistakes that used to validate and then failed somewhere
else ("VASSAL cannot encode an empty sequence"), or failed with the wrong message.  Each test writes a copy
of examples/tiny with one mistake and expects the exact line, file:line:column included."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from modulebuilder.definitions import validate_files

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "examples" / "tiny"


def tiny(tmp_path: Path, old: str = "", new: str = "") -> Path:
    """A copy of examples/tiny whose scenario has ``old`` replaced by ``new``."""
    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    scenario = folder / "scenario.yaml"
    text = scenario.read_text(encoding="utf-8")
    assert old in text
    scenario.write_text(text.replace(old, new, 1), encoding="utf-8")
    return scenario


def lines(path: Path) -> list[str]:
    base = path.parent
    return [str(p).replace(f"{base}/", "") for p in validate_files([path])]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "modulebuilder", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=300)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_a_last_turn_before_the_first_is_refused(tmp_path: Path) -> None:
    path = tiny(tmp_path, "turns: {first: 1, last: 4,", "turns: {first: 5, last: 4,")
    assert lines(path) == [
        "scenario.yaml:17:25: turns.last: the last turn (4) comes before the first (5)"]


def test_a_reinforcement_after_the_last_turn_is_refused(tmp_path: Path) -> None:
    path = tiny(tmp_path, 'entry: ["0801"], turn: 2}', 'entry: ["0801"], turn: 9}')
    assert lines(path) == ["scenario.yaml:33:46: reinforcements[0].turn: turn 9 is not a turn of this game "
                           "(turns 1-4); these units would never arrive"]


def test_a_start_outside_the_game_is_refused(tmp_path: Path) -> None:
    path = tiny(tmp_path, "reinforcements:", "start: {turn: 7}\n\nreinforcements:")
    assert lines(path) == ["scenario.yaml:32:15: start.turn: turn 7 is not a turn of this game (turns 1-4)"]


def test_enemies_set_up_in_one_hex_are_refused(tmp_path: Path) -> None:
    path = tiny(tmp_path, '{unit: psk-a, hex: "0404"', '{unit: psk-a, hex: "0204"')
    assert lines(path) == ["scenario.yaml:27:12: setup[5].unit: 'psk-a' (Russian) starts in hex '0204' with "
                           "'dumon-b' (French): enemies never share a hex"]


def test_a_unit_waiting_for_a_reinforcement_that_never_comes(tmp_path: Path) -> None:
    path = tiny(tmp_path, '{unit: vi-art, hex: "0503", facing: 10}', "{unit: vi-art, box: reinforcement}")
    assert lines(path) == ["scenario.yaml:29:25: setup[7].box: 'vi-art' waits in the reinforcement box, but no "
                           "entry of reinforcements brings it on"]


def test_a_reinforcement_of_units_of_another_group(tmp_path: Path) -> None:
    path = tiny(tmp_path, "{units: [sumsky],", "{ag: i-corps, units: [sumsky],")
    found = lines(path)
    assert found == ["scenario.yaml:33:27: reinforcements[0].units[0]: 'sumsky' belongs to activation group "
                     "'vi-corps', not the reinforcement's 'i-corps'"]


def test_every_mistake_at_once(tmp_path: Path) -> None:
    path = tiny(tmp_path, "turns: {first: 1, last: 4,", "turns: {first: 5, last: 4,")
    text = path.read_text(encoding="utf-8").replace('{unit: psk-a, hex: "0404"', '{unit: psk-a, hex: "0204"')
    path.write_text(text.replace('setup:', 'start: {turn: 0}\nsetup:'), encoding="utf-8")
    assert [x.split(": ")[1] for x in lines(path)] == ["turns.last", "setup[5].unit"]


def test_a_folder_without_definitions_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a definition")
    result = run("validate", str(tmp_path))
    assert (result.returncode, result.stdout) == (
        1, f"{tmp_path}:1:1: file: no definition files (*.yaml, *.yml) in this folder\n")


def test_summary_of_a_map_says_so_in_one_line() -> None:
    result = run("summary", "examples/tiny/map.yaml")
    assert (result.returncode, result.stdout) == (
        1, "examples/tiny/map.yaml:1:1: file: this is a map file; `summary` wants a scenario\n")


@pytest.mark.parametrize("path, kind", [("examples/tiny/french.yaml", "counters"),
                                        ("examples/tiny/tables.yaml", "tables")])
def test_resolve_of_another_kind_of_file_says_so(path: str, kind: str) -> None:
    result = run("resolve", path)
    assert (result.returncode, result.stdout) == (1, f"{path}:1:1: file: this is a {kind} file; `resolve` wants "
                                                     "a scenario\n")


def test_summary_reads_a_resolved_scenario(tmp_path: Path) -> None:
    out = tmp_path / "tiny.json"
    assert run("resolve", "examples/tiny/scenario.yaml", "--out", str(out)).returncode == 0
    result = run("summary", str(out))
    assert result.returncode == 0 and result.stdout.startswith("tiny: Tinyvka\n")
