"""T&G's ``check_references``: the fast path ``_all_known`` vouches only where the long way ``_problems`` finds
nothing (docs/speed.md §1), so no log is accepted or refused differently.

Checked on every event of the sample logs (nearly each one vouched for, so the fast path is the one taken) and on
hypothesis-made events: the names a field may carry replaced by known and unknown names, other types, nested
lists and objects, unhashable values, for every field the long way reads."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee.logs import read_log
from referee.rulesets import triumph_and_glory as tg

ROOT = Path(__file__).resolve().parents[2]
LOGS = [ROOT / "tests/fixtures/logs/sample-borodino.json", ROOT / "tests/fixtures/logs/small-inline.yaml"]


def _logs():
    return [read_log(p) for p in LOGS]


LOGS_READ = _logs()
SCENARIO = LOGS_READ[0].scenario
NAMES = tg.RULESET.names(SCENARIO)


def long_way(scenario, event):
    return tg._problems(tg.RULESET.names(scenario), event)


@pytest.mark.parametrize("log", LOGS_READ, ids=[p.name for p in LOGS])
def test_nearly_every_sample_event_is_vouched_for_and_the_long_way_agrees(log):
    names = tg.RULESET.names(log.scenario)
    events = [e for e in log.events if e["type"] != "roll"]
    vouched = [e for e in events if tg._all_known(names, e)]
    assert all(tg._all_known(names, e) for e in events if e["type"] == "move")
    assert len(events) < 100 or len(vouched) >= 0.95 * len(events)      # orders, assaults: the long way
    for event in events:
        assert tg._problems(names, event) == []
        assert log.ruleset.check_references(log.scenario, event) == []


_known_units = sorted(NAMES.units)[:20]
_known_hexes = sorted(NAMES.hexes)[:40]
_known_markers = sorted(NAMES.markers)[:10]
_name = st.one_of(st.sampled_from(_known_units), st.sampled_from(_known_hexes), st.sampled_from(_known_markers),
                  st.sampled_from(list(NAMES.sides)), st.sampled_from(sorted(NAMES.ags) or ["x"]),
                  st.sampled_from(sorted(NAMES.commands) or ["x"]), st.text(max_size=6))
_scalar = st.one_of(_name, st.none(), st.booleans(), st.integers(-5, 5000), st.floats(allow_nan=False))
_value = st.recursive(_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(["attackers", "target", "x"]), inner, max_size=3)),
    max_leaves=12)
_field_value = st.one_of(_name, st.lists(_name, max_size=6), _value)
_fields = st.sampled_from(sorted(tg._FIELD_KIND) + ["mode", "type", "note"])


@settings(max_examples=3000, deadline=None)
@given(st.dictionaries(_fields, _field_value, max_size=5))
def test_the_fast_path_vouches_only_where_the_long_way_finds_nothing(event):
    try:
        expected = tg._problems(NAMES, event)
    except (TypeError, AttributeError) as exc:          # the long way's own error: the check raises it too
        with pytest.raises(type(exc)):
            tg.RULESET.check_references(SCENARIO, event)
        return
    if tg._all_known(NAMES, event):
        assert expected == []
    assert tg.RULESET.check_references(SCENARIO, event) == expected
    assert tg.RULESET.references_of(SCENARIO)(event) == expected


@settings(max_examples=500, deadline=None)
@given(st.sampled_from([e for e in LOGS_READ[0].events if e["type"] != "roll"]), _fields, _field_value)
def test_sample_events_with_one_field_changed(event, field, value):
    changed = {**event, field: value}
    try:
        expected = tg._problems(NAMES, changed)
    except (TypeError, AttributeError):
        return
    if tg._all_known(NAMES, changed):
        assert expected == []
    assert tg.RULESET.check_references(SCENARIO, changed) == expected
    assert tg.RULESET.references_of(SCENARIO)(changed) == expected


class _PlainRuleset:
    """The T&G ruleset as a plugin without ``references_of`` (nor anything else but what check_events reads)."""
    id = tg.RULESET.id
    check_references = staticmethod(tg.RULESET.check_references)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LOGS_READ[0].events[:400]), _fields, _field_value | st.just("keep")),
                max_size=8))
def test_check_events_says_what_it_says_with_the_protocol_s_check_references(changes):
    """``jsonlog.check_events`` calls the predicate and the bound reference check itself: the problems (schema,
    names, in order) are those of a ruleset with ``check_references`` alone, and those the validators and the
    reference check give as check_events did before (``_the_long_way``)."""
    from referee.logs import jsonlog
    events = [event if value == "keep" else {**event, field: value} for event, field, value in changes]
    got = jsonlog.check_events(tg.RULESET, SCENARIO, events)
    assert got == jsonlog.check_events(_PlainRuleset, SCENARIO, events)
    assert got == _the_long_way(tg.RULESET, SCENARIO, events)


def _the_long_way(ruleset, scenario, events):
    """check_events as it was before it called the predicate and the bound reference check itself (110943f)."""
    from collections.abc import Mapping

    from referee.logs import jsonlog
    schemas = jsonlog._event_schemas(ruleset.id)
    vouch = len(events) <= jsonlog.SURELY_EVENTS
    problems = []
    for i, event in enumerate(events):
        if not isinstance(event, Mapping):
            problems.append(f"events[{i}]: expected an object with a 'type'")
            continue
        type_ = event.get("type")
        if not isinstance(type_, str) or type_ not in schemas:
            problems.append(f"events[{i}].type: unknown event type {type_!r} (known: {', '.join(sorted(schemas))})")
            continue
        v = jsonlog._validator(ruleset.id, type_)
        errors = None if v.is_valid(event, vouch) else sorted(v.iter_errors(event), key=lambda e: list(e.absolute_path))
        if errors:
            problems.extend(jsonlog._describe(f"events[{i}]", e) for e in errors)
            continue
        if type_ != "roll":
            for fld, msg in ruleset.check_references(scenario, event):
                problems.append(f"events[{i}].{fld}: {msg}" if fld else f"events[{i}]: {msg}")
    return problems


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 120), st.integers(0, 40), st.integers(0, 120), st.integers(0, 40), st.integers(1, 4))
def test_the_map_s_hex_names_are_each_column_and_row_formatted_together(first_column, columns, first_row, rows,
                                                                          digits):
    from types import SimpleNamespace
    grid = SimpleNamespace(first_column=first_column, columns=columns, first_row=first_row, rows=rows,
                           digits=digits)
    assert tg._hex_names(grid) == frozenset(
        f"{c:0{digits}d}{r:0{digits}d}" for c in range(first_column, first_column + columns)
        for r in range(first_row, first_row + rows))
