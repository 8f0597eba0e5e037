"""Orders, order groups and individual orders (5.1x–5.2x): the public catalogue items of the main digest §13
"Orders, order groups, initiative", each test named by its number."""
from __future__ import annotations

from dataclasses import replace

from modulebuilder.model import frozen_mapping
from referee.rulesets.triumph_and_glory.orders import (acting_status, commitment_order_modifiers, order_groups)

from .games import FR, RU, ag, at, basic, game_scenario, inf, kutuzov, napoleon, play, skip_turn
from .helpers import board


def spread_french(**kw):
    """Five French I Corps units far apart (five order groups) and a Russian pair."""
    return game_scenario(
        at(napoleon(), "0404"), at(kutuzov(), "0808"),
        *[at(inf(f"f{i}", ag="i-corps"), h) for i, h in enumerate(["0101", "0105", "0501", "0505", "0108"])],
        at(inf("r1", side=RU, ag="ru-2"), "0808", facing=6), ags=[ag("i-corps"), ag("ru-2", RU, io=4)], **kw)


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def test_cat_32_four_groups_under_orders_with_napoleon_is_illegal():
    p = play(spread_french())
    assert len(p.state.orders[FR].groups) == 5
    r = p("orders", side=FR, under_orders=["f0", "f1", "f2", "f3"])
    assert r["verdict"] == "illegal" and errors(r) == [("5.22", "too_many_orders")]
    assert not p.state.orders[FR].given                       # an illegal event changes nothing
    p.ok("orders", side=FR, under_orders=["f0", "f1", "f2"])
    assert p.state.orders[FR].under_orders == frozenset({0, 1, 2})


def test_cat_32_barrage_costs_one_order():
    p = play(spread_french())
    r = p("orders", side=FR, under_orders=["f0", "f1", "f2"], barrage=True)
    assert errors(r) == [("5.22", "too_many_orders")]
    p.ok("orders", side=FR, under_orders=["f0", "f1"], barrage=True)


def test_cat_34_two_barrage_markers_in_one_turn_are_illegal():
    p = play(spread_french())
    r = p("orders", side=FR, under_orders=[], barrage=2)
    assert errors(r) == [("5.33", "one_barrage")]


def test_cat_35_borodino_barrage_marker_not_ordered_is_illegal():
    p = play(spread_french(special_rules=["BOR-4"]))
    p.ok("orders", side=FR, under_orders=["f0"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    r = p("first_marker", side=FR, marker="barrage:French")
    assert r["verdict"] == "illegal"
    assert errors(r) == [("BOR-BARRAGE", "barrage_not_ordered")]
    assert r["errors"][0]["alternatives"] == ["i-corps"]


def test_cat_35_ordered_barrage_goes_into_the_cup():
    p = play(spread_french(special_rules=["BOR-4"]))
    p.ok("orders", side=FR, under_orders=["f0"], barrage=True)
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="barrage:French")
    assert "barrage:French" not in p.state.cup and p.state.activation.marker == "barrage:French"


def test_cat_37_no_orders_delay_roll_on_turn_1():
    p = play(basic())
    for side in (FR, RU):
        r = p("orders_delay", side=side, roll=0)
        assert errors(r) == [("5.29", "no_delay_roll")]
    assert p.state.orders[RU].delay == "none"


def turn2(**kw):
    sc = basic(turns=6, **kw)
    return replace(sc, start=frozen_mapping({"turn": 2}))


def test_cat_38_orders_delay_pass_set():
    p = play(turn2())
    assert p.state.orders[RU].delay == "owed" and p.state.orders[FR].delay == "none"   # Napoleon never rolls
    r = p("orders", side=RU, under_orders=[])
    assert errors(r) == [("5.29", "delay_roll_first")]
    r = p.ok("orders_delay", side=RU, roll=4)
    roll = r["rolls"][0]
    assert (roll["base"], roll["base_rule"], roll["modifiers"], roll["pass_max"], roll["p_success"],
            roll["outcome"]) == (4, "5.29", [], 4, 0.5, "pass")
    assert p.state.orders[RU].delay == "passed" and p.state.orders[RU].failures == 0


def test_cat_38_orders_delay_fail_and_cumulative_modifier():
    p = play(turn2())
    r = p.ok("orders_delay", side=RU, roll=5)
    assert r["rolls"][0]["outcome"] == "fail" and r["rolls"][0]["pass_max"] == 4
    assert p.state.orders[RU].delay == "failed" and p.state.orders[RU].failures == 1
    skip_turn(p, delay_roll=5)                       # the rest of turn 2
    assert p.state.turn == 3
    r = p.ok("orders_delay", side=RU, roll=6)        # DRM −1: pass set 0–5, so 6 fails
    roll = r["rolls"][0]
    assert roll["modifiers"] == [{"value": -1, "rule": "5.29", "reason": "1 earlier failed orders-delay roll"}]
    assert (roll["pass_max"], roll["p_success"], roll["outcome"]) == (5, 0.6, "fail")
    assert p.state.orders[RU].failures == 2
    skip_turn(p)
    r = p.ok("orders_delay", side=RU, roll=6)        # two failures, DRM −2: pass set 0–6
    roll = r["rolls"][0]
    assert roll["modifiers"][0]["value"] == -2 and (roll["pass_max"], roll["outcome"]) == (6, "pass")
    assert p.state.orders[RU].failures == 0          # reset after a pass


def test_cat_38_failed_delay_keeps_last_turns_orders():
    p = play(basic(turns=3))
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=["r1"])
    skip_turn(p)
    p.ok("orders_delay", side=RU, roll=9)
    r = p("orders", side=RU, under_orders=[])
    assert errors(r) == [("5.29", "orders_kept")]
    p.ok("orders", side=RU, under_orders=["r2"])      # any member names the kept group
    assert p.state.status("r1") == "UO"


