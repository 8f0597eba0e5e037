"""Movement (7.x), ZOC effects (6.33–6.34): gaps digest §17 items 1–14, main digest items 19, 121, 124, 125.

Pointy 8x8 map, clear terrain unless said (default table: clear inf 1 / cav 1 / art 2).  Useful geometry:
row 04 runs 0104-0204-...-0804 (hours 3/9); 0604's neighbours are 0703 0704 0705 0605 0504 0603 (1..11);
0504's are 0603 0604 0605 0505 0404 0503.
"""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.movement import (MoveContext, allowance, apply_move, begin_activation,
                                                         check_move, cheapest_path, entry_exclusion, legal_moves,
                                                         reachable)

from .helpers import FR, RU, art, at, board, cav, inf, leader

NO_ORDERS = MoveContext(under_orders=False)


def codes(result):
    return [e.code for e in result.errors]


# ----------------------------------------------------------------------------------------------- ZOC

def test_cat_gaps_1_entering_a_hex_next_to_good_order_enemy_ends_the_move():
    b = board(at(inf("a", ma=6), "0204"), at(inf("r", side=RU), "0604", facing=10))
    ok = check_move(b, "a", ["0304", "0404", "0504"])
    assert ok.legal and ok.stops_in_zoc and ok.mp_spent == 3
    on = check_move(b, "a", ["0304", "0404", "0504", "0505"])
    assert codes(on) == ["zoc_stop"] and on.errors[0].rule == "6.33"
    assert "0505" in on.errors[0].alternatives                # reachable another way (around the ZOC)


def test_cat_gaps_2_disordered_enemy_has_no_zoc_so_the_unit_goes_on():
    b = board(at(inf("a", ma=6), "0204"), at(inf("r", side=RU), "0604", status="disordered"))
    r = check_move(b, "a", ["0304", "0404", "0504", "0505"])
    assert r.legal and not r.stops_in_zoc and r.mp_spent == 4


def test_cat_gaps_4_hex_beyond_a_bridge_is_not_in_the_enemy_zoc():
    b = board(at(inf("a", ma=6), "0204"), at(inf("r", side=RU), "0604"), hexsides=[("0504", "0604", "bridge")])
    r = check_move(b, "a", ["0304", "0404", "0504", "0505"])
    assert r.legal and not r.stops_in_zoc


def test_cat_gaps_5_disordered_unit_pays_one_more_to_enter_enemy_zoc():
    good = board(at(inf("a"), "0204"), at(inf("r", side=RU), "0604"))
    dis = board(at(inf("a"), "0204", status="disordered"), at(inf("r", side=RU), "0604"))
    assert check_move(good, "a", ["0304", "0404", "0504"]).mp_spent == 3
    r = check_move(dis, "a", ["0304", "0404", "0504"])
    assert r.legal and r.mp_spent == 4 and "6.33 disordered into ZOC +1" in r.steps[-1].notes


def test_cat_gaps_7_unit_that_did_not_start_in_zoc_cannot_leave_one_it_entered():
    b = board(at(inf("a", ma=6), "0204"), at(inf("r", side=RU), "0604"))
    b = begin_activation(b, ["a"])
    first = check_move(b, "a", ["0304", "0404", "0504"])
    b2 = apply_move(b, first)                                   # a is now in ZOC, moved, did not start there
    again = check_move(b2, "a", ["0505"])
    assert codes(again) == ["zoc_leave"] and again.errors[0].rule == "6.34"


def test_unit_that_started_in_zoc_leaves_paying_one_more():
    b = begin_activation(board(at(inf("a"), "0504"), at(inf("r", side=RU), "0604", facing=10)), ["a"])
    assert b.unit("a").started_in_zoc
    r = check_move(b, "a", ["0404"])
    assert r.legal and r.mp_spent == 2 and "6.34 leave ZOC +1" in r.steps[0].notes


