"""The public catalogue of the Musket & Pike digest (§9), one test per item, named by its number.

Geometry on the helpers' pointy grid: facing 12 is the digest's k = 5 (north), facing 2 is k = 0.
Around 0505: NE 0504, E 0605, SE 0506, SW 0406, W 0405, NW 0404; around 0605: NE 0604, E 0705, SE 0606.
"""
from __future__ import annotations

from modulebuilder.hexgrid import HexGrid
from referee.rulesets.musket_and_pike.facing import Zones, zones
from referee.rulesets.musket_and_pike.profile import Arm, Profile
from referee.rulesets.musket_and_pike.recovery import reform_actions
from referee.rulesets.musket_and_pike.state import UnitState
from referee.rulesets.musket_and_pike import RULESET

from .helpers import draw, last, leader, run, scenario, unit, unit_view

GRID = HexGrid("pointy", "even", 1, 1, 10, 10)


def _profile(arm: Arm, size: int = 1, pikes: bool = False, ma: int = 4) -> Profile:
    return Profile(id="u", name="u", side="Swedish", wing="sw", arm=arm, size=size, pikes=pikes, ma=ma)


def _results(ruling):
    return [(r.get("unit"), r["effect"]) for r in ruling["results"]]


def _unit_view(state, uid):
    return unit_view(state, uid)


# ------------------------------------------------------------------------------------------ [6.1] facing

def test_cat_01_single_hex_facing_k0_front_flank_rear():
    z = zones(GRID, _profile(Arm.CAVALRY), UnitState(hex="0505", facing=2, formation="normal"))
    assert z == Zones(front=("0504", "0605"), flank=("0404", "0506"), rear=("0405", "0406"))


def test_cat_02_two_hex_facing_north_3_front_2_flank_3_rear():
    z = zones(GRID, _profile(Arm.HEAVY, size=2), UnitState(hex="0505", facing=12, formation="normal"))
    # front L.NW, L.NE, R.NE; flank L.W, R.E; rear L.SW, L.SE, R.SE
    assert z == Zones(front=("0404", "0504", "0604"), flank=("0405", "0705"), rear=("0406", "0506", "0606"))


def test_cat_04_leader_limbered_gun_wagon_morale_broken_have_no_facing():
    s = scenario(unit("gun", "art", "0505", flags=["limbered"]), unit("wag", "art", "0507", flags=["wagon"]),
                 unit("hi", "hi", "0305"), leaders=[leader("teufel", "0707")])
    state = RULESET.initial_state(s)
    for uid in ("gun", "wag"):
        assert zones(GRID, state.profile(uid), state.unit(uid)) is None
        assert _unit_view(state, uid)["facing"] is None
    broken = UnitState(hex="0505", facing=12, formation=None, morale_broken=True)
    assert zones(GRID, _profile(Arm.HEAVY), broken) is None
    for uid in ("gun", "wag", "teufel"):
        r = last(s, draw(), {"type": "face", "unit": uid, "facing": 6})
        assert r["verdict"] == "legal" and _results(r) == [(uid, "no_facing")]
        assert all(x.get("mp", 0) == 0 for x in r["results"])
    rulings, state = run(s, draw(), {"type": "morale_broken", "unit": "hi"},
                         {"type": "face", "unit": "hi", "facing": 6})
    assert _results(rulings[2]) == [("hi", "no_facing")] and state.unit("hi").mp_spent == 0


# ------------------------------------------------------------------------------------------ 6.2.1 costs

def test_cat_05_cavalry_turns_two_vertices_costs_2():
    r = last(scenario(unit("c", "cav", "0505", 12)), draw(), {"type": "face", "unit": "c", "facing": 4})
    assert r["verdict"] == "legal" and r["results"][0]["mp"] == 2 and r["rules"] == ["6.2.1"]


def test_cat_07_single_hex_heavy_infantry_turns_two_vertices_costs_4():
    r = last(scenario(unit("h", "hi", "0505", 12)), draw(), {"type": "face", "unit": "h", "facing": 4})
    assert r["verdict"] == "legal" and r["results"][0]["mp"] == 4


def test_cat_08_single_hex_heavy_infantry_180_by_counter_march_costs_2():
    rulings, state = run(scenario(unit("h", "hi", "0505", 12)), draw(), {"type": "face", "unit": "h", "facing": 6})
    assert rulings[1]["rules"] == ["6.2.2"] and rulings[1]["results"][0]["mp"] == 2
    assert state.unit("h").facing == 6 and state.unit("h").hex == "0505"