def test_cat_40_drifting_unit_keeps_status_then_becomes_its_own_group():
    p = play(basic())
    assert ("fa1", "fa2", "fc1") in p.state.orders[FR].groups
    p.ok("orders", side=FR, under_orders=["fa1"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    p.ok("move", side=FR, unit="fa2", path=["0405", "0505", "0605"])        # 3+ hexes from the others
    assert p.state.status("fa2") == "UO" and acting_status(p.state, "fa2") == "UO"
    skip_turn(p)
    groups = p.state.orders[FR].groups
    assert ("fa2",) in groups and ("fa1", "fc1") in groups


def test_cat_41_enemy_in_the_only_common_neighbour_breaks_the_chain():
    b = board(at(inf("x"), "0404"), at(inf("y"), "0604"), at(inf("e", side=RU, ag="ru"), "0504"))
    assert b.grid.distance("0404", "0604") == 2
    common = set(b.neighbours("0404")) & set(b.neighbours("0604"))
    assert common == {"0504"}
    assert order_groups(b, FR) == (("x",), ("y",))
    b2 = board(at(inf("x"), "0404"), at(inf("y"), "0604"))
    assert order_groups(b2, FR) == (("x", "y"),)


def test_cat_41_enemy_zoc_does_not_break_the_chain():
    # The enemy stands next to the common neighbour (its ZOC covers it) but not in it.
    b = board(at(inf("x"), "0404"), at(inf("y"), "0604"), at(inf("e", side=RU, ag="ru"), "0503"))
    assert order_groups(b, FR) == (("x", "y"),)


def test_cat_43_three_hexes_apart_are_separate_groups():
    b = board(at(inf("x"), "0404"), at(inf("y"), "0704"))
    assert b.grid.distance("0404", "0704") == 3
    assert order_groups(b, FR) == (("x",), ("y",))
    b = board(at(inf("x"), "0404"), at(inf("y"), "0704"), at(inf("z"), "0604"))   # a member between links them
    assert order_groups(b, FR) == (("x", "y", "z"),)


def test_cat_44_group_with_two_ags_is_illegal():
    p = play(basic())
    r = p("orders", side=FR, under_orders=[["fa1", "fb1"]])
    assert errors(r) == [("5.12", "og_mixed_ags")]
    r = p("orders", side=FR, under_orders=[["fa1", "fa3"]])
    assert errors(r) == [("5.12", "og_not_linked")]
    p.ok("orders", side=FR, under_orders=[["fa1", "fa2"]])


def _activate_i_corps(p, fr_orders=()):
    p.ok("orders", side=FR, under_orders=list(fr_orders))
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")


def test_cat_46_individual_order_out_of_range_pass_set_0_6():
    p = play(basic())
    _activate_i_corps(p)
    r = p.ok("individual_order", side=FR, unit="fa3", roll=6)   # fa3 is 6 hexes from Napoleon
    roll = r["rolls"][0]
    assert (roll["purpose"], roll["base"], roll["base_rule"], roll["modifiers"]) == ("individual_order", 6, "5.28", [])
    assert (roll["pass_max"], roll["p_success"], roll["outcome"]) == (6, 0.7, "pass")
    assert r["results"][0]["effect"] == "under_orders"


def test_cat_47_individual_order_with_napoleon_in_range_pass_set_0_8():
    p = play(basic())
    _activate_i_corps(p)
    r = p.ok("individual_order", side=FR, unit="fa2", roll=8)
    roll = r["rolls"][0]
    assert roll["modifiers"] == [{"value": -2, "rule": "5.28", "reason": "Napoleon within 3 hexes of the group"}]
    assert (roll["pass_max"], roll["p_success"], roll["outcome"]) == (8, 0.9, "pass")
    p2 = play(basic())
    _activate_i_corps(p2)
    r = p2.ok("individual_order", side=FR, unit="fa2", roll=9)
    assert r["rolls"][0]["outcome"] == "fail" and r["results"][0]["effect"] == "no_orders"
    assert errors(p2("move", side=FR, unit="fa1", path=["0205"])) == [("5.28", "rally_only")]


def test_cat_47_cinc_modifier_may_be_declined():
    p = play(basic())
    _activate_i_corps(p)
    r = p.ok("individual_order", side=FR, unit="fa2", roll=8, use_cinc=False)
    assert r["rolls"][0]["modifiers"] == [] and r["rolls"][0]["outcome"] == "fail"


def test_cat_49_io_lasts_one_activation():
    p = play(basic())
    _activate_i_corps(p)
    p.ok("individual_order", side=FR, unit="fa3", roll=0)
    assert acting_status(p.state, "fa3") == "UO"
    r = p("individual_order", side=FR, unit="fa3", roll=0)
    assert errors(r) == [("5.28", "io_already_tried")]
    p.ok("end_activation", side=FR)
    p.ok("draw", marker="i-corps")                                   # the second AM
    assert acting_status(p.state, "fa3") == "NO" and p.state.status("fa3") == "NO"
    p.ok("individual_order", side=FR, unit="fa3", roll=9)            # may try again


def test_cat_50_no_orders_group_without_io_moves_limited_and_assaults_at_plus_1():
    p = play(basic())
    _activate_i_corps(p)
    r = p("move", side=FR, unit="fa3", path=["0805", "0804"], mode="normal")
    assert errors(r) == [("7.12", "no_orders_limited")]
    p.ok("move", side=FR, unit="fa3", path=["0805", "0804"])          # ⌈4/2⌉ = 2 MP, limited by default
    assert commitment_order_modifiers(p.state, "fa3") == (
        commitment_order_modifiers(p.state, "fa3")[0],)
    mod = commitment_order_modifiers(p.state, "fa3")[0]
    assert (mod.value, mod.rule) == (1, "5.27")
    assert commitment_order_modifiers(p.state, "fa1") == ()             # NO but within Napoleon's range


def test_under_orders_in_range_gets_the_cinc_drm_for_commitment():
    p = play(basic())
    _activate_i_corps(p, ["fa1"])
    mods = commitment_order_modifiers(p.state, "fa2")
    assert [(m.value, m.rule) for m in mods] == [(-2, "9.42")]
    assert commitment_order_modifiers(p.state, "fa2", use_cinc=False) == ()


def test_orders_are_given_once_per_turn_and_only_in_the_orders_phase():
    p = play(basic())
    p.ok("orders", side=FR, under_orders=[])
    assert errors(p("orders", side=FR, under_orders=[])) == [("5.21", "already_given")]
    p.ok("orders", side=RU, under_orders=[])
    assert errors(p("orders", side=RU, under_orders=[])) == [("3.0", "wrong_phase")]


def test_named_unit_of_the_other_side_is_illegal():
    p = play(basic())
    assert errors(p("orders", side=FR, under_orders=["r1"])) == [("5.21", "not_your_unit")]
    assert errors(p("orders", side=FR, under_orders=["fa1", "fa2"])) == [("5.21", "duplicate_group")]


from hypothesis import given, settings, strategies as st  # noqa: E402

HEXES = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(HEXES), st.sampled_from(["a", "b"]), st.booleans()),
                min_size=1, max_size=14, unique_by=lambda t: t[0]))
def test_order_groups_are_the_components_of_the_5_12_link(placed):
    """The indexed order_groups agrees with the plain definition: components of ``linked`` within an AG."""
    from referee.rulesets.triumph_and_glory.orders import linked
    b = board(*[at(inf(f"u{i}", side=FR if french else RU, ag=f"{'fr' if french else 'ru'}-{a}"), h)
                for i, (h, a, french) in enumerate(placed)])
    for side in (FR, RU):
        units = [u for u in b.on_map_units() if u.side == side]
        comp = {u.id: {u.id} for u in units}
        for u in units:
            for v in units:
                if u.id != v.id and linked(b, u, v) and comp[u.id] is not comp[v.id]:
                    merged = comp[u.id] | comp[v.id]
                    for w in merged:
                        comp[w] = merged
        expected = {frozenset(c) for c in comp.values()}
        assert {frozenset(g) for g in order_groups(b, side)} == expected
