"""Reserve Activation (5.51–5.57): public catalogue items of the main digest §13 "Reserve Activation"."""
from __future__ import annotations

from modulebuilder.model import Face, Unit
from referee.rulesets.triumph_and_glory.orders import commitment_order_modifiers
from referee.rulesets.triumph_and_glory.reserve import disorder_check_roll, needs_check

from .games import FR, RU, ag, art, at, game_scenario, inf, kutuzov, napoleon, play, skip_turn


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def reserve_scenario(*extra, fa1_status="good", **kw):
    """Napoleon at 0207 (range 3).  Group A (fa1, fa2) near him, fa2 adjacent to a Russian; group B (fb1) far
    away; a French battery and a cossack for the Russians."""
    return game_scenario(
        at(napoleon(), "0207"), at(kutuzov(), "0702"),
        at(inf("fa1", ag="i-corps"), "0206", status=fa1_status), at(inf("fa2", ag="i-corps"), "0305"),
        at(inf("fb1", ag="i-corps"), "0802"),
        at(art("fg1", ag="i-corps", cohesion=4), "0208"),
        at(inf("r1", side=RU, ag="ru-2"), "0405", facing=6),
        *extra, ags=[ag("i-corps"), ag("ru-2", RU, io=4)], **kw)


def to_reserve(p, first=FR):
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    skip_turn(p, until="reserve")
    p.ok("go_first", side=FR, first=first)


def test_cat_55_reserve_group_out_of_cinc_range_is_illegal():
    p = play(reserve_scenario())
    to_reserve(p)
    r = p("reserve", side=FR, unit="fb1")
    assert r["verdict"] == "illegal" and errors(r) == [("5.52", "out_of_range")]
    assert p.state.activation is None


def test_cat_56_member_adjacent_to_an_enemy_may_not_be_activated():
    p = play(reserve_scenario())
    to_reserve(p)
    r = p.ok("reserve", side=FR, unit="fa1")
    assert {"unit": "fa2", "effect": "not_activated", "rule": "5.52", "reason": "adjacent to an enemy unit"} in r["results"]
    assert errors(p("move", side=FR, unit="fa2", path=["0304"])) == [("5.52", "adjacent_to_enemy")]
    r = p.ok("move", side=FR, unit="fa1", path=["0106"])
    assert r["awaiting"] == [{"type": "cohesion_check", "side": FR, "unit": "fa1", "rule": "5.54"}]


def test_cat_58_disorder_check_after_a_reserve_move():
    p = play(reserve_scenario())
    to_reserve(p)
    p.ok("reserve", side=FR, unit="fa1")
    p.ok("move", side=FR, unit="fa1", path=["0106"])
    assert errors(p("end_phase", side=FR)) == [("5.54", "checks_owed")]
    r = p.ok("cohesion_check", side=FR, unit="fa1", roll=5)
    roll = r["rolls"][0]
    assert (roll["purpose"], roll["base"], roll["base_rule"], roll["modifiers"]) == ("cohesion_check", 5, "5.54", [])
    assert (roll["pass_max"], roll["p_success"], roll["outcome"]) == (5, 0.6, "pass") and r["results"] == []


def test_cat_58_fail_disorders_and_an_already_disordered_unit_routs():
    p = play(reserve_scenario())
    to_reserve(p)
    p.ok("reserve", side=FR, unit="fa1")
    p.ok("move", side=FR, unit="fa1", path=["0106"])
    r = p.ok("cohesion_check", side=FR, unit="fa1", roll=6)
    assert r["rolls"][0]["outcome"] == "fail"
    assert r["results"] == [{"unit": "fa1", "effect": "disordered", "rule": "5.54"}]
    assert p.state.unit("fa1").status == "disordered"
    p2 = play(reserve_scenario(fa1_status="disordered"))
    to_reserve(p2)
    p2.ok("reserve", side=FR, unit="fa1")
    p2.ok("move", side=FR, unit="fa1", path=["0106"])
    r = p2.ok("cohesion_check", side=FR, unit="fa1", roll=6)
    roll = r["rolls"][0]
    assert roll["base"] == 4 and roll["base_label"] == "cohesion of fa1"      # the Disordered face's cohesion
    assert r["results"] == [{"unit": "fa1", "effect": "routed", "rule": "9.66", "to": "withdrawn"}]
    assert p2.state.unit("fa1").box == "withdrawn"


