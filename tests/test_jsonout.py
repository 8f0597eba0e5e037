"""referee.jsonout gives exactly the text of json.dumps(..., ensure_ascii=False, indent=1).  Every ruling of the
sample logs, at the writers' indentations: tests/speed/test_check_stream.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee.jsonout import any_text, ruling_text


def stdlib(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1)


def test_committed_sample_rulings_byte_identical() -> None:
    from referee.engine.replay import final_state, replay
    from referee.logs import read_log
    log = read_log(Path(__file__).parent / "fixtures" / "logs" / "sample-borodino.json")
    result = replay(log.ruleset, log.scenario, log.events[:400], log.dice, log.seed, places=False)
    body = {"rulings": [r.to_dict() for r in result.rulings], "state": final_state(result.game)}
    assert any_text(body) == stdlib(body)
    assert [ruling_text(r, "\n") for r in result.rulings] == [stdlib(r.to_dict()) for r in result.rulings]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_same_text_as_the_standard_library(obj) -> None:
    assert any_text(obj) == stdlib(obj)


@pytest.mark.parametrize("obj", [1e-05, [1e-08, {"a": 2.5e16}], {1: "int key"}, 2**70, [[[[[[[[]]]]]]]] * 2,
                                 {"deep": json.loads("[" * 40 + "]" * 40)}, "tab\tnewline\n\x01\x7f\u2028é",
                                 float("nan"), [float("inf"), -float("inf")], (1, "tuple"), {"": []}])
def test_values_spelt_by_the_standard_library_s_rules(obj) -> None:
    assert any_text(obj) == stdlib(obj)
