"""``referee.logs.surely_valid``: a True is always jsonschema-rs's answer too (docs/speed.md §1).

The predicate only ever says "surely valid" or "don't know" (then jsonschema-rs decides), so the one thing that
could change which logs are accepted is a True where jsonschema-rs says invalid.  Checked on every event of the
sample logs and on hypothesis-made variants of them (fields changed to any JSON-ish value — floats, big
integers, booleans, lone surrogates, non-ASCII digits, nested lists and objects —, removed or added), for every
installed ruleset's event types."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import jsonschema_rs
import pytest
from hypothesis import assume, given, settings, strategies as st

from referee.engine import registry
from referee.logs import jsonlog, read_log
from referee.logs.surely_valid import compile_schema

ROOT = Path(__file__).resolve().parents[2]
LOGS = [ROOT / "tests/fixtures/logs/sample-borodino.json", ROOT / "tests/fixtures/logs/small-inline.yaml",
        ROOT / "examples/bridgehead/sample-game.json"]


def schema_of(ruleset_id: str, event_type: str):
    sub, root = jsonlog._event_schemas(ruleset_id)[event_type]
    return jsonlog._inline(sub, root) if root else sub


VALIDATORS: dict = {}


def both(ruleset_id: str, event_type: str):
    """(surely-valid predicate, jsonschema-rs validator) of one event type."""
    key = (ruleset_id, event_type)
    if key not in VALIDATORS:
        schema = schema_of(ruleset_id, event_type)
        VALIDATORS[key] = (compile_schema(schema), jsonschema_rs.Draft202012Validator(dict(schema)))
    return VALIDATORS[key]


def sample_events():
    out = []
    for path in LOGS:
        log = read_log(path)
        out += [(log.ruleset.id, e) for e in log.events]
    return out


SAMPLES = sample_events()


def agrees(ruleset_id: str, event) -> bool:
    surely, rs = both(ruleset_id, event["type"]) if isinstance(event, dict) and isinstance(event.get("type"), str) \
        and event["type"] in jsonlog._event_schemas(ruleset_id) else (None, None)
    if surely is None:
        return True
    return not surely(event) or rs.is_valid(event)


def test_every_event_of_the_sample_logs_is_vouched_for_and_valid():
    assert len(SAMPLES) > 5000
    for rid, event in SAMPLES:
        surely, rs = both(rid, event["type"])
        assert surely is not None and surely(event), event        # the fast path is the path these logs take
        assert rs.is_valid(event)


def test_every_installed_ruleset_s_event_types_compile():
    for rid in registry.available():
        for event_type in jsonlog._event_schemas(rid):
            assert compile_schema(schema_of(rid, event_type)) is not None, (rid, event_type)


json_scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
                | st.sampled_from([0, 1, 9, 10, -1, 12, 13, 1.0, 0.0, 9.0, 2**63, -2**63 - 1, True, False])
                | st.text(max_size=8) | st.sampled_from(["", "0101", "01010", "1234567", "0101\n", "١٢٣٤", "12a4",
                                                         "\ud800", "é", "French", "Russian", "normal", "roll"]))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6) | st.sampled_from(["type", "side", "unit"]),
                                             inner, max_size=3), max_leaves=8)


@st.composite
def variants(draw):
    rid, event = draw(st.sampled_from(SAMPLES))
    event = copy.deepcopy(event)
    for _ in range(draw(st.integers(1, 3))):
        keys = sorted(event)
        op = draw(st.sampled_from(["set", "drop", "add", "inner"]))
        if op == "set" and keys:
            k = draw(st.sampled_from([k for k in keys if k != "type"] or keys))
            event[k] = draw(json_values)
        elif op == "drop" and keys:
            event.pop(draw(st.sampled_from(keys)))
        elif op == "add":
            event[draw(st.text(max_size=6) | st.sampled_from(["roll", "facing", "note", "path", "mode"]))] = \
                draw(json_values)
        elif op == "inner":
            lists = [k for k in keys if isinstance(event[k], list) and event[k]]
            if lists:
                k = draw(st.sampled_from(lists))
                event[k][draw(st.integers(0, len(event[k]) - 1))] = draw(json_values)
    return rid, event


@settings(max_examples=1000, deadline=None)
@given(variants())
def test_a_true_is_always_jsonschema_rs_s_answer(case):
    rid, event = case
    assert agrees(rid, event), event


names = st.sampled_from(["type", "side", "unit", "path", "a", "é"])
scalar_schemas = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"])
    | st.lists(st.sampled_from(["string", "integer", "null", "object"]), min_size=1, max_size=2, unique=True),
    "const": json_scalars, "enum": st.lists(json_values, min_size=1, max_size=3),
    "minLength": st.integers(0, 3), "pattern": st.just("^[0-9]{4,6}$"),
    "minimum": st.integers(-3, 12), "maximum": st.integers(-3, 12)})
schemas = st.recursive(scalar_schemas | st.booleans(), lambda inner: st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["object", "array"]), "properties": st.dictionaries(names, inner, max_size=3),
    "required": st.lists(names, max_size=3, unique=True), "additionalProperties": inner,
    "items": inner, "minItems": st.integers(0, 2), "maxItems": st.integers(0, 3),
    "anyOf": st.lists(inner, min_size=1, max_size=2)}), max_leaves=6)
values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(names | st.text(max_size=3), inner, max_size=4), max_leaves=10)


@settings(max_examples=2000, deadline=None)
@given(schemas, values)
def test_any_schema_s_generated_predicate_says_true_only_where_jsonschema_rs_does(schema, value):
    """The predicate is generated Python source (surely_valid._Writer); over any schema made of the keywords it
    reads, and any value, a True is jsonschema-rs's answer too."""
    try:
        reference = jsonschema_rs.Draft202012Validator(schema if isinstance(schema, bool) else dict(schema))
    except (jsonschema_rs.ValidationError, ValueError):
        assume(False)       # not a schema jsonschema-rs takes (a lone surrogate in a constant): no event schema is so
    surely = compile_schema(schema)
    if surely is not None and surely(value):
        assert reference.is_valid(value), (schema, value)


