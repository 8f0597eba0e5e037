"""A moves entry repaired after friendly changes (``movement._plain_search_after_friends``, the listing's
``legal._repaired_paths``, issue #17 (c)) is the search done afresh.

* On random boards (friends to pass through and stack with, brigades, artillery, a CinC, enemies and their ZOC,
  streams, bridges, woods, a road), friends moved into empty and occupied hexes, moved off, Disordered, put in
  square and removed, several changes at a time: whenever the repair answers, its costs, predecessors and
  destinations are ``movement._search``'s at the new position.
* Over the sample *Borodino* game, every repair the listing makes equals ``legal._search_paths`` at that
  position (the same paths and the same region), and hundreds are made.
"""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.replay import new_game, step
from referee.logs import read_log
from referee.rulesets.triumph_and_glory import candidates, legal, movement
from referee.rulesets.triumph_and_glory.movement import MoveContext

from .helpers import FR, RU, art, at, board, cav, inf, leader
from .test_legal_search import HEXES, hexsides

ROOT = Path(__file__).resolve().parents[2]

FRIENDS = [inf("f1", ma=4, brigade="a"), inf("f2", ma=4, brigade="a"), inf("f3", ma=4, brigade="b"),
           cav("f4", ma=6), art("f5"), inf("f6", ma=4, flags=("skirmisher",))]
MOVERS = [inf("m1", ma=6, brigade="a"), cav("m2", ma=8), art("m3", ma=4), leader("c1")]
ENEMIES = [inf("r1", side=RU, ma=2), cav("r2", side=RU)]

change = st.tuples(st.sampled_from(["move", "status", "square", "remove"]), st.integers(0, len(FRIENDS) - 1),
                   st.sampled_from(HEXES))


def friendly_change(b, uid: str, kind: str, hex_: str):
    """``b`` after one change of friend ``uid`` (a move into any hex without an enemy — empty, friendly or the
    mover's —, a status or square toggle, its removal), or ``b`` when it does not apply."""
    u = b.units[uid]
    if kind == "move" and not b.has_enemy(hex_, FR) and hex_ != u.hex:
        return b.move(uid, hex_)
    if kind == "status" and u.hex is not None:
        return b.update(uid, status="good" if u.disordered else "disordered")
    if kind == "square" and u.hex is not None:
        return b.update(uid, square=not u.square)
    if kind == "remove" and u.hex is not None:
        return b.remove(uid, "eliminated")
    return b


def changed_hexes(old, new) -> list[str]:
    """The hexes whose units differ between two positions (what the Board chain records)."""
    out = {h for h in old._stacks.keys() | new._stacks.keys() if old._stacks.get(h) != new._stacks.get(h)}
    for uid, u in new._units.items():
        if old._units.get(uid) is not u and u.hex is not None:
            out.add(u.hex)
    return sorted(out)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hexes=st.lists(st.sampled_from(HEXES), min_size=9, max_size=9, unique=True),
       who=st.integers(0, len(MOVERS) - 1), sides=hexsides(),
       terrain=st.dictionaries(st.sampled_from(HEXES), st.sampled_from(["woods", "village", "clear"]), max_size=10),
       steps=st.lists(st.lists(change, min_size=1, max_size=3), min_size=1, max_size=8),
       allowance=st.one_of(st.none(), st.integers(1, 10)), disordered=st.booleans(), fired=st.booleans(),
       stacked=st.lists(st.integers(0, len(FRIENDS) - 1), max_size=3))
def test_the_repaired_search_is_the_search_afresh_after_friendly_changes(hexes, who, sides, terrain, steps,
                                                                          allowance, disordered, fired, stacked):
    mover = MOVERS[who]
    placed = [at(mover, hexes[0], facing=2, status="disordered" if disordered and who < 3 else "good")]
    placed += [at(u, h, facing=4) for u, h in zip(FRIENDS, hexes[1:7])]
    placed += [at(u, h, facing=10) for u, h in zip(ENEMIES, hexes[7:])]
    b = board(*placed, columns=8, rows=8, hexsides=sides, terrain=terrain)
    if fired and mover is MOVERS[2]:                  # a battery that fired (7.36)
        b = b.update(mover.id, fired=True)
    for i in stacked:                                  # some friends start stacked with others
        uid = FRIENDS[i].id
        other = FRIENDS[(i + 1) % len(FRIENDS)].id
        b = b.move(uid, b.units[other].hex, moved=False)
    ctx = MoveContext(under_orders=True, allowance=allowance)
    mode = "normal"
    for batch in steps:
        s = movement._search(b, mover.id, mode, ctx)
        new = b
        for kind, i, h in batch:
            new = friendly_change(new, FRIENDS[i].id, kind, h)
        assert new.units[mover.id] is b.units[mover.id]
        if s.plain:
            got = movement._plain_search_after_friends(new, mover.id, mode, ctx, s,
                                                       lambda h: bool(b._stacks.get(h)), changed_hexes(b, new))
            if got is not None:
                want = movement._search(new, mover.id, mode, ctx)
                assert got.cost == want.cost
                assert got.prev == want.prev
                assert got.ends == want.ends
        b = new


def test_every_repair_over_the_sample_game_equals_the_search_afresh(monkeypatch):
    repaired = []
    repair = legal._repaired_paths

    def checked(board, uid, mode, ctx, value, region, changed):
        got = repair(board, uid, mode, ctx, value, region, changed)
        if got is not None:
            want = legal._search_paths(board, uid, mode, ctx)
            assert got[0] == want[0]
            assert set(got[1].read) == set(want[1].read) and got[1].centres == want[1].centres
            assert got[1].search.ends == want[1].search.ends and got[1].search.prev == want[1].search.prev
            repaired.append(uid)
        return got

    monkeypatch.setattr(legal, "_repaired_paths", checked)
    log = read_log(ROOT / "tests/fixtures/logs/sample-borodino.json")
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    before = candidates.hits[2]
    for i, event in enumerate(log.events):
        if game.pending is None and not log.ruleset.is_over(game.state):
            log.ruleset.legal_actions(game.state)
        _, game, _ = step(game, i, event)
    assert len(repaired) > 500
    assert candidates.hits[2] - before == len(repaired)
