"""The listing's yes/no shortcuts (issue #17 (c), fourth session) answer as the rules they stand for.

* ``stacking.stack_is_legal`` / ``may_end_entering`` = ``not stacking_errors`` / ``not
  stacking_errors_entering``, for random stacks of random counters (kinds, skirmishers, militia, brigades, AGs,
  sides, fire, statuses, reserve batteries) under random rule switches.  Both read 6.21 from one generator of
  breaks (``stacking._breaks``), so what this holds is the early stop and the entering checks around it; the
  limits themselves are pinned by ``test_stacking.py``.
* ``zoc.enemy_facts``' third set = ``Board.has_enemy`` for every hex, and kept = read afresh after random changes
  of both sides (its first two are ``enemy_presence``, tested in ``test_legal_search.py``).
* The movement search, which reads those sets, agrees with ``check_move`` as the facts change
  (``test_legal_search.search_agrees_with_check_move``).
"""
from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from referee.rulesets.triumph_and_glory.board import RuleSwitches
from referee.rulesets.triumph_and_glory.movement import MoveContext
from referee.rulesets.triumph_and_glory.stacking import (may_end_entering, stack_is_legal, stacking_errors,
                                                         stacking_errors_entering)

from .helpers import FR, RU, art, at, board, cav, changed, inf, leader
from .test_legal_search import HEXES, sample_boards, search_agrees_with_check_move


def counter(i: int, kind: str, side: str, ag: str, brigade: str | None, flags: tuple[str, ...], fire: int,
            back_fire: int):
    uid = f"u{i}"
    if kind == "infantry":
        return inf(uid, side, ag, brigade=brigade, flags=flags)
    if kind == "cavalry":
        return cav(uid, side, ag, brigade=brigade, flags=flags)
    if kind == "leader":
        return leader(uid, side)
    u = art(uid, side, ag, fire=fire, flags=flags)
    return dataclasses.replace(u, back=dataclasses.replace(u.back, fire=back_fire))


counters = st.lists(st.tuples(st.sampled_from(["infantry", "cavalry", "artillery", "leader"]),
                              st.sampled_from([FR, FR, FR, RU]), st.sampled_from(["a", "b"]),
                              st.sampled_from([None, "X", "Y"]),
                              st.sampled_from([(), ("skirmisher",), ("militia",)]),
                              st.integers(0, 6), st.integers(0, 6),
                              st.sampled_from(["good", "disordered"]), st.booleans()),
                    min_size=1, max_size=5)
switches = st.builds(RuleSwitches, artillery_cap=st.sampled_from([6, 8]), militia_alone=st.booleans(),
                     overstack_max=st.integers(1, 3))


@settings(max_examples=400, deadline=None)
@given(specs=counters, rules=switches)
def test_stack_is_legal_answers_not_stacking_errors(specs, rules):
    b = board(*(at(counter(i, *s[:7]), f"{1 + i % 8:02d}01") for i, s in enumerate(specs)), columns=8, rows=8)
    units = [dataclasses.replace(b.units[f"u{i}"], status=s[7], overstack=s[8]) for i, s in enumerate(specs)]
    assert stack_is_legal(units, rules) == (not stacking_errors(units, rules))


@settings(max_examples=300, deadline=None)
@given(specs=counters, mover=st.integers(0, 4))
def test_may_end_entering_answers_not_stacking_errors_entering(specs, mover):
    """The mover (one of the counters, anywhere) ends its move in 0404, where the others stand."""
    defs = [counter(i, *s[:7]) for i, s in enumerate(specs)]
    mover = min(mover, len(defs) - 1)
    b = board(*(at(d, "0101" if i == mover else "0404") for i, d in enumerate(defs)), columns=8, rows=8)
    for i, s in enumerate(specs):
        b = b.update(f"u{i}", status=s[7], overstack=s[8])
    u = b.units[f"u{mover}"]
    assert may_end_entering(b, u, "0404") == (not stacking_errors_entering(b, u, "0404"))
    assert may_end_entering(b, u, "0101") == (not stacking_errors_entering(b, u, "0101"))


