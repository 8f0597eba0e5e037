"""Activation markers and the cup (5.31–5.35), BOR-MURAT's AM, BOR-5's marker, acts within an activation
(6.12 facing, 6.24 stack order, 7.31 one move per unit)."""
from __future__ import annotations

from dataclasses import replace

from modulebuilder.model import Reinforcement

from .games import FR, RU, ag, at, basic, cav, game_scenario, inf, kutuzov, napoleon, play


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def start(p, fr=(), ru=(), first="i-corps", **orders):
    p.ok("orders", side=FR, under_orders=list(fr), **orders)
    p.ok("orders", side=RU, under_orders=list(ru))
    p.ok("initiative", rolls={FR: 9, RU: 0})
    if first:
        p.ok("first_marker", side=FR, marker=first)


def test_5_31_two_markers_per_ag_and_bor_5_destruction_every_turn():
    p = play(basic(special_rules=["BOR-5"]))
    start(p, first=None)
    from referee.rulesets.triumph_and_glory.activation import cup_markers
    assert cup_markers(p.state) == ("cav", "cav", "destruction", "i-corps", "i-corps", "ru-2", "ru-2")


def test_5_31_draw_names_a_marker_in_the_cup_and_the_cup_empties():
    p = play(basic())
    start(p)
    p.ok("end_activation")
    r = p("draw", marker="nope-not-here")
    assert errors(r) == [("5.31", "not_in_cup")] and r["errors"][0]["alternatives"] == ["cav", "i-corps", "ru-2"]
    for m in ["cav", "ru-2", "i-corps", "ru-2", "cav"]:
        p.ok("draw", marker=m)
        p.ok("end_activation")
    assert errors(p("draw", marker="cav")) == [("3.0", "wrong_phase")]
    assert p.state.phase == "reserve"


def test_5_32_reinforcements_get_their_markers_on_entry_some_only_one():
    sc = basic(turns=3, options={"one_marker_on_entry": ["late"]})
    from modulebuilder.model import ActivationGroup, CounterSet
    extra = inf("l1", ag="late")
    sc = replace(sc, counters=CounterSet(
        activation_groups=sc.counters.activation_groups + (ActivationGroup("late", "late", FR, "#888888", 5),),
        units=sc.counters.units + (extra,), leaders=sc.counters.leaders),
        reinforcements=(Reinforcement(units=("l1",), entry=("0108",), turn=2, ag="late"),))
    p = play(sc)
    from referee.rulesets.triumph_and_glory.activation import cup_markers
    start(p, first=None)
    assert "late" not in cup_markers(p.state)                   # not on the map, not arriving this turn
    from .games import skip_turn
    skip_turn(p)
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders_delay", side=RU, roll=0)
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    assert cup_markers(p.state).count("late") == 1             # its entry turn: one AM (5.32)


def murat_scenario():
    return game_scenario(
        at(napoleon(), "0207"), at(kutuzov(), "0702"),
        at(inf("fa1", ag="i-corps"), "0206"),
        at(cav("k1", ag="cav-1"), "0104"), at(cav("k2", ag="cav-1"), "0804"), at(cav("k3", ag="cav-2"), "0108"),
        at(cav("k4", ag="cav-2"), "0408"),
        at(inf("r1", side=RU, ag="ru-2"), "0502", facing=6),
        ags=[ag("i-corps"), ag("cav-1", io=5, flags=["cavalry_reserve"]), ag("cav-2", io=5, flags=["cavalry_reserve"]),
             ag("ru-2", RU, io=4)], special_rules=["BOR-2"], options={"murat_io_rating": 5})


def test_bor_murat_one_order_lets_murat_order_two_cavalry_groups():
    p = play(murat_scenario())
    r = p("orders", side=FR, under_orders=["k1", "k2", "k3"])
    assert errors(r) == [("BOR-MURAT", "murat_direct_orders")]
    # fa1 + two cavalry groups = 2 orders of Napoleon's 3 (the cavalry reserve costs one order in all)
    p.ok("orders", side=FR, under_orders=["fa1", "k1", "k3"], barrage=True)


