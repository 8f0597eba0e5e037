"""The YAML-with-positions parser: values come back as plain Python equal to what was dumped, and every
mapping key and sequence item is found at the line and column where it was written.  The fast reader
(libyaml) gives exactly what the reference reader (ruamel.yaml) gives, or hands the text over to it."""
from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from modulebuilder.definitions.problems import Problem
from modulebuilder.definitions.yaml_libyaml import Unusual, parse_with_libyaml
from modulebuilder.definitions.yaml_ruamel import parse_with_ruamel
from modulebuilder.definitions.yamlpos import YamlSyntaxError, parse_yaml

keys = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12),
)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20,
)


def dump(data: object, flow: bool | None) -> str:
    yaml = YAML()
    yaml.default_flow_style = flow
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


@settings(max_examples=60, deadline=None)
@given(data=st.dictionaries(keys, documents, min_size=1, max_size=5))
def test_dumped_documents_come_back_equal(data: dict) -> None:
    assert parse_yaml(dump(data, False), "t.yaml").data == data


# ruamel.yaml's flow-style dumper writes some strings unquoted that it then reads back differently
# ("?0" becomes a mapping), so flow style is exercised with plain words only.
words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789 ", min_size=1, max_size=8).map(lambda s: "w" + s.strip())
flow_documents = st.recursive(
    st.one_of(st.integers(-1000, 1000), words, st.booleans(), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(data=st.dictionaries(keys, flow_documents, min_size=1, max_size=5))
def test_flow_style_documents_come_back_equal(data: dict) -> None:
    assert parse_yaml(dump(data, None), "t.yaml").data == data


@settings(max_examples=60, deadline=None)
@given(data=st.dictionaries(keys, documents, min_size=1, max_size=5))
def test_every_key_is_found_where_it_is_written(data: dict) -> None:
    text = dump(data, False)                      # block style: each key starts its own line
    lines = text.splitlines()
    doc = parse_yaml(text, "t.yaml")
    assert doc.keys, "a non-empty mapping has keys"
    for path, (line, column) in doc.keys.items():
        written = lines[line - 1][column - 1:].lstrip("'\"")   # keys such as 'false' are dumped quoted
        assert written.startswith(str(path[-1])), (path, line, column)


def test_positions_of_items_keys_and_values_are_one_based() -> None:
    doc = parse_yaml('units:\n  - {id: a, hex: "0304"}\n  - id: b\n', "f.yaml")
    assert doc.keys[("units",)] == (1, 1)
    assert doc.values[("units", 0)] == (2, 5)
    assert doc.keys[("units", 0, "hex")] == (2, 13)
    assert doc.values[("units", 0, "hex")] == (2, 18)
    assert doc.values[("units", 1)] == (3, 5)
    assert doc.data == {"units": [{"id": "a", "hex": "0304"}, {"id": "b"}]}


def test_values_are_plain_python_types() -> None:
    doc = parse_yaml("a: 1\nb: 1.5\nc: true\nd: 2012-09-07\ne: [x]\n", "f.yaml")
    assert [type(v) for v in doc.data.values()] == [int, float, bool, str, list]
    assert doc.data["d"] == "2012-09-07"


def test_a_problem_at_a_missing_path_points_at_the_nearest_ancestor() -> None:
    doc = parse_yaml("units:\n  - id: a\n", "f.yaml")
    assert str(doc.problem(("units", 0, "cohesion"), "required field missing")) == \
        "f.yaml:2:5: units[0].cohesion: required field missing"


@pytest.mark.parametrize("text, expected", [
    ("a: [1\nb: 2\n", "f.yaml:2:2: file: YAML syntax error: expected ',' or ']', but got ':'"
                      " (while parsing a flow sequence started at line 1)"),
    ("a: 1\na: 2\n", 'f.yaml:2:1: file: YAML syntax error: found duplicate key "a" with value "2"'
                     ' (original value: "1")'),
    ("a:\n\t- 1\n", "f.yaml:2:1: file: YAML syntax error: found character '\\t' that cannot start any token"),
])
def test_syntax_errors_are_one_line_with_a_position(text: str, expected: str) -> None:
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text, "f.yaml")
    assert isinstance(caught.value.problem, Problem)
    assert str(caught.value.problem) == expected


def same_reading(text: str) -> None:
    """The fast reader reads ``text`` exactly as the reference reader does (data and every position), or
    declines it."""
    try:
        fast = parse_with_libyaml(text)
    except Unusual:
        return
    assert fast == parse_with_ruamel(text, "t.yaml")


@settings(max_examples=80, deadline=None)
@given(data=st.dictionaries(keys, documents, min_size=1, max_size=5), flow=st.sampled_from([False, None]))
def test_fast_reader_reads_dumped_documents_as_the_reference_does(data: dict, flow: bool | None) -> None:
    same_reading(dump(data, flow))


@pytest.mark.parametrize("text", [
    "a:\nb: 1\n",                      # empty values: ruamel.yaml places them at the next token
    "a: {x: 1, b: }\n",
    "- a:\n",
    "a: &d {p: 1}\nb:\n  <<: *d\n  q: 2\n",
    "a: 1\na: 2\n",
    "? [1, 2]\n: 3\n",
    "a: yes\nb: 0304\nc: 0o17\nd: 0x1F\ne: 1_000\nf: .5\ng: 1e3\nh: .inf\ni: ~\nj: 2012-09-07\n",
    "1: one\n'1': quoted\n",
    "a: !!str 12\nb: !!int '7'\n",
    "hex: 0304\nterrain: {default: clear}\nrows: [[1, 2], {a: b}]\n# comment\n",
])
def test_fast_reader_matches_the_reference_on_awkward_yaml(text: str) -> None:
    same_reading(text)


def test_an_empty_value_is_placed_where_the_reference_reader_places_it() -> None:
    assert parse_yaml("a:\nb: 1\n", "f.yaml").values[("a",)] == (2, 1)


def test_explicitly_tagged_scalars_are_plain() -> None:
    assert parse_yaml("a: !!str 12\nb: !!int '7'\n", "f.yaml").data == {"a": "12", "b": 7}
