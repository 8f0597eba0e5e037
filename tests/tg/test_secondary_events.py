"""Retreat before shock (9.31), the optional advance (9.72), Breakthrough and Counter-Shock (9.73) as events
(DESIGN §5 ``fall_back``, ``breakthrough``, ``counter_shock``), replayed through the engine; and random legal
play that actually plays them.

Geometry (tests/tg/helpers_combat.py): a defender in 0404 facing 12 has 0403 / 0503 in front and 0405 / 0505
behind; an attacker in 0403 faces 6 to have 0404 (and 0303) in front."""
from __future__ import annotations

from dataclasses import replace

from referee.play import play_game
from referee.rulesets.triumph_and_glory import RULESET

from .games import FR, RU, ag, art, at, cav, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX, FRONT_L, FRONT_R, REAR_L, REAR_R

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def start(p, fr=()):
    p.ok("orders", side=FR, under_orders=list(fr))
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")


def game(*placed):
    return game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), *placed, ags=AGS)


def assault(p, attackers, target):
    return p.ok("assaults", side=FR, assaults=[{"attackers": list(attackers), "target": list(target)}])


# --------------------------------------------------------------------------------------------- 9.31, 9.72

def cavalry_before_infantry(*more):
    return game(at(inf("a", cohesion=6), FRONT_L, facing=6),
                at(cav("rc", RU, ag="ru-2", name="Rc"), DEF_HEX, facing=12), *more)


def test_9_31_cavalry_falls_back_before_infantry_then_the_attacker_may_advance():
    p = play(cavalry_before_infantry())
    start(p, fr=["a"])
    r = assault(p, ["a"], [DEF_HEX])
    assert r["awaiting"] == [{"type": "commitment", "side": FR, "unit": "a", "rule": "9.41"}]
    # The defender announces it before the first APC; no roll against infantry.
    r = p.ok("fall_back", side=RU, unit="rc", to=[REAR_L, "0406"])
    assert r["rules"] == ["9.31", "9.72"] and r["rolls"] == []
    assert r["results"] == [{"unit": "rc", "effect": "retreated", "rule": "9.31", "to": "0406"}]
    assert r["awaiting"] == []                       # the assault has nobody left to attack: no APC
    assert p.state.unit("rc").hex == "0406" and p.state.unit("rc").facing == 12
    # 9.72: the advance is optional, and it may re-face on entering.
    r = p.ok("advance", side=FR, units=["a"], to=DEF_HEX, facing=12)
    assert r["rules"] == ["9.72", "9.71"]
    assert r["results"] == [{"unit": "a", "effect": "advanced", "rule": "9.71", "to": DEF_HEX}]
    assert (p.state.unit("a").hex, p.state.unit("a").facing) == (DEF_HEX, 12)
    assert errors(p("commitment", side=FR, unit="a", roll=0)) == [("9.41", "no_commitment_owed")]
    p.ok("end_activation", side=FR)


def test_9_31_an_assault_whose_target_fell_back_needs_no_apc_and_the_activation_may_end_without_the_advance():
    p = play(cavalry_before_infantry())
    start(p, fr=["a"])
    assault(p, ["a"], [DEF_HEX])
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    p.ok("fall_back", side=RU, unit="rc", to=REAR_R)
    assert p.state.activation.combat.commit_owed == ()
    assert {"type": "advance", "side": FR, "units": ["a"], "to": DEF_HEX} in RULESET.legal_actions(p.state)
    p.ok("end_activation", side=FR)                  # the optional advance is not owed


def test_9_31_a_multi_hex_assault_goes_on_against_the_hex_still_held():
    p = play(cavalry_before_infantry(at(inf("ri", RU, ag="ru-2"), "0304", facing=12)))
    start(p, fr=["a"])
    assault(p, ["a"], [DEF_HEX, "0304"])
    p.ok("fall_back", side=RU, unit="rc", to=REAR_R)
    assert p.state.activation.combat.commit_owed == ("a",)
    r = p.ok("commitment", side=FR, unit="a", roll=0)
    # The window of the optional advance has closed with the first APC.
    assert errors(p("advance", side=FR, units=["a"], to=DEF_HEX)) == [("9.72", "advance_window_closed")]
    r = p.ok("shock", side=FR, assault=0, roll=5)
    assert "targets" not in r["rolls"][0]            # one target hex left: a flat roll against 0304
    assert any(x["unit"] == "ri" for x in r["results"])


