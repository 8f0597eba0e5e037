"""The JSON Schemas themselves: valid draft 2020-12, described for editors, and named by correct relative
paths in the header of every YAML file of ours."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from modulebuilder.definitions.detect import kind_from_folder, kind_from_header, kind_of_data
from modulebuilder.definitions.schemas import KINDS, load_schema, schema_file

ROOT = Path(__file__).resolve().parent.parent
HEADER = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
OUR_YAML = sorted([*ROOT.joinpath("examples").rglob("*.yaml"), *ROOT.joinpath("tests", "broken").rglob("*.yaml")])


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_valid_draft_2020_12(kind: str) -> None:
    schema = load_schema(kind)  # type: ignore[arg-type]
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["description"]


def properties(node: Any, conditional: bool = False) -> Iterator[tuple[str, Any, bool]]:
    """(name, schema, inside an if/not condition) for every property any object schema declares."""
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            yield name, sub, conditional
        for key, value in node.items():
            yield from properties(value, conditional or key in ("if", "not", "then"))
    elif isinstance(node, list):
        for value in node:
            yield from properties(value, conditional)


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_is_described_for_editors(kind: str) -> None:
    undescribed = [name for name, sub, conditional in properties(load_schema(kind))  # type: ignore[arg-type]
                   if not conditional and isinstance(sub, dict) and "description" not in sub and "$ref" not in sub]
    assert undescribed == []


@pytest.mark.parametrize("path", OUR_YAML, ids=lambda p: str(p.relative_to(ROOT)))
def test_yaml_headers_name_an_existing_schema(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = HEADER.match(first)
    assert match, first
    target = (path.parent / match.group(1)).resolve()
    assert target.is_file() and target.name in {schema_file(k) for k in KINDS}  # type: ignore[arg-type]


def test_kind_detection() -> None:
    assert kind_from_header("# yaml-language-server: $schema=../schemas/map.schema.json\nid: x") == "map"
    assert kind_from_header("# just a comment\nid: x") is None
    assert kind_of_data({"ruleset": "x", "units": []}) == "resolved-scenario"
    assert kind_of_data({"setup": []}) == "scenario"
    assert kind_of_data({"grid": {}}) == "map"
    assert kind_of_data({"side": "A", "units": []}) == "counters"
    assert kind_of_data({"odds": []}) == "tables"
    assert kind_of_data(["a list"]) is None
    assert kind_from_folder("games/x/counters/french.yaml") == "counters"
    assert kind_from_folder("scenarios/x.yaml") == "scenario"
    assert kind_from_folder("x.yaml") is None