def test_after_leaving_zoc_no_enemy_frontal_hex_but_non_frontal_zoc_hex_is_allowed():
    b = begin_activation(board(at(inf("a"), "0504"), at(inf("r", side=RU), "0604", facing=10)), ["a"])
    frontal = check_move(b, "a", ["0503", "0603"])             # 0603 is at 11 o'clock: r's front
    assert codes(frontal) == ["zoc_frontal_after_leaving"] and frontal.errors[0].rule == "6.34"
    flank = check_move(b, "a", ["0505", "0605"])               # 0605 is at 7 o'clock: ZOC, not front
    assert flank.legal and flank.stops_in_zoc and flank.mp_spent == 3


# ----------------------------------------------------------------------------------------------- allowances

def test_cat_gaps_8_no_orders_infantry_ma4_gets_2_ma5_gets_3():
    b = board(at(inf("a", ma=4), "0104"), at(inf("c", ma=5), "0106"))
    assert allowance(b.unit("a"), "limited") == 2 and allowance(b.unit("c"), "limited") == 3
    assert check_move(b, "a", ["0204", "0304"], context=NO_ORDERS).legal
    assert codes(check_move(b, "a", ["0204", "0304", "0404"], context=NO_ORDERS)) == ["not_enough_mp"]
    assert check_move(b, "c", ["0206", "0306", "0406"], context=NO_ORDERS).mp_spent == 3
    refused = check_move(b, "a", ["0204"], mode="normal", context=NO_ORDERS)
    assert codes(refused) == ["no_orders_limited"] and refused.errors[0].alternatives == ("limited",)


def test_reserve_activation_moves_as_no_orders():
    b = board(at(inf("a", ma=4), "0104"))
    r = check_move(b, "a", ["0204", "0304", "0404"], context=MoveContext(reserve=True))
    assert codes(r) == ["not_enough_mp"] and r.allowance == 2


def test_failed_individual_order_may_not_move():
    b = board(at(inf("a"), "0104"))
    assert codes(check_move(b, "a", ["0204"], context=MoveContext(may_move=False))) == ["failed_individual_order"]


def test_cat_gaps_10_extended_movement_doubles_ma():
    b = board(at(inf("a", ma=4), "0101"), at(inf("r", side=RU), "0808"))
    path = ["0201", "0301", "0401", "0501", "0601", "0701", "0801"]
    assert check_move(b, "a", path, mode="extended").legal          # 7 MP of 8
    assert codes(check_move(b, "a", path, mode="normal")) == ["not_enough_mp"]


def test_cat_gaps_10_extended_mover_may_not_end_stacked_nor_pass_through_friends():
    b = board(at(inf("a", ma=4), "0101"), at(inf("f"), "0301"), at(inf("r", side=RU), "0808"))
    assert codes(check_move(b, "a", ["0201", "0301"], mode="extended")) == ["extended_friends"]
    assert codes(check_move(b, "a", ["0201", "0301", "0401"], mode="extended")) == ["extended_friends"]
    assert "0301" not in reachable(b, "a", "extended") and "0401" in reachable(b, "a", "extended")
    assert check_move(b, "a", ["0201", "0301", "0401"], mode="normal").mp_spent == 4    # +1 passing through


def test_cat_gaps_10_extended_artillery_may_join_artillery():
    b = board(at(art("g", ma=4, fire=2), "0101"), at(art("h", fire=2), "0301"), at(inf("r", side=RU), "0808"))
    assert check_move(b, "g", ["0201", "0301"], mode="extended").legal


def test_extended_never_within_three_hexes_of_an_enemy():
    b = board(at(inf("a", ma=4), "0101"), at(inf("r", side=RU), "0502"))     # 0201 is 4 away, 0301 only 3
    r = check_move(b, "a", ["0201", "0301"], mode="extended")
    assert codes(r) == ["extended_near_enemy"] and r.errors[0].rule == "7.13"


def test_extended_refused_when_another_unit_of_the_order_group_starts_near_an_enemy():
    b = board(at(inf("a", ma=4), "0101"), at(inf("r", side=RU), "0808"))
    ctx = MoveContext(og_hexes=("0707",))
    assert codes(check_move(b, "a", ["0201"], mode="extended", context=ctx)) == ["extended_group_near_enemy"]


