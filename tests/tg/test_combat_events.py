"""Fire, shock, rally, morale and victory as events (DESIGN §5): the part-2 rules replayed through the engine.
Test names carry the catalogue number (main digest §13) or the rule they check; the seed worked examples print
the same arithmetic the digest shows."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory import RULESET

from .games import FR, RU, ag, art, at, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX, FLANK_L, FRONT_L

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def start(p, fr=(), ru=(), first="i-corps"):
    p.ok("orders", side=FR, under_orders=list(fr))
    p.ok("orders", side=RU, under_orders=list(ru))
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker=first)


def seed_commitment_game():
    """Main digest 9.4 worked example: Guy a (cohesion 5) Under Orders, Napoleon within 3, Psk Jgr (DFE 1)."""
    return game_scenario(
        at(napoleon(), "0401"), at(kutuzov(), "0808"),
        at(inf("guy-a", cohesion=5, name="Guy a"), FRONT_L, facing=6),
        at(inf("psk-jgr", RU, ag="ru-2", dfe=1, name="Psk Jgr"), DEF_HEX, facing=12), ags=AGS)


def test_cat_68_seed_example_commitment_roll_6_or_less_as_events():
    p = play(seed_commitment_game())
    start(p, fr=["guy-a"])
    r = p.ok("assaults", side=FR, assaults=[{"attackers": ["guy-a"], "target": [DEF_HEX]}])
    assert r["awaiting"] == [{"type": "commitment", "side": FR, "unit": "guy-a", "rule": "9.41"}]
    r = p.ok("commitment", side=FR, unit="guy-a", roll=6)
    roll = r["rolls"][0]
    print(f"{roll['natural']} {roll['modifiers'][0]['value']:+d} {roll['modifiers'][1]['value']:+d} "
          f"<= {roll['base']}: {roll['outcome']} (pass on {roll['pass_max']} or less)")
    assert (roll["purpose"], roll["base"], roll["base_rule"], roll["base_label"]) == (
        "commitment", 5, "9.43", "cohesion of Guy a")
    assert [(m["value"], m["rule"]) for m in roll["modifiers"]] == [(-2, "9.42"), (1, "9.42")]
    assert (roll["pass_max"], roll["p_success"], roll["outcome"]) == (6, 0.7, "pass")
    assert r["rules"] == ["9.41", "9.42", "9.43"] and r["results"] == []
    # the owed shock names its assault (the declaration's index) and the unit that makes it
    assert r["awaiting"] == [{"type": "shock", "side": FR, "unit": "guy-a", "assault": 0, "rule": "9.5"}]


def test_cat_68_a_7_fails_and_the_hex_does_not_assault():
    p = play(seed_commitment_game())
    start(p, fr=["guy-a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["guy-a"], "target": [DEF_HEX]}])
    r = p.ok("commitment", side=FR, unit="guy-a", roll=7)
    assert r["rolls"][0]["outcome"] == "fail" and r["awaiting"] == []
    assert errors(p("shock", side=FR, assault=0)) == [("9.45", "not_committed")]
    p.ok("end_activation", side=FR)


def seed_shock_game():
    """Main digest 9.6 worked example: stack B (two assault-7 units) against a Russian jäger (assault 5) in the
    open, no positional DRM: odds 14:5 → +2, clear terrain +1 → +3; a natural 5 becomes 8."""
    return game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(inf("b1", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
        at(inf("b2", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
        at(inf("jgr", RU, ag="ru-2", assault=5, cohesion=6, name="Jgr"), DEF_HEX, facing=12), ags=AGS)


def test_cat_86_115_seed_worked_example_shock_plus_3_a_5_becomes_8_defender_disordered_checks_retreats_and_must_advance():
    p = play(seed_shock_game())
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    r = p.ok("shock", side=FR, assault=0, roll=5)
    roll = r["rolls"][0]
    print(" ".join(f"{m['value']:+d} ({m['rule']} {m['reason']})" for m in roll["modifiers"]),
          f"| {roll['natural']} becomes {roll['modified']}: {roll['result']}")
    assert [(m["value"], m["rule"]) for m in roll["modifiers"]] == [(2, "9.51"), (1, "9.53")]
    assert (roll["natural"], roll["modified"], roll["result"]) == (5, 8, "defender_disordered_check")
    assert r["results"] == [{"unit": "jgr", "effect": "disordered", "rule": "9.61"}]
    assert r["awaiting"] == [{"type": "cohesion_check", "side": RU, "unit": "jgr", "rule": "9.62"}]
    # The jäger fails its retreat check (7 > 6): it must retreat, and its owner chooses the hex.
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=7)
    assert r["rolls"][0]["outcome"] == "fail"
    assert r["awaiting"] == [{"type": "retreat", "side": RU, "rule": "9.62"}]
    bad = p("retreat", side=RU, unit="jgr", to="0304")
    assert bad["verdict"] == "illegal" and bad["errors"][0]["rule"] in ("9.62", "9.63")
    to = bad["errors"][0]["alternatives"][0]
    r = p.ok("retreat", side=RU, unit="jgr", to=to)
    assert {"unit": "jgr", "effect": "retreated", "rule": "9.62", "to": to} in r["results"]
    # 9.71: the hex is empty, the stack B must advance into it.
    assert r["awaiting"] == [{"type": "advance", "side": FR, "rule": "9.71"}]
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    r = p.ok("advance", side=FR, units=["b1", "b2"], to=DEF_HEX)
    assert [x["effect"] for x in r["results"]] == ["advanced", "advanced"]
    p.ok("end_activation", side=FR)


def test_cat_79_9_44_every_assault_is_declared_before_any_commitment_roll():
    p = play(seed_shock_game())
    start(p, fr=["b1"])
    assert errors(p("commitment", side=FR, unit="b1", roll=0)) == [("9.44", "commitment_before_declaration")]
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    assert errors(p("move", side=FR, unit="b1", path=["0402"])) == [("9.44", "after_declaration")]
    assert errors(p("assaults", side=FR, assaults=[]))[0] == ("9.44", "already_declared")


def test_cat_79_9_46_no_shock_while_a_commitment_roll_is_owed():
    p = play(seed_shock_game())
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    assert errors(p("shock", side=FR, assault=0, roll=5)) == [("9.46", "commitment_pending")]


def test_cat_6_13_target_outside_the_front_is_illegal():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                           at(inf("a"), FLANK_L, facing=12),
                           at(inf("r", RU, ag="ru-2"), DEF_HEX, facing=12), ags=AGS))
    start(p, fr=["a"])
    r = p("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}])
    assert ("6.13", "target_not_front") in errors(r)


def fire_game(**kw):
    return game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(art("gun", fire=3, eff_range=2, max_range=4, cohesion=5, name="Gun"), "0402", facing=6),
        at(inf("r1", RU, ag="ru-2", cohesion=5), DEF_HEX, facing=12),
        at(inf("r2", RU, ag="ru-2", cohesion=5), DEF_HEX, facing=12), ags=AGS, **kw)


def test_8_5_fire_9_to_12_owes_a_cohesion_check_per_unit():
    p = play(fire_game())
    start(p, fr=["gun"])
    r = p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=5)
    roll = r["rolls"][0]
    assert roll["purpose"] == "fire" and roll["result"] == "cohesion_check", roll
    assert [a["unit"] for a in r["awaiting"]] == ["r1", "r2"]
    assert all(a == {"type": "cohesion_check", "side": RU, "unit": a["unit"], "rule": "8.5"} for a in r["awaiting"])
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    r = p.ok("cohesion_check", side=RU, unit="r1", roll=6)
    assert r["rolls"][0]["pass_max"] == 5 and r["results"] == [{"unit": "r1", "effect": "disordered", "rule": "8.5"}]
    r = p.ok("cohesion_check", side=RU, unit="r2", roll=5)
    assert r["results"] == [] and r["awaiting"] == []
    assert errors(p("fire", side=FR, units=["gun"], target=DEF_HEX, roll=5))[0] == ("8.1", "already_fired")
    p.ok("end_activation", side=FR)


def test_cat_83_disordered_artillery_may_not_fire():
    sc = fire_game()
    p = play(sc)
    start(p, fr=["gun"])
    from dataclasses import replace
    p.game = replace(p.game, state=replace(p.state, board=p.state.board.update("gun", status="disordered")))
    assert ("9.61", "disordered_fire") in errors(p("fire", side=FR, units=["gun"], target=DEF_HEX, roll=5))


def test_10_1_rally_passes_on_the_disordered_cohesion():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                           at(inf("a", cohesion=5), "0202", status="disordered"),
                           at(inf("r", RU, ag="ru-2"), "0707"), ags=AGS))
    start(p, fr=["a"])
    r = p.ok("rally", side=FR, unit="a", roll=4)
    assert r["rolls"][0]["base"] == 4 and r["rolls"][0]["base_rule"] == "10.1"
    assert r["results"] == [{"unit": "a", "effect": "rallied", "rule": "10.1"}]
    assert errors(p("rally", side=FR, unit="a", roll=0))[0][0] == "10.1"


def test_game_end_reports_victory_in_the_last_ruling_and_the_state():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), at(inf("a"), "0202"),
                           at(inf("r", RU, ag="ru-2"), "0707"), ags=AGS, turns=1), seed="s")
    from .games import skip_turn
    skip_turn(p)
    assert p.state.over
    last = p.rulings[-1].to_dict()
    v = [x for x in last["results"] if x["effect"] == "victory"]
    assert v and v[0]["condition"] == "borodino_vp" and "vp" in v[0]
    assert RULESET.view(p.state, None)["victory"]["condition"] == "borodino_vp"


def test_the_text_report_shows_a_shock_as_a_player_wants_it():
    from referee.report import ruling_lines
    p = play(seed_shock_game())
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    owed = p("shock", side=FR, assault=0)
    assert owed["rolls"][0]["natural"] is None
    before = "\n".join(ruling_lines(p.rulings[-1], {"type": "shock", "side": FR, "assault": 0}))
    p.ok("roll", roll=5)
    after = "\n".join(ruling_lines(p.rulings[-1], {"type": "shock", "side": FR, "assault": 0}))
    print(before, after, sep="\n")
    assert "b1, b2 (0403)" in before and "against 0404: Jgr" in before
    assert "+2 odds 14:5 -> 2:1 [9.51]" in before and "+1 defender in clear [9.53]" in before
    assert "total +3" in before and "5–9 → defender_disordered_retreat" not in before
    assert "→ defender disordered check" in before and "natural: OWED" in before
    assert "natural 5 +3 = 8 → defender disordered check" in after
    assert "jgr: disordered [9.61]" in after


def test_the_text_report_shows_even_odds_although_they_add_nothing():
    from referee.report import ruling_lines
    p = play(game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(inf("b1", assault=5, cohesion=6), FRONT_L, facing=6),
        at(inf("jgr", RU, ag="ru-2", assault=5, cohesion=6, name="Jgr"), DEF_HEX, facing=12), ags=AGS))
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    r = p.ok("shock", side=FR, assault=0, roll=5)
    assert all(m["rule"] != "9.51" for m in r["rolls"][0]["modifiers"])     # the ruling lists what changes the roll
    text = "\n".join(ruling_lines(p.rulings[-1], {"type": "shock", "side": FR, "assault": 0}))
    assert "±0 odds 5:5 -> 1:1 [9.51]" in text, text


# ----------------------------------------------------------------------------------------- BOR-5

def destruction_game():
    return game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(inf("ru-inf", RU, ag="ru-2"), "0505"), at(inf("fr", ag="i-corps"), "0202"),
        ags=AGS, special_rules=["BOR-5"], terrain={"0505": "village"})


def to_destruction(p):
    start(p, first="i-corps")
    while p.state.activation is None or p.state.activation.marker != "destruction":
        cup = sorted(set(p.state.cup))
        if p.state.activation is not None:
            p.ok("end_activation", side=p.state.activation.side)
            continue
        p.ok("draw", marker="destruction" if "destruction" in cup else cup[0])


def test_cat_118_burn_a_village_moves_the_infantry_out_and_sets_it_on_fire():
    p = play(destruction_game())
    to_destruction(p)
    bad = p("burn_village", side=RU, unit="ru-inf", village="0505", to="0505")
    assert errors(bad) == [("BOR-5", "bad_exit")]
    to = bad["errors"][0]["alternatives"][0]
    r = p.ok("burn_village", side=RU, unit="ru-inf", village="0505", to=to)
    assert r["results"] == [{"unit": "ru-inf", "effect": "moved", "rule": "BOR-5", "to": to},
                            {"effect": "on_fire", "rule": "BOR-5", "hex": "0505"}]
    assert "0505" in p.state.board.on_fire
    assert errors(p("move", side=RU, unit="ru-inf", path=["0505"]))  # 121: nobody enters an On Fire hex


def test_cat_119_burning_with_an_enemy_adjacent_is_illegal():
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("ru-inf", RU, ag="ru-2"), "0505"), at(inf("fr", ag="i-corps"), "0504"),
                       ags=AGS, special_rules=["BOR-5"], terrain={"0505": "village"})
    p = play(sc)
    to_destruction(p)
    assert ("BOR-5", "enemy_adjacent") in errors(p("burn_village", side=RU, unit="ru-inf", village="0505",
                                                     to="0506"))


def test_cat_122_fire_roll_3_out_to_rubble_4_keeps_burning():
    for natural, out in ((3, True), (4, False)):
        p = play(destruction_game())
        to_destruction(p)
        from dataclasses import replace
        board = p.state.board.set_marker("on_fire", "0505")
        p.game = replace(p.game, state=replace(p.state, board=board, activation=replace(
            p.state.activation, fires_owed=("0505",))))
        assert errors(p("end_activation", side=RU)) == [("BOR-5", "fire_rolls_first")]
        r = p.ok("fire_out", side=RU, village="0505", roll=natural)
        roll = r["rolls"][0]
        assert (roll["purpose"], roll["pass_max"], roll["outcome"]) == ("fire_out", 3, "pass" if out else "fail")
        assert (r["results"] == [{"effect": "rubble", "rule": "BOR-5", "hex": "0505"}]) == out
        assert ("0505" in p.state.board.rubble) == out and ("0505" in p.state.board.on_fire) != out


def test_cat_82_83_militia_or_disordered_infantry_may_not_declare_an_assault():
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("m", RU, ag="ru-2", flags=["militia"]), FRONT_L, facing=6),
                       at(inf("d", RU, ag="ru-2"), "0502", facing=6, status="disordered"),
                       at(inf("f1"), DEF_HEX, facing=12), at(inf("f2"), "0503", facing=12),
                       ags=AGS, special_rules=["BOR-MILITIA"])
    p = play(sc)
    start(p, first="i-corps")
    p.ok("end_activation", side=FR)
    while p.state.activation is None or p.state.activation.marker != "ru-2":
        if p.state.activation is not None:
            p.ok("end_activation", side=p.state.activation.side)
        else:
            p.ok("draw", marker="ru-2" if "ru-2" in p.state.cup else sorted(p.state.cup)[0])
    assert ("BOR-MILITIA", "militia_attack") in errors(
        p("assaults", side=RU, assaults=[{"attackers": ["m"], "target": [DEF_HEX]}]))
    assert ("9.61", "disordered_attack") in errors(
        p("assaults", side=RU, assaults=[{"attackers": ["d"], "target": ["0503"]}]))


def shock_to_check(defender_cohesion=4, **extra):
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("b1", assault=7, cohesion=6), FRONT_L, facing=6),
                       at(inf("b2", assault=7, cohesion=6), FRONT_L, facing=6),
                       at(inf("jgr", RU, ag="ru-2", assault=5, cohesion=defender_cohesion + 1), DEF_HEX, facing=12),
                       *extra.get("more", ()), ags=AGS)
    p = play(sc)
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    p.ok("shock", side=FR, assault=0, roll=5)           # 8: defender Disordered, checks (worked example)
    return p


def test_cat_104_retreat_check_on_the_face_now_up_0_4_stays_5_9_retreats():
    p = shock_to_check(defender_cohesion=4)             # printed 5, Disordered face 4
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=4)
    assert (r["rolls"][0]["base"], r["rolls"][0]["pass_max"], r["rolls"][0]["outcome"]) == (4, 4, "pass")
    assert r["awaiting"] == []
    p = shock_to_check(defender_cohesion=4)
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=5)
    assert r["rolls"][0]["outcome"] == "fail" and r["awaiting"][0]["type"] == "retreat"


def test_cat_109_no_hex_away_from_the_attacker_means_destroyed():
    # Enemies (French) on every hex that lies away from 0403: the retreat is blocked.
    blockers = [at(inf(f"x{i}", ag="i-corps"), h, facing=12) for i, h in enumerate(("0405", "0505", "0504", "0304"))]
    p = shock_to_check(defender_cohesion=4, more=blockers)
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    assert {"unit": "jgr", "effect": "eliminated", "rule": "9.63"} in r["results"]
    assert r["awaiting"] == [{"type": "advance", "side": FR, "rule": "9.71"}]


def test_cat_112_an_empty_hex_before_a_friendly_one():
    more = [at(inf("ru-friend", RU, ag="ru-2"), "0405", facing=12)]
    p = shock_to_check(defender_cohesion=4, more=more)
    p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    r = p("retreat", side=RU, unit="jgr", to="0405")
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "retreat_not_allowed"
    assert "0405" not in r["errors"][0]["alternatives"]


def test_cat_116_a_unit_that_moved_may_not_rally():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                           at(inf("a", cohesion=5), "0202", status="disordered"),
                           at(inf("r", RU, ag="ru-2"), "0707"), ags=AGS))
    start(p, fr=["a"])
    p.ok("move", side=FR, unit="a", path=["0203"])
    assert ("10.1", "rally_after_acting") in errors(p("rally", side=FR, unit="a", roll=0))


def test_cat_128_collapse_in_the_morale_phase_ignores_militia_and_is_reported_on_the_triggering_event():
    from dataclasses import replace
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("r1", RU, ag="ru-2"), "0707"), at(inf("r2", RU, ag="ru-2"), "0708"),
                       at(inf("r3", RU, ag="ru-2"), "0607"), at(inf("mil", RU, ag="ru-2", flags=["militia"]), "0606"),
                       at(inf("a"), "0202"), ags=AGS, special_rules=["BOR-MILITIA"], turns=2)
    p = play(sc, seed="collapse")
    from .games import skip_turn
    skip_turn(p, until="reserve")
    board = p.state.board.remove("r1", "withdrawn").remove("r2", "eliminated")
    p.game = replace(p.game, state=replace(p.state, board=board))
    # two of the three counted units lost (the militia does not count): the AG collapses when Morale begins
    skip_turn(p, until="cinc_movement")
    found = [x.to_dict() for r in p.rulings[-3:] for x in r.results if x.effect == "collapsed"]
    assert found == [{"effect": "collapsed", "rule": "10.5", "ag": "ru-2"}]
    assert "ru-2" in p.state.collapsed


def test_8_6_reaction_fire_after_the_apcs_disorders_the_attacker_and_cancels_its_shock():
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("a", cohesion=5), FRONT_L, facing=6),
                       at(art("gun", RU, ag="ru-2", fire=6, eff_range=2, max_range=4), DEF_HEX, facing=12),
                       at(inf("r", RU, ag="ru-2"), DEF_HEX, facing=12), ags=AGS)
    p = play(sc)
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}])
    assert errors(p("reaction_fire", side=RU, unit="gun", target=FRONT_L, roll=5)) == [("8.6", "before_commitment")]
    p.ok("commitment", side=FR, unit="a", roll=0)
    assert errors(p("reaction_fire", side=FR, unit="gun", target=FRONT_L, roll=5)) == [("8.6", "defender_only")]
    r = p.ok("reaction_fire", side=RU, unit="gun", target=FRONT_L, roll=7)
    assert r["rolls"][0]["purpose"] == "fire" and r["rolls"][0]["result"] in ("disordered", "disordered_retreat")
    assert {"unit": "a", "effect": "disordered", "rule": "8.5"} in r["results"]
    assert errors(p("reaction_fire", side=RU, unit="gun", target=FRONT_L, roll=7))[0] == ("8.6", "reacted")
    assert errors(p("shock", side=FR, assault=0, roll=5)) == [("9.45", "not_committed")]


def test_9_71_one_stack_clearing_two_hexes_advances_into_one_and_the_other_lapses():
    """A shock against two hexes empties both (≥ 10: the defenders retreat); the only attacking stack must enter
    one of them, and then nobody is left to enter the other: that advance lapses and the activation ends
    (found by random play: the game used to wait for an advance nobody could make)."""
    sc = game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(inf("b1", assault=8, cohesion=7), "0403", facing=6), at(inf("b2", assault=8, cohesion=7), "0403", facing=6),
        at(inf("r1", RU, ag="ru-2", assault=1, cohesion=3), "0404", facing=12),
        at(inf("r2", RU, ag="ru-2", assault=1, cohesion=3), "0304", facing=12), ags=AGS)
    p = play(sc)
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": ["0404", "0304"]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    r = p.ok("shock", side=FR, assault=0, roll=9)
    assert r["rolls"][0]["targets"][0]["result"] == "defender_disordered_retreat", r["rolls"]
    from referee.rulesets.triumph_and_glory.legal import legal_actions
    while p.state.activation.combat.retreats:              # each owner picks the first legal retreat hex
        act = dict(legal_actions(p.state)[0])
        p.ok(act.pop("type"), **act)
    owed = p.state.activation.combat.advances
    assert sorted(a.into for a in owed) == ["0304", "0404"]
    r = p.ok("advance", side=FR, units=["b1", "b2"], to="0404")
    assert r["awaiting"] == [] and p.state.activation.combat.advances == ()
    p.ok("end_activation", side=FR)
