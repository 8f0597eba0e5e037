"""Cavalry charges as events (9.81–9.87): declaration, commitment without DFE, the charge move, square,
counter-charge, recall, reaction fire on chargers, the charge shock with its 9.55 DRMs, pursuit and the 9.84
automatic Disorder.  Test names carry the catalogue number (main digest §13) or the rule; the gaps digest's worked
charge example prints the same arithmetic."""
from __future__ import annotations

from dataclasses import replace

from .games import FR, RU, ag, art, at, cav, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]
START = "0402"          # two hexes from 0404; facing 6 it has 0403 and 0503 in front
VIA = "0403"            # next to 0404 (0404 is at 5 o'clock of 0403)


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def codes(r):
    return {e["code"] for e in r["errors"]}


def start(p, fr=(), ru=()):
    p.ok("orders", side=FR, under_orders=list(fr))
    p.ok("orders", side=RU, under_orders=list(ru))
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")


def mods(roll):
    return [(m["value"], m["rule"]) for m in roll["modifiers"]]


def arithmetic(roll):
    return " ".join(f"{m['value']:+d} {m['reason']} [{m['rule']}]" for m in roll["modifiers"]) + \
        f" = {sum(m['value'] for m in roll['modifiers']):+d}"


def charge_game(*extra, defender=None, charger=None, cinc_at="0101", **kw):
    """Heavy cavalry (assault 8, cohesion 5) two hexes from a Russian infantry unit (assault 2, cohesion 6) in the
    open: odds 4:1 +4, heavy charge +3, cohesion 5-6 = -1, clear +1 (gaps §7 worked example)."""
    return game_scenario(
        *([at(napoleon(), cinc_at)] if cinc_at else []), at(kutuzov(), "0808"),
        charger or at(cav("cuir", cav_type="H", assault=8, cohesion=5, name="Cuirassiers"), START, facing=6),
        defender or at(inf("r", RU, ag="ru-2", assault=2, cohesion=6, dfe=2, name="Inf"), DEF_HEX, facing=12),
        *extra, ags=AGS, **kw)


def charged(p, unit="cuir", roll=0):
    """Declare the charge, pass the Commitment roll, charge through 0403 facing 6."""
    p.ok("assaults", side=FR, assaults=[{"attackers": [unit], "target": [DEF_HEX], "charge": True}])
    r = p.ok("commitment", side=FR, unit=unit, roll=roll)
    assert {"type": "charge", "side": FR, "unit": unit, "rule": "9.81"} in r["awaiting"]
    r = p.ok("charge", side=FR, unit=unit, path=[VIA], target=DEF_HEX, facing=6)
    assert r["results"] == [{"unit": unit, "effect": "advanced", "rule": "9.81", "to": VIA, "facing": 6}]
    return r


# --------------------------------------------------------------------------------------------- worked example

def test_gaps_7_worked_charge_example_plus_7_then_pursuit_owed():
    worked_example_until_the_retreat()


def worked_example_until_the_retreat():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("shock", side=FR, assault=0, roll=3)
    roll = r["rolls"][0]
    print(arithmetic(roll), f"| natural {roll['natural']} -> {roll['modified']}: {roll['result']}")
    assert mods(roll) == [(4, "9.51"), (-1, "9.52"), (1, "9.53"), (3, "9.83")]
    assert sum(v for v, _ in mods(roll)) == 7
    assert (roll["modified"], roll["result"]) == (10, "defender_disordered_retreat")
    assert "9.87" in r["rules"]
    assert {"unit": "r", "effect": "disordered", "rule": "9.61"} in r["results"]
    # the Russian chooses the retreat hex; then the pursuit is owed, not a 9.71 advance
    assert [a["type"] for a in r["awaiting"]] == ["retreat"]
    return p


def test_gaps_7_worked_charge_example_second_attack_against_a_square_minus_3():
    """Second attack of the example: odds -1, charging a square -2, cohesion -1, clear +1 -> -3."""
    p = play(charge_game(defender=at(inf("r", RU, ag="ru-2", assault=6, cohesion=6, name="Inf"), DEF_HEX, facing=12),
                         charger=at(cav("cuir", cav_type="H", assault=4, cohesion=5, name="Cuirassiers"), START,
                                    facing=6)))
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("square", side=RU, unit="r", roll=6)
    assert r["rolls"][0]["pass_max"] == 6 and r["rolls"][0]["outcome"] == "pass"
    assert r["results"] == [{"unit": "r", "effect": "square", "rule": "9.85"}]
    assert p.state.board.units["r"].square
    r = p.ok("shock", side=FR, assault=0, roll=5)
    roll = r["rolls"][0]
    print(arithmetic(roll), f"| natural {roll['natural']} -> {roll['modified']}: {roll['result']}")
    assert mods(roll) == [(-1, "9.51"), (-1, "9.52"), (1, "9.53"), (-2, "9.85")]
    assert roll["modified"] == 2 and roll["result"] == "attacker_disordered_check"
    # the charger is Disordered by the result, not a second time by 9.84 (no rout)
    assert [x for x in r["results"] if x["unit"] == "cuir"] == [{"unit": "cuir", "effect": "disordered", "rule": "9.61"}]
    assert p.state.board.units["cuir"].hex == VIA