def test_extended_needs_orders_and_good_order():
    b = board(at(inf("a"), "0101"), at(inf("d"), "0103", status="disordered"), at(inf("r", side=RU), "0808"))
    assert codes(check_move(b, "a", ["0201"], mode="extended", context=NO_ORDERS)) == ["extended_needs_orders"]
    assert codes(check_move(b, "d", ["0203"], mode="extended")) == ["extended_disordered"]


def test_cat_124_russian_extended_movement_illegal_in_borodino():
    b = board(at(inf("r", side=RU), "0101"), at(inf("f"), "0808"), special_rules=["BOR-NO-EXTENDED"])
    r = check_move(b, "r", ["0201"], mode="extended")
    assert codes(r) == ["no_extended"] and r.errors[0].rule == "BOR-NO-EXTENDED"
    assert reachable(b, "r", "extended") == {}


# ----------------------------------------------------------------------------------------------- terrain

def test_cat_gaps_11_road_rate_refused_next_to_an_enemy_but_ford_still_cancels_the_stream():
    road = ["0104", "0204", "0304", "0404", "0504", "0604", "0704"]
    kw = dict(roads=[road], hexsides=[("0404", "0504", "stream"), ("0404", "0504", "ford")],
              special_rules=["BOR-TERRAIN"])
    free = board(at(art("g", ma=6), "0104"), **kw)
    r = check_move(free, "g", ["0204", "0304", "0404", "0504"])
    assert r.legal and r.mp_spent == 4 and "7.24 ford" in r.steps[-1].notes       # road 1 each, no stream
    near = board(at(art("g", ma=6), "0104"), at(inf("r", side=RU), "0605"), **kw)   # 0605 touches 0504
    r = check_move(near, "g", ["0204", "0304", "0404", "0504"])
    assert r.legal and r.mp_spent == 5                                              # clear 2 into 0504
    assert "7.37 no road rate next to an enemy" in r.steps[-1].notes and "7.24 ford" in r.steps[-1].notes


def test_borodino_stream_without_a_printed_ford_is_not_cancelled_by_the_road():
    road = ["0104", "0204", "0304", "0404", "0504"]
    b = board(at(art("g", ma=6), "0104"), roads=[road], hexsides=[("0404", "0504", "stream")],
              special_rules=["BOR-TERRAIN"])
    assert check_move(b, "g", ["0204", "0304", "0404", "0504"]).mp_spent == 5       # 1+1+1 + (1 road + 1 stream)
    plain = board(at(art("g", ma=6), "0104"), roads=[road], hexsides=[("0404", "0504", "stream")])
    assert check_move(plain, "g", ["0204", "0304", "0404", "0504"]).mp_spent == 4   # 7.24: any road is a ford


def test_road_rate_only_along_a_connected_road():
    b = board(at(art("g", ma=4), "0104"), roads=[["0204", "0304"]])
    assert check_move(b, "g", ["0204", "0304"]).mp_spent == 3                       # clear 2, then road 1


def test_path_costs_half_the_terrain_rounded_up_cavalry_woods_3_to_2():
    b = board(at(cav("c"), "0104"), terrain={"0204": "woods"}, paths=[["0104", "0204"]])
    r = check_move(b, "c", ["0204"])
    assert r.mp_spent == 2 and [e.effect for e in r.effects] == ["disordered"]      # a path does not stop 'D'


def test_cavalry_entering_woods_becomes_disordered():
    b = board(at(cav("c"), "0104"), terrain={"0204": "woods"})
    r = check_move(b, "c", ["0204", "0304"])
    assert r.legal and r.mp_spent == 4 and [(e.effect, e.rule) for e in r.effects] == [("disordered", "7.21")]
    assert apply_move(b, r).unit("c").disordered


def test_prohibited_terrain_from_the_table():
    b = board(at(art("g"), "0104"), terrain={"0204": "marsh"})
    assert codes(check_move(b, "g", ["0204"])) == ["prohibited_terrain"]


