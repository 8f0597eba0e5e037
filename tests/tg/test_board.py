"""Board: set-up from a scenario, stacks by hex (6.24), immutability, rule switches."""
from __future__ import annotations

import pytest

from referee.rulesets.triumph_and_glory.board import Board, RuleSwitches, brigade_of
from referee.rulesets.triumph_and_glory.terrain import Cost, MovementTable, parse_cost

from .helpers import FR, RU, art, at, board, cav, inf, leader, scenario


def test_setup_order_is_stack_order_top_first():
    b = board(at(inf("a"), "0404"), at(inf("b"), "0404"), at(art("g"), "0404"))
    assert [u.id for u in b.stack("0404")] == ["a", "b", "g"]
    assert b.top("0404").id == "a"


def test_leaders_are_on_the_board_but_not_in_stacks():
    b = board(at(inf("a"), "0404"), at(leader("nap"), "0404"))
    assert [u.id for u in b.stack("0404")] == ["a"]
    assert [u.id for u in b.leaders_at("0404")] == ["nap"]
    assert b.unit("nap").hex == "0404" and not b.unit("nap").is_combat
    assert b.unit("nap").kind == "commander"


def test_leader_alone_does_not_make_a_hex_enemy_occupied():
    b = board(at(leader("kut", side=RU), "0505"))
    assert not b.has_enemy("0505", FR)


def test_move_puts_unit_at_bottom_and_leaves_old_board_unchanged():
    b = board(at(inf("a"), "0404"), at(inf("b"), "0405"))
    b2 = b.move("a", "0405", facing=2)
    assert [u.id for u in b2.stack("0405")] == ["b", "a"]        # 6.24: to the bottom
    assert b2.stack("0404") == ()
    assert b2.unit("a").hex == "0405" and b2.unit("a").facing == 2 and b2.unit("a").moved
    # the original position is untouched (copy-on-write)
    assert b.unit("a").hex == "0404" and [u.id for u in b.stack("0404")] == ["a"]
    assert "0404" not in b2.stacks


def test_remove_to_box_and_place_back_on_top():
    b = board(at(inf("a"), "0404"), at(inf("b"), "0404"))
    b2 = b.remove("a", "withdrawn")
    assert b2.unit("a").box == "withdrawn" and b2.unit("a").hex is None
    assert [u.id for u in b2.stack("0404")] == ["b"]
    b3 = b2.place("a", "0404", top=True)
    assert [u.id for u in b3.stack("0404")] == ["a", "b"]


def test_restack_requires_a_permutation():
    b = board(at(inf("a"), "0404"), at(inf("b"), "0404"))
    assert [u.id for u in b.restack("0404", ["b", "a"]).stack("0404")] == ["b", "a"]
    with pytest.raises(ValueError):
        b.restack("0404", ["a"])


def test_enemy_and_friendly_queries():
    b = board(at(inf("a"), "0404"), at(inf("r", side=RU), "0405"))
    assert [u.id for u in b.enemy_units_at("0405", FR)] == ["r"]
    assert b.friendly_units_at("0405", FR) == ()
    assert b.adjacent_to_enemy("0404", FR) and not b.adjacent_to_enemy("0101", FR)
    assert b.side_at("0405") == RU and b.side_at("0101") is None


def test_unplaced_counters_wait_in_the_reinforcement_box():
    s = scenario(at(inf("a"), "0404"))
    s = s.__class__(**{**s.__dict__, "counters": s.counters.__class__(
        units=s.counters.units + (inf("late"),), activation_groups=s.counters.activation_groups)})
    b = Board.from_scenario(s)
    assert b.unit("late").box == "reinforcement" and b.unit("late").hex is None


def test_disordered_face_values_are_read_from_the_back():
    b = board(at(inf("a", cohesion=5, ma=4, back_ma=3), "0404", status="disordered"))
    u = b.unit("a")
    assert u.disordered and u.value("cohesion") == 4 and u.ma == 3


def test_brigade_from_designation_suffix():
    assert brigade_of(inf("x", name="Dumon a")) == "Dumon"
    assert brigade_of(inf("x", name="Psk Jgr")) is None
    assert brigade_of(inf("x", name="Guy a", brigade="Guyot")) == "Guyot"


def test_rule_switches_from_special_rules():
    sw = RuleSwitches.from_scenario(scenario(at(inf("a"), "0101"),
                                             special_rules=["BOR-STACK", "BOR-MILITIA", "BOR-NO-EXTENDED"]))
    assert sw.artillery_cap == 8 and sw.militia_alone and sw.no_extended_sides == {"Russian"}
    plain = RuleSwitches.from_scenario(scenario(at(inf("a"), "0101")))
    assert plain.artillery_cap == 6 and not plain.militia_alone and not plain.no_extended_sides


def test_artillery_reserve_overstack_flag_from_option():
    b = board(at(art("g", side=RU, ag="art-res"), "0202"), at(cav("c", side=RU, ag="art-res"), "0303"),
              special_rules=["BOR-ART-RESERVE"], options={"artillery_reserve_ags": ["art-res"]})
    assert b.unit("g").overstack and not b.unit("c").overstack
    assert not b.move("g", "0203").unit("g").overstack          # lost once it moves


def test_markers_from_map_and_set_marker():
    b = board(at(inf("a"), "0101"), markers=[("on_fire", ("0304",)), ("bridge_destroyed", ("0505", "0506"))],
              hexsides=[("0505", "0506", "bridge")])
    assert "0304" in b.on_fire and not b.bridge_intact("0505", "0506")
    b2 = b.set_marker("bridges_destroyed", ("0505", "0506"), present=False)
    assert b2.bridge_intact("0506", "0505")


@pytest.mark.parametrize("cell,expected", [
    (2, Cost(2)), ("P", Cost(None)), ({"cost": 3, "disorders": True}, Cost(3, True)), ("+1", Cost(1)),
    ("3D", Cost(3, True)),
])
def test_parse_cost_forms(cell, expected):
    assert parse_cost(cell) == expected


def test_table_lookups_and_defaults():
    t = MovementTable.from_tables({"movement_costs": {
        "rows": {"clear": {"infantry": 1, "cavalry": 1, "artillery": 2}},
        "hexsides": {"stream": {"infantry": 2, "cavalry": 2, "artillery": "P"}}}})
    assert t.hex_cost("clear", "commander") == Cost(1)          # commander falls back to infantry
    assert t.hex_cost("swamp", "artillery") == Cost(2)          # unknown terrain costs as clear
    assert t.hexside_cost("stream", "artillery").prohibited
    assert t.hexside_cost("hedge", "infantry") == Cost(0)
    assert t.impassable("river") and not t.impassable("stream")
