"""10.2 and the other phases (issue 18, point 5): every roll the rules now require is listed in the ruling's
``awaiting``, for the side that rolls it, with its rule — the event that opens the Morale Phase lists one
``recovery`` per eligible unit (10.2); the orders delay (5.29), the initiative (4.0) and the Destruction
marker's fire rolls (BOR-5) likewise."""
from __future__ import annotations

from .games import FR, RU, ag, at, game_scenario, inf, kutuzov, napoleon, play, skip_turn

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]


def recovery_game():
    return game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                         at(inf("fa"), "0202"), at(inf("fb"), None, box="recovery"), at(inf("fc"), None, box="recovery"),
                         at(inf("ra", RU, ag="ru-2"), "0707"), at(inf("rb", RU, ag="ru-2"), None, box="recovery"),
                         ags=AGS, turns=2)


def test_10_2_the_event_opening_the_morale_phase_lists_one_recovery_per_eligible_unit():
    p = play(recovery_game())
    skip_turn(p, until="reserve")
    p.ok("go_first", side=FR, first=FR)
    p.ok("end_phase", side=FR)
    r = p.ok("end_phase", side=RU)
    assert p.state.phase == "morale"
    assert r["awaiting"] == [{"type": "recovery", "side": FR, "unit": "fb", "rule": "10.2"},
                             {"type": "recovery", "side": FR, "unit": "fc", "rule": "10.2"},
                             {"type": "recovery", "side": RU, "unit": "rb", "rule": "10.2"}]
    r = p.ok("recovery", side=FR, unit="fb", roll=9)
    assert r["awaiting"] == [{"type": "recovery", "side": FR, "unit": "fc", "rule": "10.2"},
                             {"type": "recovery", "side": RU, "unit": "rb", "rule": "10.2"}]
    p.ok("recovery", side=FR, unit="fc", roll=9)
    r = p.ok("recovery", side=RU, unit="rb", roll=9)
    assert r["awaiting"] == [] and p.state.phase == "cinc_movement"


def test_5_29_and_4_0_the_orders_delay_and_the_initiative_rolls_are_announced():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), at(inf("fa"), "0202"),
                           at(inf("ra", RU, ag="ru-2"), "0707"), ags=AGS, turns=2))
    skip_turn(p)                                   # turn 2: Kutuzov rolls for delay (delay rating 4)
    last = p.rulings[-1].to_dict()
    assert {"type": "orders_delay", "side": RU, "rule": "5.29"} in last["awaiting"]
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders_delay", side=RU, roll=0)
    r = p.ok("orders", side=RU, under_orders=[])
    assert r["awaiting"] == [{"type": "initiative", "side": FR, "rule": "4.0"},
                             {"type": "initiative", "side": RU, "rule": "4.0"}]
    r = p.ok("initiative", rolls={FR: 9, RU: 0})
    assert not any(a["type"] == "initiative" for a in r["awaiting"])


def test_bor_5_drawing_destruction_announces_a_fire_roll_per_burning_village():
    sc = game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"),
                       at(inf("ru-inf", RU, ag="ru-2"), "0707"), at(inf("fr"), "0202"), ags=AGS,
                       special_rules=["BOR-5"], terrain={"0505": "village"}, markers=[("on_fire", ("0505",))])
    p = play(sc)
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    while True:
        if p.state.activation is not None:
            p.ok("end_activation", side=p.state.activation.side)
        cup = sorted(set(p.state.cup))
        if "destruction" in cup:
            break
        p.ok("draw", marker=cup[0])
    r = p.ok("draw", marker="destruction")
    assert r["awaiting"] == [{"type": "fire_out", "side": RU, "rule": "BOR-5"}]
    assert "BOR-5" in r["rules"]
    r = p.ok("fire_out", side=RU, village="0505", roll=9)
    assert r["awaiting"] == []


def test_5_51_with_nobody_holding_the_initiative_the_go_first_roll_is_announced():
    from dataclasses import replace
    from .games import basic
    p = play(replace(basic(), start={"turn": 1, "phase": "activation"}))
    while p.state.phase == "activation":
        if p.state.activation is not None:
            r = p.ok("end_activation", side=p.state.activation.side)
        else:
            r = p.ok("draw", marker=sorted(set(p.state.cup))[0])
    assert p.state.phase == "reserve" and p.state.initiative is None
    assert r["awaiting"] == [{"type": "go_first", "side": None, "rule": "5.51"}]
    r = p.ok("go_first", side=FR, rolls={FR: 5, RU: 1})
    assert r["awaiting"] == []