def test_cat_125_moskva_only_at_a_bridge_and_at_no_extra_cost():
    sides = [("0104", "0204", "river"), ("0105", "0205", "river"), ("0105", "0205", "bridge")]
    b = board(at(inf("a"), "0104"), at(inf("c"), "0105"), hexsides=sides, special_rules=["BOR-TERRAIN"])
    r = check_move(b, "a", ["0204"])
    assert codes(r) == ["prohibited_hexside"] and r.errors[0].rule == "7.23"
    ok = check_move(b, "c", ["0205"])
    assert ok.legal and ok.mp_spent == 1


def test_destroyed_bridge_cannot_be_crossed():
    sides = [("0105", "0205", "river"), ("0105", "0205", "bridge")]
    b = board(at(inf("c"), "0105"), hexsides=sides, markers=[("bridge_destroyed", ("0105", "0205"))])
    assert codes(check_move(b, "c", ["0205"])) == ["prohibited_hexside"]


def test_cat_121_entering_an_on_fire_hex_illegal():
    b = board(at(inf("a"), "0104"), markers=[("on_fire", ("0204",))])
    r = check_move(b, "a", ["0204"])
    assert codes(r) == ["on_fire"] and r.errors[0].rule == "BOR-5"


def test_cat_19_passing_through_an_enemy_hex_illegal():
    b = board(at(inf("a"), "0104"), at(art("r", side=RU), "0204"))      # artillery: no ZOC, still blocks
    r = check_move(b, "a", ["0204", "0304"])
    assert codes(r) == ["enemy_occupied"] and r.errors[0].rule == "6.22"
    assert all(h != "0204" for h in reachable(b, "a"))


# ----------------------------------------------------------------------------------------------- restrictions

def test_cat_gaps_13_minimum_move_one_hex_even_if_short_of_mp():
    b = board(at(inf("a", ma=2), "0104"), terrain={"0204": "woods"})
    r = check_move(b, "a", ["0204"], context=NO_ORDERS)                     # 1 MP, woods costs 2
    assert r.legal and r.minimum_move and r.mp_spent == 2
    assert reachable(b, "a", context=NO_ORDERS)["0204"] == 2


def test_cat_gaps_13_minimum_move_never_into_enemy_zoc():
    b = board(at(inf("a", ma=2), "0104"), at(inf("r", side=RU), "0304"), terrain={"0204": "woods"})
    r = check_move(b, "a", ["0204"], context=NO_ORDERS)
    assert codes(r) == ["not_enough_mp"] and "0204" not in reachable(b, "a", context=NO_ORDERS)


def test_cat_gaps_13_no_minimum_move_in_square():
    b = board(at(inf("a", ma=2), "0104"), terrain={"0204": "woods"})
    b = b.update("a", square=True)
    assert codes(check_move(b, "a", ["0204"], context=NO_ORDERS)) == ["not_enough_mp"]


def test_a_unit_that_stopped_in_zoc_may_not_move_on_even_if_it_started_in_one():
    b = begin_activation(board(at(inf("a", ma=6), "0504"), at(inf("r", side=RU), "0604", facing=10)), ["a"])
    b2 = apply_move(b, check_move(b, "a", ["0505", "0605"]))      # left, then stopped in a flank ZOC hex
    r = check_move(b2, "a", ["0606"])
    assert codes(r) == ["zoc_stop"] and r.errors[0].rule == "6.33"
    assert reachable(b2, "a") == {}


def test_unit_in_square_never_moves_into_enemy_zoc():
    b = board(at(inf("a", ma=4), "0404"), at(inf("r", side=RU), "0604")).update("a", square=True)
    assert codes(check_move(b, "a", ["0504"])) == ["square_move"]
    assert "0504" not in reachable(b, "a") and "0304" in reachable(b, "a")


def test_unit_in_square_moves_one_hex_only():
    b = board(at(inf("a", ma=4), "0104")).update("a", square=True)
    assert check_move(b, "a", ["0204"]).legal
    assert codes(check_move(b, "a", ["0204", "0304"])) == ["square_move"]
    assert set(reachable(b, "a")) == set(b.neighbours("0104"))


