"""The JSON Schemas themselves: valid draft 2020-12, described for editors, and named by correct relative
paths in the header of every YAML file of ours."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from modulebuilder.definitions.detect import kind_from_folder, kind_from_header, kind_of_data
from modulebuilder.definitions.files import read_document
from modulebuilder.definitions.problems import Problem
from modulebuilder.definitions.schemas import KINDS, is_valid, load_schema, schema_file, validator

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



# The fast check (jsonschema-rs) decides alone only when it passes a document, so it must never pass one
# that jsonschema rejects; rejecting one that jsonschema passes would merely cost time.
ALL_YAML = sorted(p for folder in ("examples", "scenarios", "counters", "maps", "tables", "tests/broken")
                  for p in ROOT.joinpath(folder).rglob("*.yaml"))


@pytest.mark.parametrize("path", ALL_YAML, ids=lambda p: str(p.relative_to(ROOT)))
def test_fast_check_agrees_with_jsonschema(path: Path) -> None:
    doc = read_document(path)
    if isinstance(doc, Problem):
        pytest.skip("not YAML")
    kind = kind_from_header(path.read_text(encoding="utf-8")[:2000]) or kind_of_data(doc.data)
    if kind is None:
        pytest.skip("kind unknown")
    assert is_valid(doc.data, kind) == (not list(validator(kind).iter_errors(doc.data)))


@pytest.mark.parametrize("kind, data", [
    ("counters", {"side": "French", "units": [{"id": "a", "name": "A", "kind": "infantry", "ag": "g",
                                              "assault": 4, "cohesion": 5, "ma": 4, "dfe": 1,
                                              "surplus": 1}]}),             # unevaluatedProperties
    ("tables", {"odds": [[3, 0, 1]]}),                                    # prefixItems
])
def test_fast_check_applies_draft_2020_12_keywords(kind: str, data: Any) -> None:
    assert not is_valid(data, kind)  # type: ignore[arg-type]
    assert list(validator(kind).iter_errors(data))  # type: ignore[arg-type]
