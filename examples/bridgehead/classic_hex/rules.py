"""The rules as small pure functions, each beside its number in the README: zones of control (4.x), a path
through them (5.x), the odds and their shifts (6.3, 6.4), the results (7.1) and retreat paths (7.3-7.5).
Each returns what it decided and the rules that decided it; the verbs (``verbs``) apply the outcome."""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Iterable, Sequence

from referee.engine.ruling import Error

from .state import State


# ------------------------------------------------------------------------------------------- 4.0 ZOC

def zoc_hexes(state: State, side: str) -> frozenset[str]:
    """4.1: the hexes adjacent to an enemy unit are in its zone of control; 4.2: not across a river hexside
    (except across the bridge).  4.5: friendly units change nothing."""
    st = state.static
    out = set()
    for h in state.enemies_of(side):
        out.update(n for n in st.grid.neighbours(h).values() if not st.terrain.river_between(h, n))
    return frozenset(out)


def in_enemy_zoc(state: State, hex_: str, side: str) -> bool:
    return hex_ in zoc_hexes(state, side)


# ------------------------------------------------------------------------------------------- 3.0 stacking

def stacking_error(state: State, hex_: str, side: str, arriving: int, rule: str = "3.1") -> Error | None:
    """3.1: at most ``stacking_limit`` units in a hex after a move, retreat or advance."""
    here = sum(1 for uid in state.at(hex_) if state.unit(uid).side == side)
    limit = state.static.stacking_limit
    if here + arriving > limit:
        return Error(rule, "overstacked", f"{hex_} would hold {here + arriving} units; the limit is {limit}")
    return None


# ------------------------------------------------------------------------------------------- 5.0 movement

@dataclass(frozen=True)
class Walk:
    cost: int
    rules: tuple[str, ...]


def walk(state: State, uid: str, path: Sequence[str]) -> Walk | Error:
    """5.1-5.4 with 3.2, 4.3 and 4.4: follow ``path`` from the unit's hex, or the first step that breaks a rule."""
    st = state.static
    unit = st.units[uid]
    here = state.hexes[uid]
    enemies = state.enemies_of(unit.side)
    zoc = zoc_hexes(state, unit.side)
    spent = 0
    rules: dict[str, None] = {"5.1": None, "3.2": None}
    start_zoc = here in zoc
    if start_zoc:
        rules["4.4"] = None
    for i, target in enumerate(path):
        if not st.grid.adjacent(here, target):
            return Error("5.1", "not_adjacent", f"path[{i}]: {target} is not next to {here}")
        if target in enemies:
            return Error("3.2", "enemy_occupied", f"path[{i}]: {target} holds an enemy unit")
        if i > 0 and here in zoc:
            return Error("4.3", "stopped_by_zoc", f"path[{i}]: the unit entered an enemy zone of control at "
                         f"{here} and stops there")
        target_zoc = target in zoc
        if i == 0 and start_zoc and target_zoc:
            return Error("4.4", "zoc_to_zoc", f"path[0]: {uid} may not move directly from one enemy zone of "
                         f"control ({here}) to another ({target})")
        cost, why = st.terrain.cost(here, target, unit.kind)
        if cost is None:
            return Error(why[-1], "prohibited", f"path[{i}]: {unit.kind} may not enter {target}"
                         + (" across the river" if "5.4" in why else ""))
        rules.update(dict.fromkeys(why))
        if spent + cost > unit.movement:
            return Error("5.1", "not_enough_mp", f"path[{i}]: entering {target} costs {cost} MP; "
                         f"{unit.movement - spent} of {unit.movement} left")
        spent += cost
        if target_zoc:
            rules.update({"4.1": None, "4.3": None})
        here = target
    return Walk(cost=spent, rules=tuple(rules))


def reachable(state: State, uid: str) -> dict[str, tuple[str, ...]]:
    """Every hex the unit can end a legal move in (5.1-5.4, 4.3, 4.4, 3.1), with the cheapest path there.
    Dijkstra over hexes: whether a unit must stop (4.3) depends only on the hex, so the cheapest way into a
    hex leaves it the most options."""
    st = state.static
    unit = st.units[uid]
    start = state.hexes[uid]
    enemies = state.enemies_of(unit.side)
    zoc = zoc_hexes(state, unit.side)
    best: dict[str, tuple[int, tuple[str, ...]]] = {start: (0, ())}
    queue = [(0, start, ())]
    while queue:
        cost, here, path = heapq.heappop(queue)
        if best[here][0] < cost or (here != start and here in zoc):
            continue                                   # a cheaper way was found, or 4.3: it stops here
        for n in st.grid.neighbours(here).values():
            if n in enemies or (here == start and here in zoc and n in zoc):
                continue                               # 3.2, 4.4
            step, _ = st.terrain.cost(here, n, unit.kind)
            if step is None or cost + step > unit.movement:
                continue
            if n not in best or cost + step < best[n][0]:
                best[n] = (cost + step, path + (n,))
                heapq.heappush(queue, (cost + step, n, path + (n,)))
    return {h: p for h, (_, p) in sorted(best.items())
            if h != start and stacking_error(state, h, unit.side, 1) is None}