# --------------------------------------------------------------------------------------------- commitment

def test_cat_74_charge_commitment_ignores_the_dfe_pass_0_to_8():
    p = play(charge_game(at(napoleon(), "0302"), charger=at(cav("cuir", cav_type="H", assault=8, cohesion=6), START,
                                                             facing=6), cinc_at=None))
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    r = p.ok("commitment", side=FR, unit="cuir", roll=8)
    roll = r["rolls"][0]
    assert mods(roll) == [(-2, "9.42")]                      # no DFE +2 (9.42: never for a charge)
    assert (roll["base"], roll["pass_max"], roll["outcome"]) == (6, 8, "pass")


def test_cat_74_commitment_passes_on_4_or_less_without_the_cinc():
    """The worked example's "commitment target <= 4": cohesion 5, No Orders out of the CinC's range +1, no DFE."""
    p = play(charge_game())
    start(p)                                                  # no orders: NO, +1 when out of range
    p.ok("assaults", side=FR, assaults=[{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    r = p.ok("commitment", side=FR, unit="cuir", roll=5)
    roll = r["rolls"][0]
    assert mods(roll) == [(1, "5.27")]                       # no DFE +2
    assert (roll["pass_max"], roll["outcome"]) == (4, "fail")


def test_cat_79_commitment_before_the_charge_is_declared_is_illegal():
    p = play(charge_game())
    start(p, fr=["cuir"])
    assert errors(p("commitment", side=FR, unit="cuir", roll=0)) == [("9.44", "commitment_before_declaration")]
    assert errors(p("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX))[0][1] == "no_charge"


def test_failed_commitment_no_charge_move_owed():
    p = play(charge_game())
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    r = p.ok("commitment", side=FR, unit="cuir", roll=9)
    assert r["rolls"][0]["outcome"] == "fail" and r["awaiting"] == []
    assert codes(p("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX)) == {"no_charge_owed"}
    p.ok("end_activation", side=FR)


# --------------------------------------------------------------------------------------------- illegal charges

def declare(p, unit="cuir", target=DEF_HEX):
    return p("assaults", side=FR, assaults=[{"attackers": [unit], "target": [target], "charge": True}])


def test_9_81_charge_from_distance_1_or_4_is_illegal():
    p = play(charge_game(charger=at(cav("cuir", cav_type="H"), "0403", facing=6)))
    start(p, fr=["cuir"])
    assert ("9.81", "charge_distance") in errors(declare(p))
    p = play(charge_game(charger=at(cav("cuir", cav_type="H"), "0401", facing=6),
                         defender=at(inf("r", RU, ag="ru-2"), "0405", facing=12)))
    start(p, fr=["cuir"])
    assert ("9.81", "charge_distance") in errors(declare(p, target="0405"))


def test_9_81_no_charge_into_woods_or_village():
    for terrain in ("woods", "village"):
        p = play(charge_game(terrain={DEF_HEX: terrain}))
        start(p, fr=["cuir"])
        assert ("9.81", "charge_terrain") in errors(declare(p)), terrain


def test_9_81_disordered_cavalry_may_not_charge():
    p = play(charge_game(charger=at(cav("cuir", cav_type="H"), START, facing=6, status="disordered")))
    start(p, fr=["cuir"])
    assert ("9.81", "disordered_charge") in errors(declare(p))


def test_9_81_a_charger_that_moved_or_turned_may_not_charge():
    p = play(charge_game())
    start(p, fr=["cuir"])
    p.ok("face", side=FR, unit="cuir", facing=4)
    assert ("9.81", "charge_after_move") in errors(declare(p))


def test_9_81_not_through_a_frontal_zoc_hex_of_enemy_cavalry():
    """From 0401 (three hexes from 0404) every two-hex route starts through 0302 or 0402, both in the front of a
    Russian hussar in 0403 facing 12 (and 0403 itself is occupied): no legal charge.  Disordered, the hussar has
    no ZOC and the charge through 0402 is legal."""
    def game(status):
        return charge_game(at(cav("hus", RU, ag="ru-2", name="Hussars"), "0403", facing=12, status=status),
                           charger=at(cav("cuir", cav_type="H", name="Cuirassiers"), "0401", facing=6))
    p = play(game("good"))
    start(p, fr=["cuir"])
    r = declare(p)
    print([e["message"] for e in r["errors"]])
    assert ("9.81", "through_cavalry_zoc") in errors(r)
    p = play(game("disordered"))
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    p.ok("commitment", side=FR, unit="cuir", roll=0)
    assert codes(p("charge", side=FR, unit="cuir", path=["0302", "0403"], target=DEF_HEX, facing=4)) >= {"enemy_occupied"}
    p.ok("charge", side=FR, unit="cuir", path=["0402", "0503"], target=DEF_HEX, facing=8)


# --------------------------------------------------------------------------------------------- square

def test_9_85_square_fails_whole_stack_disordered_then_charge_has_plus_3():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("square", side=RU, unit="r", roll=7)
    assert r["rolls"][0]["outcome"] == "fail"
    assert r["results"] == [{"unit": "r", "effect": "disordered", "rule": "9.85"}]
    assert errors(p("square", side=RU, unit="r", roll=0)) == [("9.85", "square_tried")]
    r = p.ok("shock", side=FR, assault=0, roll=0)
    assert (3, "9.83") in mods(r["rolls"][0])


def test_9_85_no_square_when_in_an_enemy_zoc_at_declaration():
    """French infantry in 0504 (3 o'clock of 0404) puts the target in its ZOC when the charge is declared."""
    p = play(charge_game(at(inf("f2", name="Line"), "0504", facing=10)))
    start(p, fr=["cuir"])
    charged(p)
    assert errors(p("square", side=RU, unit="r", roll=0)) == [("9.85", "square_in_zoc")]


def test_square_only_by_the_charged_side_and_the_top_infantry():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    assert ("9.85", "defender_only") in errors(p("square", side=FR, unit="r", roll=0))


def test_square_has_no_zoc_may_not_shock_or_leave_an_enemy_zoc_and_takes_plus_1_fire():
    p = play(charge_game())
    start(p, fr=["cuir"], ru=["r"])
    charged(p)
    p.ok("square", side=RU, unit="r", roll=0)
    from referee.rulesets.triumph_and_glory import fire as fr
    from referee.rulesets.triumph_and_glory.zoc import exerts_zoc
    assert not exerts_zoc(p.state.board.units["r"])
    m = fr.square_modifier(p.state.board.stack(DEF_HEX))
    assert m is not None and (m.value, m.rule) == (1, "9.85")
    p.ok("recall", side=FR, unit="cuir", roll=0)                  # the cuirassiers stay next to it, facing it
    p.ok("end_activation", side=FR)
    p.ok("draw", marker="ru-2")
    assert errors(p("assaults", side=RU, assaults=[{"attackers": ["r"], "target": [VIA]}])) == [
        ("9.85", "square_no_shock")]
    # it starts in the cuirassiers' ZOC: no move at all (9.85), and none is offered
    assert errors(p("move", side=RU, unit="r", path=["0405"], mode="normal")) == [("9.85", "square_move")]
    from referee.rulesets.triumph_and_glory.legal import legal_actions
    assert not [a for a in legal_actions(p.state) if a["type"] == "move" and a["unit"] == "r"]


# --------------------------------------------------------------------------------------------- recall

def test_9_82_recall_allowed_against_a_square_and_not_disordered_by_9_84():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    p.ok("square", side=RU, unit="r", roll=0)
    r = p.ok("recall", side=FR, unit="cuir", roll=5, facing=8)
    assert r["rolls"][0]["base"] == 5 and r["rolls"][0]["outcome"] == "pass"
    assert r["results"] == []
    b = p.state.board
    assert b.units["cuir"].hex == VIA and b.units["cuir"].facing == 8 and not b.units["cuir"].disordered
    assert p.state.activation.combat.shocks_left(b, FR) == ()
    p.ok("end_activation", side=FR)
    assert not p.state.board.units["cuir"].disordered


def test_9_82_recall_forbidden_without_square_or_reaction_fire_disorder():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    assert errors(p("recall", side=FR, unit="cuir", roll=0)) == [("9.82", "recall_not_allowed")]


def test_9_82_failed_recall_must_charge():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    p.ok("square", side=RU, unit="r", roll=0)
    r = p.ok("recall", side=FR, unit="cuir", roll=9)
    assert r["rolls"][0]["outcome"] == "fail"
    assert ("9.82", "recall_tried") in errors(p("recall", side=FR, unit="cuir", roll=0))
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    r = p.ok("shock", side=FR, assault=0, roll=9)
    assert (-2, "9.85") in mods(r["rolls"][0])


# --------------------------------------------------------------------------------------------- reaction fire

def test_8_6_reaction_fire_disorders_a_charger_which_carries_on_without_charge_drm():
    sc = charge_game(at(art("gun", RU, ag="ru-2", fire=3, name="Gun"), DEF_HEX, facing=12))
    p = play(sc)
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("reaction_fire", side=RU, unit="gun", target=VIA, roll=9)
    assert {"unit": "cuir", "effect": "disordered", "rule": "8.5"} in r["results"]
    assert p.state.activation.combat.shocks_left(p.state.board, FR) == (0,)       # not cancelled (9.24)
    r = p.ok("shock", side=FR, assault=0, roll=5)
    assert all(rule != "9.83" for _, rule in mods(r["rolls"][0]))


def test_8_6_charger_disordered_by_reaction_fire_may_recall():
    sc = charge_game(at(art("gun", RU, ag="ru-2", fire=3, name="Gun"), DEF_HEX, facing=12))
    p = play(sc)
    start(p, fr=["cuir"])
    charged(p)
    p.ok("reaction_fire", side=RU, unit="gun", target=VIA, roll=9)
    r = p.ok("recall", side=FR, unit="cuir", roll=0)
    assert r["rolls"][0]["outcome"] == "pass" and r["rolls"][0]["base"] == 4       # Disordered face
    p.ok("end_activation", side=FR)


# --------------------------------------------------------------------------------------------- counter-charge

def cav_target_game(charger_type="L", defender_type="H"):
    return charge_game(defender=at(cav("dr", RU, ag="ru-2", cav_type=defender_type, assault=5, cohesion=6,
                                       name="Dragoons"), DEF_HEX, facing=12),
                       charger=at(cav("hus", cav_type=charger_type, assault=5, cohesion=6, name="Hussars"), START,
                                  facing=6))


def test_cat_103_light_charger_countered_by_heavy_minus_1():
    p = play(cav_target_game("L", "H"))
    start(p, fr=["hus"])
    charged(p, "hus")
    assert codes(p("square", side=RU, unit="dr", roll=0)) == {"square_no_infantry"}
    r = p.ok("counter_charge", side=RU, unit="dr", roll=6)
    assert r["rolls"][0]["purpose"] == "counter_charge" and r["rolls"][0]["outcome"] == "pass"
    r = p.ok("shock", side=FR, assault=0, roll=4)
    roll = r["rolls"][0]
    print(arithmetic(roll))
    assert (-1, "9.86") in mods(roll) and all(rule != "9.83" for _, rule in mods(roll))
    # 9.84: the hussars and the counter-charging dragoons end Disordered (whatever the result did first)
    b = p.state.board
    assert b.units["hus"].disordered or b.units["hus"].hex is None
    assert b.units["dr"].disordered or b.units["dr"].hex is None


def test_9_86_light_counter_charging_heavy_gets_plus_2_and_failure_leaves_the_charge_drm():
    p = play(cav_target_game("H", "L"))
    start(p, fr=["hus"])
    charged(p, "hus")
    r = p.ok("counter_charge", side=RU, unit="dr", roll=9)
    assert mods(r["rolls"][0]) == [(2, "9.86")] and r["rolls"][0]["outcome"] == "fail"
    assert ("9.86", "counter_charge_tried") in errors(p("counter_charge", side=RU, unit="dr", roll=0))
    r = p.ok("shock", side=FR, assault=0, roll=4)
    assert (3, "9.83") in mods(r["rolls"][0])


def test_9_86_option_subtract_counts_the_charge_value_against_the_infantry_shock():
    """Option counter_charge_vs_infantry: subtract (gaps §10 [inferred]): no roll for the counter-charge, −3 on the
    infantry's shock, the dragoons Disordered after it (9.84)."""
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("a", assault=5, cohesion=5), "0403", facing=6),
                       at(cav("dr", RU, ag="ru-2", cav_type="H", assault=5, cohesion=6, name="Dragoons"), DEF_HEX,
                          facing=12), ags=AGS, options={"counter_charge_vs_infantry": "subtract"})
    p = play(sc)
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="a", roll=0)
    r = p.ok("counter_charge", side=RU, unit="dr")
    assert r["rolls"] == []
    r = p.ok("shock", side=FR, assault=0, roll=9)
    assert (-3, "9.86") in mods(r["rolls"][0])
    assert p.state.board.units["dr"].disordered


def test_9_86_default_the_counter_charge_on_infantry_is_the_cavalrys_charge():
    """9.86, the rulebook's words ("the infantry may not attempt to form Square and the counter-charging cavalry
    get the usual Charge DRM") are the default, no option given: the dragoons' counter-charge is their charge on
    the infantry (odds 5:5, heavy charge +3, cohesion 6 - 5 = +1, clear +1): the infantry are the ones Disordered
    and checking, the dragoons Disordered after it (9.84); no infantry shock is rolled, no square tried."""
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("a", assault=5, cohesion=5), "0403", facing=6),
                       at(cav("dr", RU, ag="ru-2", cav_type="H", assault=5, cohesion=6, name="Dragoons"), DEF_HEX,
                          facing=12), ags=AGS)
    p = play(sc)
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="a", roll=0)
    p.ok("counter_charge", side=RU, unit="dr")
    assert not p("square", side=FR, unit="a", roll=0)["verdict"] == "legal"     # the infantry may not form square
    r = p.ok("shock", side=FR, assault=0, roll=2)
    roll = r["rolls"][0]
    print(arithmetic(roll), f"| natural {roll['natural']} -> {roll['modified']}: {roll['result']}")
    assert (3, "9.83") in mods(roll) and (-3, "9.86") not in mods(roll)
    assert roll["result"] == "defender_disordered_check"
    assert {"unit": "a", "effect": "disordered", "rule": "9.61"} in r["results"]
    assert {"unit": "dr", "effect": "disordered", "rule": "9.84"} in r["results"]
    assert r["awaiting"] == [{"type": "cohesion_check", "side": FR, "unit": "a", "rule": "9.62"}]


def test_an_unknown_counter_charge_reading_is_refused():
    import pytest
    with pytest.raises(ValueError, match="counter_charge_vs_infantry"):
        play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), ags=AGS,
                           options={"counter_charge_vs_infantry": "both"}))


