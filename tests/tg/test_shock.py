"""Shock: declaration (9.21–9.25), DRMs (9.51–9.54) and results (9.6) — main digest §13 items 25, 28, 29, 80,
82, 83, 85–101 and the worked example; gaps §17 items 25, 26, 28."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, strategies as st

from referee.rulesets.triumph_and_glory.combat_tables import OddsTable
from referee.rulesets.triumph_and_glory.rolls import Modifier
from referee.rulesets.triumph_and_glory.shock import (GROUP_ORDER, artillery_only, cohesion_modifier,
                                                      declaration_errors, lone_artillery_effects,
                                                      odds_modifier, open_ground_applies, positional_modifier,
                                                      shock_group, shock_modifiers, shock_outcome, shock_roll,
                                                      terrain_candidates, terrain_modifier,
                                                      unattacked_frontal_hexes)
from referee.rulesets.triumph_and_glory.combat_tables import ShockTerrain

from .helpers import art, at, board, cav, inf
from .helpers_combat import DEF_HEX, FLANK_L, FRONT_L, FRONT_R, REAR_L, REAR_R, RU

ODDS = OddsTable.parse(None)


def _units(b, *ids):
    return [b.unit(i) for i in ids]


def _values(mods):
    return {m.rule: m.value for m in mods}


# ----------------------------------------------------------------------------------------- 9.51 odds

def test_cat_85_nine_against_five_is_3_to_2_plus_1():
    m = odds_modifier(9, 5, ODDS)
    assert (m.value, m.rule, m.reason) == (1, "9.51", "odds 9:5 -> 3:2")


def test_cat_86_fourteen_against_five_is_2_to_1_plus_2():
    assert odds_modifier(14, 5, ODDS).value == 2


def test_odds_table_checks_of_gaps_18_3():
    checks = {(15, 5): 3, (4, 5): -1, (2, 5): -3, (1, 5): -4, (20, 5): 4, (5, 5): 0, (5, 10): -2}
    assert {k: odds_modifier(*k, ODDS).value for k in checks} == checks


def test_odds_table_from_design_list_form():
    t = OddsTable.parse([[2, 1, 2], [1, 1, 0], [1, 2, -2]])
    assert t.row(3, 2) == (Fraction(1), 0) and t.row(1, 9) == (Fraction(1, 2), -2)


@given(st.integers(1, 60), st.integers(1, 60), st.integers(1, 10))
def test_odds_drm_is_monotone_in_attacker_strength(a, d, more):
    assert odds_modifier(a + more, d, ODDS).value >= odds_modifier(a, d, ODDS).value
    assert odds_modifier(a, d + more, ODDS).value <= odds_modifier(a, d, ODDS).value


# ----------------------------------------------------------------------------------------- 9.52 cohesion

def test_cat_88_cohesion_differential():
    b = board(at(inf("a6", cohesion=6), "0101"), at(inf("a7", cohesion=7), "0201"), at(inf("a4", cohesion=4), "0301"),
              at(inf("d6", RU, cohesion=6), "0808"), at(inf("d5", RU, cohesion=5), "0708"))
    assert cohesion_modifier(_units(b, "a6"), _units(b, "d6")).value == 0
    assert cohesion_modifier(_units(b, "a7"), _units(b, "d5")).value == 2
    assert cohesion_modifier(_units(b, "a4"), _units(b, "d6")).value == -2


def test_cat_89_artillery_cohesion_ignored():
    b = board(at(inf("a", cohesion=5), FRONT_L, facing=6), at(inf("d", RU, cohesion=4), DEF_HEX),
              at(art("g", RU, cohesion=7), DEF_HEX))
    assert cohesion_modifier(_units(b, "a"), b.stack(DEF_HEX)).value == 1
    assert cohesion_modifier(_units(b, "a"), _units(b, "g")).value == 0          # no line unit -> 0


# ----------------------------------------------------------------------------------------- 9.53 terrain

def _open_ground(*extra, attacker_hex=FRONT_L, facing=6, **kw):
    b = board(at(inf("a"), attacker_hex, facing=facing), at(inf("d", RU), DEF_HEX, facing=12), *extra, **kw)
    return open_ground_applies(b, DEF_HEX, _units(b, "a"))


def test_cat_91_clear_plus_one_with_a_free_uncovered_flank():
    assert _open_ground()


def test_cat_92_flank_occupied_and_other_flank_in_friendly_zoc():
    assert not _open_ground(at(inf("d2", RU), FLANK_L, facing=12), at(inf("d3", RU), "0604", facing=12))


def test_cat_94_militia_covering_the_flank_has_no_zoc():
    assert _open_ground(at(inf("d2", RU), FLANK_L, facing=12),
                        at(inf("m", RU, flags=["militia"]), "0604", facing=12), special_rules=["BOR-MILITIA"])


def test_cat_95_attacked_only_from_the_rear_no_clear_bonus():
    assert not _open_ground(attacker_hex=REAR_L, facing=12)


def test_clear_bonus_own_zoc_does_not_count_and_disordered_friend_does_not_cover():
    assert _open_ground(at(inf("d2", RU), FLANK_L, facing=12), at(inf("d3", RU), "0604", facing=12, status="disordered"))


def test_a7_infantry_assaulting_cavalry_never_gets_clear_bonus():
    b = board(at(inf("a"), FRONT_L, facing=6), at(cav("d", RU), DEF_HEX, facing=12))
    assert not open_ground_applies(b, DEF_HEX, _units(b, "a"))
    b = board(at(cav("a"), FRONT_L, facing=6), at(cav("d", RU), DEF_HEX, facing=12))
    assert open_ground_applies(b, DEF_HEX, _units(b, "a"))


def test_cat_97_who_chooses_the_terrain_drm():
    def m(*vals):
        return terrain_modifier([Modifier(v, "9.53", f"t{v}") for v in vals])
    assert (m(-1, 0).value, m(-1, 0).reason) == (-1, "t-1 (defender's choice)")
    assert (m(0, 1).value, m(0, 1).reason) == (1, "t1 (attacker's choice)")
    assert m(-2, -1, 1).value == -2 and m() is None


def test_cat_97_on_the_board_stream_against_open_ground():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX, facing=12),
              hexsides=[(FRONT_L, DEF_HEX, "stream")])
    cands = terrain_candidates(b, DEF_HEX, _units(b, "a"), ShockTerrain.parse({"rows": {"clear": 1},
                                                                               "hexsides": {"stream": -1}}))
    assert sorted(c.value for c in cands) == [-1, 1] and terrain_modifier(cands).value == -1


# ----------------------------------------------------------------------------------------- [9.54] position

def test_cat_98_all_attackers_in_the_rear_plus_2():
    b = board(at(inf("a"), REAR_L, facing=12), at(inf("b"), REAR_R, facing=12), at(inf("d", RU), DEF_HEX, facing=12))
    assert positional_modifier(b, [DEF_HEX], _units(b, "a", "b")) == Modifier(2, "9.54", "assaulted through the rear")


def test_cat_100_front_and_rear_plus_3_never_5():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("b"), REAR_L, facing=12), at(inf("d", RU), DEF_HEX, facing=12))
    m = positional_modifier(b, [DEF_HEX], _units(b, "a", "b"))
    assert m.value == 3
    assert sum(x.value for x in shock_modifiers(b, _units(b, "a", "b"), [DEF_HEX], DEF_HEX) if x.rule == "9.54") == 3


def test_figure_b_rear_attacker_in_front_of_another_enemy_no_positional():
    # r2 in 0406 faces 12: its front is 0405 (where b stands) and 0505.
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("b"), REAR_L, facing=12), at(inf("d", RU), DEF_HEX, facing=12),
              at(inf("r2", RU), "0406", facing=12))
    assert positional_modifier(b, [DEF_HEX], _units(b, "a", "b")) is None


def test_cat_101_worked_example_flank_unit_failed_apc_no_positional():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("b"), REAR_L, facing=12), at(inf("d", RU), DEF_HEX, facing=12))
    assert positional_modifier(b, [DEF_HEX], _units(b, "a")) is None        # only a took part


def test_cat_25_village_infantry_never_gives_positional():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("b"), REAR_L, facing=12), at(inf("d", RU), DEF_HEX, facing=12),
              terrain={DEF_HEX: "village"})
    assert positional_modifier(b, [DEF_HEX], _units(b, "a", "b")) is None
    assert positional_modifier(b, [DEF_HEX], _units(b, "b")) is None


def test_cat_28_disordered_cavalry_flank_hex_is_rear():
    # attackers in k-1 (9 o'clock, 0304) and k+3 (5 o'clock, 0505) of a cavalry unit facing 12
    placed = (at(inf("a"), FLANK_L, facing=2), at(inf("b"), REAR_R, facing=12))
    dis = board(*placed, at(cav("d", RU), DEF_HEX, facing=12, status="disordered"))
    assert positional_modifier(dis, [DEF_HEX], _units(dis, "a", "b")).value == 2
    good = board(*placed, at(cav("d", RU), DEF_HEX, facing=12))
    assert positional_modifier(good, [DEF_HEX], _units(good, "a", "b")).value == 3   # flank is front


def test_multi_hex_rear_needs_every_target_rear():
    b = board(at(inf("a"), "0405", facing=12), at(inf("d1", RU), DEF_HEX, facing=12),
              at(inf("d2", RU), "0304", facing=6))
    # a in 0405 facing 12 has 0304 and 0404 in its front; 0405 is rear of d1 but front of d2 (facing 6).
    assert positional_modifier(b, [DEF_HEX, "0304"], _units(b, "a")) is None


# ----------------------------------------------------------------------------------------- worked example

def test_seed_worked_example_plus_3_a_5_becomes_8_defender_disordered_and_checks():
    b = board(at(inf("b1", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
              at(inf("b2", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
              at(inf("a", cohesion=5), FLANK_L, facing=2),                    # failed its APC: not taking part
              at(inf("jgr", RU, assault=5, cohesion=6), DEF_HEX, facing=12))
    roll = shock_roll(b, _units(b, "b1", "b2"), [DEF_HEX])
    assert [(m.value, m.rule) for m in roll.modifiers] == [(2, "9.51"), (1, "9.53")]
    d = roll.to_dict(5)
    assert (d["modified"], d["result"]) == (8, "defender_disordered_check")
    out = shock_outcome(b, d["result"], _units(b, "b1", "b2"), DEF_HEX)
    assert [e.to_dict() for e in out.effects] == [{"unit": "jgr", "effect": "disordered", "rule": "9.61"}]
    assert out.checks == ((DEF_HEX, "jgr"),) and out.retreats == ()


# ----------------------------------------------------------------------------------------- results

def _result_board():
    return board(at(inf("a"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX, facing=12),
                 at(art("g", RU), DEF_HEX, facing=12), at(inf("x", RU), "0707", status="disordered"))


def test_cat_gaps_28_results_table_bands():
    b = _result_board()
    roll = shock_roll(b, _units(b, "a"), [DEF_HEX])
    table = roll.table
    assert [table.lookup(v) for v in (-1, 3, 7, 10)] == [
        "attacker_disordered_counter_shock", "attacker_disordered_check", "defender_disordered_check",
        "defender_disordered_retreat"]
    neg = shock_outcome(b, "attacker_disordered_counter_shock", _units(b, "a"), DEF_HEX)
    assert neg.counter_shock and neg.checks == ((FRONT_L, "a"),)
    three = shock_outcome(b, "attacker_disordered_check", _units(b, "a"), DEF_HEX)
    assert [e.effect for e in three.effects] == ["disordered"] and not three.counter_shock
    ten = shock_outcome(b, "defender_disordered_retreat", _units(b, "a"), DEF_HEX)
    assert [(e.unit, e.effect) for e in ten.effects] == [("d", "disordered"), ("g", "disordered")]
    assert ten.retreats == (DEF_HEX,) and ten.checks == () and ten.breakthrough and not ten.pursuit
    charge = shock_outcome(b, "defender_disordered_retreat", _units(b, "a"), DEF_HEX, charging=True)
    assert charge.pursuit and not charge.breakthrough


def test_disordered_defender_routs_and_artillery_is_destroyed_no_check():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX, facing=12, status="disordered"),
              at(art("g", RU), DEF_HEX, facing=12, status="disordered"))
    out = shock_outcome(b, "defender_disordered_check", _units(b, "a"), DEF_HEX)
    assert [(e.unit, e.effect, e.box) for e in out.effects] == [("d", "routed", "withdrawn"),
                                                                  ("g", "destroyed", "eliminated")]
    assert out.checks == ()


def test_cat_gaps_26_lone_artillery_shocked_is_eliminated():
    b = board(at(inf("a"), FRONT_L, facing=6), at(art("g", RU), DEF_HEX, facing=12))
    assert artillery_only(b, DEF_HEX)
    assert [e.to_dict() for e in lone_artillery_effects(b, DEF_HEX)] == [
        {"unit": "g", "effect": "eliminated", "rule": "9.25", "box": "eliminated"}]


def test_cat_gaps_25_groups_resolve_separately_charge_first():
    b = board(at(inf("i"), FRONT_L, facing=6), at(cav("c"), FRONT_R, facing=6), at(inf("d", RU), DEF_HEX))
    assert GROUP_ORDER == ("charge", "cavalry", "infantry")
    assert shock_group(b.unit("c"), True) == "charge" and shock_group(b.unit("i"), False) == "infantry"
    errs = declaration_errors(b, _units(b, "i", "c"), [DEF_HEX], active_ag="i-corps")
    assert [e.code for e in errs] == ["mixed_groups"]


# ----------------------------------------------------------------------------------------- declaration

def test_legal_declaration_has_no_errors():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX))
    assert declaration_errors(b, _units(b, "a"), [DEF_HEX], active_ag="i-corps") == []


def test_cat_29_attacking_cavalry_uses_only_its_standard_front():
    b = board(at(cav("c"), DEF_HEX, facing=12), at(inf("r", RU), FLANK_L))
    errs = declaration_errors(b, _units(b, "c"), [FLANK_L], active_ag="i-corps", start_hexes={"c": DEF_HEX})
    assert [(e.rule, e.code) for e in errs] == [("6.13", "target_not_front")]


def test_cat_80_top_unit_of_another_ag():
    b = board(at(inf("x", ag="x-corps", brigade="B"), FRONT_L, facing=6),
              at(inf("y", ag="y-corps", brigade="B"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX))
    errs = declaration_errors(b, _units(b, "y"), [DEF_HEX], active_ag="y-corps")
    assert [(e.rule, e.code) for e in errs] == [("6.23", "top_not_active")]


def test_cat_82_militia_never_attack():
    b = board(at(inf("m", flags=["militia"]), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX),
              special_rules=["BOR-MILITIA"])
    assert [e.rule for e in declaration_errors(b, _units(b, "m"), [DEF_HEX], active_ag="i-corps")] == ["BOR-MILITIA"]


def test_cat_83_disordered_infantry_may_not_assault_and_units_under_it_neither():
    b = board(at(inf("a", brigade="A"), FRONT_L, facing=6, status="disordered"),
              at(inf("b", brigade="A"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX))
    codes = [e.code for e in declaration_errors(b, _units(b, "a", "b"), [DEF_HEX], active_ag="i-corps")]
    assert codes == ["disordered_attack", "under_disordered"]


def test_9_21_cavalry_not_adjacent_at_start_must_charge_and_artillery_never_shocks():
    b = board(at(cav("c"), FRONT_L, facing=6), at(art("g"), FRONT_R, facing=6), at(inf("d", RU), DEF_HEX))
    errs = declaration_errors(b, _units(b, "c"), [DEF_HEX], active_ag="i-corps", start_hexes={"c": "0401"})
    assert [e.code for e in errs] == ["cavalry_not_adjacent_at_start"]
    assert [e.rule for e in declaration_errors(b, _units(b, "g"), [DEF_HEX], active_ag="i-corps")] == ["9.25"]


def test_9_21_no_shock_across_an_impassable_hexside():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX), hexsides=[(FRONT_L, DEF_HEX, "river")])
    assert [e.code for e in declaration_errors(b, _units(b, "a"), [DEF_HEX], active_ag="i-corps")] == [
        "impassable_hexside"]


def test_9_22_every_frontal_enemy_must_be_attacked_unless_a_friend_does():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("d", RU), DEF_HEX), at(inf("e", RU), "0304"))
    assert unattacked_frontal_hexes(b, b.unit("a"), [DEF_HEX], []) == ("0304",)
    assert unattacked_frontal_hexes(b, b.unit("a"), [DEF_HEX], ["0304"]) == ()


def test_multi_hex_shock_one_die_per_hex_modifiers():
    b = board(at(inf("a", assault=8), "0405", facing=12), at(inf("d1", RU, assault=2), DEF_HEX, facing=12),
              at(inf("d2", RU, assault=2), "0304", facing=6))
    roll = shock_roll(b, _units(b, "a"), [DEF_HEX, "0304"])
    d = roll.to_dict(4)
    assert [t["hex"] for t in d["targets"]] == [DEF_HEX, "0304"]
    # odds 8 against 2+2 (all defenders together) = 2:1; d2 faces 6, so 0405 is its front and it stands in clear
    # with a free, uncovered flank (0204): +1; the rear shot at d1 gets no clear bonus and no positional DRM
    # because d2 is engaged through its front.
    assert _values(roll.targets[0].modifiers) == {"9.51": 2}
    assert _values(roll.targets[1].modifiers) == {"9.51": 2, "9.53": 1}
    assert [(t["modified"], t["result"]) for t in d["targets"]] == [(6, "defender_disordered_check"),
                                                                      (7, "defender_disordered_check")]
