"""Zones of control (6.31–6.35, gaps digest §2; 9.61, BOR-MILITIA).

* 6.31 Every Good-Order infantry or cavalry unit projects a ZOC into the six hexes around it, whatever its
  facing (6.12).  None for artillery, Disordered units (9.61), units in square (9.85), militia
  (BOR-MILITIA), CinCs (not combat units).
* 6.32 A ZOC does not extend across an impassable hexside (every movement-table column ``P``: river,
  impassable — so never across the Moskva) nor across a bridge hexside (intact or destroyed).  It does
  extend across streams and fords.
* 6.33 / 6.34 entry and exit effects are costed by ``movement``; this module answers the position questions:
  is a hex in an enemy ZOC, and is it an *enemy-controlled frontal hex* (in the ZOC of an enemy unit and
  among that unit's standard front hexes — all six for infantry in a village; the defensive cavalry facing is
  not used here, gaps §2 [inferred]).

Answers are memoised per Board (an immutable position), keyed by hex and side; a query costs at most six
stack look-ups, so movement searches never scan all units.
"""
from __future__ import annotations

from .board import Board, UnitState
from .candidates import EnemyRegion, kept
from .facing import is_front

__all__ = ["exerts_zoc", "zoc_crosses", "zoc_hexes", "zoc_sources", "in_enemy_zoc", "in_enemy_frontal_zoc",
           "enemy_zoc_hexes", "enemy_presence", "enemy_facts", "zoc_reach"]


def exerts_zoc(unit: UnitState) -> bool:
    """6.31 / 9.61 / 9.85 / BOR-MILITIA: Good-Order infantry or cavalry on the map, not in square, not militia."""
    return (unit.kind in ("infantry", "cavalry") and unit.hex is not None and not unit.disordered
            and not unit.square and "militia" not in unit.flags)


def zoc_crosses(board: Board, a: str, b: str) -> bool:
    """6.32: a ZOC extends from ``a`` into the adjacent ``b`` unless the hexside is a bridge or impassable."""
    table = board.table
    for f in board.static.features(a, b):
        if f == "bridge" or table.impassable(f):
            return False
    return True


def zoc_hexes(board: Board, unit: UnitState) -> tuple[str, ...]:
    """The hexes ``unit`` controls (6.31, 6.32); () when it has no ZOC."""
    if not exerts_zoc(unit):
        return ()
    return zoc_reach(board, unit.hex)                   # type: ignore[arg-type]


def zoc_reach(board: Board, h: str) -> tuple[str, ...]:
    """The hexes a ZOC from ``h`` extends into (6.32: the map's hexsides alone decide), kept on the map."""
    reach = board.static.memo.get(("zoc_reach",))
    if reach is None:
        reach = board.static.memo[("zoc_reach",)] = {}
    hit = reach.get(h)
    if hit is None:
        hit = reach[h] = tuple(n for n in board.static.adjacent[h] if zoc_crosses(board, h, n))
    return hit


def zoc_sources(board: Board, hex_id: str, side: str) -> tuple[UnitState, ...]:
    """The units of sides other than ``side`` whose ZOC covers ``hex_id`` (memoised per board)."""
    key = ("zoc", hex_id, side)
    cache = board.cache
    hit = board.local_memo(key, hex_id)
    if hit is None:
        found: list[UnitState] = []
        stacks, units = board._stacks, board._units    # the dicts behind the views (see Board._units)
        for n in board.static.adjacent[hex_id]:
            ids = stacks.get(n)
            if not ids or units[ids[0]].defn.side == side:     # empty or friendly (sides never mix, 6.22)
                continue
            zoc_units = [u for u in (units[i] for i in ids) if exerts_zoc(u)]
            if zoc_units and zoc_crosses(board, n, hex_id):
                found.extend(zoc_units)
        hit = cache[key] = tuple(found)
    return hit


def in_enemy_zoc(board: Board, hex_id: str, side: str) -> bool:
    """6.33: is ``hex_id`` in the ZOC of a unit of another side than ``side``?

    Asked for every hex a mover enters or considers (~25,000 times a game), and most hexes have no enemy
    next to them: that answer (no enemy neighbour, so no ZOC) takes six stack look-ups, cheaper than the
    memo; only a hex with an enemy neighbour goes on to the memoised ``zoc_sources``."""
    stack_at, units = board._stacks.get, board._units    # noqa: SLF001 — the dicts behind the views, for speed
    for n in board.static.adjacent[hex_id]:
        ids = stack_at(n)
        if ids and units[ids[0]].defn.side != side:     # sides never mix in a hex (6.22): the top tells
            return bool(zoc_sources(board, hex_id, side))
    return False


def in_enemy_frontal_zoc(board: Board, hex_id: str, side: str) -> bool:
    """6.34: is ``hex_id`` an enemy-controlled frontal hex (in an enemy's ZOC and in that unit's front)?"""
    return any(is_front(board, u, hex_id, "zoc") for u in zoc_sources(board, hex_id, side))


def enemy_zoc_hexes(board: Board, side: str) -> frozenset[str]:
    """Every hex in the ZOC of a unit of another side than ``side`` (for displays and the random player)."""
    return enemy_presence(board, side)[0]


def enemy_presence(board: Board, side: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every hex in the ZOC of a unit of another side than ``side`` — ``in_enemy_zoc`` —, every hex next to a
    combat unit of another side — ``Board.adjacent_to_enemy``), for the whole map at once: ``enemy_facts``'
    first two."""
    facts = enemy_facts(board, side)
    return facts[0], facts[1]


def enemy_facts(board: Board, side: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """``enemy_presence`` and every hex holding a combat unit of another side (``Board.has_enemy``, 6.22), for
    the whole map at once.

    A movement search asks all three of every hex it tries (6.33, 7.36, 7.37, 6.22), ~40 hexes a search, one
    search per move listed; the answers are kept from position to position while no unit of another side
    changes (``candidates.EnemyRegion``), which in an activation is all of its moves.  Property-tested against
    the three queries, hex by hex."""
    return kept(board, ("enemy_presence", side), board.static,
                lambda: (_enemy_facts(board, side), EnemyRegion(board, side)))


def _enemy_facts(board: Board, side: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    zoc: set[str] = set()
    near: set[str] = set()
    occupied: list[str] = []
    adjacent = board.static.adjacent
    units = board._units                                # noqa: SLF001 — the dicts behind the views
    for h, ids in board._stacks.items():               # noqa: SLF001
        if not ids or units[ids[0]].defn.side == side:  # empty or friendly (sides never mix, 6.22)
            continue
        occupied.append(h)
        near.update(adjacent[h])
        # the units of a stack control the same hexes (6.31, 6.32): one that exerts a ZOC gives them all
        for i in ids:
            if exerts_zoc(units[i]):
                zoc.update(zoc_reach(board, h))
                break
    return frozenset(zoc), frozenset(near), frozenset(occupied)
