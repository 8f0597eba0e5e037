"""Roll specifications (rolls.py): pass/fail tests and table rolls in the DESIGN §5 shape."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from referee.rulesets.triumph_and_glory.rolls import BandTable, Modifier, PassRoll, TableRoll, TargetRoll

SHOCK = BandTable.parse([{"max": -1, "result": "a"}, {"min": 0, "max": 4, "result": "b"},
                         {"min": 5, "max": 9, "result": "c"}, {"min": 10, "result": "d"}])


def test_pass_roll_dict_has_the_design_shape():
    r = PassRoll("commitment", 5, "9.43", "cohesion of Guy a",
                 (Modifier(-2, "9.42", "under orders"), Modifier(1, "9.42", "DFE")), "guy-a")
    assert r.to_dict(4) == {
        "purpose": "commitment", "unit": "guy-a", "die": "d10", "natural": 4, "base": 5, "base_rule": "9.43",
        "base_label": "cohesion of Guy a",
        "modifiers": [{"value": -2, "rule": "9.42", "reason": "under orders"},
                      {"value": 1, "rule": "9.42", "reason": "DFE"}],
        "pass_max": 6, "p_success": 0.7, "outcome": "pass"}
    assert r.to_dict()["natural"] is None and r.to_dict()["outcome"] is None
    assert r.arithmetic(6) == "6 - 2 + 1 = 5 <= 5: pass"
    assert r.arithmetic(7) == "7 - 2 + 1 = 6 > 5: fail"


def test_no_automatic_success_or_failure():
    assert PassRoll("x", 2, "r", "b", (Modifier(3, "r", "m"),)).pass_max == -1     # §0: nothing passes
    assert PassRoll("x", 2, "r", "b", (Modifier(3, "r", "m"),)).p_success == 0.0
    assert PassRoll("x", 8, "r", "b", (Modifier(-2, "r", "m"),)).pass_max == 9     # everything passes
    assert PassRoll("x", 8, "r", "b", (Modifier(-2, "r", "m"),)).p_success == 1.0


@pytest.mark.parametrize("bad", [-1, 10, 3.0, True, "4"])
def test_natural_must_be_a_d10_face(bad):
    with pytest.raises(ValueError):
        PassRoll("x", 5, "r", "b").outcome(bad)


@given(st.integers(-5, 15), st.lists(st.integers(-4, 4), max_size=4))
def test_pass_max_consistent_with_p_success_and_outcomes(base, values):
    r = PassRoll("x", base, "r", "b", tuple(Modifier(v, "r", "m") for v in values))
    passes = [n for n in range(10) if r.passes(n)]
    assert len(passes) / 10 == pytest.approx(r.p_success)
    assert passes == list(range(r.pass_max + 1)) == list(r.pass_set)
    assert all(r.passes(n) == (n + sum(values) <= base) for n in range(10))


def test_band_table_text_forms_match_min_max_forms():
    text = BandTable.parse([{"range": "< 0", "result": "a"}, {"range": "0-4", "result": "b"},
                            {"range": "5-9", "result": "c"}, {"range": ">= 10", "result": "d"}])
    assert text == SHOCK
    assert [SHOCK.lookup(v) for v in (-3, -1, 0, 4, 5, 9, 10, 17)] == list("aabbccdd")


def test_band_table_must_cover_every_roll():
    with pytest.raises(ValueError):
        BandTable.parse([{"max": 4, "result": "a"}, {"min": 6, "result": "b"}])
    with pytest.raises(ValueError):
        BandTable.parse([{"min": 0, "result": "a"}])


def test_table_roll_single_and_several_targets():
    one = TableRoll.single("shock", SHOCK, (Modifier(3, "9.54", "front and rear"),), "0404")
    assert one.to_dict(5) == {"purpose": "shock", "die": "d10", "natural": 5,
                              "modifiers": [{"value": 3, "rule": "9.54", "reason": "front and rear"}],
                              "modified": 8, "result": "c"}
    two = TableRoll("shock", SHOCK, (TargetRoll("0404", (Modifier(2, "r", "m"),)),
                                     TargetRoll("0505", (Modifier(-2, "9.85", "square"),))))
    d = two.to_dict(3)
    assert [(t["hex"], t["modified"], t["result"]) for t in d["targets"]] == [("0404", 5, "c"), ("0505", 1, "b")]
    assert two.to_dict()["targets"][0]["modified"] is None


def test_distribution_sums_to_one():
    assert SHOCK.distribution(3) == {"b": 0.2, "c": 0.5, "d": 0.3}
