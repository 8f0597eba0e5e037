"""The movement search (``movement.search``, behind ``reachable``, ``cheapest_path`` and the legal listing) finds
what ``check_move`` rules, and its step table prices as the terrain rules do.

* The step table (``movement._step_row``) holds ``_compute_edge``'s price of every step of the *Borodino* map
  for every column of its movement table, and its least MP is the least of its row.
* The search agrees with the ruling on a move (``search_agrees_with_check_move``): the cheapest path to each
  destination is ruled legal at the search's cost, and a hex one step beyond a destination is either listed at
  no more than that step costs or refused by ``check_move`` — at positions of the sample game and of random
  boards, for every mode, with Rubble, a destroyed bridge, fire and forbidden hexes thrown in.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.replay import new_game, step
from referee.logs import read_log
from referee.rulesets.triumph_and_glory import movement
from referee.rulesets.triumph_and_glory.movement import MODES, MoveContext, _compute_edge, _Plan, _step_row
from referee.rulesets.triumph_and_glory.terrain import COLUMNS

from .helpers import FR, RU, art, at, board, cav, changed, inf, leader

ROOT = Path(__file__).resolve().parents[2]


@functools.lru_cache(maxsize=1)
def sample_boards() -> tuple:
    """Every 25th position of the sample *Borodino* game (~230 Boards on the full map)."""
    log = read_log(ROOT / "tests/fixtures/logs/sample-borodino.json")
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    out = []
    for i, event in enumerate(log.events):
        if i % 25 == 0:
            out.append(game.state.board)
        _, game, _ = step(game, i, event)
    return tuple(out)


def search_agrees_with_check_move(b, uid, mode, ctx) -> int:
    """The search's destinations are the moves ``check_move`` rules legal: each destination's cheapest path is
    legal and costs what the search says, and one more step from a destination to a hex the search did not
    list (or listed dearer) is refused.  Returns how many destinations there were."""
    s = movement.search(b, uid, mode, ctx)
    start = b.units[uid].hex
    assert set(s.ends) <= set(s.cost) and start not in s.cost
    for dest, cost in s.ends.items():
        path = movement.cheapest_path(b, uid, dest, mode, ctx)
        r = movement.check_move(b, uid, path, mode, ctx, alternatives=False)
        assert r.legal, (uid, mode, path, r.errors)
        assert r.mp_spent == cost, (uid, mode, path, r.mp_spent, cost)
        for y in b.neighbours(dest):
            if y == start or y in path:
                continue
            longer = movement.check_move(b, uid, path + [y], mode, ctx, alternatives=False)
            if longer.legal:
                assert y in s.ends and s.ends[y] <= longer.mp_spent, (uid, mode, path, y)
    return len(s.ends)


# ------------------------------------------------------------------------------------------------ the table

def table_equals_compute_edge(b, hexes=None) -> int:
    static = b.static
    steps = 0
    for column in COLUMNS:
        for a in hexes or static.adjacent:
            least, row = _step_row(b, column, a)
            assert [y for y, *_ in row] == list(static.adjacent[a])
            mps = []
            for y, mp, linked_mp, linked in row:
                steps += 1
                edge = _compute_edge(b, column, a, y)
                assert mp == edge.plain.mp
                assert linked == (edge.linked is not None)
                assert linked_mp == (edge.linked.mp if edge.linked is not None else None)
                mps += [m for m in (mp, linked_mp) if m is not None]
            assert least == min(mps, default=0)
    return steps


def test_the_step_table_holds_compute_edge_for_every_step_and_column_of_the_borodino_map():
    b = sample_boards()[0]
    assert len(b.static.adjacent) > 1000 and b.rubble        # the set-up has Rubble (BOR-5)
    assert table_equals_compute_edge(b) > 4 * 6000


def test_the_step_table_follows_rubble_and_destroyed_bridges():
    """A table holds for one set of markers: Rubble put down or a bridge destroyed in play is priced anew."""
    b = sample_boards()[0]
    bridges = sorted((sorted(s) for s in b.static.hexside if "bridge" in b.static.hexside[s]))
    assert bridges
    a, c = bridges[0]
    near = sorted({a, c, *b.static.adjacent[a], *b.static.adjacent[c]})
    table_equals_compute_edge(b, near)
    for changed in (b.set_marker("bridges_destroyed", (a, c)), b.set_marker("rubble", a),
                    b.set_marker("rubble", next(iter(b.rubble)), present=False)):
        table_equals_compute_edge(changed, near)
        table_equals_compute_edge(changed, sorted(changed.rubble))
    destroyed = b.set_marker("bridges_destroyed", (a, c))
    before = [_step_row(b, col, a) for col in COLUMNS]
    assert before != [_step_row(destroyed, col, a) for col in COLUMNS]


def test_the_least_mp_of_a_row_guards_the_skip_a_zero_cost_step_is_never_skipped():
    """The skip of a row needs its least MP; a row holding a 0-MP step must not be skipped (a table whose
    steps all cost 1 or more is data, not a rule, so the row's own least is what is used)."""
    b = board(at(inf("a", ma=1), "0204"), columns=6, rows=6)
    least, row = _step_row(b, "infantry", "0304")
    assert least == 1
    rows = movement._step_rows(b, "infantry")
    free = tuple((y, 0, None, False) if y == "0404" else e for e in row for y in (e[0],))
    rows["0304"] = (0, free)           # a 0-MP step out of 0304 (the hex a 1-MP unit just reached)
    assert "0404" in movement.search(b, "a", None, MoveContext()).ends
    rows["0304"] = (1, free)           # ... which a wrong least would skip
    assert "0404" not in movement.search(b, "a", None, MoveContext()).ends


# ------------------------------------------------------------------------------------------------ the search

mode = st.sampled_from(MODES)
contexts = st.builds(MoveContext, under_orders=st.booleans(), reserve=st.booleans(),
                     allowance=st.one_of(st.none(), st.integers(1, 12)), entry_index=st.integers(1, 3))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), mode=mode, ctx=contexts, disordered=st.booleans(), fired=st.booleans(),
       markers=st.integers(0, 3))
