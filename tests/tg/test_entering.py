"""5.63 and every way into a hex (issue 18, point 1): whatever way an enemy unit enters the hex of a
commander-in-chief — move, reinforcement entry, advance, pursuit, charge, counter-shock move, fall-back,
retreat, recovery, the burning unit's move — he is moved at once to the nearest of his own units (seed: «вне
зависимости в результате движения или боя … немедленно (!)»), the ruling reports it and cites 5.63.

Geometry (tests/tg/helpers_combat.py): a defender in 0404 facing 12 has 0403 / 0503 in front, 0405 / 0505
behind; an attacker in 0403 faces 6 to have 0404 in front."""
from __future__ import annotations

from dataclasses import replace

from modulebuilder.model import Reinforcement

from .games import FR, RU, ag, at, cav, game_scenario, inf, kutuzov, napoleon, play
from .helpers_combat import DEF_HEX, FRONT_L, REAR_L, REAR_R

AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]


def g(*placed, nap="0101", kut="0808", **kw):
    return game_scenario(at(napoleon(), nap), at(kutuzov(), kut), *placed, ags=AGS, **kw)


def start(p, fr=(), ru=(), first="i-corps"):
    p.ok("orders", side=FR, under_orders=list(fr))
    p.ok("orders", side=RU, under_orders=list(ru))
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker=first)


def displaced(r, p, cinc, hex_):
    """The CinC left ``hex_`` at once, onto a hex of his own side's units, reported with 5.63 and cited."""
    moved = [x for x in r["results"] if x.get("unit") == cinc and x["effect"] == "moved"]
    assert moved and moved[0]["rule"] == "5.63", r["results"]
    now = p.state.unit(cinc).hex
    assert now == moved[0]["to"] and now != hex_
    own = p.state.unit(cinc).side
    assert any(u.side == own for u in p.state.board.stack(now)), "onto (or next to) his own units"
    assert "5.63" in r["rules"]


def test_5_63_move_displaces_the_cinc():
    p = play(g(at(inf("a"), "0304"), at(inf("r", RU, ag="ru-2"), "0601", facing=6), kut="0404"))
    start(p, fr=["a"])
    r = p.ok("move", side=FR, unit="a", path=["0404"])
    displaced(r, p, "kutuzov", "0404")


def test_5_63_reinforcement_entry_displaces_the_cinc():
    sc = g(at(inf("a"), "0808"), at(inf("l1"), None, box="reinforcement"),
           at(inf("r", RU, ag="ru-2"), "0601", facing=6), kut="0108", nap="0807")
    sc = replace(sc, reinforcements=(Reinforcement(units=("l1",), entry=("0108",), turn=1, ag="i-corps"),))
    p = play(sc)
    start(p, fr=["a"])
    r = p.ok("move", side=FR, unit="l1", path=["0108"])
    displaced(r, p, "kutuzov", "0108")