# --------------------------------------------------------------------------------------------- pursuit and 9.84

def test_9_87_pursuit_after_10_enters_and_charges_again_at_minus_1():
    p = worked_example_until_the_retreat()
    bad = p("retreat", side=RU, unit="r", to="0101")
    to = bad["errors"][0]["alternatives"][0]
    r = p.ok("retreat", side=RU, unit="r", to=to)
    assert r["awaiting"] == [{"type": "pursuit", "side": FR, "rule": "9.87"}]
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    assert ("9.87", "pursuers") in errors(p("pursuit", side=FR, units=[], to=DEF_HEX))
    r = p.ok("pursuit", side=FR, units=["cuir"], to=DEF_HEX)
    assert r["results"][0]["effect"] == "advanced" and r["results"][0]["to"] == DEF_HEX
    assert p.state.board.units["cuir"].hex == DEF_HEX and not p.state.board.units["cuir"].disordered
    assert {"type": "shock", "side": FR, "rule": "9.87"} in r["awaiting"]
    a = p.state.activation.combat.assaults[1]
    assert (a.kind, a.nth, a.targets) == ("pursuit", 1, (to,))
    assert errors(p("recall", side=FR, unit="cuir", roll=0)) == [("9.82", "recall_pursuit")] or \
        ("9.82", "recall_pursuit") in errors(p("recall", side=FR, unit="cuir", roll=0))
    r = p.ok("shock", side=FR, assault=1, roll=0)
    roll = r["rolls"][0]
    print(arithmetic(roll))
    assert (-1, "9.87") in mods(roll) and (3, "9.83") in mods(roll)


