"""The Terrain Effects Chart as data (G-M3: the excerpt's TEC is missing).

The scenario's ``tables.mp_terrain`` gives, per terrain type and per hexside feature, the MP cost of entering
(``P`` = prohibited) and whether entering gives a formation hit (6.3.1: "moving through difficult terrain")::

    mp_terrain:
      rows:     {clear: {cost: 1}, woods: {cost: 2, hit: true}, marsh: {cost: P}}
      hexsides: {stream: {cost: 1, hit: true}, steep: {cost: 1, hit: true}}   # added to the hex entered

Costs may be given per arm: ``{cost: {cavalry: 3, default: 2}, hit: true}``.  Missing entries fall back to
``DEFAULT_ROWS`` / ``DEFAULT_HEXSIDES`` below; the only value the excerpt itself fixes is clear = 1 MP (the
6.2.1 example: a wheel over clear ground costs 1 + 1).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


PROHIBITED = "P"

DEFAULT_ROWS: Mapping[str, Mapping[str, Any]] = {
    "clear": {"cost": 1},
    "woods": {"cost": 2, "hit": True},
    "village": {"cost": 2},
    "marsh": {"cost": 3, "hit": True},
    "water": {"cost": PROHIBITED},
}
DEFAULT_HEXSIDES: Mapping[str, Mapping[str, Any]] = {
    "stream": {"cost": 1, "hit": True},
    "steep": {"cost": 1, "hit": True},
    "river": {"cost": PROHIBITED},
}


@dataclass(frozen=True)
class Entry:
    """The cost (None = prohibited) and formation hit of entering a hex for one arm."""
    cost: int | None
    hits: int


@dataclass(frozen=True)
class Terrain:
    map: Any
    rows: Mapping[str, Mapping[str, Any]]
    hexsides: Mapping[str, Mapping[str, Any]]

    @classmethod
    def from_scenario(cls, scenario: Any) -> "Terrain":
        table = (scenario.tables or {}).get("mp_terrain") or {}
        return cls(map=scenario.map, rows={**DEFAULT_ROWS, **dict(table.get("rows") or {})},
                   hexsides={**DEFAULT_HEXSIDES, **dict(table.get("hexsides") or {})})

    def enter(self, src: str, dst: str, arm: str) -> Entry:
        """Entering ``dst`` from the adjacent ``src``: hex cost plus every hexside feature crossed."""
        row = self.rows.get(self.map.terrain_of(dst), self.rows["clear"])
        cost = _cost(row, arm)
        hits = 1 if row.get("hit") else 0
        for feature in self.map.hexside_features(src, dst):
            side = self.hexsides.get(feature)
            if side is None:
                continue
            extra = _cost(side, arm)
            cost = None if cost is None or extra is None else cost + extra
            hits += 1 if side.get("hit") else 0
        return Entry(cost, hits)


def _cost(row: Mapping[str, Any], arm: str) -> int | None:
    value = row.get("cost", 1)
    if isinstance(value, Mapping):
        value = value.get(arm, value.get("default", 1))
    return None if value == PROHIBITED else int(value)