def test_9_31_refused_heavy_cavalry_before_infantry_and_cavalry():
    p = play(game(at(inf("a"), FRONT_L, facing=6), at(cav("c", cav_type="H"), FRONT_R, facing=6),
                  at(cav("rh", RU, ag="ru-2", cav_type="H"), DEF_HEX, facing=12)))
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]},
                                        {"attackers": ["c"], "target": [DEF_HEX]}])
    assert errors(p("fall_back", side=RU, unit="rh", to=REAR_L)) == [("9.31", "may_not_fall_back")]


def test_9_31_refused_into_another_enemy_zoc_after_the_first_apc_and_by_the_attacker():
    p = play(cavalry_before_infantry(at(inf("x"), "0606", facing=12)))
    start(p, fr=["a"])
    assault(p, ["a"], [DEF_HEX])
    assert errors(p("fall_back", side=RU, unit="rc", to=[REAR_R, "0605"])) == [("9.31", "fall_back_other_zoc")]
    assert errors(p("fall_back", side=FR, unit="rc", to=REAR_R)) == [("9.31", "defender_only")]
    assert errors(p("fall_back", side=RU, unit="rc", to=[REAR_R, "0506", "0507"])) == [("9.31", "fall_back_distance")]
    p.ok("commitment", side=FR, unit="a", roll=0)
    assert errors(p("fall_back", side=RU, unit="rc", to=REAR_R)) == [("9.31", "after_commitment")]


def test_9_31_no_fall_back_before_the_declaration():
    p = play(cavalry_before_infantry())
    start(p, fr=["a"])
    assert errors(p("fall_back", side=RU, unit="rc", to=REAR_R)) == [("9.31", "no_assault")]


def _charging(p, attackers, target):
    """A declared charge (9.81): the charger does not move before its APC."""
    p.ok("assaults", side=FR, assaults=[{"attackers": list(attackers), "target": list(target), "charge": True}])


def test_9_31_light_cavalry_falling_back_from_charging_heavy_rolls_and_is_disordered_on_a_high_roll():
    p = play(game(at(cav("h", cav_type="H"), "0402", facing=6),
                  at(cav("lc", RU, ag="ru-2", cav_type="L", cohesion=6, name="Lc"), DEF_HEX, facing=12)))
    start(p, fr=["h"])
    _charging(p, ["h"], [DEF_HEX])
    r = p.ok("fall_back", side=RU, unit="lc", to=REAR_L)
    roll = r["rolls"][0]                               # no roll in the event: owed
    assert (roll["purpose"], roll["base"], roll["base_rule"], roll["natural"]) == ("cohesion_check", 6, "9.31", None)
    r = p.ok("roll", roll=7)                           # 7 > 6: Disordered
    assert r["rolls"][0]["outcome"] == "fail"
    assert r["results"] == [{"unit": "lc", "effect": "retreated", "rule": "9.31", "to": REAR_L},
                            {"unit": "lc", "effect": "disordered", "rule": "9.31"}]
    assert p.state.unit("lc").disordered and p.state.unit("lc").hex == REAR_L
    # 9.72: the charging heavy cavalry may take the vacated hex (its charge ends there, no APC owed any more).
    r = p.ok("advance", side=FR, units=["h"], to=DEF_HEX)
    assert r["results"] == [{"unit": "h", "effect": "advanced", "rule": "9.71", "to": DEF_HEX}]
    p.ok("end_activation", side=FR)


def test_9_31_disordered_light_cavalry_withdraws_on_a_failed_roll_and_passes_on_a_low_one():
    for roll, effects in ((9, ["retreated", "routed"]), (3, ["retreated"])):
        p = play(game(at(cav("h", cav_type="H"), "0402", facing=6),
                      at(cav("lc", RU, ag="ru-2", cav_type="L"), DEF_HEX, facing=12, status="disordered")))
        start(p, fr=["h"])
        _charging(p, ["h"], [DEF_HEX])
        r = p.ok("fall_back", side=RU, unit="lc", to=REAR_L, roll=roll)
        assert [x["effect"] for x in r["results"]] == effects


