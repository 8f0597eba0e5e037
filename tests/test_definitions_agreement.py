"""Validation that agrees with itself: a game folder, its scenario, and an editor using the schemas written
for the game give the same verdict on the same files; a problem is reported once; a game whose scenario
names no ruleset (or one that is not installed) is checked for what it has; two-step units are data."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from modulebuilder.definitions import load_scenario, validate_files
from modulebuilder.definitions.detect import header
from modulebuilder.definitions.files import read_document

ROOT = Path(__file__).resolve().parents[1]
BRIDGEHEAD = ROOT / "examples" / "bridgehead"

GAME = """\
# yaml-language-server: $schema=schemas/game.schema.json
id: venn44
title: Venn 1944
back_side: Reduced
unit_types:
  - {id: tank, name: Tank, symbol: armor}
  - {id: infantry, name: Infantry}
factors:
  - {id: firepower}
  - {id: defence}
  - {id: movement}
sides:
  American: {colour: "#6b8e23"}
  German: {colour: "#7f8c8d"}
"""

AMERICAN = """\
# yaml-language-server: $schema=../schemas/counters.schema.json
game: venn44
side: American
units:
  - {id: us-1, name: "1/27", kind: infantry, firepower: 4, defence: 4, movement: 4, back: {firepower: 2, defence: 2}}
  - {id: us-2, name: "14 Tk", kind: tank, firepower: 6, defence: 4, movement: 8, back: {firepower: 3}}
  - {id: us-3, name: "B/89", kind: infantry, firepower: 1, defence: 1, movement: 9, flags: [no_back]}
"""

GERMAN = """\
# yaml-language-server: $schema=../schemas/counters.schema.json
game: venn44
side: German
units:
  - {id: de-1, name: "I/1040", kind: infantry, firepower: 3, defence: 4, movement: 4, back: {firepower: 1}}
leaders:
  - {id: de-hq, name: "Adler"}
markers:
  - {id: turn, name: Game Turn, text: TURN}
"""

SCENARIO = """\
# yaml-language-server: $schema=../schemas/scenario.schema.json
id: venn44
name: Venn 1944
map: ../maps/venn.yaml
counters: [../counters/american.yaml, ../counters/german.yaml]
game: ../game.yaml
sides: {American: {}, German: {}}
turns: 6
setup:
  - {unit: us-1, hex: "0404"}
  - {unit: us-2, hex: "0405"}
  - {unit: us-3, hex: "0406"}
  - {unit: de-1, hex: "0705"}
  - {unit: de-hq, hex: "0706"}