def test_cat_10_two_hex_wheel_one_step_costs_2():
    rulings, state = run(scenario(unit("b", "hi", "0505", 12, size=2)), draw(),
                         {"type": "wheel", "unit": "b", "facing": 10})
    assert rulings[1]["verdict"] == "legal" and rulings[1]["results"][0]["mp"] == 2
    assert state.unit("b").mp_spent == 2


def test_cat_11_wheel_pivot_left_turns_k_minus_1_pivot_right_k_plus_1():
    s = scenario(unit("b", "hi", "0505", 12, size=2))
    rulings, state = run(s, draw(), {"type": "wheel", "unit": "b", "facing": 10})
    # pivot on L (0505): R swings into the centre front hex 0504; facing k-1 (12 -> 10)
    assert _unit_view(state, "b")["hexes"] == ["0505", "0504"] and state.unit("b").facing == 10
    assert rulings[1]["results"][1] == {"unit": "b", "effect": "wheeled", "rule": "6.2.1", "pivot": "left",
                                        "entered": "0504"}
    rulings, state = run(s, draw(), {"type": "wheel", "unit": "b", "facing": 2})
    # pivot on R (0605): L swings into 0504; facing k+1 (12 -> 2)
    assert _unit_view(state, "b")["hexes"] == ["0504", "0605"] and state.unit("b").facing == 2
    assert rulings[1]["results"][1]["pivot"] == "right"


def test_cat_13_two_hex_line_turning_in_place_is_illegal():
    r = last(scenario(unit("b", "hi", "0505", 12, size=2)), draw(), {"type": "face", "unit": "b", "facing": 2})
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "must_wheel" and r["errors"][0]["rule"] == "6.2.1"


def test_cat_14_two_hex_counter_march_costs_2_halves_swap_same_hexes():
    rulings, state = run(scenario(unit("b", "hi", "0505", 12, size=2)), draw(),
                         {"type": "counter_march", "unit": "b"})
    assert rulings[1]["verdict"] == "legal" and rulings[1]["results"][0]["mp"] == 2
    assert state.unit("b").facing == 6
    assert _unit_view(state, "b")["hexes"] == ["0605", "0505"]        # L' = old R, R' = old L


# ------------------------------------------------------------------------------------------ 6.2.3 artillery

def test_cat_16_fired_artillery_may_not_change_facing():
    s = scenario(unit("gun", "art", "0505", 12))
    rulings, state = run(s, draw(), {"type": "face", "unit": "gun", "facing": 2},
                         {"type": "face", "unit": "gun", "facing": 4})
    assert rulings[1]["verdict"] == "legal" and rulings[1]["results"][0]["mp"] == 0
    assert state.unit("gun").fired and state.unit("gun").facing == 2
    assert rulings[2]["verdict"] == "illegal" and rulings[2]["errors"][0]["code"] == "artillery_fired"


def test_cat_17_limbered_guns_turn_free_without_facing():
    rulings, state = run(scenario(unit("gun", "art", "0505", 12, flags=["limbered"])), draw(),
                         {"type": "face", "unit": "gun", "facing": 6})
    assert rulings[1]["verdict"] == "legal" and rulings[1]["rules"] == ["6.2.3"]
    assert state.unit("gun").facing is None and state.unit("gun").mp_spent == 0 and not state.unit("gun").fired


# ------------------------------------------------------------------------------------------ 6.3.1 hits

def test_cat_19_formation_hits_normal_shaken_ma_halved_then_broken_ma_0():
    s = scenario(unit("c", "cav", "0505", 12))          # printed MA 6
    rulings, state = run(s, {"type": "formation_hit", "unit": "c", "source": "melee"})
    assert _results(rulings[0]) == [("c", "shaken")] and _unit_view(state, "c")["ma"] == 3
    rulings, state = run(s, {"type": "formation_hit", "unit": "c", "source": "melee"},
                         {"type": "formation_hit", "unit": "c", "source": "fire"})
    assert _results(rulings[1]) == [("c", "broken")] and _unit_view(state, "c")["ma"] == 0


def test_cat_20_broken_unit_ignores_further_formation_hits():
    s = scenario(unit("c", "cav", "0505", 12, formation="broken"))
    rulings, state = run(s, {"type": "formation_hit", "unit": "c", "source": "melee"})
    assert _results(rulings[0]) == [("c", "ignored")] and state.unit("c").formation == "broken"