# --------------------------------------------------------------------------------------------- 9.73 breakthrough

def breakthrough_game(*more):
    """Stack B (two assault-7 infantry) in 0403 facing 6 against a Disordered Russian in 0404: a result >= 10 routs
    it, the stack must advance, and in 0404 facing 6 its front is 0405 / 0505."""
    return game(at(inf("b1", assault=7, cohesion=6), FRONT_L, facing=6),
                at(inf("b2", assault=7, cohesion=6), FRONT_L, facing=6),
                at(inf("jgr", RU, ag="ru-2", name="Jgr"), DEF_HEX, facing=12, status="disordered"), *more)


def to_breakthrough(p, facing=None):
    start(p, fr=["b1"])
    assault(p, ["b1", "b2"], [DEF_HEX])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    r = p.ok("shock", side=FR, assault=0, roll=9)
    assert r["rolls"][0]["modified"] >= 10 and r["rolls"][0]["result"] == "defender_disordered_retreat"
    assert {"unit": "jgr", "effect": "routed", "rule": "9.66", "to": "withdrawn"} in r["results"]
    assert r["awaiting"] == [{"type": "advance", "side": FR, "rule": "9.71"}]
    extra = {"facing": facing} if facing is not None else {}
    p.ok("advance", side=FR, units=["b1", "b2"], to=DEF_HEX, **extra)


def test_9_73_breakthrough_after_10_no_apc_against_every_frontal_enemy():
    p = play(breakthrough_game(at(inf("r2", RU, ag="ru-2", assault=2, cohesion=4), REAR_L, facing=12),
                               at(inf("r3", RU, ag="ru-2", assault=2, cohesion=4), REAR_R, facing=12)))
    to_breakthrough(p)
    bad = p("breakthrough", side=FR, units=["b1", "b2"], target=[REAR_L])
    assert errors(bad) == [("9.73", "breakthrough_targets")]
    assert set(bad["errors"][0]["alternatives"]) == {REAR_L, REAR_R}
    r = p.ok("breakthrough", side=FR, units=["b1", "b2"], target=[REAR_L, REAR_R])
    assert r["rules"] == ["9.73"] and r["awaiting"] == [{"type": "shock", "side": FR, "rule": "9.5"}]
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    assert {"type": "shock", "side": FR, "assault": 1} in RULESET.legal_actions(p.state)
    r = p.ok("shock", side=FR, assault=1, roll=5)      # no commitment roll first
    assert r["rolls"][0]["purpose"] == "shock" and {t["hex"] for t in r["rolls"][0]["targets"]} == {REAR_L, REAR_R}


def test_9_73_one_secondary_shock_per_unit_per_phase():
    p = play(breakthrough_game(at(inf("r2", RU, ag="ru-2", assault=1, cohesion=2), REAR_L, facing=12,
                                  status="disordered"),
                               at(inf("r3", RU, ag="ru-2", assault=1, cohesion=2), "0406", facing=12)))
    to_breakthrough(p)
    p.ok("breakthrough", side=FR, units=["b1", "b2"], target=[REAR_L])
    r = p.ok("shock", side=FR, assault=1, roll=9)      # >= 10 again: r2 routs, the stack advances again
    assert r["rolls"][0]["modified"] >= 10
    p.ok("advance", side=FR, units=["b1", "b2"], to=REAR_L)
    assert errors(p("breakthrough", side=FR, units=["b1", "b2"], target=["0406"])) == [("9.73", "secondary_used")] * 2
    assert not [a for a in RULESET.legal_actions(p.state) if a["type"] == "breakthrough"]
    p.ok("end_activation", side=FR)


def test_9_73_no_breakthrough_after_re_facing_nor_without_a_result_of_10():
    p = play(breakthrough_game(at(inf("r2", RU, ag="ru-2"), "0304", facing=12)))
    to_breakthrough(p, facing=8)                        # re-faced on entering (9.71): 0304 is now in front
    assert p.state.unit("b1").facing == 8
    r = p("breakthrough", side=FR, units=["b1", "b2"], target=["0304"])
    assert errors(r) == [("9.73", "no_breakthrough"), ("9.73", "no_breakthrough")]
    p.ok("end_activation", side=FR)


