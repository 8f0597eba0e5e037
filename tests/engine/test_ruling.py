"""Ruling objects (DESIGN §5): pass ranges, probabilities, table rolls, the JSON shape."""
from __future__ import annotations

import pytest

from referee.engine.ruling import (Awaiting, Error, Modifier, illegal, legal, pass_fail_roll, pass_max_for,
                                   result, table_roll)


@pytest.mark.parametrize("base, mods, expected", [
    (5, [], 5), (5, [-2, 1], 6), (6, [-2], 8), (2, [1, 2], -1), (6, [-9], 9), (0, [], 0)])
def test_pass_max_is_clamped_and_never_automatic(base, mods, expected):
    assert pass_max_for(base, [Modifier(m, "x", "y") for m in mods]) == expected


def test_seed_example_9_43_cohesion_5_uo_in_range_dfe_1():
    roll = pass_fail_roll("commitment", 6, 5, base_label="cohesion of Guy a", base_rule="9.43",
                          modifiers=[Modifier(-2, "9.42", "under orders, Napoleon within 3 hexes"),
                                     Modifier(1, "9.42", "DFE of Psk Jgr (front)")], unit="guy-a")
    d = roll.to_dict()
    assert d == {"purpose": "commitment", "unit": "guy-a", "die": "d10", "natural": 6, "base": 5,
                 "base_label": "cohesion of Guy a", "base_rule": "9.43",
                 "modifiers": [{"value": -2, "rule": "9.42", "reason": "under orders, Napoleon within 3 hexes"},
                               {"value": 1, "rule": "9.42", "reason": "DFE of Psk Jgr (front)"}],
                 "pass_max": 6, "p_success": 0.7, "outcome": "pass"}
    assert pass_fail_roll("commitment", 7, 5, base_label="", base_rule="9.43",
                          modifiers=roll.modifiers).outcome == "fail"


def test_owed_roll_has_no_outcome():
    r = pass_fail_roll("orders_delay", None, 4, base_label="delay", base_rule="5.29")
    assert r.natural is None and r.outcome is None and r.pass_max == 4 and r.p_success == 0.5


def test_table_roll_carries_modified_and_result():
    r = table_roll("initiative", 4, "initiative", modifiers=[Modifier(3, "4.0", "orders rating")], side="French")
    assert r.to_dict() == {"purpose": "initiative", "side": "French", "die": "d10", "natural": 4,
                           "modifiers": [{"value": 3, "rule": "4.0", "reason": "orders rating"}],
                           "modified": 7, "result": "initiative"}


def test_ruling_json_shape():
    r = legal("draw", ["5.31"], results=[result("under_orders", "5.23", "a", units=["a", "b"])],
              awaiting=[Awaiting("roll", "French", "5.28", "a")]).with_index(3)
    assert r.to_dict() == {"index": 3, "type": "draw", "verdict": "legal", "rules": ["5.31"], "errors": [],
                           "rolls": [], "results": [{"unit": "a", "effect": "under_orders", "rule": "5.23",
                                                     "units": ["a", "b"]}],
                           "awaiting": [{"type": "roll", "side": "French", "unit": "a", "rule": "5.28"}]}


def test_illegal_needs_an_error_and_lists_its_rule():
    with pytest.raises(ValueError):
        illegal("move", [])
    r = illegal("move", [Error("7.34", "not_enough_mp", "too far", ("0101", "0102"))], rules=["7.11"])
    d = r.to_dict()
    assert d["verdict"] == "illegal" and d["rules"] == ["7.11", "7.34"]
    assert d["errors"] == [{"rule": "7.34", "code": "not_enough_mp", "message": "too far",
                            "alternatives": ["0101", "0102"]}]
