"""Advance after shock and secondary shock, 9.71–9.73 — main digest §13 item 115, gaps §17 item 29."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.advance import (advance_effects, advance_errors, advance_rule,
                                                        breakthrough_errors, counter_shock_move_errors)

from .helpers import at, board, cav, inf
from .helpers_combat import DEF_HEX, FRONT_L, FRONT_R, REAR_L, RU


def _codes(errs):
    return [e.code for e in errs]


def test_cat_115_and_gaps_29_highest_cohesion_stack_must_advance():
    b = board(at(inf("a", cohesion=5), FRONT_L, facing=6), at(inf("b", cohesion=7), FRONT_R, facing=6))
    rule = advance_rule(b, DEF_HEX, [b.unit("a"), b.unit("b")])
    assert (rule.hexes, rule.mandatory) == ((FRONT_R,), True)
    assert advance_errors(b, rule, [b.unit("b")], DEF_HEX) == []
    assert _codes(advance_errors(b, rule, [b.unit("a")], DEF_HEX)) == ["advance_stack"]
    assert _codes(advance_errors(b, rule, [b.unit("b")], "0505")) == ["advance_hex"]
    assert [e.to_dict() for e in advance_effects(b, [b.unit("b")], DEF_HEX)] == [
        {"unit": "b", "effect": "advanced", "rule": "9.71", "to": DEF_HEX}]


def test_gaps_29_charging_cavalry_before_infantry_and_ties_let_the_attacker_choose():
    b = board(at(inf("a", cohesion=8), FRONT_L, facing=6), at(cav("c", cohesion=5), FRONT_R, facing=6),
              at(inf("d", cohesion=8), REAR_L, facing=12))
    assert advance_rule(b, DEF_HEX, [b.unit("c")], charging=True).hexes == (FRONT_R,)
    assert set(advance_rule(b, DEF_HEX, [b.unit("a"), b.unit("d")]).hexes) == {FRONT_L, REAR_L}
    assert not advance_rule(b, DEF_HEX, [b.unit("a")], after_retreat_before_shock=True).mandatory


def test_advance_into_disordering_terrain():
    b = board(at(cav("c"), FRONT_L, facing=6), terrain={DEF_HEX: "woods"})
    assert [(e.effect, e.rule) for e in advance_effects(b, [b.unit("c")], DEF_HEX)] == [
        ("advanced", "9.71"), ("disordered", "9.71")]


def test_9_73_breakthrough_all_frontal_enemies_once_no_facing_change():
    b = board(at(inf("a"), DEF_HEX, facing=12), at(inf("r1", RU), FRONT_L), at(inf("r2", RU), FRONT_R))
    a = b.unit("a")
    assert breakthrough_errors(b, a, [FRONT_L, FRONT_R], used=()) == []
    assert _codes(breakthrough_errors(b, a, [FRONT_L], used=())) == ["breakthrough_targets"]
    assert _codes(breakthrough_errors(b, a, [FRONT_L, FRONT_R], used=["a"])) == ["secondary_used"]
    rule = advance_rule(b, DEF_HEX, [a])
    assert _codes(advance_errors(b, rule, [a], DEF_HEX, facing=2, breakthrough=True))[-1] == "breakthrough_facing"


def test_9_73_counter_shock_move_one_hex_same_facing():
    b = board(at(inf("d", RU), DEF_HEX, facing=12), at(inf("a"), "0402", facing=6))
    d = b.unit("d")
    assert counter_shock_move_errors(b, d, FRONT_L, None, used=()) == []
    assert _codes(counter_shock_move_errors(b, d, "0402", None, used=())) == ["counter_shock_move"]
    assert _codes(counter_shock_move_errors(b, d, FRONT_L, 2, used=())) == ["counter_shock_facing"]
    assert _codes(counter_shock_move_errors(b, d, None, None, used=["d"])) == ["secondary_used"]