def test_9_73_breakthrough_refused_with_nobody_in_front():
    p = play(breakthrough_game())
    to_breakthrough(p)
    assert errors(p("breakthrough", side=FR, units=["b1"], target=[REAR_L])) == [("9.73", "breakthrough_targets")]


# --------------------------------------------------------------------------------------------- 9.73 counter-shock

def counter_shock_game(*more):
    """A weak French attacker in 0403 against a strong Russian in 0404: odds 2:8 (−4), cohesion 3 − 7 (−4); a
    natural 0–7 is below 0."""
    return game(at(inf("a", assault=2, cohesion=3, name="A"), FRONT_L, facing=6),
                at(inf("d", RU, ag="ru-2", assault=8, cohesion=7, name="D"), DEF_HEX, facing=12), *more)


def to_counter_shock(p, check_roll=0, assaults=None):
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=assaults or [{"attackers": ["a"], "target": [DEF_HEX]}])
    for u in list(p.state.activation.combat.commit_owed):
        p.ok("commitment", side=FR, unit=u, roll=0)
    r = p.ok("shock", side=FR, assault=0, roll=0)
    assert r["rolls"][0]["modified"] < 0 and r["rolls"][0]["result"] == "attacker_disordered_counter_shock"
    assert r["awaiting"] == [{"type": "cohesion_check", "side": FR, "unit": "a", "rule": "9.62"}]
    return p.ok("cohesion_check", side=FR, unit="a", roll=check_roll)


def test_9_73_counter_shock_by_the_defender_without_apc_resolved_by_its_own_shock():
    p = play(counter_shock_game())
    to_counter_shock(p)
    assert errors(p("counter_shock", side=FR, units=["a"], target=[DEF_HEX])) == [("9.73", "no_counter_shock")]
    assert errors(p("counter_shock", side=RU, units=["d"], to=FRONT_L, target=["0402"])) == [
        ("9.73", "counter_shock_blocked")]
    r = p.ok("counter_shock", side=RU, units=["d"], target=[FRONT_L])
    assert r["rules"] == ["9.73"] and r["awaiting"] == [{"type": "shock", "side": RU, "rule": "9.5"}]
    assert errors(p("shock", side=FR, assault=1, roll=5)) == [("9.73", "not_your_assault")]
    assert errors(p("end_activation", side=FR)) == [("3.0", "combat_open")]
    assert {"type": "shock", "side": RU, "assault": 1} in RULESET.legal_actions(p.state)
    r = p.ok("shock", side=RU, assault=1, roll=9)
    roll = r["rolls"][0]
    assert roll["side"] == RU and roll["modified"] >= 10
    # The French attacker, Disordered already, routs (9.66); the Russian must advance into 0403.
    assert {"unit": "a", "effect": "routed", "rule": "9.66", "to": "withdrawn"} in r["results"]
    assert r["awaiting"] == [{"type": "advance", "side": RU, "rule": "9.71"}]
    p.ok("advance", side=RU, units=["d"], to=FRONT_L)
    assert errors(p("counter_shock", side=RU, units=["d"], target=["0402"]))[0][0] == "9.73"
    p.ok("end_activation", side=FR)


def test_9_73_counter_shock_moves_one_hex_without_turning_then_shocks_what_is_in_front():
    # The French attacker fails its check (9 > 3) and retreats from 0403 to 0402; the Russian follows into 0403.
    p = play(counter_shock_game())
    r = to_counter_shock(p, check_roll=9)
    if r["awaiting"]:
        p.ok("retreat", side=FR, unit="a", to="0402")
    assert p.state.unit("a").hex == "0402"
    assert errors(p("counter_shock", side=RU, units=["d"], to="0401", target=["0402"]))[0] == ("9.73", "counter_shock_move")
    assert errors(p("counter_shock", side=RU, units=["d"], target=[FRONT_L])) == [("9.73", "counter_shock_no_enemy")]
    r = p.ok("counter_shock", side=RU, units=["d"], to=FRONT_L, target=["0402"])
    assert r["results"] == [{"unit": "d", "effect": "advanced", "rule": "9.73", "to": FRONT_L}]
    assert (p.state.unit("d").hex, p.state.unit("d").facing) == (FRONT_L, 12)
    r = p.ok("shock", side=RU, assault=1, roll=0)
    assert r["rolls"][0]["side"] == RU and r["rolls"][0]["modified"] >= 10
    # 9.71: the Russian advances into 0402; 0404, which it left by its counter-shock move, opens no advance.
    assert r["awaiting"] == [{"type": "advance", "side": RU, "rule": "9.71"}]
    assert [a.into for a in p.state.activation.combat.advances] == ["0402"]


