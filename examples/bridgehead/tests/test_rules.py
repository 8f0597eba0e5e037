"""Bridgehead's rules, one test per rule, named by its number in the README."""
from __future__ import annotations

from dataclasses import replace

from conftest import END, last, placed, run


def mv(unit, *path, side="American"):
    return {"type": "move", "side": side, "unit": unit, "path": list(path)}


def atk(target, *attackers, roll=None, side="American"):
    e = {"type": "attack", "side": side, "attackers": list(attackers), "target": target}
    if roll is not None:
        e["roll"] = roll
    return e


def effects(ruling):
    return [(x.get("unit"), x["effect"]) for x in ruling["results"]]


# ------------------------------------------------------------------------------------------ 2.0 sequence

def test_2_2_only_the_phasing_player_moves_and_only_in_his_movement_phase(bridgehead):
    s = placed(bridgehead, us_1_27="0203", de_ii_1040="0903")
    r = last(s, mv("de-ii-1040", "0904", side="German"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("2.2", "not_your_turn")
    r = last(s, END, mv("us-1-27", "0303"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("2.2", "combat_phase")
    r = last(s, atk("0903", "us-1-27", roll=1))
    assert r["errors"][0]["code"] == "movement_phase"


def test_2_1_a_game_turn_is_the_first_players_turn_then_the_seconds(bridgehead):
    s = placed(bridgehead, us_1_27="0203", de_ii_1040="0903")
    rulings, state = run(s, END, END, mv("de-ii-1040", "0904", side="German"), END, END)
    assert all(x["verdict"] == "legal" for x in rulings)
    assert state.turn == 2 and state.side == "American" and state.phase == "movement"
    assert rulings[-1]["rules"] == ["2.3", "2.1"]


def test_2_4_and_8_1_after_the_last_turn_the_american_wins_holding_both_vennbruck_hexes(bridgehead):
    one_turn = replace(bridgehead, turns=replace(bridgehead.turns, last=1))
    s = placed(one_turn, us_1_27="0705", us_2_27="0706", de_ii_1040="1109")
    rulings, state = run(s, END, END, END, END)
    assert state.over and state.winner == "American"
    assert rulings[-1]["results"] == [{"effect": "victory", "rule": "8.1", "side": "American",
                                       "hexes": ["0705", "0706"]}]
    assert "8.1" in rulings[-1]["rules"]
    held_one = placed(one_turn, us_1_27="0705", de_ii_1040="1109")
    assert run(held_one, END, END, END, END)[1].winner == "German"
    after = last(s, END, END, END, END, mv("us-1-27", "0704"))
    assert after["errors"][0]["code"] == "game_over" and after["errors"][0]["rule"] == "2.4"


# ------------------------------------------------------------------------------------------ 3.0 stacking

def test_3_1_at_most_two_units_in_a_hex_after_a_move(bridgehead):
    s = placed(bridgehead, us_1_27="0403", us_2_27="0404", us_3_27="0404", de_ii_1040="1109")
    r = last(s, mv("us-1-27", "0404"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("3.1", "overstacked")
    ok = last(placed(bridgehead, us_1_27="0403", us_2_27="0404", de_ii_1040="1109"), mv("us-1-27", "0404"))
    assert ok["verdict"] == "legal" and "3.1" in ok["rules"]


def test_3_2_no_unit_enters_an_enemy_hex(bridgehead):
    r = last(placed(bridgehead, us_1_27="0403", de_ii_1040="0503"), mv("us-1-27", "0503"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("3.2", "enemy_occupied")


# ------------------------------------------------------------------------------------------ 4.0 ZOC

def test_4_3_a_unit_entering_an_enemy_zoc_stops(bridgehead):
    s = placed(bridgehead, us_1_27="0203", de_ii_1040="0503")
    stopped = last(s, mv("us-1-27", "0303", "0403", "0404"))
    assert (stopped["errors"][0]["rule"], stopped["errors"][0]["code"]) == ("4.3", "stopped_by_zoc")
    assert "0403" in stopped["errors"][0]["alternatives"]          # where the unit can go instead
    ok = last(s, mv("us-1-27", "0303", "0403"))
    assert ok["verdict"] == "legal" and {"4.1", "4.3"} <= set(ok["rules"])


def test_4_4_a_unit_may_leave_an_enemy_zoc_but_not_move_from_one_zoc_hex_to_another(bridgehead):
    s = placed(bridgehead, us_1_27="0403", de_ii_1040="0503")
    r = last(s, mv("us-1-27", "0504"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("4.4", "zoc_to_zoc")
    ok = last(s, mv("us-1-27", "0303", "0203"))
    assert ok["verdict"] == "legal" and "4.4" in ok["rules"]


def test_4_2_a_zoc_does_not_cross_the_river_except_at_the_bridge(bridgehead):
    s = placed(bridgehead, us_1_27="0505", de_i_1040="0705")
    # 0604 touches 0705 only across the river: no ZOC there, the unit goes on.
    assert last(s, mv("us-1-27", "0604", "0603"))["verdict"] == "legal"
    # 0605 touches 0705 across the bridge: the ZOC holds it.
    r = last(s, mv("us-1-27", "0605", "0606"))
    assert r["errors"][0]["code"] == "stopped_by_zoc"


# ------------------------------------------------------------------------------------------ 5.0 movement

def test_5_1_a_unit_moves_once_and_within_its_movement_factor(bridgehead):
    s = placed(bridgehead, us_1_27="0101", de_ii_1040="1109")
    far = last(s, mv("us-1-27", "0102", "0103", "0104", "0105", "0106"))
    assert (far["errors"][0]["rule"], far["errors"][0]["code"]) == ("5.1", "not_enough_mp")
    twice = last(s, mv("us-1-27", "0102"), mv("us-1-27", "0103"))
    assert twice["errors"][0]["code"] == "already_moved"
    assert last(s, mv("us-1-27", "0103"))["errors"][0]["code"] == "not_adjacent"


def test_5_2_terrain_costs_depend_on_the_unit_type(bridgehead):
    s = placed(bridgehead, us_14_tk="0303", us_1_27="0403", de_ii_1040="1109")
    tank = last(s, mv("us-14-tk", "0302"))                  # woods: armor 3
    assert tank["results"][0]["mp"] == 3 and "5.2" in tank["rules"]
    inf = last(s, mv("us-1-27", "0402"))                    # woods: infantry 2
    assert inf["results"][0]["mp"] == 2


def test_5_3_along_the_road_a_unit_pays_the_road_cost(bridgehead):
    s = placed(bridgehead, us_14_tk="0205", us_52_aib="0304", de_ii_1040="1109")
    road = last(s, mv("us-14-tk", "0305"))                  # town, but along the Aubel road: 1
    assert road["results"][0]["mp"] == 1 and "5.3" in road["rules"]
    off_road = last(s, mv("us-52-aib", "0305"))             # town off the road: mechanized 2
    assert off_road["results"][0]["mp"] == 2 and "5.3" not in off_road["rules"]


def test_5_4_the_river_is_crossed_only_at_the_bridge(bridgehead):
    s = placed(bridgehead, us_1_27="0605", de_ii_1040="1109")
    r = last(s, mv("us-1-27", "0706"))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("5.4", "prohibited")
    ok = last(s, mv("us-1-27", "0705", "0805"))
    assert ok["verdict"] == "legal" and "5.4" in ok["rules"]


# ------------------------------------------------------------------------------------------ 6.0 combat

def test_6_3_odds_round_in_the_defenders_favour(bridgehead):
    # 8 (two infantry) against 4: 2:1; roll 1 on 2:1 is DR.
    s = placed(bridgehead, us_1_27="0403", us_2_27="0504", de_ii_1040="0503")
    r = last(s, END, atk("0503", "us-1-27", "us-2-27", roll=1))
    odds = r["results"][0]
    assert (odds["attack"], odds["defence"], odds["odds"], odds["column"]) == (8, 4, "2:1", "2:1")
    assert r["rolls"][0] == {"purpose": "combat", "side": "American", "die": "d6", "natural": 1, "modifiers": [],
                             "modified": 1, "result": "DR"}
    # 4 against 4 is 1:1; 7 (armor 7) against 8 would be 1:2.
    one = last(placed(bridgehead, us_1_27="0403", de_ii_1040="0503"), END, atk("0503", "us-1-27", roll=6))
    assert one["results"][0]["odds"] == "1:1"


def test_6_3_odds_worse_than_1_2_may_not_be_attacked_at(bridgehead):
    s = placed(bridgehead, us_b_89="0403", de_pz_312="0503")      # 2 against 5
    r = last(s, END, atk("0503", "us-b-89", roll=1))
    assert (r["errors"][0]["rule"], r["errors"][0]["code"]) == ("6.3", "odds_too_low")


def test_6_4_a_town_shifts_two_columns_left(bridgehead):
    # 10 against 4 is 2:1; Vennbruck (town) shifts it to 1:2, where a 4 is AE.
    s = placed(bridgehead, us_14_tk="0605", us_1_27="0604", de_i_1040="0705")
    r = last(s, END, atk("0705", "us-14-tk", "us-1-27", roll=4))
    odds = r["results"][0]
    assert (odds["odds"], odds["column"]) == ("2:1", "1:2")
    assert odds["shifts"] == [{"columns": -2, "rule": "6.4", "reason": "defender in town"}]
    assert "6.4" in r["rules"] and r["rolls"][0]["result"] == "AE"
    assert set(effects(r)) >= {("us-14-tk", "eliminated"), ("us-1-27", "eliminated")}


def test_6_4_attacking_across_the_river_shifts_one_column_left(bridgehead):
    s = placed(bridgehead, us_1_27="0603", us_2_27="0604", de_iii_1040="0704")
    r = last(s, END, atk("0704", "us-1-27", "us-2-27", roll=6))
    assert r["results"][0]["column"] == "1:1"
    assert r["results"][0]["shifts"] == [{"columns": -1, "rule": "6.4",
                                          "reason": "every attacker across a river hexside"}]


def test_6_2_each_unit_attacks_once_and_each_hex_is_attacked_once(bridgehead):
    every_de = {"crt": {**bridgehead.tables["crt"], "rows": {k: ["DE"] * 7 for k in range(1, 7)}}}
    s = placed(bridgehead, every_de, us_1_27="0403", us_2_27="0504", de_ii_1040="0503", de_i_1040="0404")
    twice = last(s, END, atk("0503", "us-1-27", roll=6), atk("0404", "us-1-27", roll=6))
    assert twice["errors"][0]["code"] == "unit_already_attacked"
    s = placed(bridgehead, us_1_27="0403", us_2_27="0504", de_ii_1040="0503", de_i_1040="0404")
    again = last(s, END, atk("0503", "us-1-27", roll=6), atk("0503", "us-2-27", roll=6))     # a 6 at 1:1 is AE
    assert again["errors"][0]["code"] == "hex_already_attacked"
    far = last(placed(bridgehead, us_2_27="0504", de_i_1040="0101"), END, atk("0101", "us-2-27", roll=6))
    assert far["errors"][0]["code"] == "not_adjacent"


def test_6_5_the_result_is_read_from_the_games_tables_file(bridgehead):
    every_de = {"crt": {**bridgehead.tables["crt"],
                        "rows": {k: ["DE"] * 7 for k in range(1, 7)}}}
    s = placed(bridgehead, every_de, us_1_27="0403", de_ii_1040="0503")
    r = last(s, END, atk("0503", "us-1-27", roll=6))
    assert r["rolls"][0]["result"] == "DE" and ("de-ii-1040", "eliminated") in effects(r)


def test_6_5_an_omitted_roll_is_owed_as_a_d6_and_a_roll_no_d6_shows_is_refused(bridgehead):
    s = placed(bridgehead, us_1_27="0403", de_ii_1040="0503")
    rulings, state = run(s, END, atk("0503", "us-1-27"), {"type": "roll", "roll": 0}, {"type": "roll", "roll": 6})
    owed, zero, six = rulings[1:]
    assert owed["rolls"][0]["natural"] is None and owed["rolls"][0]["die"] == "d6"
    assert owed["awaiting"] == [{"type": "roll", "side": "American", "rule": "6.5"}]
    assert zero["errors"][0]["code"] == "not_on_the_die"
    assert six["verdict"] == "legal" and six["rolls"][0]["natural"] == 6


# ------------------------------------------------------------------------------------------ 7.0 results

def test_7_1_ex_eliminates_the_defenders_and_the_strongest_attacker(bridgehead):
    s = placed(bridgehead, us_14_tk="0403", us_1_27="0504", de_ii_1040="0503")
    # 10 against 4: 2:1; a 3 is EX.
    r = last(s, END, atk("0503", "us-1-27", "us-14-tk", roll=3))
    assert r["rolls"][0]["result"] == "EX"
    assert set(effects(r)) == {(None, "odds"), (None, "combat_result"), ("de-ii-1040", "eliminated"),
                               ("us-14-tk", "eliminated")}


def test_7_1_de_at_4_to_1(bridgehead):
    s = placed(bridgehead, us_1_27="0403", us_2_27="0504", us_3_27="0603", de_pgr_88="0503")   # 12 : 3
    r = last(s, END, atk("0503", "us-1-27", "us-2-27", "us-3-27", roll=1))
    assert r["results"][0]["odds"] == "4:1" and r["rolls"][0]["result"] == "DE"


def test_7_3_dr_the_owner_retreats_two_hexes_farther_each_time_then_7_6_the_attacker_may_advance(bridgehead):
    s = placed(bridgehead, us_1_27="0403", us_2_27="0504", de_ii_1040="0503")
    attack = atk("0503", "us-1-27", "us-2-27", roll=1)
    r = last(s, END, attack)
    assert r["awaiting"] == [{"type": "retreat", "side": "German", "unit": "de-ii-1040", "rule": "7.3"}]
    # Before the retreat nothing else may happen, and only the owner retreats.
    assert last(s, END, attack, END)["errors"][0]["code"] == "retreat_owed"
    bad = last(s, END, attack, {"type": "retreat", "side": "German", "unit": "de-ii-1040", "path": ["0502"]})
    assert bad["errors"][0]["code"] == "retreat_length"
    paths = bad["errors"][0]["alternatives"]
    assert paths and all(len(p) == 2 for p in paths)
    # 7.4: never into an enemy zone of control (0402 is next to us-1-27).
    assert not any("0402" in p for p in paths)
    back = {"type": "retreat", "side": "German", "unit": "de-ii-1040", "path": paths[0]}
    ok = last(s, END, attack, back)
    assert ok["verdict"] == "legal" and ok["results"] == [{"unit": "de-ii-1040", "effect": "retreated",
                                                           "rule": "7.3", "to": paths[0][-1]}]
    adv = last(s, END, attack, back, {"type": "advance", "side": "American", "units": ["us-1-27"], "to": "0503"})
    assert adv["verdict"] == "legal" and adv["results"][0]["effect"] == "advanced"


def test_7_4_a_retreat_may_not_cross_the_river_but_at_the_bridge(bridgehead):
    s = placed(bridgehead, us_1_27="0505", us_2_27="0506", de_ii_1040="0605")
    r = last(s, END, atk("0605", "us-1-27", "us-2-27", roll=1))
    assert r["rolls"][0]["result"] == "DR"
    bad = last(s, END, atk("0605", "us-1-27", "us-2-27", roll=1),
               {"type": "retreat", "side": "German", "unit": "de-ii-1040", "path": ["0706", "0806"]})
    assert bad["errors"][0]["code"] == "river"
    assert ["0705", "0805"] in bad["errors"][0]["alternatives"]


def test_7_5_a_unit_that_cannot_retreat_is_eliminated(bridgehead):
    s = placed(bridgehead, us_1_27="0201", us_2_27="0102", de_ii_1040="0101")
    r = last(s, END, atk("0101", "us-1-27", "us-2-27", roll=1))
    assert r["rolls"][0]["result"] == "DR"
    assert ("de-ii-1040", "eliminated") in effects(r) and "7.5" in r["rules"] and r["awaiting"] == []


def test_7_1_ar_the_attackers_retreat_one_hex(bridgehead):
    s = placed(bridgehead, us_1_27="0403", us_2_27="0504", de_ii_1040="0503")
    r = last(s, END, atk("0503", "us-1-27", "us-2-27", roll=4))
    assert r["rolls"][0]["result"] == "AR"
    assert [a["unit"] for a in r["awaiting"]] == ["us-1-27", "us-2-27"]
    assert all(a["side"] == "American" for a in r["awaiting"])


def test_7_6_the_advance_lapses_when_the_attacker_does_anything_else(bridgehead):
    s = placed(bridgehead, us_1_27="0403", us_2_27="0102", de_ii_1040="0503", de_i_1040="0101")
    kill = atk("0503", "us-1-27", roll=1)          # 4:4 = 1:1, a 1 is DR... the defender retreats
    rulings, state = run(s, END, kill)
    r = rulings[-1]
    assert r["rolls"][0]["result"] == "DR"
    path = None
    for alt in last(s, END, kill, {"type": "retreat", "side": "German", "unit": "de-ii-1040",
                                   "path": ["0503"]})["errors"][0]["alternatives"]:
        path = alt
        break
    retreat = {"type": "retreat", "side": "German", "unit": "de-ii-1040", "path": path}
    lapsed = last(s, END, kill, retreat, atk("0101", "us-2-27", roll=6),
                  {"type": "advance", "side": "American", "units": ["us-1-27"], "to": "0503"})
    assert lapsed["errors"][0]["code"] == "no_advance"
    not_attacker = last(s, END, kill, retreat, {"type": "advance", "side": "American", "units": ["us-2-27"],
                                                "to": "0503"})
    assert not_attacker["errors"][0]["code"] == "not_an_attacker"
