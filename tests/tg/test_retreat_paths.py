"""9.63/9.64, which hexes a retreat may use (issue 18, point 2).

Seed (9.63): «Отступающая часть не может входить на гекс, занятый другой своей частью, за исключением случаев,
когда нет других путей для Отступления (9.64)» — a retreating unit may not enter a hex held by a friendly unit
unless there is no other retreat path; «Часть, отступившая на Фронтальный гекс части противника, бежит» — a
unit that retreats into an enemy unit's front hex routs.  Default (``retreat_into_friends: last``): the enemy
front hex is a path, so the friends' hex is closed while it is open.  Option ``before_rout``: friends first.

The jäger in 0404 is shocked from 0403; the hexes away from 0403 are 0504, 0505 and 0405 (friends there)."""
from __future__ import annotations

from .games import FR, RU, ag, at, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX, FRONT_L, REAR_L

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]


def shock_to_retreat(*more, options=None):
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                           at(inf("b1", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
                           at(inf("b2", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
                           at(inf("jgr", RU, ag="ru-2", assault=5, cohesion=6), DEF_HEX, facing=12),
                           at(inf("friend", RU, ag="ru-2"), REAR_L, facing=12), *more, ags=AGS, options=options))
    p.ok("orders", side=FR, under_orders=["b1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    r = p.ok("shock", side=FR, assault=0, roll=5)
    assert r["rolls"][0]["result"] == "defender_disordered_check", r["rolls"][0]
    return p


FRONTS_BOTH = at(inf("x"), "0605", facing=10)       # 0504 and 0505 are its front hexes
FRONTS_0505 = at(inf("x"), "0506", facing=12)       # 0505 is its front hex, 0504 is free


def test_9_64_default_the_enemy_front_hex_is_a_path_so_the_unit_routs_instead_of_joining_friends():
    p = shock_to_retreat(FRONTS_BOTH)
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    assert {"unit": "jgr", "effect": "routed", "rule": "9.66", "to": "withdrawn"} in r["results"]
    assert p.state.unit("jgr").box == "withdrawn" and p.state.unit("friend").hex == REAR_L
    assert not any(a["type"] == "retreat" for a in r["awaiting"])


def test_9_64_default_friends_are_refused_while_a_path_is_open_and_the_error_lists_the_allowed_hexes():
    p = shock_to_retreat(FRONTS_0505)
    p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    r = p("retreat", side=RU, unit="jgr", to=REAR_L)
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "retreat_not_allowed"
    assert r["errors"][0]["alternatives"] == ["0504", "0505"]
    assert "allowed: 0504, 0505 (routs, 9.63)" in r["errors"][0]["message"]
    r = p.ok("retreat", side=RU, unit="jgr", to="0505")     # the owner may take the path that routs
    assert {"unit": "jgr", "effect": "routed", "rule": "9.66", "to": "withdrawn"} in r["results"]


def test_9_64_option_before_rout_takes_the_friends_hex_and_lists_it():
    p = shock_to_retreat(FRONTS_BOTH, options={"retreat_into_friends": "before_rout"})
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    assert r["awaiting"] == [{"type": "retreat", "side": RU, "rule": "9.62"}]
    r = p("retreat", side=RU, unit="jgr", to="0505")
    assert r["errors"][0]["alternatives"] == [REAR_L]
    assert f"allowed: {REAR_L} (friends, 9.64)" in r["errors"][0]["message"]
    r = p.ok("retreat", side=RU, unit="jgr", to=REAR_L)
    assert {"unit": "jgr", "effect": "retreated", "rule": "9.64", "to": REAR_L} in r["results"]


def test_9_64_an_unknown_reading_is_refused():
    import pytest
    with pytest.raises(ValueError, match="retreat_into_friends"):
        shock_to_retreat(options={"retreat_into_friends": "never"})


def test_9_63_a_forced_rout_at_the_cohesion_check_cites_9_63_beside_9_66():
    p = shock_to_retreat(FRONTS_BOTH)
    r = p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    assert r["rules"] == ["9.62", "9.63", "9.66"]
    assert {"unit": "jgr", "effect": "routed", "rule": "9.66", "to": "withdrawn"} in r["results"]


def test_9_63_the_logged_retreat_into_the_enemy_front_is_the_rout_already_done_not_an_error():
    p = shock_to_retreat(FRONTS_BOTH)
    p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    r = p.ok("retreat", side=RU, unit="jgr", to="0505")       # the player moves the counter where it routed
    assert r["rules"] == ["9.63"] and r["errors"] == []
    assert r["results"] == [{"unit": "jgr", "effect": "already_done", "rule": "9.63", "outcome": "rout"}]
    assert p.state.unit("jgr").box == "withdrawn"              # nothing changes: the rules did it already
    r = p("retreat", side=RU, unit="jgr", to="0505")           # once: a second one is no retreat of anybody's
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "no_retreat_owed"


def test_9_63_a_logged_retreat_elsewhere_than_where_the_rout_led_stays_illegal():
    p = shock_to_retreat(FRONTS_BOTH)
    p.ok("cohesion_check", side=RU, unit="jgr", roll=9)
    r = p("retreat", side=RU, unit="jgr", to=REAR_L)
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "no_retreat_owed"
