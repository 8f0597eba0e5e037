"""The engine's reference checks: the kinds a verb's ``refs`` may give a field — one name, a list (one name alone
standing for a list of one), one or a list (``?``), a list of entries of a kind (``[kind]``), an object whose
keys are names (``kind{}``), a list of objects — and problems in the order the event names them."""
from __future__ import annotations

from referee.engine.references import Names, check

NAMES = Names.of(unit=({"u1", "u2"}, "no unit '{name}'"), hex=({"0101", "0102"}, "no hex '{name}'"),
                 side=({"A", "B"}, "no side '{name}'"))


def test_a_list_of_entries_each_one_name_or_a_list():
    event = {"groups": [["u1", "x"], "y", "u2"]}
    assert check(NAMES, event, {"groups": ["unit?"]}) == [("groups[0][1]", "no unit 'x'"), ("groups[1]", "no unit 'y'")]


def test_an_object_whose_keys_are_names():
    assert check(NAMES, {"rolls": {"A": 1, "C": 2}}, {"rolls": "side{}"}) == [("rolls.C", "no side 'C'")]


def test_one_name_stands_for_a_list_of_one():
    refs = {"assaults": {"attackers": "units", "target": "hexes"}}
    assert check(NAMES, {"assaults": [{"attackers": ["u1"], "target": "9999"}]}, refs) == [
        ("assaults[0].target[0]", "no hex '9999'")]


def test_problems_in_the_order_the_event_names_them():
    event = {"to": "9999", "side": "C", "unit": "x"}
    assert check(NAMES, event, {"unit": "unit", "to": "hex?"}) == [
        ("to", "no hex '9999'"), ("side", "no side 'C'"), ("unit", "no unit 'x'")]
    assert check(NAMES, {"path": ["0101", "0102"], "side": "A"}, {"path": "hexes"}) == []
