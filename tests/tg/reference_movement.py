"""The movement search as it was before the step tables (``main`` at fb92e18), verbatim but for its name: the
reference the fast ``movement._search`` is compared with (``test_legal_search.py``).  A Dijkstra that asks the
whole step rule, ``movement._step`` — the one ``check_move`` applies to every hex a move enters — for every step
it tries, so the fast search is held to the rule the referee rules by."""
from __future__ import annotations

import heapq

from referee.engine.ruling import Error
from referee.rulesets.triumph_and_glory.board import Board
from referee.rulesets.triumph_and_glory.movement import (MODES, SQUARE_MAX_COST, MoveContext, _default_mode,
                                                         _end_errors, _mode_errors, _Plan, _Search, _step)

__all__ = ["reference_search"]


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
        st = _step(plan, a, b, first=True)
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
            st = _step(plan, x, y, first=False)
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