def settle(p):
    """Do the owed checks (rolling 0), retreats and advances, the first listed of each."""
    while p.state.activation.combat.owes:
        a = dict(next(a for a in RULESET.legal_actions(p.state) if a["type"] in ("cohesion_check", "retreat", "advance")))
        if a["type"] == "cohesion_check":
            a["roll"] = 0
        p.ok(a.pop("type"), **a)


def test_9_73_the_attackers_other_shock_waits_for_the_counter_shock():
    p = play(counter_shock_game(at(inf("b", cohesion=6), "0303", facing=4),
                                at(inf("e", RU, ag="ru-2", cohesion=3, assault=1), "0304", facing=12)))
    to_counter_shock(p, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}, {"attackers": ["b"], "target": ["0304"]}])
    p.ok("counter_shock", side=RU, units=["d"], target=[FRONT_L])
    assert errors(p("shock", side=FR, assault=1, roll=5)) == [("9.73", "counter_shock_first")]
    assert [a for a in RULESET.legal_actions(p.state) if a["type"] == "shock"] == [
        {"type": "shock", "side": RU, "assault": 2}]
    p.ok("shock", side=RU, assault=2, roll=0)
    settle(p)
    p.ok("shock", side=FR, assault=1, roll=5)


def test_9_73_the_counter_shock_chance_closes_when_the_attacker_shocks_again():
    p = play(counter_shock_game(at(inf("b", cohesion=6), "0303", facing=4),
                                at(inf("e", RU, ag="ru-2", cohesion=3, assault=1), "0304", facing=12)))
    to_counter_shock(p, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}, {"attackers": ["b"], "target": ["0304"]}])
    p.ok("shock", side=FR, assault=1, roll=5)
    settle(p)
    assert errors(p("counter_shock", side=RU, units=["d"], target=[FRONT_L])) == [("9.73", "no_counter_shock")]


def test_8_6_the_attackers_guns_answer_a_counter_shock():
    p = play(counter_shock_game(at(art("gun", fire=3), FRONT_L, facing=6)))
    to_counter_shock(p)
    p.ok("counter_shock", side=RU, units=["d"], target=[FRONT_L])
    assert {"type": "reaction_fire", "side": FR, "unit": "gun", "target": DEF_HEX} in RULESET.legal_actions(p.state)
    r = p.ok("reaction_fire", side=FR, unit="gun", target=DEF_HEX, roll=9)
    assert r["rules"][0] == "8.6"


# --------------------------------------------------------------------------------------------- chat, report

def test_the_text_report_names_secondary_shocks():
    from referee.report import ruling_lines
    p = play(counter_shock_game())
    to_counter_shock(p)
    p.ok("counter_shock", side=RU, units=["d"], target=[FRONT_L])
    p.ok("shock", side=RU, assault=1, roll=3)
    lines = ruling_lines(p.rulings[-2], {"type": "counter_shock", "side": RU, "units": ["d"], "target": [FRONT_L]})
    assert lines[0].startswith("[") and "counter_shock Russian d → 0403: legal (9.73)" in lines[0]
    text = "\n".join(ruling_lines(p.rulings[-1], {"type": "shock", "side": RU, "assault": 1}))
    assert "counter-shock (Russian): D (0404)" in text


# --------------------------------------------------------------------------------------------- random play

def secondary_skirmish(turns: int = 2):
    """Cavalry and infantry face to face, weak and strong units: the random driver meets fall-backs, optional
    advances, breakthroughs and counter-shocks."""
    return game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(inf("f1", assault=7, cohesion=7), "0303", facing=6), at(inf("f2", assault=7, cohesion=7), "0503", facing=6),
        at(inf("f3", assault=1, cohesion=2), "0703", facing=6), at(cav("f4", cav_type="L"), "0203", facing=6),
        at(cav("r1", RU, ag="ru-2", cav_type="L"), "0304", facing=12),
        at(cav("r2", RU, ag="ru-2", cav_type="H"), "0504", facing=12),
        at(inf("r3", RU, ag="ru-2", assault=8, cohesion=8), "0704", facing=12),
        at(inf("r4", RU, ag="ru-2", assault=2, cohesion=3), "0405", facing=12),
        at(inf("r5", RU, ag="ru-2", assault=2, cohesion=3), "0605", facing=12),
        ags=AGS, turns=turns)


