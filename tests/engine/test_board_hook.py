"""The board's ruleset hook ``shows_back``: which face of a counter the service's board draws comes from the
ruleset (T&G's back is its Disordered side, M&P's its Shaken side), not from a list of the two in the board."""
from __future__ import annotations

from referee.engine import registry
from referee.service import board


def test_each_ruleset_says_which_face_its_counters_show():
    tg, mp = registry.get("triumph-and-glory"), registry.get("musket-and-pike")
    assert tg.shows_back({"id": "x", "status": "disordered"}) and not tg.shows_back({"id": "x", "status": "good"})
    assert not tg.shows_back({"id": "x", "formation": "shaken"})        # a T&G view has no Shaken
    assert mp.shows_back({"id": "x", "formation": "shaken"}) and not mp.shows_back({"id": "x", "status": "disordered"})


def test_a_ruleset_without_the_hook_shows_fronts_and_an_unknown_one_too():
    assert board._shows_back("no-such-ruleset")({"status": "disordered"}) is False
    assert board._shows_back(None)({"formation": "shaken"}) is False
    assert board._shows_back("triumph-and-glory") is registry.get("triumph-and-glory").shows_back