@settings(max_examples=500, deadline=None)
@given(values)
def test_an_object_schema_vouches_for_the_plainly_valid(value):
    """Not only sound but of use: an object of known fields of the right types is vouched for."""
    surely = compile_schema({"type": "object", "required": ["type"], "additionalProperties": False,
                             "properties": {"type": {"const": "move"}, "path": {"type": "array", "items": {
                                 "type": "string", "pattern": "^[0-9]{4,6}$"}}, "note": {}}})
    assert surely({"type": "move", "path": ["0101", "123456"], "note": "é"})
    assert surely({"type": "move", "note": [1, {"a": None}]})
    assert not surely({"type": "move", "path": ["0101", "01"]}) and not surely({"path": []})
    assert not surely({"type": "move", "other": 1}) and not surely({"type": "move", 1: 1})
    if surely({"type": "move", "note": value}):
        assert jsonschema_rs.Draft202012Validator({}).is_valid(value)


@pytest.mark.parametrize("value", [1.0, True, 2**63, "1", None])
def test_what_is_not_plainly_an_integer_is_left_to_jsonschema_rs(value):
    surely = compile_schema({"type": "integer", "minimum": 0, "maximum": 9})
    assert surely(3) and not surely(value)


@pytest.mark.parametrize("value", ["0101\n", "١٢٣٤", "012", "0123456", "\ud800"])
def test_a_pattern_is_read_only_where_both_dialects_agree(value):
    surely = compile_schema({"type": "string", "pattern": "^[0-9]{4,6}$"})
    assert surely("0101") and not surely(value)
    assert compile_schema({"type": "string", "pattern": "^[0-9]+$"}) is None


@pytest.mark.parametrize("schema", [{"oneOf": [{"type": "string"}]}, {"type": "string", "format": "date"},
                                    {"$ref": "#/$defs/x"}, {"type": "number", "minimum": 0.5},
                                    {"type": "array", "prefixItems": [{"type": "string"}]}])
def test_a_schema_with_what_it_does_not_read_is_left_whole_to_jsonschema_rs(schema):
    assert compile_schema(schema) is None


def test_const_and_enum_compare_types_too():
    surely = compile_schema({"enum": [1, "a", [1]]})
    assert surely(1) and surely("a") and surely([1])
    assert not surely(True) and not surely(1.0) and not surely([True])


def test_a_bad_event_is_still_refused_with_jsonschema_s_words(tmp_path):
    """What the predicate cannot vouch for, jsonschema-rs decides as before: it takes "0101\n" as matching
    ``^[0-9]{4,6}$`` (the reference check then finds no such hex) and refuses "01", which jsonschema words."""
    doc = json.loads(LOGS[0].read_text(encoding="utf-8"))
    doc["events"] = doc["events"][:2] + [{"type": "move", "side": "French", "unit": "x", "path": ["0101\n", "01"]}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(bad)], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr == "events[2].path[1]: '01' does not match '^[0-9]{4,6}$'\n"


def test_a_long_log_goes_to_jsonschema_rs_straight_away(monkeypatch):
    """Beyond SURELY_EVENTS the predicate (~5,600 instructions an event more than jsonschema-rs) costs more than
    jsonschema-rs's import saves; the sample game (5,886 events) is below it."""
    log = read_log(LOGS[0])
    assert len(log.events) <= jsonlog.SURELY_EVENTS
    monkeypatch.setattr(jsonlog, "SURELY_EVENTS", len(log.events) - 1)
    asked = []
    compiled = jsonlog._validator

    def validator(rid, event_type):
        real = compiled(rid, event_type)
        return jsonlog._EventValidator(real.schema, lambda e: asked.append(e) or True)
    monkeypatch.setattr(jsonlog, "_validator", validator)
    assert jsonlog.check_events(log.ruleset, log.scenario, log.events) == [] and asked == []
    monkeypatch.setattr(jsonlog, "SURELY_EVENTS", len(log.events))
    assert jsonlog.check_events(log.ruleset, log.scenario, log.events) == [] and len(asked) == len(log.events)
