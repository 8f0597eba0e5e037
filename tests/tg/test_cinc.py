"""Commanders-in-chief (5.61–5.63, BOR-KUTUZOV, BOR-NAPOLEON): catalogue items 64, 65, 67 and the CinC Movement
Phase."""
from __future__ import annotations

from .games import FR, RU, ag, at, game_scenario, inf, kutuzov, napoleon, play, skip_turn


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def cinc_scenario(special_rules=("BOR-6", "BOR-7"), napoleon_ma=None):
    return game_scenario(
        at(napoleon(ma=napoleon_ma), "0207"), at(kutuzov(ma=6), "0702"),
        at(inf("fa1", ag="i-corps"), "0206"), at(inf("fa2", ag="i-corps"), "0808"),
        at(inf("r1", side=RU, ag="ru-2"), "0501", facing=6), at(inf("r2", side=RU, ag="ru-2"), "0101", facing=6),
        ags=[ag("i-corps"), ag("ru-2", RU, io=4)], special_rules=special_rules, turns=2)


def to_cinc_phase(p, first=FR):
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    skip_turn(p, until="reserve")
    p.ok("go_first", side=FR, first=FR)
    p.ok("end_phase", side=FR)
    p.ok("end_phase", side=RU)
    assert p.state.phase == "cinc_movement"
    p.ok("go_first", side=FR, first=first)


def test_cat_64_moving_a_cinc_during_an_activation_is_illegal():
    p = play(cinc_scenario())
    p.ok("orders", side=FR, under_orders=["fa1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    r = p("move", side=FR, unit="napoleon", path=["0206"])
    assert errors(r) == [("5.62", "cinc_moves_in_cinc_phase")]
    r = p("cinc_move", side=FR, path=["0107"], roll=5)
    assert errors(r) == [("5.62", "cinc_phase_only")]
    assert p.state.unit("napoleon").hex == "0207"


def test_cat_65_kutuzov_spending_5_mp_is_illegal():
    p = play(cinc_scenario())
    to_cinc_phase(p, first=RU)
    r = p("cinc_move", side=RU, path=["0703", "0704", "0705", "0706", "0707"])
    assert r["verdict"] == "illegal" and r["errors"][0]["rule"] == "5.62"
    assert r["errors"][0]["code"] == "over_allowance" and "MA 4 this turn" in r["errors"][0]["message"]
    assert "BOR-KUTUZOV" in r["rules"]
    r = p.ok("cinc_move", side=RU, path=["0703", "0704", "0705", "0706"])
    assert r["results"] == [{"unit": "kutuzov", "effect": "moved", "rule": "5.62", "to": "0706"}]
    assert errors(p("cinc_move", side=RU, path=["0707"]))[0] == ("5.62", "over_allowance")


def test_cat_67_command_range_is_hex_distance_cincs_hex_not_counted():
    # Same row: 0307 and 0407 lie between Napoleon (0207) and 0507, so 0507 is 3 hexes away.
    sc = game_scenario(at(napoleon(), "0207"), at(inf("near", ag="i-corps"), "0507"),
                       at(inf("far", ag="i-corps"), "0607"), at(inf("r", side=RU, ag="ru"), "0101"),
                       ags=[ag("i-corps"), ag("ru", RU)], cincs={FR: "napoleon", RU: None})
    q = play(sc)
    assert q.state.board.grid.distance("0207", "0507") == 3 and q.state.board.grid.distance("0207", "0607") == 4
    assert q.state.in_command_range("near") and not q.state.in_command_range("far")


def test_napoleon_rolls_a_d10_for_his_movement_allowance():
    p = play(cinc_scenario())
    to_cinc_phase(p)
    r = p("cinc_move", side=FR, path=["0206", "0205", "0204"], roll=2)
    assert r["verdict"] == "illegal" and errors(r)[0] == ("5.62", "over_allowance")
    assert p.state.two_sided.ma == {}                         # an illegal move records nothing, not even the MA
    r = p.ok("cinc_move", side=FR, path=["0206", "0205"], roll=3)
    roll = r["rolls"][0]
    assert (roll["purpose"], roll["natural"], roll["modified"], roll["result"]) == ("napoleon_ma", 3, 3, 3)
    assert "BOR-NAPOLEON" in r["rules"]
    assert errors(p("cinc_move", side=FR, path=["0204", "0203"]))[0] == ("5.62", "over_allowance")
    p.ok("cinc_move", side=FR, path=["0204"])                 # the rest of this turn's 3 MP, no new roll
    p.ok("end_phase", side=FR)
    assert errors(p("cinc_move", side=FR, path=["0205"])) == [("4.0", "not_your_turn")]


def test_napoleons_roll_may_be_owed():
    p = play(cinc_scenario())
    to_cinc_phase(p)
    r = p.ok("cinc_move", side=FR, path=["0206"])
    assert r["rolls"][0]["natural"] is None and r["awaiting"] == [
        {"type": "roll", "side": FR, "rule": "5.62"}]
    assert errors(p("end_phase", side=FR)) == [("roll", "roll_owed")]
    r = p.ok("roll", roll=1)
    assert r["type"] == "roll" and r["results"][0]["to"] == "0206"
    assert p.state.unit("napoleon").hex == "0206"


def test_cinc_movement_is_the_last_phase_of_the_turn():
    p = play(cinc_scenario())
    to_cinc_phase(p)
    p.ok("cinc_move", side=FR, path=[], roll=0)
    p.ok("end_phase", side=FR)
    assert p.state.turn == 1
    p.ok("end_phase", side=RU)
    assert (p.state.turn, p.state.phase) == (2, "orders")


def test_5_63_enemy_entering_the_cincs_hex_displaces_him():
    sc = game_scenario(
        at(napoleon(), "0207"), at(kutuzov(), "0404"),
        at(inf("fa1", ag="i-corps"), "0304"),
        at(inf("r1", side=RU, ag="ru-2"), "0601", facing=6), at(inf("r2", side=RU, ag="ru-2"), "0602", facing=6),
        ags=[ag("i-corps"), ag("ru-2", RU, io=4)])
    p = play(sc)
    p.ok("orders", side=FR, under_orders=["fa1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    r = p.ok("move", side=FR, unit="fa1", path=["0404"])
    assert {"unit": "kutuzov", "effect": "moved", "rule": "5.63", "to": "0602"} in r["results"] or \
        {"unit": "kutuzov", "effect": "moved", "rule": "5.63", "to": "0601"} in r["results"]
    assert "5.63" in r["rules"] and p.state.unit("kutuzov").hex in ("0601", "0602")