def test_enemy_facts_names_every_enemy_hex_of_sample_positions():
    from referee.rulesets.triumph_and_glory.zoc import _enemy_facts, enemy_facts, enemy_presence

    for b in sample_boards()[::40]:
        for side in (s.name for s in b.static.scenario.sides):
            zoc, near, occupied = enemy_facts(b, side)
            assert (zoc, near) == enemy_presence(b, side)
            assert enemy_facts(b, side) == _enemy_facts(b, side)
            assert occupied
            for h in b.static.adjacent:
                assert (h in occupied) == b.has_enemy(h, side), h


SMALL = [f"{c:02d}{r:02d}" for c in range(1, 6) for r in range(1, 6)]      # a crowded 5 x 5 map
change = st.tuples(st.sampled_from(["place", "place", "status", "fired", "remove"]), st.integers(0, 5),
                   st.sampled_from(SMALL))


@settings(max_examples=60, deadline=None)
@given(start=st.lists(st.sampled_from(SMALL), min_size=6, max_size=6, unique=True),
       changes=st.lists(change, min_size=1, max_size=20))
def test_enemy_facts_kept_equals_read_afresh_and_the_search_agrees_with_check_move(start, changes):
    """Both sides moved, disordered, fired and removed; at every position the kept facts equal the map read again,
    and every unit's search agrees with ``check_move`` — a battery that fired may not
    move next to an enemy (7.36), a Disordered unit pays +1 into a ZOC (6.33)."""
    from referee.rulesets.triumph_and_glory.zoc import _enemy_facts, enemy_facts

    units = [inf("f1"), cav("f2"), art("f3"), inf("r1", side=RU), cav("r2", side=RU), art("r3", side=RU)]
    b = board(*(at(u, h) for u, h in zip(units, start)), columns=5, rows=5)
    for kind, who, hex_ in changes:
        b = changed(b, units[who].id, kind, hex_)
        for side in (FR, RU):
            assert enemy_facts(b, side) == _enemy_facts(b, side)
        for x in units:
            if b.units[x.id].hex is not None:
                search_agrees_with_check_move(b, x.id, "normal", MoveContext())
                search_agrees_with_check_move(b, x.id, "limited", MoveContext(under_orders=False))


@pytest.mark.parametrize("hex_", SMALL)
def test_a_battery_that_fired_is_searched_as_check_move_rules_it(hex_):
    """7.36: a battery that fired never moves next to an enemy — from every hex of a crowded map."""
    b = board(at(art("f3"), "0303" if hex_ != "0303" else "0101"), at(inf("r1", side=RU), "0203"),
              at(cav("r2", side=RU), "0405"), columns=5, rows=5)
    b = b.move("f3", hex_).update("f3", fired=True) if not b.stacks.get(hex_) else b.update("f3", fired=True)
    search_agrees_with_check_move(b, "f3", "normal", MoveContext())
    search_agrees_with_check_move(b, "f3", "limited", MoveContext(under_orders=False))


CHARGE_HEXES = [f"{c:02d}{r:02d}" for c in range(1, 8) for r in range(1, 8)]
charge_change = st.tuples(st.sampled_from(["place", "place", "facing", "status"]), st.integers(0, 5),
                          st.sampled_from(CHARGE_HEXES), st.sampled_from([2, 4, 6, 8, 10, 12]))


@settings(max_examples=80, deadline=None)
@given(start=st.lists(st.sampled_from(CHARGE_HEXES), min_size=6, max_size=6, unique=True),
       changes=st.lists(charge_change, min_size=1, max_size=15))
def test_a_kept_charge_target_follows_enemies_coming_within_three_hexes(start, changes):
    """Each cavalry unit's first charge target (9.81), kept from position to position — also the "no target"
    answer of a unit with no enemy 2-3 hexes away, which watches only the enemies — equals the one read afresh
    while units of both sides move, turn and are disordered around it."""
    from referee.rulesets.triumph_and_glory import candidates
    from referee.rulesets.triumph_and_glory.charge_events import _first_charge_target

    units = [cav("f1"), cav("f2"), inf("f3"), inf("r1", side=RU), cav("r2", side=RU), inf("r3", side=RU)]
    b = board(*(at(u, h, facing=12 if u.side == FR else 6) for u, h in zip(units, start)), columns=7, rows=7)

    def targets(b):
        return {u.id: candidates.kept(b, ("charge", u.id), b.units[u.id],
                                      lambda u=b.units[u.id]: _first_charge_target(b, u))
                for u in units if u.kind == "cavalry" and b.units[u.id].hex is not None}

    targets(b)
    for kind, i, hex_, facing in changes:
        b = changed(b, units[i].id, kind, hex_, facing)
        got = targets(b)
        with candidates.from_scratch():
            assert got == targets(b)


