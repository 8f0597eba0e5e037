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


# --------------------------------------------------------------------------------------------- issue 14: a CLI that explains itself

def test_version() -> None:
    from importlib import metadata

    result = run("--version")
    assert (result.returncode, result.stdout) == (0, f"modulebuilder {metadata.version('hexwargame-tools')}\n")


def test_top_level_help_says_what_the_tool_does() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "Each feature package contributes" not in result.stdout           # the internal docstring
    assert "VASSAL module" in result.stdout and "modulebuilder new my-game" in result.stdout


def test_every_option_has_help_and_every_command_an_example() -> None:
    import argparse

    from modulebuilder.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {"validate", "resolve", "summary", "schemas", "new", "counters", "sheets", "map", "build"} <= set(sub.choices)
    for name, command in sub.choices.items():
        bare = [a.dest for a in command._actions if not a.help]
        assert bare == [], f"{name}: options without help: {bare}"
        assert command.epilog and f"modulebuilder {name} " in command.epilog, f"{name} has no example"


def test_build_out_an_existing_file_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "module.vmod"
    target.write_text("not a folder")
    result = run("build", "examples/tiny/scenario.yaml", "--out", str(target))
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (f"modulebuilder: error: --out {target}: is a file; give a folder to "
                                              "write into (it is created if missing)")
    assert target.read_text() == "not a folder"


def test_map_hex_inches_zero_is_refused(tmp_path: Path) -> None:
    result = run("map", "examples/tiny/map.yaml", "--hex-inches", "0", "--out", str(tmp_path / "m"))
    assert result.returncode == 2 and "--hex-inches" in result.stderr and not (tmp_path / "m").exists()


@pytest.mark.parametrize("argv", [
    ["build", "examples/tiny/scenario.yaml", "--out", "x", "--counter-size", "5/8"],
    ["build", "examples/tiny/scenario.yaml", "--out", "x", "--counter-size", "0.6in"],
    ["build", "examples/tiny/scenario.yaml", "--out", "x", "--counter-size", "16mm"],
    ["build", "examples/tiny/scenario.yaml", "--out", "x", "--counter-size", "60px"],
    ["sheets", "examples/tiny/scenario.yaml", "--out", "x", "--size", "5/8"],
    ["sheets", "examples/tiny/scenario.yaml", "--out", "x", "--size", "0.6in"],
    ["sheets", "examples/tiny/scenario.yaml", "--out", "x", "--size", "16mm"],
    ["sheets", "examples/tiny/scenario.yaml", "--out", "x", "--size", "7/8"],
])
def test_sizes_are_lengths_in_any_unit(argv: list[str]) -> None:
    from modulebuilder.cli import build_parser

    build_parser().parse_args(argv)          # argparse exits on a size it refuses


def test_build_counter_size_as_a_length(tmp_path: Path) -> None:
    """5/8 in beside a 3/4 in hex: the tiny map's 48 px hexes are 83 px across the flats, so 69 px."""
    import zipfile

    assert run("build", "examples/tiny/scenario.yaml", "--out", str(tmp_path), "--counter-size", "5/8").returncode == 0
    with zipfile.ZipFile(tmp_path / "tiny.vmod") as z:
        from io import BytesIO

        from PIL import Image
        face = next(n for n in z.namelist() if n.startswith("images/") and "dumon-a" in n)
        assert Image.open(BytesIO(z.read(face))).size[1] == round(5 / 8 * 48 * 3 ** 0.5 / 0.75)


def test_new_writes_a_game_that_validates_and_builds_wherever_it_is_copied(tmp_path: Path) -> None:
    import shutil

    assert run("new", str(tmp_path / "my-game")).returncode == 0
    moved = tmp_path / "elsewhere" / "copy"
    shutil.copytree(tmp_path / "my-game", moved)
    for f in sorted(moved.glob("*.yaml")):
        header = f.read_text(encoding="utf-8").splitlines()[0]
        schema = header.split("$schema=", 1)[1]
        assert not schema.startswith(".."), f"{f.name}: {header}"
        assert (f.parent / schema).is_file(), f"{f.name}: {header}"
    assert run("validate", str(moved)).stdout == "ok: 7 files\n"
    # A counters file on its own is checked with the ruleset its schemas are combined for.
    french = moved / "french.yaml"
    french.write_text(french.read_text(encoding="utf-8").replace("dfe: 1,", "", 1), encoding="utf-8")
    assert "units[0].dfe: required field missing" in run("validate", str(french)).stdout
    french.write_text(french.read_text(encoding="utf-8").replace("corps: CM,", "corps: CM, dfe: 1,", 1))
    result = run("build", str(moved / "scenario.yaml"), "--out", str(tmp_path / "out"))
    assert result.returncode == 0 and (tmp_path / "out" / "my-game.vmod").is_file()
    assert load_scenario(moved / "scenario.yaml").game.version == "0.1"


def test_new_for_musket_and_pike(tmp_path: Path) -> None:
    result = run("new", str(tmp_path / "lutzen"), "--ruleset", "musket-and-pike", "--title", "Lützen 1632")
    assert result.returncode == 0
    s = load_scenario(tmp_path / "lutzen" / "scenario.yaml")
    assert (s.id, s.name, s.ruleset) == ("lutzen", "Lützen 1632", "musket-and-pike")


def test_new_refuses_a_folder_in_use(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    result = run("new", str(tmp_path))
    assert result.returncode == 1 and "already exists and is not an empty folder" in result.stdout


def test_examples_tiny_carries_its_own_current_schemas() -> None:
    from modulebuilder.definitions.schemas import KINDS, combined_text, schema_file

    for kind in KINDS:
        path = ROOT / "examples" / "tiny" / "schemas" / schema_file(kind)
        assert path.read_text(encoding="utf-8") == combined_text(kind, "triumph-and-glory"), \
            f"{path} is stale: modulebuilder schemas --ruleset triumph-and-glory --out examples/tiny/schemas"
    for f in (ROOT / "examples" / "tiny").glob("*.yaml"):
        assert f.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=schemas/"), f.name
