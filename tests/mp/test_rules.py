"""Rules beyond the catalogue items: 6.2.4 reaction fire, wheel limits, two-hex movement, the 6.3.1 seed
example, A-M4/A-M7/A-M8 defaults, 6.3.2c, the activation sequence and bad input."""
from __future__ import annotations

import json
import subprocess
import sys

from referee.rulesets.musket_and_pike import RULESET
from referee.rulesets.musket_and_pike.facing_changes import face_cost, vertex_steps
from referee.rulesets.musket_and_pike.profile import Arm, Profile
from referee.rulesets.musket_and_pike.state import UnitState

from .helpers import draw, last, run, scenario, unit, unit_view

END = {"type": "end_activation"}


def _effects(ruling):
    return [(r.get("unit"), r["effect"]) for r in ruling["results"]]


# ------------------------------------------------------------------------------------------ 6.2.1 / 6.2.2

def test_vertex_steps_count_the_short_way_round():
    assert [vertex_steps(12, f) for f in (12, 2, 4, 6, 8, 10)] == [0, 1, 2, 3, 2, 1]


def test_face_cost_takes_a_counter_march_when_cheaper():
    hi = Profile("u", "u", "S", "w", Arm.HEAVY, 1, False, 4)
    cav = Profile("u", "u", "S", "w", Arm.CAVALRY, 1, False, 6)
    u = UnitState(hex="0505", facing=12, formation="normal")
    # HI: one step 2; two steps 4 (a counter-march and one step back would also be 4); 180 = counter-march 2
    assert [face_cost(hi, u, f) for f in (2, 4, 6)] == [2, 4, 2]
    assert [face_cost(cav, u, f) for f in (2, 4, 6)] == [1, 2, 2]


def test_wheel_backwards_or_two_vertices_is_illegal():
    r = last(scenario(unit("b", "hi", "0505", 12, size=2)), draw(), {"type": "wheel", "unit": "b", "facing": 4})
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "not_a_forward_wheel"
    assert r["errors"][0]["alternatives"] == [10, 2]


def test_wheel_pays_the_terrain_of_the_hex_entered():
    # The centre front hex 0504 is woods: 1 + 2 MP.
    r = last(scenario(unit("b", "hi", "0505", 12, size=2), terrain={"0504": "woods"}), draw(),
             {"type": "wheel", "unit": "b", "facing": 10})
    assert r["results"][0]["mp"] == 3


def test_wheel_needs_the_mp_and_a_single_hex_unit_cannot_wheel():
    s = scenario(unit("b", "hi", "0505", 12, size=2, formation="shaken"), unit("h", "hi", "0305", 12),
                 unit("c", "cav", "0105", 12))      # shaken: MA 4 -> 2
    ok = last(s, draw(), {"type": "wheel", "unit": "b", "facing": 10})
    assert ok["verdict"] == "legal"
    rulings, _ = run(s, draw(), {"type": "wheel", "unit": "b", "facing": 10}, {"type": "wheel", "unit": "b", "facing": 8})
    assert rulings[2]["errors"][0] == {"rule": "6.2.1", "code": "not_enough_mp", "message": "costs 2 MP; 0 left"}
    r = last(s, draw(), {"type": "wheel", "unit": "h", "facing": 10})
    assert r["errors"][0]["code"] == "not_a_two_hex_line"


# ------------------------------------------------------------------------------------------ 6.2.4

def test_facing_change_next_to_an_enemy_awaits_its_reaction_fire():
    s = scenario(unit("c", "cav", "0505", 12), unit("e", "cav", "0504", 6, side="Imperial"),
                 unit("far", "cav", "0502", 6, side="Imperial"))
    r = last(s, draw(), {"type": "face", "unit": "c", "facing": 2})
    assert r["awaiting"] == [{"type": "reaction_fire", "side": "Imperial", "unit": "e", "rule": "6.2.4"}]
    alone = last(scenario(unit("c", "cav", "0505", 12), unit("far", "cav", "0502", 6, side="Imperial")),
                 draw(), {"type": "face", "unit": "c", "facing": 2})
    assert alone["awaiting"] == []


def test_wheel_into_contact_awaits_reaction_fire_from_the_new_neighbour():
    # After pivoting on L, R stands in 0504, adjacent to the enemy at 0503.
    s = scenario(unit("b", "hi", "0505", 12, size=2), unit("e", "cav", "0503", 6, side="Imperial"))
    r = last(s, draw(), {"type": "wheel", "unit": "b", "facing": 10})
    assert [a["unit"] for a in r["awaiting"]] == ["e"]


