"""Initiative (4.0), who goes first (5.51), and Borodino's automatic French initiative (gaps §17 item 40)."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.state import ACTIVATION, INITIATIVE

from .games import FR, RU, ag, at, basic, game_scenario, inf, kutuzov, napoleon, play, skip_turn


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def _orders(p):
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])


def test_cat_52_equal_totals_nobody_has_initiative_and_every_am_goes_in_the_cup():
    p = play(basic())                                  # Kutuzov's orders rating is 2 in this fixture
    _orders(p)
    r = p.ok("initiative", rolls={FR: 4, RU: 5})
    fr, ru = r["rolls"]
    assert (fr["side"], fr["natural"], fr["modified"]) == (FR, 4, 7)
    assert fr["modifiers"] == [{"value": 3, "rule": "4.0", "reason": "Napoleon's orders rating"}]
    assert (ru["side"], ru["modified"], ru["result"]) == (RU, 7, "tie")
    assert r["results"] == [{"effect": "initiative", "rule": "4.0", "side": None}]
    assert p.state.initiative is None and p.state.phase == ACTIVATION
    assert p.state.cup == ("cav", "cav", "i-corps", "i-corps", "ru-2", "ru-2")
    assert errors(p("first_marker", side=FR, marker="i-corps")) == [("3.0", "wrong_phase")]


def test_cat_52_reserve_order_by_roll_off_ties_rerolled():
    p = play(basic())
    _orders(p)
    p.ok("initiative", rolls={FR: 4, RU: 5})
    skip_turn(p, until="reserve")
    r = p.ok("go_first", rolls={FR: 3, RU: 3})
    assert [x["result"] for x in r["rolls"]] == ["tie", "tie"]
    assert r["awaiting"] == [{"type": "go_first", "side": None, "rule": "5.51"}]
    assert p.state.two_sided.order is None
    r = p.ok("go_first", rolls={FR: 2, RU: 7})
    assert p.state.two_sided.order == (RU, FR)
    assert errors(p("go_first", side=FR, first=FR)) == [("4.0", "wrong_phase")]


def test_cat_53_higher_total_takes_initiative_and_picks_the_first_marker():
    p = play(basic())
    p.ok("orders", side=FR, under_orders=["fa1"])
    p.ok("orders", side=RU, under_orders=[])
    r = p.ok("initiative", rolls={FR: 6, RU: 6})       # 9 against 8
    assert [x["modified"] for x in r["rolls"]] == [9, 8]
    assert r["results"] == [{"effect": "initiative", "rule": "4.0", "side": FR}]
    assert r["awaiting"] == [{"type": "first_marker", "side": FR, "rule": "4.0"}]
    assert p.state.phase == INITIATIVE
    assert errors(p("first_marker", side=RU, marker="ru-2")) == [("4.0", "no_initiative")]
    assert errors(p("first_marker", side=FR, marker="ru-2"))[0][1] == "not_in_cup"
    p.ok("first_marker", side=FR, marker="cav")         # a No-Orders AG is as good as any
    assert p.state.activation.marker == "cav" and p.state.cup == ("cav", "i-corps", "i-corps", "ru-2", "ru-2")


def test_cat_53_holder_decides_who_goes_first_in_reserve_and_cinc_phases():
    p = play(basic())
    _orders(p)
    p.ok("initiative", rolls={FR: 6, RU: 0})
    skip_turn(p, until="reserve")
    assert errors(p("go_first", side=RU, first=RU)) == [("4.0", "no_initiative")]
    p.ok("go_first", side=FR, first=RU)
    assert p.state.two_sided.order == (RU, FR)
    p.ok("end_phase", side=RU)
    p.ok("end_phase", side=FR)
    assert p.state.phase == "cinc_movement"
    p.ok("go_first", side=FR, first=FR)
    assert p.state.two_sided.order == (FR, RU)


def test_initiative_rolls_may_be_owed_and_paid_one_by_one():
    p = play(basic())
    _orders(p)
    r = p.ok("initiative")
    assert [x["natural"] for x in r["rolls"]] == [None, None]
    assert [(a["type"], a["side"]) for a in r["awaiting"]] == [("roll", FR), ("roll", RU)]
    r = p.ok("roll", side=RU, roll=2)
    assert r["awaiting"] == [{"type": "roll", "side": FR, "rule": "4.0"}]
    r = p.ok("roll", roll=8)
    assert r["type"] == "roll" and r["index"] == 4
    assert [x["natural"] for x in r["rolls"]] == [8, 2] and p.state.initiative == FR


def borodino_like(**kw):
    return game_scenario(
        at(napoleon(), "0207"), at(kutuzov(orders_rating=None, delay=4), "0702"),
        at(inf("g1", ag="fr-guard"), "0106"), at(inf("g2", ag="fr-guard"), "0806"),
        at(inf("i1", ag="i-corps"), "0306"),
        at(inf("a1", side=RU, ag="ru-1a"), "0101"), at(inf("a2", side=RU, ag="ru-1b"), "0401"),
        at(inf("a3", side=RU, ag="ru-1c"), "0801"), at(inf("a4", side=RU, ag="ru-1c"), "0804"),
        at(inf("b1", side=RU, ag="ru-2a"), "0303"), at(inf("b2", side=RU, ag="ru-2a"), "0603"),
        at(inf("b3", side=RU, ag="ru-2b"), "0203"),
        at(inf("c1", side=RU, ag="ru-res"), "0703"),
        ags=[ag("fr-guard", io=None, flags=["guard"]), ag("i-corps"),
             ag("ru-1a", RU, army="1st"), ag("ru-1b", RU, army="1st"), ag("ru-1c", RU, army="1st"),
             ag("ru-2a", RU, army="2nd"), ag("ru-2b", RU, army="2nd"), ag("ru-res", RU, army="reserve")],
        special_rules=["BOR-1", "BOR-3", "BOR-4", "BOR-INITIATIVE"], turns=3,
        options={"auto_initiative_turn": 1, "auto_initiative_side": FR}, **kw)


def test_gaps_40_french_initiative_automatic_on_the_0600_turn():
    p = play(borodino_like())
    p.ok("orders", side=FR, under_orders=[])
    r = p.ok("orders", side=RU, under_orders=[])
    assert {"effect": "initiative", "rule": "BOR-INITIATIVE", "side": FR} in r["results"]
    assert p.state.initiative == FR and p.state.phase == INITIATIVE
    assert errors(p("initiative", rolls={FR: 0, RU: 9})) == [("4.0", "wrong_phase")]
    skip_turn(p)
    assert p.state.turn == 2
    p.ok("orders_delay", side=RU, roll=0)
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=["b1", "b3"], army="2nd")
    r = p.ok("initiative", rolls={FR: 2, RU: 4})             # turn 2: dice again
    assert r["rolls"][1]["modifiers"] == [{"value": 2, "rule": "4.0",
                                           "reason": "Kutuzov's orders rating (2nd army option)"}]


def test_gaps_40_russian_orders_option_3_2_1_by_army():
    p = play(borodino_like())
    r = p("orders", side=RU, under_orders=["a1", "a2", "a3", "b1"], army="1st")
    assert ("BOR-RUSSIAN-ORDERS", "wrong_army") in errors(r) and ("BOR-RUSSIAN-ORDERS", "too_many_orders") in errors(r)
    r = p("orders", side=RU, under_orders=["b1", "b2", "b3"], army="2nd")   # b1 and b2: two groups of ru-2a
    assert errors(r) == [("BOR-RUSSIAN-ORDERS", "too_many_orders")]
    assert errors(p("orders", side=RU, under_orders=["c1", "b1"], army="reserve")) == [
        ("BOR-RUSSIAN-ORDERS", "wrong_army"), ("BOR-RUSSIAN-ORDERS", "too_many_orders")]
    assert errors(p("orders", side=RU, under_orders=["a1"])) == [("BOR-RUSSIAN-ORDERS", "army_required")]
    assert errors(p("orders", side=RU, under_orders=["c1"], army="reserve", barrage=True))[0] == (
        "BOR-RUSSIAN-ORDERS", "no_barrage_option")
    assert errors(p("orders", side=RU, under_orders=["a1", "a2", "a3"], army="1st", barrage=True)) == [
        ("BOR-RUSSIAN-ORDERS", "too_many_orders")]
    p.ok("orders", side=RU, under_orders=["a1", "a2"], army="1st", barrage=True)
    assert p.state.orders[RU].army == "1st"


def test_gaps_40_guard_only_with_napoleons_order():
    p = play(borodino_like())
    assert ("g1",) in p.state.orders[FR].groups and ("g2",) in p.state.orders[FR].groups
    p.ok("orders", side=FR, under_orders=["g1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("first_marker", side=FR, marker="fr-guard")      # ordered: its AMs are in the cup
    r = p("individual_order", side=FR, unit="g2", roll=0)
    assert errors(r) == [("BOR-GUARD", "guard_no_io")]
    assert errors(p("move", side=FR, unit="g2", path=["0805"])) == [("BOR-GUARD", "guard_not_ordered")]
    p.ok("move", side=FR, unit="g1", path=["0105"])


def test_gaps_40_unordered_guard_am_stays_out_of_the_cup():
    p = play(borodino_like())
    p.ok("orders", side=FR, under_orders=["i1"])
    p.ok("orders", side=RU, under_orders=[])
    r = p("first_marker", side=FR, marker="fr-guard")
    assert errors(r) == [("BOR-GUARD", "guard_not_ordered")]
    p.ok("first_marker", side=FR, marker="i-corps")
    assert "fr-guard" not in p.state.cup


def test_russian_reserve_without_orders_may_not_move_nor_roll():
    p = play(borodino_like())
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=["a1"], army="1st")
    p.ok("first_marker", side=FR, marker="i-corps")
    p.ok("end_activation", side=FR)
    p.ok("draw", marker="ru-res")
    assert errors(p("individual_order", side=RU, unit="c1", roll=0)) == [("BOR-RUSSIAN-ORDERS", "reserve_no_io")]
    assert errors(p("move", side=RU, unit="c1", path=["0704"])) == [("BOR-RUSSIAN-ORDERS", "reserve_not_ordered")]


def test_holder_without_any_marker_does_not_stall_the_turn():
    sc = game_scenario(at(napoleon(), "0207"), at(kutuzov(), "0702"),
                       at(inf("r1", side=RU, ag="ru-2"), "0502", facing=6),
                       ags=[ag("ru-2", RU, io=4)])           # the French have a CinC but no units
    p = play(sc)
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    r = p.ok("initiative", rolls={FR: 9, RU: 0})
    assert r["results"][0]["side"] == FR and p.state.phase == ACTIVATION and p.state.cup == ("ru-2", "ru-2")
    assert r["awaiting"] == []