def test_bor_murat_am_activates_the_whole_cavalry_reserve_with_io_5():
    p = play(murat_scenario())
    start(p, fr=["k1"], first=None)
    from referee.rulesets.triumph_and_glory.activation import cup_markers
    assert cup_markers(p.state) == ("i-corps", "i-corps", "murat", "murat", "ru-2", "ru-2")
    p.ok("first_marker", side=FR, marker="murat")
    assert p.state.activation.units == {"k1", "k2", "k3", "k4"}
    r = p.ok("individual_order", side=FR, unit="k4", roll=7)
    roll = r["rolls"][0]
    assert (roll["base"], roll["base_label"], roll["pass_max"]) == (5, "IO rating of the murat AM", 7)


def test_6_12_facing_is_free_in_the_units_movement_step_and_counts_as_it():
    p = play(basic())
    start(p, fr=["fa1"])
    p.ok("face", side=FR, unit="fa3", facing=2)
    assert p.state.unit("fa3").facing == 2
    assert errors(p("move", side=FR, unit="fa3", path=["0805"], mode="limited")) == [("7.31", "already_moved")]
    assert errors(p("face", side=FR, unit="fa1", facing=3))[0][0] == "6.11"          # a hexside
    p.ok("move", side=FR, unit="fa2", path=["0305"], facing=10)
    assert p.state.unit("fa2").facing == 10
    assert errors(p("face", side=FR, unit="fa2", facing=2)) == [("6.12", "already_moved")]


def test_6_24_stack_order_at_the_start_of_the_activation_only():
    sc = game_scenario(at(napoleon(), "0207"), at(kutuzov(), "0702"),
                       at(inf("a", ag="i-corps"), "0404"), at(inf("b", ag="i-corps"), "0404"),
                       at(inf("c", ag="i-corps"), "0606"),
                       at(inf("r1", side=RU, ag="ru-2"), "0101", facing=6),
                       ags=[ag("i-corps"), ag("ru-2", RU, io=4)])
    p = play(sc)
    start(p, fr=["a"])
    p.ok("stack_order", side=FR, hex="0404", order=["b", "a"])
    assert p.state.board.stacks["0404"] == ("b", "a")
    p.ok("move", side=FR, unit="c", path=["0605"])
    r = p("stack_order", side=FR, hex="0404", order=["a", "b"])
    assert errors(r) == [("6.24", "stack_order_timing")]
    assert errors(p("stack_order", side=FR, hex="0404", order=["a"]))[0] == ("6.24", "stack_order_units")


def test_5_34_combined_group_activation_where_the_scenario_allows_it():
    p = play(basic(options={"cga_uses": {FR: 1}}))
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 0, RU: 9})              # the Russians hold the initiative
    assert errors(p("first_marker", side=RU, marker="ru-2")) == [("5.35", "cga_decision_first")]
    assert errors(p("cga", side=RU, ags=["ru-2", "ru-2"])) == [("5.35", "wrong_time")]
    assert errors(p("cga", side=FR, ags=["i-corps", "i-corps"])) == [("5.34", "two_ags")]
    p.ok("cga", side=FR, ags=["i-corps", "cav"])
    from referee.rulesets.triumph_and_glory.activation import cup_markers
    assert cup_markers(p.state) == ("cav", "cga:French", "i-corps", "ru-2", "ru-2")
    p.ok("first_marker", side=RU, marker="ru-2")
    p.ok("end_activation")
    p.ok("draw", marker="cga:French")                      # both AGs act as one
    assert p.state.activation.units == {"fa1", "fa2", "fa3", "fc1", "fb1"}


def test_5_34_no_cga_without_uses_and_a_decline_lets_play_go_on():
    p = play(basic(options={"cga_uses": {FR: 1}}))
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 4, RU: 5})              # nobody has the initiative: the phase waits for the CGA
    assert p.state.phase == "initiative"
    assert errors(p("cga", side=RU, ags=["ru-2", "ru-2"])) == [("5.35", "wrong_time")]
    p.ok("end_phase", side=FR)                             # declined
    assert p.state.phase == "activation" and "cga:French" not in p.state.cup


def test_cat_124_russian_extended_movement_is_illegal():
    p = play(basic(special_rules=["BOR-8"]))
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=["r1"])
    p.ok("initiative", rolls={FR: 0, RU: 9})
    p.ok("first_marker", side=RU, marker="ru-2")
    r = p("move", side=RU, unit="r1", path=["0501"], mode="extended")
    assert errors(r) == [("BOR-NO-EXTENDED", "no_extended")]
    p.ok("move", side=RU, unit="r1", path=["0501"], mode="normal")