# ------------------------------------------------------------------------------------------ [6.4] reform

def test_cat_22_broken_to_normal_two_reform_actions_to_shaken_one():
    hi = _profile(Arm.HEAVY)
    assert reform_actions(hi, "broken", "normal") == ("shaken", "normal")
    assert reform_actions(hi, "broken", "shaken") == ("shaken",)
    s = scenario(unit("h", "hi", "0505", 12, formation="broken"))
    r = last(s, draw(), {"type": "reform", "unit": "h", "to": "normal"})
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "not_one_step"
    end = {"type": "end_activation"}
    rulings, state = run(s, draw(), {"type": "reform", "unit": "h", "to": "shaken"}, end, draw("im"), end,
                         draw(), {"type": "reform", "unit": "h", "to": "normal"})
    assert all(x["verdict"] == "legal" for x in rulings) and state.unit("h").formation == "normal"


def test_cat_23_make_ready_reform_needs_a_leader_stacked_or_adjacent():
    # A Normal cavalry unit keeps MP-RALLY away (it would put the wing under Rally instead).
    far = scenario(unit("h", "hi", "0505", 12, formation="shaken"), unit("c", "cav", "0305", 12),
                   leaders=[leader("teufel", "0909")], options={"default_order": "make_ready"})
    r = last(far, draw(), {"type": "reform", "unit": "h", "to": "normal"})
    assert r["verdict"] == "illegal" and r["errors"][0] == {
        "rule": "6.3.1", "code": "make_ready_needs_leader",
        "message": "under Make Ready a unit reforms only when stacked with or adjacent to a leader"}
    near = scenario(unit("h", "hi", "0505", 12, formation="shaken"), unit("c", "cav", "0305", 12),
                    leaders=[leader("teufel", "0605")],
                    options={"default_order": "make_ready"})
    assert last(near, draw(), {"type": "reform", "unit": "h", "to": "normal"})["verdict"] == "legal"


# ------------------------------------------------------------------------------------------ 6.3.2 Hedgehog

def test_cat_25_only_pike_heavy_infantry_forms_hedgehog():
    for kind in ("cav", "li", "hi"):
        r = last(scenario(unit("u", kind, "0505", 12)), draw(),
                 {"type": "change_formation", "unit": "u", "to": "hedgehog"})
        assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "hedgehog_needs_pikes", kind


def test_cat_26_normal_pike_forms_hedgehog_in_own_activation_for_4_mp():
    rulings, state = run(scenario(unit("p", "pike", "0505", 12)), draw(),
                         {"type": "change_formation", "unit": "p", "to": "hedgehog"})
    assert rulings[1]["verdict"] == "legal" and rulings[1]["results"][0]["mp"] == 4
    assert state.unit("p").formation == "hedgehog" and state.unit("p").mp_spent == 4


def test_cat_28_broken_pike_may_not_form_hedgehog():
    r = last(scenario(unit("p", "pike", "0505", 12, formation="broken")), draw(),
             {"type": "change_formation", "unit": "p", "to": "hedgehog"})
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "hedgehog_from_broken"


def test_cat_29_column_pike_forms_hedgehog_in_own_activation_not_as_reaction():
    s = scenario(unit("p", "pike", "0505", 12, formation="column"), unit("e", "cav", "0502", 6, side="Imperial"))
    own = last(s, draw(), {"type": "change_formation", "unit": "p", "to": "hedgehog"})
    assert own["verdict"] == "legal" and own["results"][0]["mp"] == 4
    reaction = last(s, draw("im"), {"type": "change_formation", "side": "Swedish", "unit": "p", "to": "hedgehog",
                                    "reaction": True})
    assert reaction["verdict"] == "illegal" and reaction["errors"][0]["code"] == "column_no_reaction"


def test_cat_31_attack_on_hedgehog_from_its_rear_hex_is_a_front_attack():
    # Swedish pike at 0505 facing 12: 0506 (SE) is a rear hex; the Imperial cavalry attacks from there.
    events = [draw("im"), {"type": "assaults", "side": "Imperial", "assaults": [{"attackers": ["e"], "target": "0505"}]}]
    line = scenario(unit("p", "pike", "0505", 12), unit("e", "cav", "0506", 12, side="Imperial"))
    assert last(line, *events)["results"][0]["aspect"] == "rear"
    hedgehog = scenario(unit("p", "pike", "0505", 12, formation="hedgehog"), unit("e", "cav", "0506", 12, side="Imperial"))
    r = last(hedgehog, *events)
    assert r["results"][0] == {"unit": "p", "effect": "attack_aspect", "rule": "6.3.2", "attacker": "e",
                               "aspect": "front"}