def test_cat_gaps_14_fired_artillery_moves_half_and_never_next_to_an_enemy():
    b = board(at(art("g", ma=4), "0104"), at(inf("r", side=RU), "0404")).update("g", fired=True)
    assert allowance(b.unit("g"), "normal", fired=True) == 2
    assert check_move(b, "g", ["0204"]).legal                                # clear 2 = ½ MA
    assert codes(check_move(b, "g", ["0204", "0205"])) == ["not_enough_mp"]
    near = check_move(b, "g", ["0203"], facing=12)
    assert near.legal                                                       # 0203 is not next to 0404
    b2 = board(at(art("g", ma=8), "0104"), at(inf("r", side=RU), "0404")).update("g", fired=True)
    r = check_move(b2, "g", ["0204", "0304"])
    assert codes(r) == ["fired_artillery_adjacent"] and r.errors[0].rule == "7.36"


def test_fired_no_orders_artillery_gets_half_of_its_restricted_allowance():
    b = board(at(art("g", ma=8), "0104")).update("g", fired=True)
    assert allowance(b.unit("g"), "limited", fired=True) == 2               # ⌈⌈8/2⌉/2⌉
    assert allowance(b.unit("g"), "limited", fired=True, half_of_limited=False) == 4


def test_passing_through_friends_costs_one_more_but_stopping_does_not():
    b = board(at(inf("a"), "0104"), at(inf("f"), "0204"))
    assert check_move(b, "a", ["0204"]).mp_spent == 1
    r = check_move(b, "a", ["0204", "0304"])
    assert r.mp_spent == 3 and "7.38 pass through friends +1" in r.steps[1].notes


def test_stacking_is_judged_at_the_end_of_the_move_not_in_passing():
    b = board(at(cav("c"), "0104"), at(inf("f"), "0204"), at(inf("g"), "0204"))
    assert check_move(b, "c", ["0204", "0304"]).legal
    r = check_move(b, "c", ["0204"])
    assert "stack_infantry_cavalry" in codes(r)


def test_facing_at_the_end_must_be_a_vertex_and_match_the_stack():
    b = board(at(inf("a"), "0104"), at(inf("f"), "0204", facing=4))
    assert codes(check_move(b, "a", ["0105"], facing=3)) == ["facing_hexside"]
    r = check_move(b, "a", ["0204"], facing=12)
    assert codes(r) == ["stack_facing_differs"] and r.errors[0].alternatives == (4,)
    assert check_move(b, "a", ["0204"], facing=4).legal
    moved = apply_move(b, check_move(b, "a", ["0204"]))                      # no facing given: takes the stack's
    assert moved.unit("a").facing == 4 and [u.id for u in moved.stack("0204")] == ["f", "a"]


def test_path_must_be_adjacent_hexes_on_the_map():
    b = board(at(inf("a"), "0104"))
    assert codes(check_move(b, "a", ["0304"])) == ["not_adjacent"]
    assert codes(check_move(b, "a", ["0004"])) == ["off_map"]


def test_a_path_that_repeats_the_start_hex_is_tolerated():
    b = board(at(inf("a"), "0104"))
    assert check_move(b, "a", ["0104", "0204"]).path == ["0204"]


def test_moving_in_two_segments_accumulates_mp_and_keeps_the_mode():
    b = board(at(inf("a", ma=4), "0104"))
    b2 = apply_move(b, check_move(b, "a", ["0204", "0304"]))
    assert b2.unit("a").mp_spent == 2
    assert check_move(b2, "a", ["0404", "0504"]).legal
    assert codes(check_move(b2, "a", ["0404", "0504", "0604"])) == ["not_enough_mp"]
    assert codes(check_move(b2, "a", ["0404"], mode="limited")) == ["one_movement_type"]


# ----------------------------------------------------------------------------------------------- others

