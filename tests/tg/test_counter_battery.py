"""8.7 counter-battery fire as an event (``counter_battery``: side, unit, target, roll): a Good-Order battery
fired at by artillery answers once per activation, after the fire and its owed checks, before the assaults
are declared; the normal range, LOS and arc rules apply and it never triggers counter-battery itself."""
from __future__ import annotations

from .games import FR, RU, ag, art, at, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]
GUN_HEX = "0402"          # two hexes north of DEF_HEX (0404)


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def duel(ru_facing: int = 12, **ru):
    """A French battery facing 6 and a Russian battery (with an infantry escort behind) facing it."""
    sc = game_scenario(
        at(napoleon(), "0101"), at(kutuzov(), "0808"),
        at(art("gun", fire=3, eff_range=2, max_range=4, cohesion=5, name="Gun"), GUN_HEX, facing=6),
        at(inf("fa", cohesion=5), "0405", facing=12),
        at(art("rgun", RU, ag="ru-2", fire=3, eff_range=2, max_range=4, cohesion=5, name="Russian gun", **ru),
           DEF_HEX, facing=ru_facing),
        ags=AGS)
    p = play(sc)
    p.ok("orders", side=FR, under_orders=["gun", "fa"])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker="i-corps")
    return p


def test_8_7_a_battery_fired_at_answers_the_firing_battery():
    p = duel()
    r = p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    assert r["rolls"][0]["result"] == "none", r["rolls"]
    r = p.ok("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=9)
    roll = r["rolls"][0]
    assert (roll["purpose"], roll["natural"], roll["unit"]) == ("fire", 9, "rgun")
    assert r["rules"][0] == "8.7"
    # the same fire table and modifiers as ordinary fire at that range (8.3): strength 3, the target is artillery
    assert roll["modified"] == 9 + sum(m["value"] for m in roll["modifiers"])
    assert roll["result"] != "none"
    hit = {x["unit"] for x in r["results"]} | {a["unit"] for a in r["awaiting"] if "unit" in a}
    assert hit == {"gun"}


def test_8_7_at_most_once_per_activation():
    p = duel()
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    p.ok("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0)
    assert ("8.7", "counter_battery_used") in errors(p("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0))


def test_8_7_only_at_artillery_that_fired_at_it():
    p = duel()
    assert ("8.7", "counter_battery_target") in errors(p("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0))
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    r = p("counter_battery", side=RU, unit="rgun", target="0405", roll=0)
    assert ("8.7", "counter_battery_target") in errors(r)
    assert r["errors"][0]["alternatives"] == [GUN_HEX]


def test_8_7_is_the_fired_at_sides_and_comes_before_the_declaration():
    p = duel()
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    assert errors(p("counter_battery", side=FR, unit="gun", target=DEF_HEX, roll=0)) == [("8.7", "not_fired_at")]
    p.ok("assaults", side=FR, assaults=[{"attackers": ["fa"], "target": [DEF_HEX]}])
    assert errors(p("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0)) == [
        ("8.7", "counter_battery_after_declaration")]


def test_8_7_normal_arc_rules_apply():
    # facing 6 the Russian battery has the French gun behind it: no fire out of its arc (8.4)
    p = duel(ru_facing=6)
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    codes = errors(p("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0))
    assert codes and all(rule.startswith("8.") for rule, _ in codes) and ("8.7", "counter_battery_target") not in codes


def test_8_7_a_battery_disordered_by_the_fire_cannot_answer():
    p = duel()
    r = p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=9)        # 9 + 3 = 12: the battery checks (8.5)
    assert r["awaiting"] == [{"type": "cohesion_check", "side": RU, "unit": "rgun", "rule": "8.5"}]
    assert errors(p("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0)) == [("8.7", "acts_owed")]
    p.ok("cohesion_check", side=RU, unit="rgun", roll=9)                       # 9 > 5: Disordered
    assert p.state.unit("rgun").disordered
    assert errors(p("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0)) == [
        ("8.7", "cannot_counter_battery")]


def test_8_7_a_battery_that_passed_its_check_answers():
    p = duel()
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=9)
    p.ok("cohesion_check", side=RU, unit="rgun", roll=5)
    p.ok("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0)


def test_8_7_counter_battery_does_not_itself_open_counter_battery():
    p = duel()
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    p.ok("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=0)
    assert p.state.activation.combat.fired_at_by == {DEF_HEX: ("gun",)}


def test_8_7_the_random_player_is_offered_counter_battery():
    from referee.rulesets.triumph_and_glory.legal import legal_actions
    p = duel()
    assert not [a for a in legal_actions(p.state) if a["type"] == "counter_battery"]
    p.ok("fire", side=FR, units=["gun"], target=DEF_HEX, roll=0)
    offered = [a for a in legal_actions(p.state) if a["type"] == "counter_battery"]
    assert offered == [{"type": "counter_battery", "side": RU, "unit": "rgun", "target": GUN_HEX}]
    p.ok("counter_battery", side=RU, unit="rgun", target=GUN_HEX, roll=3)
    assert not [a for a in legal_actions(p.state) if a["type"] == "counter_battery"]