def test_the_search_agrees_with_check_move_on_sample_game_positions(data, mode, ctx, disordered,
                                                                                fired, markers):
    boards = sample_boards()
    b = boards[data.draw(st.integers(0, len(boards) - 1))]
    uids = sorted(u.id for u in b.units.values() if u.hex is not None or u.box == "reinforcement")
    uid = data.draw(st.sampled_from(uids))
    u = b.units[uid]
    if not u.is_leader:
        b = b.update(uid, status="disordered" if disordered else "good", fired=fired)
    u = b.units[uid]
    if u.hex is not None:
        near = sorted(b.grid.within(u.hex, 4))
        for k in range(markers):       # Rubble, fire, a destroyed bridge near the mover
            h = data.draw(st.sampled_from(near))
            kind = ("rubble", "on_fire", "bridge")[k % 3]
            if kind == "bridge":
                sides = [frozenset(s) for s in b.static.hexside if "bridge" in b.static.hexside[s]]
                if sides:
                    b = b.set_marker("bridges_destroyed", data.draw(st.sampled_from(sorted(sides, key=sorted))))
            else:
                b = b.set_marker(kind, h)
        if data.draw(st.booleans()):
            ctx = MoveContext(ctx.under_orders, ctx.reserve, ctx.may_move, (), ctx.allowance, (), ctx.entry_index,
                              frozenset(data.draw(st.lists(st.sampled_from(near), max_size=4))))
    search_agrees_with_check_move(b, uid, mode, ctx)


HEXES = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]
TERRAIN = st.dictionaries(st.sampled_from(HEXES), st.sampled_from(["woods", "village", "clear"]), max_size=12)
ROAD = [f"{c:02d}04" for c in range(1, 9)]       # a road along row 04 through woods (7.22, 7.37)
ROAD_WOODS = {"0304": "woods", "0404": "woods", "0504": "woods", "0604": "woods"}


@st.composite
def hexsides(draw):
    """Streams, fords, bridges and rivers on random hexsides (7.23, 7.24)."""
    out = []
    for a in draw(st.lists(st.sampled_from(HEXES), max_size=8, unique=True)):
        c, r = int(a[:2]), int(a[2:])
        b = f"{c:02d}{r + 1:02d}" if r < 8 else f"{c:02d}{r - 1:02d}"
        out.append((a, b, draw(st.sampled_from(["stream", "ford", "bridge", "river"]))))
    return out


@settings(max_examples=200, deadline=None)
@given(hexes=st.lists(st.sampled_from(HEXES), min_size=7, max_size=7, unique=True),
       facings=st.lists(st.sampled_from([2, 4, 6, 8, 10, 12]), min_size=7, max_size=7),
       statuses=st.lists(st.sampled_from(["good", "disordered"]), min_size=7, max_size=7),
       terrain=TERRAIN, sides=hexsides(), road=st.booleans(), rubble=st.lists(st.sampled_from(HEXES), max_size=2),
       who=st.integers(0, 6), mode=mode, ctx=contexts,
       started_in_zoc=st.booleans(), moved=st.booleans(), square=st.booleans())