def test_reinforcement_enters_through_the_entry_hex_paying_k_times_its_cost():
    b = board(at(inf("a"), "0808"), at(art("g", ma=6), None, box="reinforcement"))
    ctx = MoveContext(entry_hexes=("0104",), entry_index=2)
    r = check_move(b, "g", ["0104", "0204"], context=ctx)
    assert r.legal and r.mp_spent == 6                                        # 2 x clear 2, then 2
    assert codes(check_move(b, "g", ["0105"], context=ctx)) == ["entry_hex"]
    assert reachable(b, "g", context=ctx)["0104"] == 4


def test_reinforcement_extended_movement_only_along_a_road():
    road = ["0104", "0204", "0304", "0404"]
    b = board(at(inf("r", side=RU), "0808"), at(inf("a", ma=3), None, box="reinforcement"), roads=[road])
    ctx = MoveContext(entry_hexes=("0104",))
    assert check_move(b, "a", ["0104", "0204", "0304", "0404"], mode="reinforcement", context=ctx).legal
    assert codes(check_move(b, "a", ["0104", "0205"], mode="reinforcement", context=ctx)) == [
        "reinforcement_off_road"]


def test_no_unit_within_two_hexes_of_an_enemy_entry_hex_7_44():
    b = board(at(inf("a"), "0104"))
    ctx = MoveContext(forbidden_hexes=entry_exclusion(b, ["0404"]))
    assert codes(check_move(b, "a", ["0204"], context=ctx)) == ["forbidden_hex"]
    assert "0204" not in reachable(b, "a", context=ctx)


def test_cinc_uses_the_commander_column_and_ignores_zoc():
    tables = {"movement_costs": {"rows": {"clear": {"infantry": 1, "cavalry": 1, "artillery": 2, "commander": 2}}}}
    b = board(at(leader("nap"), "0204"), at(inf("r", side=RU), "0604"), tables=tables)
    r = check_move(b, "nap", ["0304", "0404", "0504", "0505"], context=MoveContext(allowance=8))
    assert r.legal and r.mp_spent == 8 and not r.stops_in_zoc
    assert codes(check_move(b, "nap", ["0304", "0404", "0504", "0604"], context=MoveContext(allowance=9))) == [
        "enemy_occupied"]
    assert codes(check_move(b, "nap", ["0304"], context=MoveContext(allowance=1))) == ["not_enough_mp"]   # 7.35: units only


def test_legal_moves_lists_modes_and_destinations():
    b = board(at(inf("a", ma=2), "0101"), at(inf("r", side=RU), "0808"))
    moves = legal_moves(b, "a")
    assert ("normal", "0301", 2) in moves and ("limited", "0201", 1) in moves and ("extended", "0501", 4) in moves


def test_cheapest_path_goes_around_woods():
    b = board(at(inf("a", ma=4), "0104"), terrain={"0204": "woods", "0304": "woods"})
    path = cheapest_path(b, "a", "0404")
    r = check_move(b, "a", path)
    assert r.legal and r.mp_spent == 4 and "0204" not in path and "0304" not in path
    assert reachable(b, "a")["0404"] == 4


# ----------------------------------------------------------------------------------------------- properties

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from modulebuilder.hexgrid import HexGrid  # noqa: E402

SIZE = 6
TERRAINS = ["clear", "clear", "clear", "woods", "village", "marsh", "cultivated"]


