"""Definitions per ruleset: the shared schemas hold what every hex-and-counter game has, each ruleset adds
its own fields, options and tables (docs/definitions.md "Definitions per ruleset").

The first tests are issue 13's symptom: a Musket & Pike scenario written as DESIGN §4/§5 describe it (no
IO rating, no leader ratings, no assault or cohesion) was refused with "activation_groups[0].io_rating:
required field missing".
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from modulebuilder.definitions import DefinitionError, load_resolved, load_scenario, resolve, validate_files
from modulebuilder.definitions.rulesets import known_rulesets
from modulebuilder.definitions.schemas import KINDS, combined_text, schema_file

ROOT = Path(__file__).resolve().parent.parent


def mp_design_scenario() -> dict:
    """A Musket & Pike situation with exactly the fields DESIGN gives a Musket & Pike game."""
    return {
        "ruleset": "musket-and-pike",
        "map": {"grid": {"orientation": "pointy", "shifted": "even", "first_column": 1, "first_row": 1,
                         "columns": 8, "rows": 8},
                "terrain": {"default": "clear", "hexes": {"0304": "woods"}}},
        "activation_groups": [{"id": "sw-centre", "name": "Centre", "side": "Swedish", "colour": "#1f4fa0"},
                              {"id": "im-centre", "name": "Centre", "side": "Imperial", "colour": "#8a1c1c"}],
        "leaders": [{"id": "gustavus", "name": "Gustavus", "side": "Swedish", "hex": "0507"},
                    {"id": "tilly", "name": "Tilly", "side": "Imperial", "hex": "0502"}],
        "units": [
            {"id": "yellow", "name": "Yellow Brigade", "kind": "infantry", "side": "Swedish", "ag": "sw-centre",
             "flags": ["heavy", "pikes"], "size": 2, "ma": 4, "hex": "0406", "facing": 12, "formation": "normal"},
            {"id": "musketeers", "name": "Musketeers", "kind": "infantry", "side": "Swedish", "ag": "sw-centre",
             "flags": ["light"], "hex": "0606", "facing": 12},
            {"id": "guns", "name": "Guns", "kind": "artillery", "side": "Swedish", "ag": "sw-centre",
             "flags": ["limbered"], "hex": "0706"},
            {"id": "baldiron", "name": "Tercio Baldiron", "kind": "infantry", "side": "Imperial", "ag": "im-centre",
             "flags": ["heavy", "pikes"], "size": 2, "hex": "0503", "facing": 6, "formation": "hedgehog"},
            {"id": "cuir", "name": "Cuirassiers", "kind": "cavalry", "side": "Imperial", "ag": "im-centre",
             "ma": 7, "box": "reinforcement"},
        ],
        "reinforcements": [{"units": ["cuir"], "entry": ["0801"], "turn": 2}],
        "sides": {"Swedish": {"cinc": "gustavus"}, "Imperial": {"cinc": "tilly"}},
        "turns": 4,
        "options": {"default_order": "make_ready", "open_order_choice": True},
        "tables": {"mp_terrain": {"rows": {"woods": {"cost": 2, "hit": True}}}},
    }


def test_a_musket_and_pike_scenario_without_triumph_and_glory_fields_loads() -> None:
    s = load_resolved(mp_design_scenario())
    assert [u.id for u in s.counters.units] == ["yellow", "musketeers", "guns", "baldiron", "cuir"]
    assert s.counters.activation_groups[0].io_rating is None
    assert s.counters.leaders[0].orders_rating is None and s.counters.leaders[0].command_range is None
    yellow = s.counters.unit("yellow")
    assert (yellow.size, yellow.ma, yellow.cohesion, sorted(yellow.flags)) == (2, 4, None, ["heavy", "pikes"])
    assert {p.unit: p.formation for p in s.setup}["baldiron"] == "hedgehog"
    assert load_resolved(resolve(s)) == s              # the resolved form round-trips


def test_the_same_scenario_as_authored_files_validates(tmp_path: Path) -> None:
    doc = mp_design_scenario()
    (tmp_path / "map.yaml").write_text(json.dumps({"id": "m", "grid": doc["map"]["grid"], "terrain": {
        "default": "clear", "hexes": {"woods": ["0304"]}}}), encoding="utf-8")
    units = [{k: v for k, v in u.items() if k not in ("hex", "facing", "formation", "box")} for u in doc["units"]]
    leaders = [{k: v for k, v in x.items() if k != "hex"} for x in doc["leaders"]]
    (tmp_path / "counters.yaml").write_text(json.dumps({"game": "mp-design", "activation_groups": doc[
        "activation_groups"], "units": units, "leaders": leaders}), encoding="utf-8")
    (tmp_path / "tables.yaml").write_text(json.dumps(doc["tables"]), encoding="utf-8")
    setup = [{"unit": u["id"], **{k: u[k] for k in ("hex", "facing", "formation") if k in u}}
             for u in doc["units"] if "hex" in u] + [{"unit": x["id"], "hex": x["hex"]} for x in doc["leaders"]]
    scenario = {"id": "mp-design", "name": "DESIGN-shaped", "ruleset": "musket-and-pike", "map": "map.yaml",
                "counters": ["counters.yaml"], "tables": "tables.yaml", "sides": doc["sides"], "turns": 4,
                "options": doc["options"], "setup": setup, "reinforcements": doc["reinforcements"]}
    (tmp_path / "scenario.yaml").write_text(json.dumps(scenario), encoding="utf-8")
    assert validate_files([tmp_path / "scenario.yaml"]) == []
    assert load_scenario(tmp_path / "scenario.yaml").counters.unit("yellow").size == 2


def test_triumph_and_glory_still_requires_its_fields() -> None:
    doc = {**mp_design_scenario(), "ruleset": "triumph-and-glory", "tables": {}}
    doc["units"] = [{k: v for k, v in u.items() if k != "formation"} for u in doc["units"]]
    doc["options"] = {}
    with pytest.raises(DefinitionError) as caught:
        load_resolved(doc)
    lines = {f"{p.path}: {p.message}" for p in caught.value.problems}
    assert "activation_groups[0].io_rating: required field missing" in lines
    assert "leaders[0].orders_rating: required field missing" in lines
    assert "units[0].cohesion: required field missing" in lines
    assert "units[2].fire: required field missing" in lines


def test_a_field_of_the_other_ruleset_is_refused_with_its_name() -> None:
    doc = mp_design_scenario()
    doc["units"][0]["formation"] = "hedgehog"
    tg = {**doc, "ruleset": "triumph-and-glory"}
    with pytest.raises(DefinitionError) as caught:
        load_resolved(tg)
    assert ("units[0].formation: unknown field 'formation' (a field of musket-and-pike, not of this scenario's "
            "ruleset)") in {f"{p.path}: {p.message}" for p in caught.value.problems}


def test_a_ruleset_option_of_the_wrong_type_is_found_by_the_definitions() -> None:
    doc = mp_design_scenario()
    doc["options"]["shaken_ma_rounding"] = "sideways"
    with pytest.raises(DefinitionError) as caught:
        load_resolved(doc)
    assert [f"{p.path}: {p.message}" for p in caught.value.problems] == [
        "options.shaken_ma_rounding: must be one of down, up (got 'sideways')"]


def test_a_ruleset_without_definitions_is_named() -> None:
    with pytest.raises(DefinitionError) as caught:
        load_resolved({**mp_design_scenario(), "ruleset": "muskets-and-pikes"})
    (problem,) = [p for p in caught.value.problems if p.path == "ruleset"]
    assert problem.message.startswith("no definitions for ruleset 'muskets-and-pikes' (known: ")
    assert "modulebuilder.rulesets" in problem.message


def test_a_counters_file_takes_its_ruleset_from_its_header(tmp_path: Path) -> None:
    body = ("side: A\nactivation_groups: [{id: g, name: G, colour: '#123456'}]\n"
            "units: [{id: u, name: U, kind: infantry, ag: g}]\n")
    shared = tmp_path / "shared.yaml"
    shared.write_text(f"# yaml-language-server: $schema=../schemas/counters.schema.json\n{body}", encoding="utf-8")
    tg = tmp_path / "tg.yaml"
    tg.write_text(f"# yaml-language-server: $schema=../schemas/triumph-and-glory/counters.schema.json\n{body}",
                  encoding="utf-8")
    assert validate_files([shared]) == []              # no ruleset: nothing of a ruleset is required
    assert {p.path for p in validate_files([tg])} == {"activation_groups[0].io_rating", "units[0].assault",
                                                      "units[0].cohesion", "units[0].ma", "units[0].dfe"}


def test_the_combined_schemas_for_editors_are_up_to_date() -> None:
    """modulebuilder/schemas/<ruleset>/ is generated (``modulebuilder schemas``); stale files would make
    editors disagree with ``validate``."""
    for ruleset in ("triumph-and-glory", "musket-and-pike"):
        for kind in KINDS:
            path = ROOT / "modulebuilder" / "schemas" / ruleset / schema_file(kind)
            assert path.read_text(encoding="utf-8") == combined_text(kind, ruleset), \
                f"{path} is stale: run modulebuilder schemas --out modulebuilder/schemas"


def test_the_combined_schemas_are_valid_draft_2020_12() -> None:
    from jsonschema import Draft202012Validator

    for ruleset in (*known_rulesets(), None):
        for kind in KINDS:
            Draft202012Validator.check_schema(json.loads(combined_text(kind, ruleset)))


CONTRIBUTION = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Test classic definitions",
    "x-setup": {"facing": "optional"},                 # counters of a classic game face nothing
    "$defs": {
        "unit": {"properties": {"kind": {"enum": ["armor", "infantry"]},
                                "attack": {"type": "integer"}, "defence": {"type": "integer"}},
                 "required": ["attack", "defence"]},
        "tables": {"properties": {"crt": {"type": "array"}}},
    },
}


def test_a_third_party_ruleset_contributes_through_its_entry_point(tmp_path: Path) -> None:
    """A distribution that is nothing but files on sys.path: its package raises on import, so the test also
    proves that modulebuilder reads the contribution without importing the ruleset."""
    package = tmp_path / "classic_test_ruleset"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('modulebuilder imported the ruleset')\n")
    (package / "definitions.schema.json").write_text(json.dumps(CONTRIBUTION), encoding="utf-8")
    info = tmp_path / "classic_test_ruleset-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: classic-test-ruleset\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[modulebuilder.rulesets]\nclassic-test = classic_test_ruleset:definitions.schema.json\n")
    script = textwrap.dedent("""
        import json, sys
        from modulebuilder.definitions import DefinitionError, load_resolved
        from modulebuilder.definitions.rulesets import known_rulesets
        doc = {"ruleset": "classic-test",
               "map": {"grid": {"orientation": "flat", "shifted": "odd", "first_column": 1, "first_row": 1,
                                "columns": 4, "rows": 4}},
               "activation_groups": [{"id": "g", "name": "G", "side": "A", "colour": "#123456"}],
               "units": [{"id": "t", "name": "1/7", "kind": "armor", "side": "A", "ag": "g", "attack": 6,
                          "defence": 4, "hex": "0101"}],
               "tables": {"crt": [[1, 2]]}}
        s = load_resolved(doc)
        from modulebuilder.definitions import resolve
        written = resolve(s)      # none of the bundled rulesets' fields, and it reads back
        assert "io_rating" not in written["activation_groups"][0] and "brigade" not in written["units"][0]
        assert load_resolved(written) == s
        bad = json.loads(json.dumps(doc))
        bad["units"][0]["atack"] = 6
        bad["units"][0]["kind"] = "armour"
        try:
            load_resolved(bad)
        except DefinitionError as exc:
            problems = [f"{p.path}: {p.message}" for p in exc.problems]
        print(json.dumps({"known": known_rulesets(), "kind": s.counters.units[0].kind,
                          "fields": dict(s.counters.units[0].fields),
                          "imported": "classic_test_ruleset" in sys.modules, "problems": problems}))
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert "classic-test" in result["known"] and result["kind"] == "armor" and not result["imported"]
    assert result["fields"] == {"attack": 6, "defence": 4}        # the ruleset's fields reach the model
    assert "units[0].atack: unknown field 'atack' (did you mean 'attack'?)" in result["problems"]
    assert "units[0].kind: must be one of armor, infantry (got 'armour')" in result["problems"]