def test_the_search_agrees_with_check_move_on_random_boards(hexes, facings, statuses, terrain, sides, road,
                                                                        rubble, who, mode, ctx, started_in_zoc,
                                                                        moved, square):
    """Friends to pass through and stack with, enemies whose ZOC and front stop or refuse the mover (6.33,
    6.34), woods and villages, streams, fords, bridges, rivers and a road, Rubble, a CinC, artillery."""
    units = [inf("f1", ma=4), cav("f2", ma=6), art("f3"), leader("c1"), inf("r1", side=RU, ma=2),
             cav("r2", side=RU), inf("r3", side=RU, ma=3)]
    b = board(*(at(u, h, facing=f, status=s if not isinstance(u, type(units[3])) else "good")
                for u, h, f, s in zip(units, hexes, facings, statuses)),
              columns=8, rows=8, terrain={**(ROAD_WOODS if road else {}), **terrain}, hexsides=sides, roads=[ROAD] if road else (),
              markers=[("rubble", (h,)) for h in rubble])
    uid = units[who].id
    if not b.units[uid].is_leader:
        b = b.update(uid, started_in_zoc=started_in_zoc, moved=moved, square=square, mp_spent=1 if moved else 0)
    search_agrees_with_check_move(b, uid, mode, ctx)


def battery(uid: str, fire: int, back_fire: int):
    u = art(uid, fire=fire)
    return dataclasses.replace(u, back=dataclasses.replace(u.back, fire=back_fire))


@pytest.mark.parametrize("kept", [None, 3])
@pytest.mark.parametrize("uid", ["f1", "f2", "f3", "f5"])
def test_ending_with_friends_is_judged_as_end_errors_judges_it(uid, kept, monkeypatch):
    """The memo of 6.21 at the end of a move (``_may_end_with_friends``) answers ``_end_errors``, stack by
    stack, status by status (a Disordered battery's fire is its back's: 4 + 3 breaks the cap of 6, 2 + 3 not),
    and holds at most ``_END_ANSWERS_KEPT`` answers (the map outlives its games in a service)."""
    if kept is not None:
        monkeypatch.setattr(movement, "_END_ANSWERS_KEPT", kept)
    units = [inf("f1"), cav("f2"), battery("f3", 4, 2), inf("f4"), art("f5", fire=3), cav("f6")]
    base = board(*[at(u, h) for u, h in zip(units, ["0101", "0103", "0105", "0107", "0801", "0803"])],
                 columns=8, rows=8)           # one map, so one memo, for every case below
    answers = set()
    for k in (1, 2):
        for stack in itertools.combinations([u.id for u in units if u.id != uid], k):
            for extended in (False, True):
                for status in ("good", "disordered"):
                    for mover_status in ("good", "disordered"):
                        b = base.update(uid, status=mover_status)
                        for other in stack:
                            b = b.move(other, "0404").update(other, status=status)
                        plan = _Plan(b, b.units[uid], "extended" if extended else "normal", MoveContext())
                        want = not movement._end_errors(plan, "0404", None)
                        assert movement._may_end_with_friends(plan, "0404") == want
                        assert len(b.static.memo[("may_end",)]) <= movement._END_ANSWERS_KEPT
                        answers.add(want)
    assert answers == {True, False}


# ------------------------------------------------------------------------------------------------ the ZOC map

@pytest.mark.parametrize("index", [0, 40, 80, 120, 160, 200])
def test_enemy_presence_answers_in_enemy_zoc_and_adjacent_to_enemy_for_every_hex(index):
    from referee.rulesets.triumph_and_glory.zoc import enemy_presence, in_enemy_zoc

    b = sample_boards()[index]
    for side in (s.name for s in b.static.scenario.sides):
        zoc, near = enemy_presence(b, side)
        assert zoc and near
        for h in b.static.adjacent:
            assert (h in zoc) == in_enemy_zoc(b, h, side), h
            assert (h in near) == b.adjacent_to_enemy(h, side), h


change = st.tuples(st.sampled_from(["place", "status", "square", "remove"]), st.integers(0, 5),
                   st.sampled_from(HEXES))


@settings(max_examples=80, deadline=None)
@given(start=st.lists(st.sampled_from(HEXES), min_size=6, max_size=6, unique=True),
       changes=st.lists(change, min_size=1, max_size=30), sides=hexsides())
def test_enemy_presence_kept_equals_read_afresh_after_every_change(start, changes, sides):
    """Both sides moved, disordered, formed square and removed, one change per position, asked every few
    positions: the answer kept for each side (``candidates.EnemyRegion``) equals the whole map read again."""
    from referee.rulesets.triumph_and_glory.zoc import _enemy_facts, enemy_presence

    units = [inf("f1"), cav("f2"), art("f3"), inf("r1", side=RU), cav("r2", side=RU), art("r3", side=RU)]
    b = board(*(at(u, h) for u, h in zip(units, start)), columns=8, rows=8, hexsides=sides)
    for i, (kind, who, hex_) in enumerate(changes):
        b = changed(b, units[who].id, kind, hex_)
        if i % 3 == 0 or i == len(changes) - 1:    # asked at some positions only: several changes accumulate
            for side in (FR, RU):
                assert enemy_presence(b, side) == _enemy_facts(b, side)[:2]