def shock_to_retreat(*more, nap="0101", kut="0808"):
    """The seed's worked shock (main digest 9.6): stack B against a jäger in 0404; a 5 becomes 8, the jäger
    fails its check and must retreat."""
    p = play(g(at(inf("b1", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
               at(inf("b2", assault=7, cohesion=6, brigade="B"), FRONT_L, facing=6),
               at(inf("jgr", RU, ag="ru-2", assault=5, cohesion=6), DEF_HEX, facing=12), *more, nap=nap, kut=kut))
    start(p, fr=["b1"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["b1", "b2"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="b1", roll=0)
    p.ok("shock", side=FR, assault=0, roll=5)
    p.ok("cohesion_check", side=RU, unit="jgr", roll=7)
    return p


def test_5_63_advance_after_combat_displaces_the_cinc_left_in_the_vacated_hex():
    """The issue's case: Kutuzov stacked with a unit that retreats; the attacker's advance into the hex."""
    p = shock_to_retreat(kut=DEF_HEX)
    r = p.ok("retreat", side=RU, unit="jgr", to=REAR_L)
    assert p.state.unit("kutuzov").hex == DEF_HEX            # a CinC does not retreat with the stack
    r = p.ok("advance", side=FR, units=["b1", "b2"], to=DEF_HEX)
    displaced(r, p, "kutuzov", DEF_HEX)
    assert p.state.unit("kutuzov").hex == REAR_L              # the nearest Russian unit, the jäger


def test_5_63_retreat_displaces_the_cinc():
    p = shock_to_retreat(at(inf("far"), "0808"), nap=REAR_L, kut="0101")
    r = p.ok("retreat", side=RU, unit="jgr", to=REAR_L)
    displaced(r, p, "napoleon", REAR_L)


START, VIA = "0402", "0403"


def charge_game(*more, nap="0101", kut="0808"):
    return g(at(cav("cuir", cav_type="H", assault=8, cohesion=5), START, facing=6),
             at(inf("r", RU, ag="ru-2", assault=2, cohesion=6, dfe=2), DEF_HEX, facing=12), *more, nap=nap, kut=kut)


def test_5_63_charge_move_displaces_the_cinc():
    p = play(charge_game(at(inf("r2", RU, ag="ru-2"), "0808"), kut=VIA))
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    p.ok("commitment", side=FR, unit="cuir", roll=0)
    r = p.ok("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX, facing=6)
    displaced(r, p, "kutuzov", VIA)


def test_5_63_pursuit_displaces_the_cinc_left_in_the_vacated_hex():
    p = play(charge_game(kut=DEF_HEX))
    start(p, fr=["cuir"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["cuir"], "target": [DEF_HEX], "charge": True}])
    p.ok("commitment", side=FR, unit="cuir", roll=0)
    p.ok("charge", side=FR, unit="cuir", path=[VIA], target=DEF_HEX, facing=6)
    p.ok("shock", side=FR, assault=0, roll=3)                 # 10: Disordered, retreat, pursuit (gaps §7)
    p.ok("retreat", side=RU, unit="r", to=REAR_L)
    r = p.ok("pursuit", side=FR, units=["cuir"], to=DEF_HEX)
    displaced(r, p, "kutuzov", DEF_HEX)


def test_5_63_fall_back_displaces_the_cinc():
    p = play(g(at(inf("a", cohesion=6), FRONT_L, facing=6), at(cav("rc", RU, ag="ru-2"), DEF_HEX, facing=12),
               nap=REAR_R))
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}])
    r = p.ok("fall_back", side=RU, unit="rc", to=REAR_R)
    displaced(r, p, "napoleon", REAR_R)


def test_5_63_counter_shock_move_displaces_the_cinc():
    """The French attacker fails its check and retreats from 0403 to 0402; Napoleon stays in 0403; the Russian
    counter-shock moves into 0403."""
    p = play(g(at(inf("a", assault=2, cohesion=3), FRONT_L, facing=6),
               at(inf("d", RU, ag="ru-2", assault=8, cohesion=7), DEF_HEX, facing=12), nap=FRONT_L))
    start(p, fr=["a"])
    p.ok("assaults", side=FR, assaults=[{"attackers": ["a"], "target": [DEF_HEX]}])
    p.ok("commitment", side=FR, unit="a", roll=0)
    p.ok("shock", side=FR, assault=0, roll=0)
    r = p.ok("cohesion_check", side=FR, unit="a", roll=9)
    if r["awaiting"]:
        p.ok("retreat", side=FR, unit="a", to="0402")
    assert p.state.unit("napoleon").hex == FRONT_L
    r = p.ok("counter_shock", side=RU, units=["d"], to=FRONT_L, target=["0402"])
    displaced(r, p, "napoleon", FRONT_L)


def test_5_63_the_burning_units_move_displaces_the_cinc():
    p = play(g(at(inf("ru-inf", RU, ag="ru-2"), "0505"), at(inf("fr"), "0202"), nap="0506",
               special_rules=["BOR-5"], terrain={"0505": "village"}))
    start(p)
    while p.state.activation is None or p.state.activation.marker != "destruction":
        if p.state.activation is not None:
            p.ok("end_activation", side=p.state.activation.side)
            continue
        cup = sorted(set(p.state.cup))
        p.ok("draw", marker="destruction" if "destruction" in cup else cup[0])
    r = p.ok("burn_village", side=RU, unit="ru-inf", village="0505", to="0506")
    displaced(r, p, "napoleon", "0506")


def test_5_63_a_recovered_unit_placed_in_the_cincs_hex_displaces_him():
    from .games import skip_turn
    p = play(g(at(inf("fa"), "0202"), at(inf("fb"), None, box="recovery"), at(inf("r", RU, ag="ru-2"), "0707"),
               kut="0203"))
    skip_turn(p, until="reserve")
    p.ok("go_first", side=FR, first=FR)
    p.ok("end_phase", side=FR)
    p.ok("end_phase", side=RU)
    r = p.ok("recovery", side=FR, unit="fb", roll=0, to="0203")
    assert {"unit": "fb", "effect": "recovered", "rule": "10.2", "to": "0203"} in r["results"]
    displaced(r, p, "kutuzov", "0203")