"""

MAP = """\
# yaml-language-server: $schema=../schemas/map.schema.json
id: venn
grid: {orientation: flat, shifted: even, first_column: 1, first_row: 1, columns: 12, rows: 10}
terrain: {default: clear}
"""


def write_game(folder: Path, *, scenario: str = SCENARIO, american: str = AMERICAN, game: str = GAME,
               german: str = GERMAN, schemas: tuple[str, ...] = ("--ruleset", "none")) -> Path:
    for name, text in [("game.yaml", game), ("counters/american.yaml", american), ("counters/german.yaml", german),
                       ("scenarios/venn.yaml", scenario), ("maps/venn.yaml", MAP)]:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "modulebuilder", "schemas", *schemas, "--game", str(folder / "game.yaml"),
                          "--out", str(folder / "schemas")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    return folder


def validate(*args: str, cwd: Path) -> tuple[int, list[str]]:
    out = subprocess.run([sys.executable, "-m", "modulebuilder", "validate", *args], capture_output=True, text=True,
                         cwd=cwd)
    return out.returncode, out.stdout.splitlines()


def editor_problems(folder: Path) -> dict[str, list[str]]:
    """What an editor with the written schemas reports for each YAML file (the schema its header names)."""
    out: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        ref = text.splitlines()[0].split("$schema=")[1]
        schema = json.loads((path.parent / ref).read_text(encoding="utf-8"))
        doc = read_document(path)
        errors = list(Draft202012Validator(schema).iter_errors(doc.data))
        out[str(path.relative_to(folder))] = [e.message for e in errors]
    return out


def test_a_game_with_no_ruleset_and_its_own_types_and_factors_validates_alike_everywhere(tmp_path: Path) -> None:
    folder = write_game(tmp_path)
    # A folder (what the starter's README says to run), the scenario, each counters file: the same "ok".
    assert validate(".", cwd=folder) == (0, ["ok: 5 files"])
    assert validate("scenarios/venn.yaml", cwd=folder) == (0, ["ok: 1 file"])
    assert validate("counters", cwd=folder) == (0, ["ok: 2 files"])
    # The editor, with the schemas written for the game (its factors known), agrees.
    assert editor_problems(folder) == {name: [] for name in editor_problems(folder)}
    scenario = load_scenario(folder / "scenarios" / "venn.yaml")
    assert scenario.ruleset == ""
    assert [u.kind for u in scenario.counters.units] == ["infantry", "tank", "infantry", "infantry"]


def test_two_step_units_are_data(tmp_path: Path) -> None:
    scenario = load_scenario(write_game(tmp_path) / "scenarios" / "venn.yaml")
    us1, us2, us3, de1 = scenario.counters.units
    assert scenario.back_side == "Reduced" and scenario.game.back_side == "Reduced"
    assert dict(us1.values("front")) == {"firepower": 4, "defence": 4, "movement": 4}
    assert dict(us1.values("back")) == {"firepower": 2, "defence": 2, "movement": 4}
    assert dict(us2.values("back")) == {"firepower": 3, "defence": 4, "movement": 8}
    assert us1.two_sided and not us3.two_sided
    with pytest.raises(ValueError, match="no back"):
        us3.values("back")
    assert us1.ag == ""            # no activation groups: the shared schema needs none


def test_back_values_of_a_ruleset_field_validate_from_folder_and_scenario(tmp_path: Path) -> None:
    """A classic game's attack/defence/movement come from its ruleset (no game factors): ``back:`` with them
    is the same verdict from the folder and the scenario (was: units[0].back: unknown field 'back')."""
    pytest.importorskip("classic_hex")
    game = tmp_path / "bh"
    shutil.copytree(BRIDGEHEAD, game, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    (game / "game.yaml").write_text("# yaml-language-server: $schema=schemas/game.schema.json\nid: bridgehead\n")
    american = game / "counters" / "american.yaml"
    american.write_text(american.read_text().replace("movement: 4}", "movement: 4, back: {attack: 2}}", 1))
    assert validate(".", cwd=game)[0] == 0, validate(".", cwd=game)
    assert validate("scenarios/bridgehead.yaml", cwd=game)[0] == 0
    us = load_scenario(game / "scenarios" / "bridgehead.yaml").counters.unit("us-1-27")
    assert dict(us.values("back")) == {"attack": 2, "defence": 4, "movement": 4}
    american.write_text(american.read_text().replace("back: {attack: 2}", "back: {atack: 2}"))
    folder_lines = validate(".", cwd=game)[1]
    assert folder_lines == validate("scenarios/bridgehead.yaml", cwd=game)[1]
    assert folder_lines == ["counters/american.yaml:14:125: units[0].back.atack: unknown field 'atack' "
                            "(did you mean 'attack'?)"]


def test_the_same_mistakes_give_the_same_lines_from_folder_and_scenario(tmp_path: Path) -> None:
    american = AMERICAN.replace("kind: tank", "kind: tnak").replace("movement: 4, back", "movment: 4, back")
    folder = write_game(tmp_path, american=american)
    code, lines = validate(".", cwd=folder)
    assert code == 1
    assert lines == validate("scenarios/venn.yaml", cwd=folder)[1] == [
        "counters/american.yaml:5:72: units[0].movment: unknown field 'movment' (did you mean 'movement'?)",
        "counters/american.yaml:6:37: units[1].kind: unknown unit type 'tnak' (did you mean 'tank'? known: tank, "
        "infantry; a game declares more under unit_types)",
    ]
    # The editor flags the field too (the unit type is a check beyond the schema).
    assert editor_problems(folder)["counters/american.yaml"] == ["Unevaluated properties are not allowed ('movment' "
                                                                 "was unexpected)"]


def test_one_bad_colour_in_the_game_file_is_one_line(tmp_path: Path) -> None:
    folder = write_game(tmp_path)
    (folder / "game.yaml").write_text(GAME.replace('"#6b8e23"', '"#6b8e2"'), encoding="utf-8")
    assert validate(".", cwd=folder) == (1, [
        "game.yaml:13:22: sides.American.colour: must be a colour like \"#2b4c9b\" (got '#6b8e2')"])


def test_a_ruleset_that_is_not_installed_is_one_line_and_the_rest_still_validates(tmp_path: Path) -> None:
    folder = write_game(tmp_path, scenario=SCENARIO.replace("map:", "ruleset: trench-raid\nmap:"))
    (folder / "pyproject.toml").write_text('[project]\nname = "trench"\n[project.entry-points."referee.rulesets"]\n'
                                           'trench-raid = "trench:RULESET"\n', encoding="utf-8")
    code, lines = validate(".", cwd=folder)
    assert code == 1
    assert lines == [
        "scenarios/venn.yaml:4:10: ruleset: no definitions for ruleset 'trench-raid' (known: "
        + ", ".join(__import__("modulebuilder.definitions.rulesets", fromlist=["x"]).known_rulesets())
        + "): it is not installed; install it with: pip install ."]
    # Everything that needs no ruleset is still checked: a hex off the map is found beside it.
    (folder / "scenarios" / "venn.yaml").write_text(
        SCENARIO.replace("map:", "ruleset: trench-raid\nmap:").replace('"0706"', '"1399"'), encoding="utf-8")
    assert [line.split(": ")[1] for line in validate(".", cwd=folder)[1]] == ["ruleset", "setup[4].hex"]


def test_ids_are_unique_across_units_leaders_and_markers(tmp_path: Path) -> None:
    folder = write_game(tmp_path, german=GERMAN.replace("{id: turn,", "{id: us-2,"))
    assert validate(".", cwd=folder) == (1, [
        "counters/german.yaml:9:10: markers[0].id: duplicate id 'us-2': the unit at counters/american.yaml:6 has it "
        "(ids are unique across units, leaders and markers)"])


def test_a_ruleset_scenario_schema_requires_its_ruleset_and_the_shared_one_does_not() -> None:
    from modulebuilder.definitions.schemas import combined
    assert "ruleset" in combined("scenario", "triumph-and-glory")["$defs"]["scenario.schema.json"]["required"]
    assert "ruleset" not in combined("scenario", "")["$defs"]["scenario.schema.json"]["required"]


def test_tables_problems_name_the_ruleset_they_were_checked_against() -> None:
    lines = [str(p) for p in validate_files([ROOT / "tests" / "broken" / "t_bad_cost.yaml"])]
    assert lines and all(line.endswith("(tables of ruleset triumph-and-glory)") for line in lines)


def test_activation_groups_stay_required_where_the_ruleset_activates_by_group(tmp_path: Path) -> None:
    folder = write_game(tmp_path, scenario=SCENARIO.replace("map:", "ruleset: triumph-and-glory\nmap:"),
                        schemas=("--ruleset", "triumph-and-glory"))
    lines = validate("scenarios/venn.yaml", cwd=folder)[1]
    assert "counters/american.yaml:5:5: units[0].ag: required field missing" in lines
    assert header("# yaml-language-server: $schema=../schemas/counters.schema.json",
                  str(folder / "counters" / "american.yaml")) == ("counters", "triumph-and-glory")


def test_a_game_with_no_ruleset_and_no_activation_groups_builds_what_it_validates(tmp_path: Path) -> None:
    """What validates builds: counters, sheets and the module of a game with no ruleset and no groups (its
    units take their side's colours where a group's are read)."""
    from PIL import Image
    folder = write_game(tmp_path)
    for command in (["counters", "scenarios/venn.yaml", "--px", "60", "--out", "out/c"],
                    ["build", "scenarios/venn.yaml", "--out", "out/b"]):
        out = subprocess.run([sys.executable, "-m", "modulebuilder", *command], capture_output=True, text=True,
                             cwd=folder)
        assert out.returncode == 0, out.stdout + out.stderr
    with Image.open(folder / "out" / "c" / "us-1-front.png") as face:
        assert face.convert("RGB").getpixel((2, 2)) == (0x6b, 0x8e, 0x23)       # the American side's colour band
    assert [p.name for p in (folder / "out" / "b").glob("*.vmod")] == ["venn.vmod"]


def test_a_scenario_that_forgets_its_ruleset_is_one_line_naming_it(tmp_path: Path) -> None:
    """Counters written for Triumph & Glory in a scenario with no ruleset (and no editor header saying one):
    one line naming the ruleset the counters are for, not an unknown-field line per value."""
    game = tmp_path / "tiny"
    shutil.copytree(ROOT / "examples" / "tiny", game)
    scenario = game / "scenario.yaml"
    lines = scenario.read_text(encoding="utf-8").splitlines()
    scenario.write_text("\n".join(["# no editor header"] + [x for x in lines[1:] if not x.startswith("ruleset:")]) + "\n")
    code, out = validate(".", cwd=game)
    assert code == 1 and len(out) == 1, out
    assert out[0].startswith("scenario.yaml:5:1: ruleset: required field missing: the counters use fields of "
                             "triumph-and-glory (io_rating, assault, cohesion, ma, ...); name it (ruleset: "
                             "triumph-and-glory)")


def test_the_orne_example_carries_its_own_current_schemas_and_the_editor_agrees(tmp_path: Path) -> None:
    """examples/orne-1944 (no ruleset, its own factors): every file names the schemas written for its game, they are
    current, and an editor with them reports what `modulebuilder validate` reports: nothing."""
    from modulebuilder.definitions.schemas import KINDS, schema_file

    example = Path(__file__).resolve().parents[1] / "examples" / "orne-1944"
    subprocess.run([sys.executable, "-m", "modulebuilder", "schemas", "--ruleset", "none", "--game",
                    str(example / "game.yaml"), "--out", str(tmp_path)], check=True, capture_output=True)
    for kind in KINDS:
        assert (example / "schemas" / schema_file(kind)).read_bytes() == (tmp_path / schema_file(kind)).read_bytes(), \
            f"{kind} is stale: modulebuilder schemas --ruleset none --game examples/orne-1944/game.yaml " \
            f"--out examples/orne-1944/schemas"
    problems = editor_problems(example)
    assert problems == {name: [] for name in problems} and len(problems) == 6
    assert validate(".", cwd=example)[0] == 0