def test_random_play_plays_fall_backs_advances_breakthroughs_and_counter_shocks():
    seen: dict[str, int] = {}
    optional_advance = 0
    for seed in range(40):
        g = play_game(RULESET, secondary_skirmish(), seed)
        assert RULESET.is_over(g.game.state) and all(r.legal for r in g.rulings)
        for e, r in zip(g.events, g.rulings):
            seen[e["type"]] = seen.get(e["type"], 0) + 1
            optional_advance += e["type"] == "advance" and "9.72" in r.rules
    print(seen, optional_advance)
    assert seen.get("fall_back", 0) and optional_advance
    assert seen.get("breakthrough", 0) and seen.get("counter_shock", 0)


def test_chat_notation_for_fall_back_breakthrough_and_counter_shock():
    from referee.logs.chat import Claim, Declared, Roster, read
    roster = Roster.from_scenario(breakthrough_game(at(cav("rc", RU, ag="ru-2"), "0606")))
    for text, event in [
        ("!fallback rc > 0505", {"type": "fall_back", "unit": "rc", "to": "0505"}),
        ("!fallback rc > 0505 0506 7", {"type": "fall_back", "unit": "rc", "to": ["0505", "0506"], "roll": 7}),
        ("!advance b1 > 0404 @12", {"type": "advance", "units": ["b1"], "to": "0404", "facing": 12}),
        ("!breakthrough b1 b2 > 0405 0505", {"type": "breakthrough", "units": ["b1", "b2"], "target": ["0405", "0505"]}),
        ("!countershock jgr > 0403", {"type": "counter_shock", "units": ["jgr"], "target": ["0403"]}),
        ("!countershock jgr rc 0403>0402", {"type": "counter_shock", "units": ["jgr", "rc"], "to": "0403",
                                            "target": ["0402"]}),
    ]:
        assert read(text, roster) == Declared(event), text
    claim = read("!fallback rc 4", roster)
    assert isinstance(claim, Claim) and claim.event == {"type": "fall_back", "unit": "rc", "roll": 4}


def test_9_73_the_secondary_shock_record_is_per_phase():
    from referee.rulesets.triumph_and_glory.secondary_events import secondary_used
    p = play(breakthrough_game(at(inf("r2", RU, ag="ru-2"), REAR_L, facing=12)))
    to_breakthrough(p)
    p.ok("breakthrough", side=FR, units=["b1", "b2"], target=[REAR_L])
    s = p.state
    assert secondary_used(s) == {"b1", "b2"}
    assert secondary_used(replace(s, phase="reserve")) == frozenset()
    assert secondary_used(replace(s, turn=s.turn + 1)) == frozenset()


def test_8_6_reaction_fire_answers_a_breakthrough():
    p = play(breakthrough_game(at(inf("r2", RU, ag="ru-2"), REAR_L, facing=12),
                               at(art("gun", RU, ag="ru-2", fire=3), REAR_L, facing=12)))
    to_breakthrough(p)
    p.ok("breakthrough", side=FR, units=["b1", "b2"], target=[REAR_L])
    assert {"type": "reaction_fire", "side": RU, "unit": "gun", "target": DEF_HEX} in RULESET.legal_actions(p.state)
    assert errors(p("reaction_fire", side=FR, unit="gun", target=DEF_HEX, roll=9)) == [("8.6", "defender_only")]
    r = p.ok("reaction_fire", side=RU, unit="gun", target=DEF_HEX, roll=9)      # 9 + 5 = 14: Disordered
    assert r["results"] == [{"unit": "b1", "effect": "disordered", "rule": "8.5"}]
    # 8.6 / 9.24: the top unit Disordered, the whole hex loses its breakthrough; the activation may end.
    assert errors(p("shock", side=FR, assault=1, roll=5)) == [("9.24", "secondary_cancelled")]
    p.ok("end_activation", side=FR)