# ------------------------------------------------------------------------------------------ movement

def test_two_hex_line_steps_forward_with_both_halves():
    rulings, state = run(scenario(unit("b", "hi", "0505", 12, size=2)), draw(),
                         {"type": "move", "unit": "b", "path": ["0504"]})
    assert rulings[1]["results"] == [{"unit": "b", "effect": "moved", "rule": "G-M3", "to": "0504",
                                      "hexes": ["0504", "0604"], "mp": 1}]
    assert unit_view(state, "b")["hexes"] == ["0504", "0604"]


def test_two_hex_column_moves_head_first_and_turns_its_head_for_2_mp():
    s = scenario(unit("b", "hi", "0505", 12, size=2, formation="column"))
    rulings, state = run(s, draw(), {"type": "move", "unit": "b", "path": ["0605", "0705"]},
                         {"type": "face", "unit": "b", "facing": 2})
    v = unit_view(state, "b")
    assert [r["verdict"] for r in rulings] == ["legal"] * 3
    assert rulings[2]["results"][0]["mp"] == 2                  # A-M4
    assert v["column_marker"] == "0805" and v["column_front"] == 5 and v["hexes"] == ["0704", "0805"]


def test_seed_example_two_formation_hits_leave_a_normal_unit_broken_open_order_none():
    # 6.3.1 example: steep slope and water on the way, 4 MP for two hexes.  Both hexsides lie on the
    # second step (0504 -> 0503), so the Normal unit is hit twice there and ends Broken.
    sides = [{"hexes": ["0504", "0503"], "feature": "steep"}, {"hexes": ["0504", "0503"], "feature": "stream"},
             {"hexes": ["0304", "0303"], "feature": "steep"}, {"hexes": ["0304", "0303"], "feature": "stream"}]
    s = scenario(unit("n", "hi", "0505", 12), unit("o", "hi", "0305", 12, formation="open_order"), hexsides=sides)
    rulings, state = run(s, draw(), {"type": "move", "unit": "n", "path": ["0504", "0503"]},
                         {"type": "move", "unit": "o", "path": ["0304", "0303"]})
    assert _effects(rulings[1]) == [("n", "moved"), ("n", "shaken"), ("n", "broken")]
    assert rulings[1]["results"][0]["mp"] == 4
    assert state.unit("n").formation == "broken" and state.unit("o").formation == "open_order"
    assert _effects(rulings[2]) == [("o", "moved")]


def test_a_m7_a_hit_cuts_the_remaining_allowance_at_once():
    # First step into woods (2 MP, a hit): Shaken, MA 4 -> 2, nothing left for the next hex.
    s = scenario(unit("n", "hi", "0505", 12), terrain={"0504": "woods"})
    r = last(s, draw(), {"type": "move", "unit": "n", "path": ["0504", "0503"]})
    assert r["verdict"] == "illegal" and r["errors"][0]["code"] == "not_enough_mp"


def test_a_m8_shaken_rounds_down_unless_the_scenario_rounds_up():
    odd = unit("c", "cav", "0505", 12, formation="shaken", ma=7)
    assert unit_view(RULESET.initial_state(scenario(odd)), "c")["ma"] == 3
    up = scenario(odd, options={"shaken_ma_rounding": "up"})
    assert unit_view(RULESET.initial_state(up), "c")["ma"] == 4


def test_moves_go_into_front_hexes_only_and_not_into_enemies():
    s = scenario(unit("c", "cav", "0505", 12), unit("e", "cav", "0504", 6, side="Imperial"))
    back = last(s, draw(), {"type": "move", "unit": "c", "path": ["0506"]})
    assert back["errors"][0]["code"] == "not_a_front_hex" and back["errors"][0]["alternatives"] == ["0404", "0504"]
    into = last(s, draw(), {"type": "move", "unit": "c", "path": ["0504"]})
    assert into["errors"][0]["code"] == "enemy_occupied"


def test_hedgehog_does_not_move_and_leaving_it_restores_the_old_facing():
    s = scenario(unit("p", "pike", "0505", 2))
    rulings, state = run(s, draw(), {"type": "change_formation", "unit": "p", "to": "hedgehog"},
                         {"type": "move", "unit": "p", "path": ["0504"]}, END, draw("im"), END,
                         draw(), {"type": "reform", "unit": "p", "to": "broken"})
    assert rulings[2]["errors"][0]["code"] == "hedgehog_no_move"
    assert state.unit("p").formation == "broken" and state.unit("p").facing == 2
    assert rulings[7]["rules"] == ["6.4", "6.3.2"]