def test_cat_59_artillery_that_only_moved_takes_no_check():
    p = play(reserve_scenario())
    to_reserve(p)
    p.ok("reserve", side=FR, unit="fg1")
    r = p.ok("move", side=FR, unit="fg1", path=["0108"])
    assert r["awaiting"] == [] and p.state.activation.checks_owed == ()
    p.ok("end_phase", side=FR)


def test_cat_59_artillery_that_fired_checks_on_its_cohesion():
    gunner = art("g", cohesion=4)
    from referee.rulesets.triumph_and_glory.board import UnitState
    u = UnitState(id="g", defn=gunner, hex="0101")
    assert needs_check(u, moved=True, fired=False) is False
    assert needs_check(u, moved=False, fired=True) is True
    roll = disorder_check_roll(u, 5)
    assert (roll.pass_max, roll.p_success, roll.outcome) == (4, 0.5, "fail")     # 5–9 Disordered
    assert disorder_check_roll(u, 4).outcome == "pass"


def test_cat_61_reserve_assault_takes_plus_1_unless_in_range_and_no_cinc_drm():
    p = play(reserve_scenario())
    to_reserve(p)
    p.ok("reserve", side=FR, unit="fa1")
    mods = commitment_order_modifiers(p.state, "fa1")
    assert mods == ()                                   # within Napoleon's range: no +1, and no CinC DRM
    far = play(reserve_scenario(at(inf("fc1", ag="i-corps"), "0405"), at(inf("fc2", ag="i-corps"), "0505"),
                                at(inf("fc3", ag="i-corps"), "0605")))
    to_reserve(far)
    far.ok("reserve", side=FR, unit="fc3")              # the chain reaches 0405, in range
    m = commitment_order_modifiers(far.state, "fc3")
    assert [(x.value, x.rule) for x in m] == [(1, "5.53")]


def test_cat_62_cossack_failing_its_check_goes_to_the_withdrawn_box():
    cossack = Unit(id="cos", name="Bug cossacks", kind="cavalry", side=RU, ag="ru-2",
                   front=Face(assault=2, cohesion=4, ma=8), back=None, cav_type="C", flags=frozenset({"no_back"}))
    p = play(reserve_scenario(at(cossack, "0703"), special_rules=["BOR-COSSACK"]))
    to_reserve(p, first=RU)
    p.ok("reserve", side=RU, unit="cos")
    p.ok("move", side=RU, unit="cos", path=["0704"], mode="limited")
    r = p.ok("cohesion_check", side=RU, unit="cos", roll=5)
    assert r["results"] == [{"unit": "cos", "effect": "routed", "rule": "BOR-COSSACK", "to": "withdrawn"}]
    assert p.state.unit("cos").box == "withdrawn"


def test_reserve_one_group_per_side_and_in_turn():
    p = play(reserve_scenario())
    to_reserve(p)
    assert errors(p("reserve", side=RU, unit="r1")) == [("5.51", "not_your_turn")]
    p.ok("reserve", side=FR, unit="fg1")
    assert errors(p("reserve", side=FR, unit="fa1")) == [("5.51", "one_group")]
    assert errors(p("individual_order", side=FR, unit="fg1", roll=0)) == [("5.53", "reserve_no_io")]
    p.ok("end_phase", side=FR)
    p.ok("end_phase", side=RU)
    assert p.state.phase == "cinc_movement"