def test_9_84_charger_disordered_when_the_charge_ends():
    """A 5-9 result: defender Disordered and checks; the charge is over and the charger is Disordered (9.84)."""
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("shock", side=FR, assault=0, roll=0)          # 0 + 7 = 7
    assert r["rolls"][0]["modified"] == 7
    assert {"unit": "cuir", "effect": "disordered", "rule": "9.84"} in r["results"]
    assert "9.84" in r["rules"]


def test_9_87_pursuit_of_a_removed_defender_enters_and_stops_then_9_84():
    p = play(charge_game(defender=at(inf("r", RU, ag="ru-2", assault=2, cohesion=6), DEF_HEX, facing=12,
                                     status="disordered")))
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("shock", side=FR, assault=0, roll=3)
    assert r["rolls"][0]["modified"] >= 10
    assert {"unit": "r", "effect": "routed", "rule": "9.66", "to": "withdrawn"} in r["results"]
    assert r["awaiting"] == [{"type": "pursuit", "side": FR, "rule": "9.87"}]
    r = p.ok("pursuit", side=FR, units=["cuir"], to=DEF_HEX)
    assert [x["effect"] for x in r["results"]] == ["advanced", "disordered"]
    assert r["results"][1] == {"unit": "cuir", "effect": "disordered", "rule": "9.84"}
    p.ok("end_activation", side=FR)