def test_shaken_pike_forms_hedgehog_only_as_a_reaction_and_is_flipped_to_its_front():
    s = scenario(unit("p", "pike", "0505", 12, formation="shaken"), unit("c", "cav", "0305", 12),
                 unit("e", "cav", "0502", 6, side="Imperial"))
    own = last(s, draw(), {"type": "change_formation", "unit": "p", "to": "hedgehog"})
    assert own["errors"][0]["code"] == "hedgehog_shaken_only_reaction"
    rulings, state = run(s, draw("im"), {"type": "change_formation", "side": "Swedish", "unit": "p",
                                         "to": "hedgehog", "reaction": True})
    assert _effects(rulings[1]) == [("p", "hedgehog"), ("p", "front_face")] and rulings[1]["results"][0]["mp"] == 0


def test_two_hex_column_forms_line_facing_either_way():
    s = scenario(unit("b", "hi", "0505", 12, size=2, formation="column"))
    rulings, state = run(s, draw(), {"type": "reform", "unit": "b", "to": "broken", "facing": 6})
    assert state.unit("b").facing == 6 and unit_view(state, "b")["hexes"] == ["0605", "0505"]
    bad = last(s, draw(), {"type": "reform", "unit": "b", "to": "broken", "facing": 2})
    assert bad["errors"][0]["code"] == "bad_line_facing"


def test_nobody_forms_column_during_play():
    r = last(scenario(unit("h", "hi", "0505", 12)), draw(), {"type": "change_formation", "unit": "h", "to": "column"})
    assert r["errors"][0]["code"] == "no_column_in_play"


def test_column_and_hedgehog_may_not_start_a_melee():
    for formation, rule in (("column", "6.3.4"), ("hedgehog", "6.3.2")):
        s = scenario(unit("p", "pike", "0505", 12, formation=formation), unit("e", "cav", "0504", 6, side="Imperial"))
        r = last(s, draw(), {"type": "assaults", "assaults": [{"attackers": ["p"], "target": "0504"}]})
        assert r["errors"][0]["code"] == "may_not_start_melee" and r["errors"][0]["rule"] == rule


def test_melee_against_a_column_breaks_it_and_awaits_its_morale_check_first():
    s = scenario(unit("c", "cav", "0505", 12), unit("e", "hi", "0504", 6, side="Imperial", formation="column"))
    r = last(s, draw(), {"type": "assaults", "assaults": [{"attackers": ["c"], "target": "0504"}]})
    assert ("e", "broken") in _effects(r)
    assert r["awaiting"][0] == {"type": "morale_check", "side": "Imperial", "unit": "e", "rule": "6.3.4"}


# ------------------------------------------------------------------------------------------ activation

def test_a_turn_ends_when_every_wing_has_been_activated_and_the_game_after_the_last():
    s = scenario(unit("c", "cav", "0505", 12), unit("e", "cav", "0502", 6, side="Imperial"), turns=2)
    rulings, state = run(s, draw(), END, draw("im"), {"type": "pass", "side": "Imperial"})
    assert state.turn == 2 and state.activated == frozenset() and not state.over
    again = last(s, draw(), END, draw())
    assert again["errors"][0]["code"] == "already_activated"
    _, state = run(s, draw(), END, draw("im"), END, draw("im"), END, draw(), END)
    assert state.over and RULESET.legal_actions(state) == []


def test_only_the_active_wing_acts_and_a_wing_that_acted_cannot_pass():
    s = scenario(unit("c", "cav", "0505", 12), unit("e", "cav", "0502", 6, side="Imperial"))
    other = last(s, draw(), {"type": "face", "side": "Imperial", "unit": "e", "facing": 8})
    assert other["errors"][0]["code"] == "not_your_activation"
    other = last(s, draw(), {"type": "face", "unit": "e", "facing": 8})
    assert other["errors"][0]["code"] == "not_in_active_wing"
    late = last(s, draw(), {"type": "face", "unit": "c", "facing": 2}, {"type": "pass"})
    assert late["errors"][0]["code"] == "already_acted"
    change = last(s, draw(), {"type": "order_change", "to": "rally"})
    assert change["verdict"] == "legal" and change["results"][0]["order"] == "rally"


