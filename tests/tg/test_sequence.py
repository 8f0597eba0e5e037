"""The sequence of play (3.0, gaps §1): phases in order with the CinC Movement Phase last, phases that end by
themselves, out-of-phase acts refused, the end of the game, hidden orders (5.23), Schevardino's turn."""
from __future__ import annotations

from dataclasses import replace

from modulebuilder.model import frozen_mapping
from referee.rulesets.triumph_and_glory import RULESET

from .games import FR, RU, ag, at, basic, cav, game_scenario, inf, play, skip_turn


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def test_phases_run_in_order_and_cinc_movement_is_last():
    p = play(basic())
    seen = [p.state.phase]
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    seen.append(p.state.phase)
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    seen.append(p.state.phase)
    while p.state.phase == "activation":
        p.ok("end_activation") if p.state.activation else p.ok("draw", marker=p.state.cup[0])
    seen.append(p.state.phase)
    p.ok("go_first", side=FR, first=FR)
    p.ok("end_phase", side=FR)
    p.ok("end_phase", side=RU)
    seen.append(p.state.phase)                      # the Morale Phase ended by itself (nothing to do yet)
    p.ok("go_first", side=FR, first=RU)
    p.ok("end_phase", side=RU)
    p.ok("end_phase", side=FR)
    seen.append((p.state.turn, p.state.phase))
    assert seen == ["orders", "initiative", "activation", "reserve", "cinc_movement", (2, "orders")]


def test_the_game_ends_after_the_last_turn():
    p = play(basic(turns=1))
    skip_turn(p)
    assert p.state.over and RULESET.legal_actions(p.state) == []
    assert errors(p("orders", side=FR, under_orders=[])) == [("3.0", "game_over")]


def test_acts_outside_their_phase_are_refused():
    p = play(basic())
    assert errors(p("draw", marker="i-corps")) == [("3.0", "wrong_phase")]
    assert errors(p("initiative", rolls={FR: 1, RU: 1})) == [("4.0", "wrong_phase")]
    assert errors(p("end_phase", side=FR)) == [("3.0", "wrong_phase")]
    assert errors(p("reserve", side=FR, unit="fa1"))[0][1] == "wrong_phase"
    assert errors(p("move", side=FR, unit="fa1", path=["0205"])) == [("3.0", "no_activation")]
    assert errors(p("end_activation")) == [("3.0", "no_activation")]
    assert errors(p("go_first", side=FR, first=FR)) == [("4.0", "wrong_phase")]
    assert p.state.phase == "orders" and not any(o.given for o in p.state.orders.values())


def test_activation_acts_belong_to_the_drawn_ag():
    p = play(basic())
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="cav")
    assert errors(p("move", side=FR, unit="fa1", path=["0205"], mode="limited")) == [("5.31", "not_activated")]
    assert errors(p("move", side=RU, unit="fb1", path=["0106"])) == [("3.0", "not_your_unit")]
    assert errors(p("draw", marker="i-corps")) == [("5.31", "activation_in_progress")]
    assert errors(p("end_activation", side=RU)) == [("5.31", "not_your_activation")]


def test_5_23_orders_stay_hidden_from_the_opponent_until_the_first_am_is_drawn():
    p = play(basic())
    p.ok("orders", side=FR, under_orders=["fa1"])
    p.ok("orders", side=RU, under_orders=["r1"])
    seen_by_ru = RULESET.view(p.state, RU)["orders"][FR]
    assert {g["status"] for g in seen_by_ru["groups"]} == {"hidden"} and "barrage" not in seen_by_ru
    own = RULESET.view(p.state, FR)["orders"][FR]["groups"]
    assert [g["status"] for g in own] == ["UO", "NO", "NO"]
    p.ok("initiative", rolls={FR: 9, RU: 0})
    r = p.ok("first_marker", side=FR, marker="i-corps")
    assert [(x["unit"], x["effect"]) for x in r["results"]] == [("fa1", "under_orders"), ("fa3", "no_orders")]
    seen_by_ru = RULESET.view(p.state, RU)["orders"][FR]["groups"]
    assert [(g["ag"], g["status"]) for g in seen_by_ru] == [("i-corps", "UO"), ("i-corps", "NO"), ("cav", "hidden")]
    p.ok("end_activation")
    r = p.ok("draw", marker="i-corps")                  # second AM: nothing more to reveal
    assert r["results"] == []


def test_scenario_may_start_at_a_later_turn():
    sc = replace(basic(turns=4), start=frozen_mapping({"turn": 3, "phase": "orders"}))
    p = play(sc)
    assert (p.state.turn, p.state.phase) == (3, "orders") and p.state.orders[RU].delay == "owed"


def schevardino_like():
    return game_scenario(
        at(inf("c1", ag="fr-a"), "0606"), at(inf("m1", ag="fr-a"), "0707"), at(cav("v1", ag="fr-b"), "0808"),
        at(inf("r1", side=RU, ag="ru"), "0202"), at(inf("g1", side=RU, ag="ru"), "0101"),
        ags=[ag("fr-a"), ag("fr-b"), ag("ru", RU)], cincs={FR: None, RU: None}, turns=3,
        special_rules=["SCH-COMMAND"],
        options={"commands": {"compans": {"side": FR, "units": ["c1"]}, "morand": {"side": FR, "units": ["m1"]},
                              "v-corps": {"side": FR, "units": ["v1"]},
                              "ru-main": {"side": RU, "units": ["r1"]}, "ru-gren": {"side": RU, "units": ["g1"]}},
                 "active_commands": ["compans", "ru-main"], "commands_active_from_turn": {"ru-gren": 2},
                 "command_earliest_turn": {"v-corps": 3}, "command_chooser": FR,
                 "restrictions": [{"side": FR, "rule": "no_column_below", "column": 6}]})


def test_schevardino_command_activation_and_side_turns():
    p = play(schevardino_like())
    assert p.state.phase == "command" and p.state.active_commands == {"compans", "ru-main"}
    r = p("activate_command", side=FR, command="v-corps")
    assert errors(r) == [("SCH-COMMAND", "cannot_activate")] and r["errors"][0]["alternatives"] == ["morand"]
    assert errors(p("activate_command", side=RU, command="ru-gren")) == [("SCH-COMMAND", "not_chooser")]
    p.ok("activate_command", side=FR, command="morand")
    assert (p.state.phase, p.state.side_turn) == ("side_turn", FR)
    assert p.state.activation.units == {"c1", "m1"}
    assert errors(p("move", side=FR, unit="c1", path=["0506"]))[0] == ("7.44", "forbidden_hex")
    r = p.ok("move", side=FR, unit="c1", path=["0605", "0604", "0603"])   # every unit Under Orders: full MA
    assert r["rules"][0] == "7.11"
    p.ok("end_phase", side=FR)
    assert p.state.side_turn == RU and p.state.activation.units == {"r1"}
    p.ok("end_phase", side=RU)
    # Turn 2: nothing left to activate (V Corps not before turn 3), so the command step passes by itself.
    assert (p.state.turn, p.state.phase, p.state.side_turn) == (2, "side_turn", FR)
    assert "ru-gren" in p.state.active_commands                # active by itself from turn 2
    p.ok("end_phase", side=FR)
    p.ok("end_phase", side=RU)
    assert (p.state.turn, p.state.phase) == (3, "command")
    assert errors(p("end_phase", side=RU)) == [("SCH-COMMAND", "not_chooser")]
    p.ok("activate_command", side=FR, command="v-corps")       # turn 3: V Corps may come