def test_9_23_charge_resolved_before_the_infantry_shock_on_the_same_defender():
    sc = charge_game(at(inf("a", assault=4, cohesion=5), "0503", facing=6))
    p = play(sc)
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]},
                                        {"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    p.ok("commitment", side=FR, unit="a", roll=0)
    p.ok("commitment", side=FR, unit="cuir", roll=0)
    p.ok("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX, facing=6)
    assert errors(p("shock", side=FR, assault=0, roll=0)) == [("9.23", "group_order")]
    p.ok("shock", side=FR, assault=1, roll=0)


def test_the_text_report_shows_a_charge_shock():
    from referee.report import ruling_lines
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    move = "\n".join(ruling_lines(p.rulings[-1], {"type": "charge", "side": FR, "unit": "cuir", "path": [VIA],
                                                    "target": DEF_HEX, "facing": 6}))
    assert move.startswith("[6] charge French cuir through 0403 at 0404: legal (9.81)")
    assert "→ cuir: advanced (to 0403, facing 6) [9.81]" in move
    p.ok("shock", side=FR, assault=0, roll=3)
    text = "\n".join(ruling_lines(p.rulings[-1], {"type": "shock", "side": FR, "assault": 0}))
    print(text)
    assert "charge (French): Cuirassiers (0403)" in text
    assert "+3 heavy cavalry charge [9.83]" in text and "total +7" in text
    assert "natural 3 +7 = 10 → defender disordered retreat" in text



# --------------------------------------------------------------------------------------------- random play

def cavalry_fight(turns=2):
    """French cavalry two or three hexes from Russian infantry (with a battery), light cavalry and a second line."""
    return game_scenario(
        at(napoleon(), "0201"), at(kutuzov(), "0808"),
        at(cav("c1", cav_type="H", ag="cav"), "0402", facing=6), at(cav("c2", cav_type="L", ag="cav"), "0602", facing=6),
        at(cav("c3", cav_type="H", ag="cav"), "0202", facing=6),
        at(inf("r1", RU, ag="ru-1"), DEF_HEX, facing=12), at(art("r2", RU, ag="ru-1"), DEF_HEX, facing=12),
        at(cav("r3", RU, ag="ru-1", cav_type="L"), "0604", facing=12), at(inf("r4", RU, ag="ru-1"), "0204", facing=12),
        ags=[ag("cav", io=5), ag("ru-1", RU, io=4)], turns=turns)


def test_random_play_declares_and_plays_charges_squares_counter_charges_recalls_and_pursuits():
    """The listed actions include every charge act; each one listed is ruled legal and no game gets stuck."""
    from referee.play import play_game
    from referee.rulesets.triumph_and_glory import RULESET
    want = {"charge", "square", "pursuit", "counter_charge", "recall", "reaction_fire"}
    seen: set[str] = set()
    for seed in range(120):
        g = play_game(RULESET, cavalry_fight(), seed)
        assert RULESET.is_over(g.game.state) and all(r.legal for r in g.rulings)
        seen |= {e["type"] for e in g.events}
        if want <= seen:
            break
    assert want <= seen, want - seen


def test_the_text_report_names_a_pursuit_charge():
    from referee.report import ruling_lines
    p = worked_example_until_the_retreat()
    to = p("retreat", side=RU, unit="r", to="0101")["errors"][0]["alternatives"][0]
    p.ok("retreat", side=RU, unit="r", to=to)
    p.ok("pursuit", side=FR, units=["cuir"], to=DEF_HEX)
    p.ok("shock", side=FR, assault=1, roll=0)
    text = "\n".join(ruling_lines(p.rulings[-1], {"type": "shock", "side": FR, "assault": 1}))
    print(text)
    assert "pursuit charge 1 (French): Cuirassiers (0404)" in text and "-1 pursuit charge 1 [9.87]".replace("-", "−") in text


def test_8_6_reaction_fire_check_failed_by_a_charger_disorders_without_cancelling():
    """A 9–12 reaction fire result owes the charger a check; failing it Disorders (8.5) but the charge goes on."""
    sc = charge_game(at(art("gun", RU, ag="ru-2", fire=3, name="Gun"), DEF_HEX, facing=12))
    p = play(sc)
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("reaction_fire", side=RU, unit="gun", target=VIA, roll=5)
    assert r["awaiting"] == [{"type": "cohesion_check", "side": FR, "unit": "cuir", "rule": "8.6"}], r
    p.ok("cohesion_check", side=FR, unit="cuir", roll=9)
    assert p.state.board.units["cuir"].disordered
    assert p.state.activation.combat.shocks_left(p.state.board, FR) == (0,)
    p.ok("recall", side=FR, unit="cuir", roll=9)           # fails: it must charge
    r = p.ok("shock", side=FR, assault=0, roll=5)
    assert all(rule != "9.83" for _, rule in mods(r["rolls"][0]))


# --------------------------------------------------------------------------------------------- leaving square

def test_9_85_leaving_square_costs_1_mp_and_not_in_an_enemy_zoc():
    from .games import skip_turn
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    p.ok("square", side=RU, unit="r", roll=0)
    p.ok("recall", side=FR, unit="cuir", roll=0)
    p.ok("end_activation", side=FR)
    r = p("leave_square", side=RU, unit="r")
    assert r["verdict"] == "illegal"                      # not the Russian activation
    skip_turn(p)
    b = p.state.board
    assert b.units["r"].square                             # a square lasts until left or Disordered
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders_delay", side=RU, roll=0)
    p.ok("orders", side=RU, under_orders=["r"])
    p.ok("initiative", rolls={FR: 0, RU: 9})
    p.ok("first_marker", side=RU, marker="ru-2")
    # the cuirassiers next to it (0403) put it in their ZOC: it may not leave square
    assert errors(p("leave_square", side=RU, unit="r")) == [("9.85", "square_in_zoc")]


def test_9_85_leave_square_then_move_with_one_mp_less():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    p.ok("square", side=RU, unit="r", roll=0)
    p.ok("recall", side=FR, unit="cuir", roll=0)
    from .games import skip_turn
    p.ok("end_activation", side=FR)
    skip_turn(p)
    # move the cuirassiers away by hand (a test shortcut), so the square is free to go
    from dataclasses import replace as dc_replace
    p.game = dc_replace(p.game, state=dc_replace(p.state, board=p.state.board.place("cuir", "0101")))
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders_delay", side=RU, roll=0)
    p.ok("orders", side=RU, under_orders=["r"])
    p.ok("initiative", rolls={FR: 0, RU: 9})
    p.ok("first_marker", side=RU, marker="ru-2")
    r = p.ok("leave_square", side=RU, unit="r")
    assert r["rules"] == ["9.85"]
    u = p.state.board.units["r"]
    assert not u.square and u.mp_spent == 1
    assert errors(p("leave_square", side=RU, unit="r")) == [("9.85", "not_in_square")]


def test_a_stack_of_two_charges_together_and_the_pursuit_is_capped_heavy_first():
    """Two cavalry units of one hex charge together (one APC for the stack, one charge move each, the second
    taking the first's facing); after a result >= 10 both pursue (stacking allows two), heavy first."""
    sc = charge_game(at(cav("hus", assault=4, cohesion=6, name="Hussars"), START, facing=6))
    p = play(sc)
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["hus", "cuir"], "target": [DEF_HEX], "charge": True}])
    r = p.ok("commitment", side=FR, unit="cuir", roll=0)
    assert [a["unit"] for a in r["awaiting"] if a["type"] == "charge"] == ["hus", "cuir"]
    assert ("9.81", "charge_target_not_front") in errors(p("charge", side=FR, unit="hus", path=[VIA], target=DEF_HEX,
                                                             facing=12))
    p.ok("charge", side=FR, unit="hus", path=[VIA], target=DEF_HEX, facing=6)
    assert ("6.11", "stack_facing_differs") in errors(p("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX,
                                                        facing=4))
    p.ok("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX)
    r = p.ok("shock", side=FR, assault=0, roll=2)
    roll = r["rolls"][0]
    print(arithmetic(roll))
    assert (3, "9.83") in mods(roll) and roll["modified"] >= 10        # 12:2 -> 4:1 +4, +3 heavy, cohesion 0, +1
    to = p("retreat", side=RU, unit="r", to="0101")["errors"][0]["alternatives"][0]
    p.ok("retreat", side=RU, unit="r", to=to)
    assert ("9.87", "pursuers") in errors(p("pursuit", side=FR, units=["cuir"], to=DEF_HEX))
    r = p.ok("pursuit", side=FR, units=["cuir", "hus"], to=DEF_HEX)
    assert [x["unit"] for x in r["results"]] == ["cuir", "hus"]          # heavy first (9.87)
    assert p.state.board.stacks[DEF_HEX] == ("cuir", "hus")


def test_the_charge_events_pass_the_log_schema_and_reference_checks():
    from referee.logs.jsonlog import check_events
    from referee.rulesets.triumph_and_glory import RULESET
    sc = charge_game()
    events = [
        {"type": "assaults", "side": FR, "assaults": [{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}]},
        {"type": "charge", "side": FR, "unit": "cuir", "path": [VIA], "target": DEF_HEX, "facing": 6},
        {"type": "charge", "side": FR, "unit": "cuir", "path": [], "target": DEF_HEX},
        {"type": "square", "side": RU, "unit": "r", "roll": 3},
        {"type": "counter_charge", "side": RU, "unit": "r"},
        {"type": "recall", "side": FR, "unit": "cuir", "roll": 2, "facing": 8},
        {"type": "pursuit", "side": FR, "units": ["cuir"], "to": DEF_HEX, "target": "0405", "facing": 6},
        {"type": "leave_square", "side": RU, "unit": "r"},
    ]
    assert check_events(RULESET, sc, events) == []
    bad = check_events(RULESET, sc, [{"type": "charge", "side": FR, "unit": "cuir", "path": [VIA, "0302", "0303"],
                                      "target": DEF_HEX},
                                     {"type": "pursuit", "side": FR, "units": ["nobody"], "to": DEF_HEX}])
    assert len(bad) == 2 and "events[1]" in bad[1] and "nobody" in bad[1]


def test_9_85_a_square_charged_again_does_not_roll_again_and_takes_minus_2():
    p = play(charge_game())
    start(p, fr=["cuir"])
    charged(p)
    p.ok("square", side=RU, unit="r", roll=0)
    p.ok("recall", side=FR, unit="cuir", roll=0)
    p.ok("end_activation", side=FR)
    b = p.state.board
    p.game = replace(p.game, state=replace(p.state, board=b.place("cuir", START, 6)))
    from .games import skip_turn
    skip_turn(p)
    p.ok("orders", side=FR, under_orders=["cuir"])
    p.ok("orders_delay", side=RU, roll=0)
    p.ok("orders", side=RU, under_orders=[])
    start_of_turn_2 = p.state.board.units["r"]
    assert start_of_turn_2.square
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    charged(p)
    assert errors(p("square", side=RU, unit="r", roll=0)) == [("9.85", "already_square")]
    r = p.ok("shock", side=FR, assault=0, roll=5)
    assert (-2, "9.85") in mods(r["rolls"][0])


def test_9_86_against_chargers_in_two_hexes_the_counter_charge_is_aimed_at_one():
    """Light hussars charge heavy dragoons from two hexes; the dragoons counter-charge those in 0403: they lose
    their charge DRM and take the light-against-heavy −1, the hussars from 0504 keep their +1 (9.83, 9.86)."""
    sc = game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(cav("hus", cav_type="L", assault=5, cohesion=6, name="Hussars"), START, facing=6),
        at(cav("hus2", cav_type="L", assault=5, cohesion=6, name="Hussars 2"), "0604", facing=8),
        at(cav("dr", RU, ag="ru-2", cav_type="H", assault=5, cohesion=6, name="Dragoons"), DEF_HEX, facing=12),
        ags=AGS)
    p = play(sc)
    start(p, fr=["hus", "hus2"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["hus", "hus2"], "target": [DEF_HEX], "charge": True}])
    p.ok("commitment", side=FR, unit="hus", roll=0)
    p.ok("commitment", side=FR, unit="hus2", roll=0)
    p.ok("charge", side=FR, unit="hus", path=[VIA], target=DEF_HEX, facing=6)
    p.ok("charge", side=FR, unit="hus2", path=["0504"], target=DEF_HEX, facing=8)
    from referee.rulesets.triumph_and_glory.legal import legal_actions
    offered = [a for a in legal_actions(p.state) if a["type"] == "counter_charge"]
    assert offered == [{"type": "counter_charge", "side": RU, "unit": "dr", "at": h} for h in (VIA, "0504")]
    r = p("counter_charge", side=RU, unit="dr", roll=0)
    assert errors(r) == [("9.86", "counter_charge_at")] and r["errors"][0]["alternatives"] == [VIA, "0504"]
    r = p.ok("counter_charge", side=RU, unit="dr", at=VIA, roll=6)
    assert r["rolls"][0]["outcome"] == "pass" and r["rolls"][0]["modifiers"] == []     # light hussars: no +2
    roll = p.ok("shock", side=FR, assault=0, roll=4)["rolls"][0]
    print(arithmetic(roll))
    assert [(v, rule) for v, rule in mods(roll) if rule in ("9.83", "9.86")] == [(1, "9.83"), (-1, "9.86")]