def test_bad_references_are_input_errors_not_rulings(tmp_path):
    doc = {"scenario": "mp-sample", "events": [{"type": "draw", "wing": "no-such-wing"},
                                              {"type": "face", "unit": "ghost", "facing": 2}]}
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    out = subprocess.run([sys.executable, "-m", "referee", "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 1
    assert "events[0].wing: no wing 'no-such-wing' in the scenario" in out.stderr
    assert "events[1].unit: no unit 'ghost' in the scenario" in out.stderr


def test_cli_rules_a_sample_log(tmp_path):
    doc = {"scenario": "mp-sample", "events": [
        {"type": "open_order_setup", "side": "Swedish", "units": []},
        {"type": "open_order_setup", "side": "Imperial", "units": []},
        {"type": "draw", "wing": "sw-centre"},
        {"type": "wheel", "unit": "sw-blue-brigade", "facing": 2},
        {"type": "face", "unit": "sw-yellow-brigade", "facing": 2}]}
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    out = subprocess.run([sys.executable, "-m", "referee", "check", str(path), "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rulings = json.loads(out.stdout)["rulings"]
    assert [r["verdict"] for r in rulings] == ["legal"] * 4 + ["illegal"]
    # Pivot on the right half (0808): the left half swings into the centre front hex 0807.
    assert rulings[3]["results"][0] == {"unit": "sw-blue-brigade", "effect": "faced", "rule": "6.2.1",
                                        "facing": 2, "hex": "0807", "mp": 2}
    assert rulings[4]["errors"][0]["code"] == "must_wheel"


def test_reinforcement_enters_on_its_turn_at_its_entry_hex_and_ends_the_rally_exemption():
    s = scenario(unit("c", "cav", "0505", 12, formation="broken"), unit("late", "hi", None),
                 unit("e", "cav", "0502", 6, side="Imperial"),
                 reinforcements=[{"units": ["late"], "entry": ["0110"], "turn": 2}])
    early = last(s, draw(), {"type": "enter", "unit": "late", "hex": "0110", "facing": 12})
    assert early["errors"][0]["code"] == "too_early"
    turn2 = [draw(), END, draw("im"), END, draw()]
    wrong = last(s, *turn2, {"type": "enter", "unit": "late", "hex": "0109", "facing": 12})
    assert wrong["errors"][0]["code"] == "not_an_entry_hex" and wrong["errors"][0]["alternatives"] == ["0110"]
    rulings, state = run(s, *turn2, {"type": "enter", "unit": "late", "hex": "0110", "facing": 12,
                                     "formation": "column"})
    assert rulings[-1]["results"] == [{"unit": "late", "effect": "entered", "rule": "6.3.4", "hex": "0110",
                                       "formation": "column", "mp": 1}]
    assert state.unit("late").on_map and state.unit("late").formation == "column"


def test_a_morale_broken_two_hex_unit_still_covers_both_hexes_but_faces_nothing():
    rulings, state = run(scenario(unit("b", "pike", "0505", 12, size=2)), {"type": "morale_broken", "unit": "b"})
    v = unit_view(state, "b")
    assert v["hexes"] == ["0505", "0605"] and v["facing"] is None and v["formation"] is None


def test_reaction_fire_is_offered_only_to_units_that_may_fire():
    # Around the turning cavalry at 0505: a column (6.3.4), a Hedgehog (6.3.2a), a wagon, a limbered gun, a gun
    # stacked with the Hedgehog - none may fire; the musketeers at 0406 may.
    s = scenario(unit("c", "cav", "0505", 12),
                 unit("col", "hi", "0504", 6, side="Imperial", formation="column"),
                 unit("hh", "pike", "0404", 6, side="Imperial", formation="hedgehog"),
                 unit("gun", "art", "0404", 6, side="Imperial"),
                 unit("wag", "art", "0605", side="Imperial", flags=["wagon"]),
                 unit("limb", "art", "0506", side="Imperial", flags=["limbered"]),
                 unit("mus", "li", "0406", 12, side="Imperial"))
    r = last(s, draw(), {"type": "face", "unit": "c", "facing": 2})
    assert r["awaiting"] == [{"type": "reaction_fire", "side": "Imperial", "unit": "mus", "rule": "6.2.4"}]


def test_counter_march_of_guns_free_when_limbered_illegal_when_unlimbered():
    s = scenario(unit("limb", "art", "0505", flags=["limbered"]), unit("gun", "art", "0305", 12))
    free = last(s, draw(), {"type": "counter_march", "unit": "limb"})
    assert free["verdict"] == "legal" and _effects(free) == [("limb", "no_facing")]
    no = last(s, draw(), {"type": "counter_march", "unit": "gun"})
    assert no["errors"][0]["code"] == "artillery_turns_instead_of_firing" and no["errors"][0]["rule"] == "6.2.3"
