"""Rally, recovery, collapse, 10.1–10.5 — gaps §17 items 37, 38; main digest §13 items 116, 128."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.morale import (collapse_counts, collapse_outcome, collapses,
                                                       rally_errors, rally_roll, recovery_effect,
                                                       recovery_eligible, recovery_roll, return_hexes,
                                                       withdrawn_to_recovery)

from .helpers import art, at, board, inf
from .helpers_combat import RU


def _codes(errs):
    return [e.code for e in errs]


def test_10_1_rally_roll_on_the_disordered_cohesion():
    b = board(at(inf("a", cohesion=6), "0404", status="disordered"))
    assert rally_errors(b, b.unit("a")) == []
    r = rally_roll(b.unit("a"))
    assert (r.purpose, r.base, r.base_rule, r.pass_max, r.p_success) == ("rally", 5, "10.1", 5, 0.6)


def test_cat_116_unit_that_fired_or_moved_may_not_rally():
    b = board(at(inf("a"), "0404", status="disordered"), at(art("g"), "0202", status="disordered"))
    moved = b.update("a", moved=True)
    assert _codes(rally_errors(moved, moved.unit("a"))) == ["rally_after_acting"]
    fired = b.update("g", fired=True)
    assert _codes(rally_errors(fired, fired.unit("g"))) == ["rally_after_acting"]
    assert _codes(rally_errors(b, b.unit("a"), faced=True)) == ["rally_after_acting"]
    assert _codes(rally_errors(b, b.unit("a"), shock_cancelled=True)) == ["rally_after_acting"]


def test_10_1_not_adjacent_to_enemy_not_in_reserve_not_collapsed_not_good_order():
    b = board(at(inf("a"), "0404", status="disordered"), at(inf("r", RU), "0405"), at(inf("g"), "0101"))
    assert _codes(rally_errors(b, b.unit("a"))) == ["rally_adjacent_enemy"]
    b2 = board(at(inf("a"), "0404", status="disordered"))
    assert [e.rule for e in rally_errors(b2, b2.unit("a"), reserve=True, ag_collapsed=True)] == ["5.53", "10.52"]
    assert _codes(rally_errors(b, b.unit("g"))) == ["not_disordered"]


def test_cat_gaps_37_recovery_roll_above_disordered_cohesion_eliminates():
    b = board(at(inf("a", cohesion=5), None, box="recovery"), at(inf("b"), "0404"))
    u = b.unit("a")
    assert recovery_eligible(b, u)
    r = recovery_roll(u)
    assert (r.purpose, r.base, r.pass_max) == ("recovery", 4, 4)
    assert recovery_effect(u, passed=False).to_dict() == {"unit": "a", "effect": "eliminated", "rule": "10.2",
                                                          "box": "eliminated"}
    assert recovery_effect(u, passed=True).effect == "recovered"


def test_10_2_no_recovery_when_the_whole_ag_is_gone():
    b = board(at(inf("a"), None, box="recovery"), at(inf("b"), None, box="withdrawn"))
    assert not recovery_eligible(b, b.unit("a"))


def test_10_3_return_within_3_of_own_ag_at_least_3_from_enemy():
    b = board(at(inf("a"), None, box="recovery"), at(inf("b"), "0101"), at(inf("r", RU, ag="ru"), "0404"))
    hexes = return_hexes(b, b.unit("a"))
    g = b.grid
    expected = tuple(sorted(h for h in g.within("0101", 3) if g.distance(h, "0404") >= 3))
    assert hexes == expected and len(hexes) == 9
    assert "0101" in hexes                                     # two infantry may stack
    assert "0303" not in hexes                                  # 1 from the enemy


def test_10_4_withdrawn_box_empties_into_recovery():
    b = board(at(inf("a"), None, box="withdrawn"), at(inf("b"), None, box="recovery"), at(inf("c"), "0101"))
    assert withdrawn_to_recovery(b) == ("a",)


def _ag(n_lost, n_total, *extra):
    placed = [at(inf(f"u{i}"), None, box="withdrawn") for i in range(n_lost)]
    placed += [at(inf(f"u{i}"), f"01{i + 1:02d}") for i in range(n_lost, n_total)]
    return board(*placed, *extra)


def test_cat_gaps_38_six_counted_units_3_lost_no_4_lost_yes():
    assert collapse_counts(_ag(3, 6), "i-corps") == (3, 6) and not collapses(3, 6)
    assert collapse_counts(_ag(4, 6), "i-corps") == (4, 6) and collapses(4, 6)
    assert collapses(4, 5) and not collapses(3, 5) and collapses(5, 7) and not collapses(4, 7)


def test_cat_128_militia_and_artillery_are_not_counted():
    b = _ag(3, 6, at(inf("m", flags=["militia"]), None, box="withdrawn"), at(art("g"), None, box="withdrawn"))
    assert collapse_counts(b, "i-corps") == (3, 6)


def test_10_5_collapse_effects():
    b = board(at(inf("w1"), None, box="withdrawn"), at(inf("w2"), None, box="withdrawn"),
              at(inf("x"), None, box="eliminated"),
              at(inf("rc"), None, box="recovery"), at(inf("good"), "0101"), at(inf("dis"), "0202", status="disordered"),
              at(art("gun"), "0303", status="disordered"))
    assert collapse_counts(b, "i-corps") == (4, 6)              # the battery is not counted
    out = collapse_outcome(b, "i-corps")
    assert out.collapsed
    assert {(e.unit, e.effect) for e in out.effects} == {
        ("w1", "eliminated"), ("w2", "eliminated"), ("good", "disordered"), ("dis", "routed"), ("gun", "destroyed")}
    assert out.to_dicts()[0] == {"ag": "i-corps", "effect": "collapsed", "rule": "10.5"}
    assert not collapse_outcome(b, "i-corps", already_collapsed=True).collapsed
