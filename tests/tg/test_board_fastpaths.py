"""``Board.relocate`` + ``UnitState.after_move`` (the move's fast path, used by ``movement.apply_move``) give the
very position ``Board.move`` gives: same units, same stacks in the same order (6.24: to the bottom), same leader
index — for combat units and CinCs, into empty hexes, friendly stacks and the hex they stand in."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from referee.rulesets.triumph_and_glory.board import Board

from .helpers import RU, art, at, board, inf, leader


def _same(a: Board, b: Board) -> None:
    assert dict(a.units) == dict(b.units)
    assert dict(a.stacks) == dict(b.stacks)
    assert dict(a.leaders_by_hex) == dict(b.leaders_by_hex)
    assert a._units == b._units and a._stacks == b._stacks


_START = board(at(inf("a"), "0404"), at(inf("b"), "0404"), at(art("g"), "0405"), at(inf("r", side=RU), "0707"),
               at(leader("nap"), "0404"), at(leader("kut", side=RU), "0808"))
_HEXES = ("0404", "0405", "0406", "0505", "0707", "0808")


@settings(max_examples=200, deadline=None)
@given(uid=st.sampled_from(("a", "b", "g", "r", "nap", "kut")), hex_id=st.sampled_from(_HEXES),
       facing=st.one_of(st.none(), st.integers(1, 6)), mode=st.sampled_from(("normal", "limited", "extended")),
       mp=st.integers(0, 9), disordered=st.booleans())
def test_relocate_equals_move(uid, hex_id, facing, mode, mp, disordered):
    u = _START.units[uid]
    status = "disordered" if disordered else u.status
    fast = _START.relocate(u.after_move(hex_id, facing, mode, mp, status))
    slow = _START.move(uid, hex_id, facing, mode=mode, mp_spent=mp, status=status)
    _same(fast, slow)
    assert fast.units[uid].moved and not fast.units[uid].overstack
    assert fast.stacks.get(hex_id, (uid,))[-1] == uid or u.is_leader      # 6.24: the bottom of the stack


def test_relocate_leaves_the_old_board_and_its_memo_chain_alone():
    b2 = _START.relocate(_START.units["a"].after_move("0406", 3, "normal", 2, "good"))
    assert [u.id for u in _START.stack("0404")] == ["a", "b"] and "0406" not in _START.stacks
    assert b2.stack("0404")[0].id == "b" and b2.stack("0406")[0].facing == 3
    assert b2.inherited is not None and b2.inherited[0] is _START.cache and set(b2.inherited[1]) == {"0404", "0406"}


def _borodino_board() -> Board:
    from pathlib import Path

    from referee.logs.jsonlog import load_scenario
    return Board.from_scenario(load_scenario("borodino", Path(__file__).resolve().parents[2]))


def test_ring2_is_the_second_ring_through_on_map_neighbours_on_the_whole_borodino_map():
    """``BoardMap.ring2`` (order groups, 5.12) = the hexes at grid distance 2 with an on-map common neighbour."""
    b = _borodino_board()
    static, grid = b.static, b.grid
    for h, ring1 in static.adjacent.items():
        expected = {x for n in ring1 for x in static.adjacent[n] if grid.distance(h, x) == 2}
        assert static.ring2(h) == expected, h


def test_local_memo_refuses_answers_near_a_change_and_takes_them_from_afar():
    """``Board.local_memo``: an answer memoised on an earlier Board is taken unless a changed hex is at or next to
    the hex asked about (both directions of the adjacency agree)."""
    b = _borodino_board()
    uid = next(u.id for u in b.on_map_units())
    start = b.units[uid].hex
    far = next(h for h in b.static.adjacent if b.grid.distance(h, start) > 3 and h not in b.stacks)
    b.cache[("probe", far)] = "far"
    b.cache[("probe", start)] = "start"
    nxt = next(n for n in b.static.adjacent[start] if n not in b.stacks)
    b.cache[("probe", nxt)] = "next"
    b2 = b.relocate(b.units[uid].after_move(far, None, "normal", 1, "good"))
    assert b2.local_memo(("probe", start), start) is None          # the hex it left
    assert b2.local_memo(("probe", nxt), nxt) is None              # next to the hex it left
    assert b2.local_memo(("probe", far), far) is None              # the hex it entered
    quiet = next(h for h in b.static.adjacent if b.grid.distance(h, start) > 2 and b.grid.distance(h, far) > 2)
    b.cache[("probe", quiet)] = "quiet"
    assert b2.local_memo(("probe", quiet), quiet) == "quiet"


_AGS = board(at(inf("a", ag="ag-a"), "0404"), at(inf("b", ag="ag-b"), "0404"), at(art("g", ag="ag-g"), "0405"),
             at(inf("r", side=RU, ag="ag-r"), "0707"), at(leader("nap"), "0404"), at(leader("kut", side=RU), "0808"))


@settings(max_examples=100, deadline=None)
@given(moves=st.lists(st.tuples(st.sampled_from(("a", "b", "g", "r", "nap", "kut")),
                                st.sampled_from(_HEXES + (None,))), max_size=6))
def test_on_map_ags_is_the_ag_of_every_unit_on_the_map(moves):
    """``Board.on_map_ags`` (the cup's 5.32 fast path) = ``{u.ag for u in on_map_units()}``, units moved about
    and some taken off the map."""
    b = _AGS
    for uid, hex_id in moves:
        b = b.remove(uid, "eliminated") if hex_id is None else b.move(uid, hex_id)
    assert b.on_map_ags() == {u.ag for u in b.on_map_units()}
    assert b.on_map_ags() == {u.ag for u in b.units.values() if u.hex is not None and not u.is_leader}