def test_cat_32_hedgehog_ignores_melee_and_advance_hits_takes_fire_hits_as_losses():
    s = scenario(unit("p", "pike", "0505", 12, formation="hedgehog"))
    rulings, state = run(s, {"type": "formation_hit", "unit": "p", "source": "melee"},
                         {"type": "formation_hit", "unit": "p", "source": "advance"},
                         {"type": "formation_hit", "unit": "p", "source": "fire"})
    assert [_results(r) for r in rulings] == [[("p", "ignored")], [("p", "ignored")], [("p", "loss_hit")]]
    assert state.unit("p").formation == "hedgehog" and state.unit("p").loss_hits == 1


def test_cat_34_hedgehog_morale_breaks_marker_removed_no_formation_no_facing():
    rulings, state = run(scenario(unit("p", "pike", "0505", 12, formation="hedgehog")),
                         {"type": "morale_broken", "unit": "p"})
    assert _results(rulings[0]) == [("p", "morale_broken"), ("p", "marker_removed")]
    u = state.unit("p")
    assert u.formation is None and u.morale_broken and _unit_view(state, "p")["facing"] is None
    assert zones(GRID, state.profile("p"), u) is None


# ------------------------------------------------------------------------------------------ 6.3.3 Open Order

def test_cat_35_normal_to_open_order_one_action_and_back_one():
    hi = _profile(Arm.HEAVY)
    assert reform_actions(hi, "normal", "open_order") == ("open_order",)
    assert reform_actions(hi, "open_order", "normal") == ("normal",)
    rulings, state = run(scenario(unit("h", "hi", "0505", 12)), draw(),
                         {"type": "reform", "unit": "h", "to": "open_order"})
    assert rulings[1]["rules"] == ["6.4", "6.3.3"] and state.unit("h").formation == "open_order"


def test_cat_37_open_order_moves_with_full_ma_and_no_movement_hits():
    # 0504 is woods (2 MP, a formation hit by the default TEC).
    s = scenario(unit("o", "hi", "0505", 12, formation="open_order"), unit("n", "hi", "0305", 12),
                 terrain={"0504": "woods", "0304": "woods"})
    rulings, state = run(s, draw(), {"type": "move", "unit": "o", "path": ["0504"]},
                         {"type": "move", "unit": "n", "path": ["0304"]})
    assert _results(rulings[1]) == [("o", "moved")] and state.unit("o").formation == "open_order"
    assert _unit_view(state, "o")["ma"] == 4
    assert _results(rulings[2]) == [("n", "moved"), ("n", "shaken")]


def test_cat_38_open_order_chosen_secretly_revealed_simultaneously():
    s = scenario(unit("h", "hi", "0505", 12), unit("e", "hi", "0502", 6, side="Imperial"),
                 options={"open_order_choice": True})
    first = {"type": "open_order_setup", "side": "Swedish", "units": ["h"]}
    rulings, state = run(s, first)
    assert _results(rulings[0]) == [(None, "chosen")] and state.unit("h").formation == "normal"
    assert RULESET.view(state, "Imperial")["open_order_choices"] == {"Swedish": "hidden"}
    assert RULESET.view(state, "Swedish")["open_order_choices"] == {"Swedish": ["h"]}
    early = last(s, first, draw())
    assert early["verdict"] == "illegal" and early["errors"][0]["code"] == "open_order_pending"
    rulings, state = run(s, first, {"type": "open_order_setup", "side": "Imperial", "units": ["e"]})
    assert _results(rulings[1]) == [("h", "open_order"), ("e", "open_order")]
    assert "open_order_choices" not in RULESET.view(state, "Imperial")


# ------------------------------------------------------------------------------------------ 6.3.4 Column

def test_cat_40_column_printed_ma_4_becomes_6():
    state = RULESET.initial_state(scenario(unit("h", "hi", "0505", 12, formation="column")))
    assert _unit_view(state, "h")["ma"] == 6


