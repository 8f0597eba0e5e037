"""Schema errors read as sentences about the author's file.  Property tests write random valid units into a
counters file, break one thing, and expect exactly one problem naming that field, at the right line."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from modulebuilder.definitions import DefinitionError, load_counters
from modulebuilder.definitions.messages import show
from modulebuilder.definitions.schemas import schema_problems
from modulebuilder.definitions.yamlpos import parse_yaml

REQUIRED = {
    "infantry": ("assault", "cohesion", "ma", "dfe"),
    "cavalry": ("assault", "cohesion", "ma", "cav_type"),
    "artillery": ("fire", "eff_range", "max_range", "cohesion", "ma"),
}
FOREIGN = {"infantry": ("cav_type", "fire"), "cavalry": ("dfe", "fire"), "artillery": ("assault", "dfe")}
rating = st.integers(0, 9)


@st.composite
def units(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(sorted(REQUIRED)))
    unit = {"id": "u-" + draw(st.text("abcdefgh0123", min_size=1, max_size=6)),
            "name": draw(st.text("ABCDEFGH abc", min_size=1, max_size=10).filter(str.strip)),
            "kind": kind, "ag": "g"}
    for field in REQUIRED[kind]:
        unit[field] = draw(st.sampled_from("LHC")) if field == "cav_type" else draw(rating)
    if kind == "artillery":
        unit["eff_range"] = min(unit["eff_range"], unit["max_range"])
    return unit


def counters_text(unit: dict) -> str:
    doc = {"side": "A", "activation_groups": [{"id": "g", "name": "G", "colour": "#123456", "io_rating": 5}],
           "units": [unit]}
    out = io.StringIO()
    yaml = YAML()
    yaml.default_flow_style = False
    yaml.dump(doc, out)
    return out.getvalue()


def problems_of(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_counters(path, "triumph-and-glory")   # the fields these tests break are Triumph & Glory's
    except DefinitionError as exc:
        return [f"{p.line}:{p.column}: {p.path}: {p.message}" for p in exc.problems]
    return []


def unit_start(text: str) -> str:
    """``line:column`` of the unit's first field (block style: '- id: ...')."""
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.lstrip().startswith("- id: u-"))
    return f"{line}:{text.splitlines()[line - 1].index('id: u-') + 1}"


settings_ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings_
@given(unit=units())
def test_a_valid_unit_loads_with_its_values(unit: dict, tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(counters_text(unit), encoding="utf-8")
    loaded = load_counters(path, "triumph-and-glory").units[0]
    assert (loaded.id, loaded.kind, loaded.side) == (unit["id"], unit["kind"], "A")
    assert all(getattr(loaded, f) == unit[f] for f in REQUIRED[unit["kind"]])


@settings_
@given(unit=units(), data=st.data())
def test_a_missing_required_field_is_one_problem_at_the_unit(unit: dict, data: st.DataObject, tmp_path: Path) -> None:
    field = data.draw(st.sampled_from(REQUIRED[unit["kind"]]))
    del unit[field]
    text = counters_text(unit)
    assert problems_of(text, tmp_path) == [f"{unit_start(text)}: units[0].{field}: required field missing"]


@settings_
@given(unit=units(), data=st.data())
def test_a_field_of_another_kind_is_named(unit: dict, data: st.DataObject, tmp_path: Path) -> None:
    field = data.draw(st.sampled_from(FOREIGN[unit["kind"]]))
    unit[field] = "L" if field == "cav_type" else 1
    (problem,) = problems_of(counters_text(unit), tmp_path)
    assert problem.endswith(f": units[0].{field}: {unit['kind']} units have no {field}")


@settings_
@given(unit=units(), data=st.data(), word=st.sampled_from(["four", "x", "4.5"]))
def test_a_rating_that_is_not_an_integer(unit: dict, data: st.DataObject, word: str, tmp_path: Path) -> None:
    field = data.draw(st.sampled_from([f for f in REQUIRED[unit["kind"]] if f != "cav_type"]))
    unit[field] = word
    text = counters_text(unit)
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.strip().startswith(f"{field}:"))
    column = text.splitlines()[line - 1].index(f"{field}:") + len(field) + 3
    assert f"{line}:{column}: units[0].{field}: must be an integer (got {word!r})" in problems_of(text, tmp_path)


@pytest.mark.parametrize("text, kind, expected", [
    ("id: m\ngrid: {orientation: flat, shifted: odd, first_column: 1, first_row: 1, columns: 2, rows: 2}\n"
     "terrain: {default: clear}\nnames: {'01x1': A}\n", "map",
     "4:9 names.01x1 key must be a hex number in quotes, like \"0304\" (got '01x1')"),
    ("id: m\ngrid: {orientation: flat, shifted: odd, first_column: 1, first_row: 1, columns: 2, rows: 2}\n"
     "terrain: {default: clear}\nroads: [{hexes: ['0101', '0102'], kind: lane}]\n", "map",
     "4:41 roads[0].kind must be one of road, path (got 'lane')"),
    ("movement_costs: {rows: {clear: {infantry: {cost: 1, disorder: true}, cavalry: 1, artillery: 1, commander: 1}}}\n",
     "tables", "1:53 movement_costs.rows.clear.infantry.disorder unknown field 'disorder' (did you mean 'disorders'?)"),
    ("odds: [[3, 1]]\n", "tables", "1:8 odds[0] must have at least 3 items (got 2)"),
    ("grid: 3\n", "map", "1:1 id required field missing"),
    ("- 1\n", "scenario", "1:1 file must be a mapping of fields (got a list)"),
])
def test_schema_messages(text: str, kind: str, expected: str) -> None:
    problems = schema_problems(parse_yaml(text, "f.yaml"), kind, "triumph-and-glory")   # type: ignore[arg-type]
    assert expected in [f"{p.line}:{p.column} {p.path} {p.message}" for p in problems]


@pytest.mark.parametrize("value, shown", [(None, "null"), (True, "true"), ("x", "'x'"), (3, "3"),
                                          ({}, "a mapping"), ([], "a list")])
def test_values_are_shown_as_yaml(value: object, shown: str) -> None:
    assert show(value) == shown