def pursuit_with_a_second_enemy_in_front():
    """The worked example with a second Russian unit in 0505: the infantry retreats to 0405, the cuirassiers
    pursue into 0404 facing 6 — and have both 0405 and 0505 in their front (9.87)."""
    p = play(charge_game(at(inf("r2", RU, ag="ru-2", assault=2, cohesion=5, name="Inf 2"), "0505", facing=12)))
    start(p, fr=["cuir"])
    charged(p)
    r = p.ok("shock", side=FR, assault=0, roll=3)
    assert r["rolls"][0]["result"] == "defender_disordered_retreat"
    p.ok("retreat", side=RU, unit="r", to="0405")
    return p


def test_9_87_a_second_enemy_in_front_after_the_pursuers_enter_is_charged_too():
    p = pursuit_with_a_second_enemy_in_front()
    from referee.rulesets.triumph_and_glory.legal import legal_actions
    offered = [a for a in legal_actions(p.state) if a["type"] == "pursuit"]
    assert [a.get("stop", False) for a in offered] == [False, True]         # charge both, or end the pursuit
    r = p.ok("pursuit", side=FR, units=["cuir"], to=DEF_HEX, facing=6)
    assert p.state.activation.combat.assaults[1].targets == ("0405", "0505")
    roll = p.ok("shock", side=FR, assault=1, roll=5)["rolls"][0]
    per_hex = {t["hex"]: [(m["value"], m["rule"]) for m in t["modifiers"]] for t in roll["targets"]}
    assert set(per_hex) == {"0405", "0505"}                                # one roll, modified per hex (9.22)
    assert all((-1, "9.87") in m and (3, "9.83") in m for m in per_hex.values())


def test_9_87_or_the_pursuit_ends_there_and_9_84_disorders_the_pursuers():
    p = pursuit_with_a_second_enemy_in_front()
    r = p.ok("pursuit", side=FR, units=["cuir"], to=DEF_HEX, facing=6, stop=True)
    assert r["results"][-1] == {"unit": "cuir", "effect": "disordered", "rule": "9.84"}
    assert r["awaiting"] == [] and len(p.state.activation.combat.assaults) == 1
    p.ok("end_activation", side=FR)


def test_9_87_with_only_the_retreating_enemy_in_front_the_pursuit_must_charge():
    p = worked_example_until_the_retreat()
    to = p("retreat", side=RU, unit="r", to="0101")["errors"][0]["alternatives"][0]
    p.ok("retreat", side=RU, unit="r", to=to)
    assert errors(p("pursuit", side=FR, units=["cuir"], to=DEF_HEX, stop=True)) == [("9.87", "pursuit_must_charge")]