def test_cat_41_column_fired_on_by_artillery_broken_morale_check_first():
    rulings, state = run(scenario(unit("h", "hi", "0505", 12, formation="column")),
                         {"type": "attacked", "unit": "h", "by": "artillery"})
    assert _results(rulings[0]) == [("h", "broken")] and state.unit("h").formation == "broken"
    assert rulings[0]["awaiting"] == [{"type": "morale_check", "side": "Swedish", "unit": "h", "rule": "6.3.4"}]


def test_cat_43_column_to_line_infantry_broken_cavalry_shaken():
    assert reform_actions(_profile(Arm.HEAVY), "column", "normal") == ("broken", "shaken", "normal")
    assert reform_actions(_profile(Arm.CAVALRY), "column", "normal") == ("shaken", "normal")
    s = scenario(unit("h", "hi", "0505", 12, formation="column"), unit("c", "cav", "0305", 12, formation="column"))
    rulings, state = run(s, draw(), {"type": "reform", "unit": "h", "to": "broken"},
                         {"type": "reform", "unit": "c", "to": "shaken"})
    assert [r["verdict"] for r in rulings] == ["legal"] * 3
    assert state.unit("h").formation == "broken" and state.unit("c").formation == "shaken"


def test_cat_44_two_hex_column_front_is_the_former_right_flank_marker_on_right_half():
    state = RULESET.initial_state(scenario(unit("b", "hi", "0505", 12, size=2, formation="column")))
    z = zones(GRID, state.profile("b"), state.unit("b"))
    assert z.front == ("0705",)                           # nbr(R, k+2): east of R = 0605
    assert z.rear == ("0405",)                            # A-M5: behind the tail
    v = _unit_view(state, "b")
    assert v["column_front"] == 3 and v["column_marker"] == "0605"


# ------------------------------------------------------------------------------------------ 6.3.1 markers

def test_cat_46_artillery_or_wagon_given_a_formation_marker_is_illegal():
    s = scenario(unit("gun", "art", "0505", 12), unit("wag", "art", "0507", flags=["wagon"]))
    for uid in ("gun", "wag"):
        for ev in ({"type": "change_formation", "unit": uid, "to": "hedgehog"},
                   {"type": "reform", "unit": uid, "to": "open_order"}):
            r = last(s, draw(), ev)
            assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "no_formation", (uid, ev)


# ------------------------------------------------------------------------------------------ MP-RALLY

def _spent_wing(*extra, **more):
    return scenario(unit("c1", "cav", None, box="eliminated"), unit("c2", "cav", "0505", 12, formation="broken"),
                    unit("h1", "hi", "0305", 12, formation="shaken"), *extra,
                    unit("e", "cav", "0502", 6, side="Imperial"), **more)


def test_cat_47_mp_rally_wing_spent_rally_orders_no_change_no_pass():
    s = _spent_wing(unit("h2", "pike", "0705", 12, formation="broken"))
    rulings, state = run(s, draw())
    assert rulings[0]["results"] == [{"effect": "rally_orders", "rule": "MP-RALLY", "wing": "sw", "order": "rally",
                                      "may_pass": False, "may_change_orders": False}]
    assert state.orders["sw"] == "rally"
    p = last(s, draw(), {"type": "pass"})
    assert p["verdict"] == "illegal" and p["errors"][0]["rule"] == "MP-RALLY"
    o = last(s, draw(), {"type": "order_change", "to": "attack"})
    assert o["verdict"] == "illegal" and o["errors"][0]["code"] == "no_order_change"


def test_cat_49_mp_rally_ignores_light_infantry_and_artillery():
    s = scenario(unit("c1", "cav", None, box="eliminated"), unit("h1", "hi", None, box="eliminated"),
                 unit("li", "li", "0505", 12), unit("gun", "art", "0305", 12),
                 unit("e", "cav", "0502", 6, side="Imperial"))
    rulings, state = run(s, draw())
    assert rulings[0]["rules"] == ["G-M1", "MP-RALLY"] and state.active.rally_forced


def test_cat_50_mp_rally_not_while_a_reinforcement_is_to_enter():
    s = _spent_wing(unit("late", "hi", None), reinforcements=[{"units": ["late"], "entry": ["0110"], "turn": 3}])
    rulings, state = run(s, draw(), {"type": "pass"})
    assert rulings[0]["rules"] == ["G-M1"] and rulings[0]["results"] == []
    assert rulings[1]["verdict"] == "legal" and state.activated == {"sw"} and state.orders["sw"] == "attack"