@st.composite
def positions(draw):
    """A random 6x6 position: terrain, streams/rivers/bridges, a road, a few units of both sides, one mover."""
    orientation = draw(st.sampled_from(["pointy", "flat"]))
    grid = HexGrid(orientation, "even", 1, 1, SIZE, SIZE)
    hexes = grid.hexes()
    terrain = {h: draw(st.sampled_from(TERRAINS)) for h in draw(st.lists(st.sampled_from(hexes), max_size=10))}
    sides = []
    for h in draw(st.lists(st.sampled_from(hexes), max_size=6, unique=True)):
        n = draw(st.sampled_from(sorted(grid.neighbours(h).values())))
        sides.append((h, n, draw(st.sampled_from(["stream", "river", "bridge", "ford"]))))
    road = [draw(st.sampled_from(hexes))]
    for _ in range(draw(st.integers(0, 6))):
        road.append(draw(st.sampled_from(sorted(grid.neighbours(road[-1]).values()))))
    cells = draw(st.lists(st.sampled_from(hexes), min_size=2, max_size=7, unique=True))
    kind = draw(st.sampled_from(["infantry", "cavalry", "artillery"]))
    ma = draw(st.integers(1, 8))
    mover = {"infantry": inf, "cavalry": cav, "artillery": art}[kind]("m", ma=ma)
    status = draw(st.sampled_from(["good", "disordered"]))
    placed = [at(mover, cells[0], status=status)]
    for i, h in enumerate(cells[1:]):
        side = draw(st.sampled_from([FR, RU]))
        unit = draw(st.sampled_from([inf, cav, art]))(f"u{i}", side=side)
        placed.append(at(unit, h, facing=draw(st.sampled_from(grid.vertex_hours)),
                         status=draw(st.sampled_from(["good", "good", "disordered"]))))
    b = board(*placed, orientation=orientation, columns=SIZE, rows=SIZE, terrain=terrain, hexsides=sides,
              roads=[road] if len(road) > 1 else [])
    b = begin_activation(b, ["m"])
    if kind == "artillery" and draw(st.booleans()):
        b = b.update("m", fired=True)
    if kind == "infantry" and draw(st.integers(0, 4)) == 0:
        b = b.update("m", square=True)                         # 9.85
    ctx = MoveContext(under_orders=draw(st.booleans()))
    mode = draw(st.sampled_from([None, "limited", "extended"]))
    return b, mode, ctx


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_property_every_reachable_hex_has_a_legal_cheapest_path_of_that_cost(pos):
    b, mode, ctx = pos
    for dest, cost in reachable(b, "m", mode, ctx).items():
        path = cheapest_path(b, "m", dest, mode, ctx)
        r = check_move(b, "m", path, mode, ctx)
        assert r.legal, (dest, path, r.errors)
        assert r.mp_spent == cost and r.end == dest


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_property_any_legal_walk_ends_in_a_reachable_hex_at_no_less_cost(pos, data):
    b, mode, ctx = pos
    here = b.unit("m").hex
    walk = []
    for _ in range(data.draw(st.integers(1, 5))):
        here = data.draw(st.sampled_from(b.neighbours(here)))
        walk.append(here)
    r = check_move(b, "m", walk, mode, ctx)
    if r.legal and r.end != b.unit("m").hex:
        best = reachable(b, "m", mode, ctx)
        assert r.end in best and best[r.end] <= r.mp_spent
    for h in (walk if r.legal else ()):
        assert not b.has_enemy(h, FR)                          # 6.22: never into or through an enemy


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 6))
def test_property_more_movement_points_never_lose_a_destination(pos, extra):
    b, _, ctx = pos
    base = b.unit("m").ma
    small = reachable(b, "m", "normal", MoveContext(allowance=base))
    large = reachable(b, "m", "normal", MoveContext(allowance=base + extra))
    assert all(h in large and large[h] <= c for h, c in small.items())
    assert all(not b.has_enemy(h, FR) for h in large)


def test_every_stream_grade_is_cancelled_by_a_road_at_a_ford_7_24():
    tables = {"movement_costs": {"rows": {"clear": {"infantry": 1, "cavalry": 1, "artillery": 2},
                                          "road": {"infantry": 1, "cavalry": 1, "artillery": 1}},
                                 "hexsides": {"minor_stream": {"infantry": 1, "cavalry": 1, "artillery": 1}}}}
    kw = dict(roads=[["0104", "0204"]], tables=tables, special_rules=["BOR-TERRAIN"])
    ford = board(at(inf("a"), "0104"), hexsides=[("0104", "0204", "minor_stream"), ("0104", "0204", "ford")], **kw)
    none = board(at(inf("a"), "0104"), hexsides=[("0104", "0204", "minor_stream")], **kw)
    assert check_move(ford, "a", ["0204"]).mp_spent == 1
    assert check_move(none, "a", ["0204"]).mp_spent == 2
