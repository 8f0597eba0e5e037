"""The movement search and step as they were before the step tables (``main`` at fb92e18), verbatim but for
their names: the reference the fast ``movement._search`` and the split ``movement._step`` are compared with
(``test_legal_search.py``).  A Dijkstra that asks the whole step rule for every step it tries."""
from __future__ import annotations

import heapq

from referee.engine.ruling import Error
from referee.rulesets.triumph_and_glory.board import Board
from referee.rulesets.triumph_and_glory.movement import (EXTENDED_DISTANCE, MODES, SQUARE_MAX_COST, MoveContext,
                                                         _default_mode, _edge, _end_errors, _err, _mode_errors,
                                                         _Plan, _Price, _Search)
from referee.rulesets.triumph_and_glory.zoc import in_enemy_frontal_zoc, in_enemy_zoc

__all__ = ["reference_step", "reference_search"]


def reference_step(plan: _Plan, a: str | None, b: str, first: bool) -> tuple[int, bool, tuple[str, ...], bool] | Error:
    """The MP to enter ``b`` from ``a`` (its hexside, hex, ZOC surcharges — not 7.38), whether it Disorders,
    the rules that priced it and whether ``b`` is in an enemy ZOC (6.33: the move stops there — returned so
    the caller need not ask again), or the rule against it."""
    board, unit, side = plan.board, plan.unit, plan.side
    adjacent = board.static.adjacent
    if b not in adjacent:
        return _err("7.31", "off_map", f"{b} is not a hex of the map")
    if a is not None and b not in adjacent[a]:
        return _err("7.31", "not_adjacent", f"{b} is not adjacent to {a}: a move is a path of adjacent hexes")
    ids = board._stacks.get(b)                                # noqa: SLF001 — see Board._stacks
    if ids and board._units[ids[0]].defn.side != side:      # board.has_enemy(b, side), ~2 calls a move
        return _err("6.22", "enemy_occupied", f"{unit.defn.name} may not enter {b}: enemy units there (7.32)")
    if b in board.on_fire:
        return _err("BOR-5", "on_fire", f"no unit may enter the burning hex {b}")
    if b in plan.ctx.forbidden_hexes:
        return _err("7.44", "forbidden_hex", f"{unit.defn.name} may not enter {b} (within two hexes of an enemy "
                                             f"entry hex)")
    if plan.fired_art and board.adjacent_to_enemy(b, side):
        return _err("7.36", "fired_artillery_adjacent", f"{unit.defn.name} fired and may not move next to an "
                                                        f"enemy ({b})")
    if plan.extended:
        if plan.near_enemy(b):
            return _err("7.13", "extended_near_enemy", f"extended movement may not come within "
                        f"{EXTENDED_DISTANCE} hexes of an enemy ({b})")
        if plan.friends(b) and (unit.kind != "artillery"
                                or any(u.kind != "artillery" for u in board.friendly_units_at(b, side))):
            return _err("7.13", "extended_friends", f"extended movement may not enter friendly units ({b})")
        if plan.mode == "reinforcement" and a is not None and board.static.link(a, b) != "road":
            return _err("7.42", "reinforcement_off_road",
                        f"reinforcement extended movement only along a road ({a} to {b})")
    edge = _edge(board, plan.column, a, b)
    price = edge.plain
    if edge.linked is not None:
        if board.adjacent_to_enemy(b, side):
            price = _Price(price.mp, price.disorders, price.notes + ("7.37 no road rate next to an enemy",),
                           price.refusal)
        else:
            price = edge.linked
    if price.mp is None:
        rule, code, msg = price.refusal  # type: ignore[misc]
        return _err(rule, code, f"{unit.defn.name} {msg}")
    mp, notes = price.mp, price.notes
    if a is None:                                          # 7.41: k-th unit through the entry hex pays k times
        mp *= max(plan.ctx.entry_index, 1)
        notes += (f"7.41 entry x{plan.ctx.entry_index}",)
    if first and plan.start_in_zoc:
        mp += 1
        notes += ("6.34 leave ZOC +1",)
    in_zoc = not plan.leader and in_enemy_zoc(board, b, side)          # plan.zoc(b)
    if in_zoc:
        if plan.restricted and in_enemy_frontal_zoc(board, b, side):
            return _err("6.34", "zoc_frontal_after_leaving", f"{unit.defn.name} left an enemy ZOC and may not "
                                                             f"enter the enemy-controlled frontal hex {b}")
        if unit.disordered:
            mp += 1
            notes += ("6.33 disordered into ZOC +1",)
    return mp, price.disorders, notes, in_zoc


def reference_search(board: Board, unit_id: str, mode: str | None, ctx: MoveContext) -> _Search:
    """Dijkstra from the unit's hex with the very step rules of check_move; then keep legal end hexes."""
    unit = board.units[unit_id]
    mode = mode or _default_mode(unit, ctx)
    out = _Search()
    if mode not in MODES or _mode_errors(board, unit, mode, ctx):
        return out
    plan = _Plan(board, unit, mode, ctx)
    if plan.start_in_zoc and (unit.moved or not plan.started_in_zoc or unit.square):    # 9.85: a square in an
        return out                                                                       # enemy ZOC stays
    if plan.extended and (unit.hex and plan.near_enemy(unit.hex)
                          or any(plan.near_enemy(h) for h in ctx.og_hexes if h)):
        return out
    budget = plan.allowance - plan.spent_before
    heap: list[tuple[int, int, str]] = []
    counter = 0
    if plan.entering:
        firsts: list[tuple[str | None, str]] = [(None, h) for h in plan.entry_hexes if board.on_map(h)]
    else:
        firsts = [(unit.hex, n) for n in board.neighbours(unit.hex)]  # type: ignore[index]
    for a, b in firsts:
        st = reference_step(plan, a, b, first=True)
        if isinstance(st, Error):
            continue
        mp = st[0]
        minimum = (mp > budget and a is not None and plan.spent_before == 0 and not unit.moved
                   and not plan.zoc(b) and not unit.square and not plan.leader)
        if (mp <= budget or minimum) and mp < out.cost.get(b, 1 << 30):
            out.cost[b], out.prev[b] = mp, a
            counter += 1
            heapq.heappush(heap, (mp, counter, b))
    done: set[str] = set()
    while heap:
        g, _, x = heapq.heappop(heap)
        if x in done or g != out.cost.get(x):
            continue
        done.add(x)
        if g > budget or plan.zoc(x) or unit.square:   # 6.33 stop in ZOC; 7.35 min move; 9.85 one hex only
            continue
        if plan.extended and plan.friends(x):
            continue                                   # 7.13 never through friends
        extra = plan.pass_through(x)
        for y in board.neighbours(x):
            if y in done or y == plan.start:
                continue
            st = reference_step(plan, x, y, first=False)
            if isinstance(st, Error):
                continue
            ng = g + extra + st[0]
            if ng <= budget and ng < out.cost.get(y, 1 << 30):
                out.cost[y], out.prev[y] = ng, x
                counter += 1
                heapq.heappush(heap, (ng, counter, y))
    for h, g in out.cost.items():
        if unit.square and (g > SQUARE_MAX_COST or plan.zoc(h)):
            continue                                   # 9.85
        if plan.leader or not plan.friends(h) or not _end_errors(plan, h, None):   # alone: nothing to judge
            out.ends[h] = g
    return out
