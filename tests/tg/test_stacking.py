"""Stacking, main digest §13 catalogue items 1–20 (6.21–6.24, BOR-STACK, BOR-MILITIA) and the 6.24 order."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.board import RuleSwitches
from referee.rulesets.triumph_and_glory.stacking import (stack_order_errors, stacking_errors,
                                                         stacking_errors_entering)

from .helpers import FR, RU, art, at, board, cav, inf, leader

STANDARD = RuleSwitches()
BORODINO = RuleSwitches(artillery_cap=8, militia_alone=True)


def units(*placed, **kw):
    """The stack in 0404 of a board built from counters all placed there."""
    return board(*(at(d, "0404") for d in placed), **kw).stack("0404")


def codes(errors):
    return sorted(e.code for e in errors)


def test_cat_1_two_infantry_different_brigades_plus_artillery_illegal():
    errs = stacking_errors(units(inf("a", name="Dumon a"), inf("b", name="Guyot a"), art("g")), STANDARD)
    assert codes(errs) == ["stack_artillery_brigade"] and errs[0].rule == "6.21"


def test_cat_2_two_infantry_same_brigade_plus_artillery_legal():
    assert stacking_errors(units(inf("a", name="Dumon a"), inf("b", name="Dumon b"), art("g")), STANDARD) == []


def test_cat_4_brigade_pair_plus_infantry_of_another_brigade_illegal():
    errs = stacking_errors(units(inf("a", name="Dumon a"), inf("b", name="Dumon b"), inf("c", name="Guyot a")),
                           STANDARD)
    assert codes(errs) == ["stack_three_not_brigade"]


def test_cat_5_two_infantry_of_different_brigades_alone_legal():
    assert stacking_errors(units(inf("a", name="Dumon a"), inf("b", name="Guyot a")), STANDARD) == []


def test_cat_7_three_infantry_of_one_brigade_plus_artillery_illegal():
    errs = stacking_errors(units(inf("a", name="D a"), inf("b", name="D b"), inf("c", name="D c"), art("g")),
                           STANDARD)
    assert "stack_too_many" in codes(errs)


def test_cat_7_three_infantry_of_one_brigade_alone_legal():
    assert stacking_errors(units(inf("a", name="D a"), inf("b", name="D b"), inf("c", name="D c")), STANDARD) == []


def test_cat_8_two_cavalry_different_brigades_plus_artillery_illegal_same_brigade_legal():
    assert codes(stacking_errors(units(cav("a", name="X a"), cav("b", name="Y a"), art("g")), STANDARD)) == [
        "stack_artillery_brigade"]
    assert stacking_errors(units(cav("a", name="X a"), cav("b", name="X b"), art("g")), STANDARD) == []


def test_cat_10_three_artillery_of_one_ag_illegal():
    errs = stacking_errors(units(art("g1", fire=2), art("g2", fire=2), art("g3", fire=2)), STANDARD)
    assert codes(errs) == ["stack_artillery_count"]


def test_cat_11_two_artillery_fire_six_standard_legal():
    assert stacking_errors(units(art("g1", fire=3), art("g2", fire=3)), STANDARD) == []


def test_cat_11_two_artillery_fire_seven_standard_illegal():
    errs = stacking_errors(units(art("g1", fire=4), art("g2", fire=3)), STANDARD)
    assert codes(errs) == ["stack_artillery_fire"] and errs[0].rule == "6.21"


def test_cat_13_borodino_two_artillery_fire_nine_illegal_eight_legal():
    errs = stacking_errors(units(art("g1", fire=5), art("g2", fire=4)), BORODINO)
    assert codes(errs) == ["stack_artillery_fire"] and errs[0].rule == "BOR-STACK"
    assert stacking_errors(units(art("g1", fire=4), art("g2", fire=4)), BORODINO) == []


def test_cat_13_borodino_cap_comes_from_the_special_rule():
    stack = units(art("g1", fire=4), art("g2", fire=4), special_rules=["BOR-STACK"])
    assert stacking_errors(stack, RuleSwitches(artillery_cap=8)) == []


def test_cat_14_two_artillery_of_different_ags_illegal():
    errs = stacking_errors(units(art("g1", fire=2), art("g2", fire=2, ag="iii-corps")), STANDARD)
    assert codes(errs) == ["stack_artillery_ag"]


def test_cat_16_skirmisher_with_cavalry_illegal():
    errs = stacking_errors(units(inf("s", flags=["skirmisher"]), cav("c")), STANDARD)
    assert codes(errs) == ["stack_infantry_cavalry"]


def test_cat_17_three_legal_units_plus_their_cinc_legal():
    b = board(at(inf("a", name="D a"), "0404"), at(inf("b", name="D b"), "0404"), at(art("g"), "0404"),
              at(leader("nap"), "0404"))
    assert stacking_errors(b.stack("0404") + b.leaders_at("0404"), STANDARD) == []


def test_cat_19_entering_a_hex_with_an_enemy_unit_illegal():
    b = board(at(inf("a"), "0404"), at(inf("r", side=RU), "0405"))
    errs = stacking_errors_entering(b, b.unit("a"), "0405")
    assert codes(errs) == ["enemy_occupied"] and errs[0].rule == "6.22"


def test_cat_20_unit_ending_its_move_in_a_stack_of_two_goes_to_the_bottom():
    b = board(at(inf("a", name="D a"), "0404"), at(inf("b", name="D b"), "0404"), at(art("g"), "0405"))
    assert stacking_errors_entering(b, b.unit("g"), "0404") == []
    b2 = b.move("g", "0404")
    assert [u.id for u in b2.stack("0404")].index("g") == 2


def test_militia_never_stacks_under_bor_militia():
    errs = stacking_errors(units(inf("m", side=RU, flags=["militia"]), inf("r", side=RU)), BORODINO)
    assert codes(errs) == ["militia_stacked"] and errs[0].rule == "BOR-MILITIA"
    assert stacking_errors(units(inf("m", side=RU, flags=["militia"])), BORODINO) == []


def test_infantry_and_cavalry_never_share_a_hex():
    assert codes(stacking_errors(units(inf("a"), cav("c")), STANDARD)) == ["stack_infantry_cavalry"]


def test_artillery_alone_over_the_cap_is_legal_a19():
    assert stacking_errors(units(art("big", fire=9)), STANDARD) == []


def test_two_artillery_with_infantry_illegal():
    errs = stacking_errors(units(inf("a"), art("g1"), art("g2")), STANDARD)
    assert "stack_artillery_with_line" in codes(errs)


def test_borodino_artillery_reserve_overstacks_three_until_moved():
    kw = dict(special_rules=["BOR-STACK", "BOR-ART-RESERVE"], options={"artillery_reserve_ags": ["res"]})
    b = board(*(at(art(f"g{i}", side=RU, ag="res", fire=4), "0404") for i in range(3)),
              at(art("g3", side=RU, ag="res", fire=4), "0405"), **kw)
    assert stacking_errors(b.stack("0404"), b.rules) == []
    # g3 moves, so it has lost the allowance: normal stacking judges the hex it enters
    assert "stack_artillery_count" in codes(stacking_errors_entering(b, b.unit("g3"), "0404"))
    moved = b.update("g0", overstack=False)                        # once one has moved: normal stacking
    assert "stack_artillery_count" in codes(stacking_errors(moved.stack("0404"), moved.rules))


def test_stack_order_only_at_activation_edge_and_not_in_enemy_zoc():
    b = board(at(inf("a", name="D a"), "0404"), at(inf("b", name="D b"), "0404"))
    assert stack_order_errors(b, "0404", ["b", "a"], FR, "i-corps", True) == []
    assert codes(stack_order_errors(b, "0404", ["b", "a"], FR, "i-corps", False)) == ["stack_order_timing"]
    assert codes(stack_order_errors(b, "0404", ["b", "x"], FR, "i-corps", True)) == ["stack_order_units"]
    near = board(at(inf("a", name="D a"), "0404"), at(inf("b", name="D b"), "0404"), at(inf("r", side=RU), "0405"))
    assert codes(stack_order_errors(near, "0404", ["b", "a"], FR, "i-corps", True)) == ["stack_order_zoc"]


def test_borodino_reserve_battery_that_moves_stacks_normally():
    kw = dict(special_rules=["BOR-STACK", "BOR-ART-RESERVE"], options={"artillery_reserve_ags": ["res"]})
    b = board(at(art("g0", side=RU, ag="res", fire=4), "0404"), at(art("g1", side=RU, ag="res", fire=4), "0405"),
              **kw)
    assert stacking_errors_entering(b, b.unit("g1"), "0404") == []               # 2 units, fire 8 <= 8
    b3 = board(*(at(art(f"g{i}", side=RU, ag="res", fire=4), "0404") for i in range(4)), **kw)
    assert codes(stacking_errors(b3.stack("0404"), b3.rules)) == ["stack_too_many"]   # 4 > 3 even in set-up