# ------------------------------------------------------------------------------------------- 6.0 combat

@dataclass(frozen=True)
class Odds:
    attack: int
    defence: int
    column: int | None                     # 6.3 before shifts (None: worse than the first column)
    shifts: tuple[tuple[int, str], ...]    # 6.4: (columns, reason)
    final: int | None                      # the column the die is read in

    def label(self, columns: Sequence[str]) -> str | None:
        return None if self.final is None else columns[self.final]


def odds(state: State, attackers: Sequence[str], target: str) -> Odds:
    """6.3 and 6.4: total attack to total defence, the column, and the terrain's column shifts."""
    st = state.static
    a = sum(st.units[u].attack for u in attackers)
    d = sum(st.units[u].defence for u in state.at(target))
    col = st.crt.column(a, d)
    shifts: list[tuple[int, str]] = []
    terrain = st.scenario.map.terrain_of(target)
    if st.terrain.shifts.get(terrain):
        shifts.append((int(st.terrain.shifts[terrain]), f"defender in {terrain}"))
    for feature, value in st.terrain.hexside_shifts.items():
        if value and all(feature in st.terrain.features(state.hexes[u], target)
                         and (feature != "river" or st.terrain.river_between(state.hexes[u], target))
                         for u in attackers):
            shifts.append((int(value), f"every attacker across a {feature} hexside"))
    final = None if col is None else max(0, min(len(st.crt.columns) - 1, col + sum(s for s, _ in shifts)))
    return Odds(a, d, col, tuple(shifts), final)


# ------------------------------------------------------------------------------------------- 7.0 results

def exchange_loss(state: State, attackers: Sequence[str]) -> str:
    """7.1 EX: the attacking unit with the largest attack factor (the first named, if several are equal)."""
    return max(attackers, key=lambda u: (state.unit(u).attack, -list(attackers).index(u)))


def retreat_error(state: State, uid: str, origin: str, hexes: int, path: Sequence[str]) -> Error | None:
    """7.3-7.4: ``hexes`` hexes, each farther from ``origin``; no enemy unit, enemy ZOC, prohibited terrain
    or river hexside (except the bridge); the last hex within the stacking limit."""
    st = state.static
    unit = st.units[uid]
    if len(path) != hexes:
        return Error("7.3", "retreat_length", f"{uid} retreats exactly {hexes} hex(es), not {len(path)}")
    here = state.hexes[uid]
    enemies = state.enemies_of(unit.side)
    zoc = zoc_hexes(state, unit.side)
    for i, h in enumerate(path):
        if not st.grid.adjacent(here, h):
            return Error("7.3", "not_adjacent", f"path[{i}]: {h} is not next to {here}")
        if st.grid.distance(origin, h) != i + 1:
            return Error("7.3", "not_farther", f"path[{i}]: {h} is not farther from {origin}")
        if h in enemies:
            return Error("7.4", "enemy_occupied", f"path[{i}]: {h} holds an enemy unit")
        if h in zoc:
            return Error("7.4", "enemy_zoc", f"path[{i}]: {h} is in an enemy zone of control")
        if st.terrain.river_between(here, h):
            return Error("7.4", "river", f"path[{i}]: a retreat crosses the river only at the bridge")
        cost, _ = st.terrain.cost(here, h, unit.kind)
        if cost is None:
            return Error("7.4", "prohibited", f"path[{i}]: {unit.kind} may not enter {h}")
        here = h
    return stacking_error(state, here, unit.side, 1, rule="7.4")


def retreat_paths(state: State, uid: str, origin: str, hexes: int) -> list[tuple[str, ...]]:
    """Every legal retreat path (7.5: none means the unit is eliminated)."""
    paths: list[tuple[str, ...]] = [()]
    for _ in range(hexes):
        paths = [p + (n,) for p in paths
                 for n in state.static.grid.neighbours(p[-1] if p else state.hexes[uid]).values()]
    return [p for p in paths if retreat_error(state, uid, origin, hexes, p) is None]


def units_of(state: State, side: str) -> Iterable[str]:
    return (uid for uid, h in state.hexes.items() if h is not None and state.unit(uid).side == side)