def test_a_batterys_first_target_is_the_first_hex_fire_errors_passes():
    """``fire_events._first_target`` (the guards once, then ``_may_fire_alone`` per enemy hex, cheapest test
    first) = the first hex in range order that ``fire.fire_errors`` passes, for every battery — fired, moved,
    Disordered or not, with and without a failed IO — at sample positions; and ``_may_fire_alone`` = no
    ``position_errors`` for every enemy hex in range of a battery free to fire."""
    from referee.rulesets.triumph_and_glory import fire as fr
    from referee.rulesets.triumph_and_glory.fire_events import _first_target, _may_fire_alone

    found = asked = 0
    for b in sample_boards()[::8]:
        for u in b.units.values():
            if u.kind != "artillery" or u.hex is None:
                continue
            hexes = list(b.grid.within(u.hex, u.value("max_range") or 0))
            for io_failed in (False, True):
                want = next((h for h in hexes if b.has_enemy(h, u.side)
                             and not fr.fire_errors(b, [u], h, io_failed=io_failed)), None)
                assert _first_target(b, u, False, io_failed)[0] == want, (u.id, io_failed)
                found += want is not None
            if u.fired or u.moved or u.disordered:
                continue
            adjacent = tuple(h for h in fr.front_hexes(b, u, "firer") if b.has_enemy(h, u.side))
            for h in hexes:
                if b.has_enemy(h, u.side):
                    asked += 1
                    assert _may_fire_alone(b, u, h, adjacent, u.value("eff_range") or 0, u.value("max_range") or 0,
                                           b.grid.distance) == (not fr.position_errors(b, u, h)), (u.id, h)
    assert found > 20 and asked > 200, (found, asked)


@settings(max_examples=200, deadline=None)
@given(specs=st.lists(st.tuples(st.sampled_from(["infantry", "cavalry", "artillery", "leader"]),
                                st.sampled_from([FR, RU]), st.sampled_from([(), ("skirmisher",), ("militia",)]),
                                st.sampled_from(["good", "disordered"]), st.booleans(), st.sampled_from(HEXES)),
                      min_size=1, max_size=12),
       sides=st.lists(st.tuples(st.sampled_from(HEXES), st.sampled_from(["stream", "bridge", "river", "ford"])),
                      max_size=8))
def test_enemy_facts_read_afresh_answer_the_hex_by_hex_queries(specs, sides):
    """``zoc._enemy_facts`` (its ZOC test read off the counter and the state's fields) = ``in_enemy_zoc``
    (``exerts_zoc`` itself, 6.31/6.32/9.61/9.85/BOR-MILITIA), ``adjacent_to_enemy`` and ``has_enemy`` for
    every hex: infantry, cavalry, artillery, militia, skirmishers and CinCs, Good Order, Disordered and in
    square, stacked or alone, ZOCs stopped by bridges and rivers."""
    from referee.rulesets.triumph_and_glory.zoc import _enemy_facts, in_enemy_zoc

    placed, seen = [], {}
    for i, (kind, side, flags, status, square, h) in enumerate(specs):
        if seen.setdefault(h, side) != side:
            continue                                   # sides never mix in a hex (6.22)
        placed.append((counter(i, kind, side, "a", None, flags if kind != "leader" else (), 2, 2), h, status,
                       square))
    hexsides = []
    for a, feature in sides:
        c, r = int(a[:2]), int(a[2:])
        hexsides.append((a, f"{c:02d}{r + 1:02d}" if r < 8 else f"{c:02d}{r - 1:02d}", feature))
    b = board(*(at(d, h) for d, h, _, _ in placed), columns=8, rows=8, hexsides=hexsides)
    for d, h, status, square in placed:
        if not b.units[d.id].is_leader:
            b = b.update(d.id, status=status, square=square)
    for side in (FR, RU):
        zoc, near, occupied = _enemy_facts(b, side)
        for h in b.static.adjacent:
            assert (h in zoc) == in_enemy_zoc(b, h, side), h
            assert (h in near) == b.adjacent_to_enemy(h, side), h
            assert (h in occupied) == b.has_enemy(h, side), h
