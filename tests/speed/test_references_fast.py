"""The log reader's loop calls T&G's reference check bound to the scenario (``references_of``): it says what
``check_references`` alone says, in the same order, on hypothesis-made changes of the sample game's events; the
map's hex names are each column's and row's text formatted together."""
from __future__ import annotations

from pathlib import Path

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


_known_units = sorted(n for n in NAMES.kinds["unit"].names)[:20]
_known_hexes = sorted(NAMES.kinds["hex"].names)[:40]
_known_markers = sorted(NAMES.kinds["marker"].names)[:10]
_name = st.one_of(st.sampled_from(_known_units), st.sampled_from(_known_hexes), st.sampled_from(_known_markers),
                  st.sampled_from(sorted(NAMES.kinds["side"].names)), st.text(max_size=6))
_scalar = st.one_of(_name, st.none(), st.booleans(), st.integers(-5, 5000), st.floats(allow_nan=False))
_value = st.recursive(_scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(["attackers", "target", "x"]), inner, max_size=3)),
    max_leaves=12)
_field_value = st.one_of(_name, st.lists(_name, max_size=6), _value)
#: every field an event may carry that names something (the verbs' refs), and a few that name nothing
_fields = st.sampled_from(sorted({f for v in tg.VERBS for f in v.refs}) + ["mode", "type", "note"])


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
        errors = None if v.is_valid(event) else sorted(v.iter_errors(event), key=lambda e: list(e.absolute_path))
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
