"""``python -m modulebuilder validate | resolve | summary``: exit codes, output lines, never a traceback."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from modulebuilder.definitions import load_resolved, load_scenario

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "modulebuilder", *args], cwd=cwd, capture_output=True,
                            text=True, timeout=120)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_validate_ok() -> None:
    result = run("validate", "examples/tiny/scenario.yaml", "examples/tiny/map.yaml")
    assert (result.returncode, result.stdout, result.stderr) == (0, "ok: 2 files\n", "")


def test_validate_prints_every_problem_and_exits_1() -> None:
    result = run("validate", "tests/broken/c_many_errors.yaml", "tests/broken/s_unit_off_map.yaml")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 7
    assert lines[0] == "tests/broken/c_many_errors.yaml:7:5: units[0].cohesion: required field missing"
    assert lines[-1] == ("tests/broken/s_unit_off_map.yaml:13:26: setup[1].hex: "
                         "hex '0903' is not on the map (columns 1-8, rows 1-8)")


def test_validate_a_missing_file() -> None:
    result = run("validate", "no/such.yaml")
    assert (result.returncode, result.stdout) == (1, "no/such.yaml:1:1: file: file not found\n")


def test_validate_a_file_of_unknown_kind(tmp_path: Path) -> None:
    (tmp_path / "notes.yaml").write_text("hello: world\n", encoding="utf-8")
    result = run("validate", "notes.yaml", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("notes.yaml:1:1: file: cannot tell what kind of definition file this is")


def test_resolve_json_to_stdout() -> None:
    result = run("resolve", "examples/tiny/scenario.yaml")
    assert result.returncode == 0
    doc = json.loads(result.stdout)
    assert load_resolved(doc) == load_scenario(ROOT / "examples/tiny/scenario.yaml")


def test_resolve_yaml_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "tiny.yaml"
    result = run("resolve", "examples/tiny/scenario.yaml", "--format", "yaml", "--out", str(out))
    assert (result.returncode, result.stdout) == (0, "")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=")
    assert load_resolved(out) == load_scenario(ROOT / "examples/tiny/scenario.yaml")
    assert run("validate", str(out)).returncode == 0


def test_resolve_a_broken_scenario() -> None:
    result = run("resolve", "tests/broken/s_facing_hexside.yaml")
    assert result.returncode == 1
    assert result.stdout.startswith("tests/broken/s_facing_hexside.yaml:12:42: setup[0].facing: facing 3 ")


def test_resolve_to_an_unwritable_place() -> None:
    result = run("resolve", "examples/tiny/scenario.yaml", "--out", "/no/such/dir/x.json")
    assert result.returncode == 1
    assert result.stdout == "/no/such/dir/x.json: No such file or directory\n"


def test_summary() -> None:
    result = run("summary", "examples/tiny/scenario.yaml")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "tiny: Tinyvka",
        "  ruleset: triumph-and-glory",
        "  map: tiny, 8 x 8 hexes (pointy, shifted even)",
        "  turns: 1-4 (0600-0945, 75 min each)",
        "  French: 4 units (2 infantry, 1 cavalry, 1 artillery); leaders: Napoleon; reinforcements: 0",
        "  Russian: 4 units (2 infantry, 1 cavalry, 1 artillery); leaders: Kutuzov; reinforcements: 1",
    ]


def test_summary_of_a_broken_scenario_lists_its_problems() -> None:
    result = run("summary", "examples/tiny/scenario.yaml", "tests/broken/s_unknown_unit.yaml")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1].startswith("tests/broken/s_unknown_unit.yaml:12:12: setup[0].unit: ")


@pytest.mark.parametrize("command", ["validate", "resolve", "summary"])
def test_commands_are_registered(command: str) -> None:
    assert run(command, "--help").returncode == 0


def test_validate_a_folder_checks_the_yaml_files_in_it() -> None:
    result = run("validate", "examples/tiny")
    assert (result.returncode, result.stdout) == (0, "ok: 6 files\n")
