"""Retreat and rout, 9.62–9.66 — main digest §13 items 104, 106, 107, 109, 110, 112, 113 (and 31)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from referee.rulesets.triumph_and_glory.disorder import disorder_effect
from referee.rulesets.triumph_and_glory.retreat import (RetreatOptions, RetreatStep, legal_retreats, pass_through_check,
                                                        pass_through_effect, retreat_check, retreat_effects,
                                                        retreat_errors, retreat_steps)

from .helpers import art, at, board, cav, inf
from .helpers_combat import DEF_HEX, FRONT_L, FRONT_R, RU

ATT = [FRONT_L, FRONT_R]           # away from both: 0505 and 0405 only


def _legal(b, sources=ATT, **kw):
    return legal_retreats(retreat_steps(b, DEF_HEX, sources, RetreatOptions(**kw)), RetreatOptions(**kw))


def _attackers():
    return (at(inf("a1"), FRONT_L, facing=6), at(inf("a2"), FRONT_R, facing=6))


def test_cat_104_retreat_check_on_the_face_now_up():
    b = board(at(inf("d", RU, cohesion=5), DEF_HEX))          # back face cohesion 4 (helpers: front - 1)
    flipped = b.update("d", status="disordered")
    r = retreat_check(flipped.unit("d"))
    assert (r.purpose, r.base, r.base_rule, r.pass_max) == ("cohesion_check", 4, "9.62", 4)
    assert [n for n in range(10) if not r.passes(n)] == [5, 6, 7, 8, 9]         # 5-9 retreat, 0-4 stay
    assert disorder_effect(b.unit("d"), b.rules).effect == "disordered"


def test_cat_106_disordered_artillery_disordered_again_is_destroyed():
    b = board(at(art("g", RU), DEF_HEX, status="disordered"))
    e = disorder_effect(b.unit("g"), b.rules)
    assert (e.effect, e.rule, e.box) == ("destroyed", "9.66", "eliminated")


def test_9_66_disordered_infantry_disordered_again_routs():
    b = board(at(inf("d", RU), DEF_HEX, status="disordered"))
    assert disorder_effect(b.unit("d"), b.rules).to_dict() == {
        "unit": "d", "effect": "routed", "rule": "9.66", "box": "withdrawn"}


def test_cat_107_cossack_disordered_goes_to_withdrawn_box():
    from modulebuilder.model import Face, Unit
    cossack = Unit(id="k", name="Vlasov", kind="cavalry", side=RU, ag="cossacks", front=Face(assault=2, cohesion=5, ma=8),
                   back=None, cav_type="C", flags=frozenset({"no_back"}))
    b = board(at(cossack, DEF_HEX), special_rules=["BOR-COSSACK"])
    e = disorder_effect(b.unit("k"), b.rules)
    assert (e.effect, e.rule, e.box) == ("routed", "BOR-COSSACK", "withdrawn")


def test_militia_destroyed_by_any_adverse_result():
    b = board(at(inf("m", RU, flags=["militia"]), DEF_HEX), special_rules=["BOR-MILITIA"])
    assert disorder_effect(b.unit("m"), b.rules).effect == "eliminated"


def test_retreat_goes_away_from_every_attacker_keeping_facing():
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX, facing=12))
    legal = _legal(b)
    assert sorted(s.to for s in legal) == ["0405", "0505"] and {s.kind for s in legal} == {"empty"}
    assert {s.facing for s in legal} == {12}
    assert retreat_errors(b, DEF_HEX, "0405", ATT) == []
    err = retreat_errors(b, DEF_HEX, "0504", ATT)[0]
    assert err.code == "retreat_not_allowed" and sorted(err.alternatives) == ["0405", "0505"]
    assert [e.to_dict() for e in retreat_effects(b, DEF_HEX, legal[0])] == [
        {"unit": "d", "effect": "retreated", "rule": "9.62", "to": legal[0].to}]


def test_cat_109_only_hex_away_holds_an_enemy_destroyed():
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX), at(inf("e1"), "0405", facing=6),
              at(inf("e2"), "0505", facing=12))
    legal = _legal(b)
    assert {s.kind for s in legal} == {"destroyed"}
    assert retreat_effects(b, DEF_HEX, legal[0])[0].effect == "eliminated"


def test_cat_110_crossing_a_river_without_bridge_destroyed_bridge_fine():
    rivers = [(DEF_HEX, "0405", "river"), (DEF_HEX, "0505", "river")]
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX), hexsides=rivers)
    assert {s.kind for s in _legal(b)} == {"destroyed"}
    bridged = board(*_attackers(), at(inf("d", RU), DEF_HEX),
                    hexsides=rivers + [(DEF_HEX, "0405", "bridge")])
    assert [s.to for s in _legal(bridged)] == ["0405"]


def test_blocked_retreat_nowhere_away_is_destroyed():
    # attackers all round the rear too: no neighbour is farther from all of them
    b = board(at(inf("d", RU), DEF_HEX), *_attackers(), at(inf("a3"), "0405", facing=12))
    steps = retreat_steps(b, DEF_HEX, [FRONT_L, FRONT_R, "0405"])
    assert steps == ()
    assert legal_retreats(steps) == (RetreatStep((), "destroyed"),)
    assert retreat_effects(b, DEF_HEX, legal_retreats(steps)[0])[0].to_dict() == {
        "unit": "d", "effect": "eliminated", "rule": "9.63", "box": "eliminated"}


def test_cat_112_empty_hex_before_friendly_hex():
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX), at(inf("f", RU), "0405"))
    assert [(s.to, s.kind) for s in _legal(b)] == [("0505", "empty")]


def test_cat_113_only_hex_holds_a_friend_enter_and_take_its_facing():
    b = board(*_attackers(), at(inf("d", RU, brigade="X"), DEF_HEX, facing=12),
              at(inf("f", RU, brigade="Y"), "0405", facing=2), at(inf("e"), "0505", facing=12))
    legal = _legal(b)
    assert [(s.to, s.kind, s.facing) for s in legal] == [("0405", "friendly", 2)]
    assert retreat_effects(b, DEF_HEX, legal[0])[0].rule == "9.64"


def test_9_65_through_friends_when_stacking_would_break_each_friend_checks():
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX, facing=12),
              at(cav("f", RU), "0405", facing=12), at(inf("e"), "0505", facing=12))
    legal = _legal(b)
    assert {s.kind for s in legal} == {"through"}
    assert all(s.path[0] == "0405" and s.checks == ("f",) for s in legal)
    assert sorted(s.to for s in legal) == ["0306", "0406"]
    r = pass_through_check(b.unit("f"))
    assert (r.base, r.base_rule) == (6, "9.65")
    assert pass_through_effect(b, b.unit("f"), passed=False).effect == "disordered"
    assert pass_through_effect(b, b.unit("f"), passed=True) is None


def test_9_63_retreat_into_an_enemy_front_hex_routs_only_when_nothing_else():
    # 0405 and 0505 both lie in the front of French units in 0406 (facing 12: front 0405 and 0505)
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX), at(inf("e"), "0406", facing=12))
    legal = _legal(b)
    assert {s.kind for s in legal} == {"rout"}
    assert retreat_effects(b, DEF_HEX, legal[0])[0].to_dict() == {
        "unit": "d", "effect": "routed", "rule": "9.66", "box": "withdrawn"}


def test_artillery_retreats_with_its_stack():
    b = board(*_attackers(), at(inf("d", RU), DEF_HEX, facing=12), at(art("g", RU), DEF_HEX, facing=6))
    step = _legal(b)[0]
    assert [(e.unit, e.effect) for e in retreat_effects(b, DEF_HEX, step)] == [("d", "retreated"), ("g", "retreated")]


def test_a10_switch_farther_from_one_nearer_to_none():
    # a2 in 0503 faces 8 (front 0404, 0403), so 0504 is in nobody's front.  0504 is 2 from 0403 but still 1
    # from 0503: refused by the default (away from every attacker), allowed by the relaxed switch.
    b = board(at(inf("a1"), FRONT_L, facing=6), at(inf("a2"), FRONT_R, facing=8), at(inf("d", RU), DEF_HEX))
    assert sorted(s.to for s in _legal(b)) == ["0405", "0505"]
    assert sorted(s.to for s in _legal(b, away_from_every=False, friends_before_rout=True)) == ["0405", "0504", "0505"]
    # 9.63 read literally (the default): 0304, in a1's front, is a path too — the unit routs there
    assert sorted((s.to, s.kind) for s in _legal(b, away_from_every=False)) == [
        ("0304", "rout"), ("0405", "empty"), ("0504", "empty"), ("0505", "empty")]


HEXES = [f"{c:02d}{r:02d}" for c in range(2, 8) for r in range(2, 8)]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(HEXES), st.lists(st.sampled_from(HEXES), min_size=1, max_size=3, unique=True),
       st.sets(st.sampled_from(HEXES), max_size=6))
def test_every_legal_retreat_ends_farther_from_every_source(defender, sources, friends):
    sources = [s for s in sources if s != defender]
    friends = friends - {defender, *sources}
    b = board(at(inf("d", RU), defender), *(at(inf(f"s{i}"), h) for i, h in enumerate(sources)),
              *(at(inf(f"f{i}", RU, ag="ru2"), h) for i, h in enumerate(sorted(friends))))
    g = b.grid
    for step in legal_retreats(retreat_steps(b, defender, sources)):
        if step.kind == "destroyed" and not step.path:
            continue
        assert all(g.distance(step.path[0], s) > g.distance(defender, s) for s in sources)
        assert g.adjacent(defender, step.path[0])
        assert all(g.adjacent(x, y) for x, y in zip(step.path, step.path[1:]))
