"""The game's tables as data (README rules 5.2, 5.3, 6.3-6.5): the Terrain Effects Chart for movement and combat
and the odds-based Combat Results Table, read from the scenario's tables file."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

PROHIBITED = "P"
RESULTS = ("AE", "AR", "EX", "DR", "DE")


@dataclass(frozen=True)
class Terrain:
    map: Any
    rows: Mapping[str, Mapping[str, Any]]          # terrain -> kind -> cost
    hexsides: Mapping[str, Mapping[str, Any]]      # feature -> kind -> cost
    road: int | None                               # 5.3
    roads: frozenset[frozenset[str]]               # 5.3: pairs of consecutive hexes of a road
    shifts: Mapping[str, int]                      # 6.4: terrain -> columns
    hexside_shifts: Mapping[str, int]
    sides: Mapping[frozenset[str], tuple[str, ...]]   # the map's hexside features by pair of hexes

    @classmethod
    def from_scenario(cls, scenario: Any) -> "Terrain":
        t = scenario.tables or {}
        mc = t.get("movement_costs") or {}
        cs = t.get("combat_shifts") or {}
        roads = frozenset(frozenset(pair) for r in scenario.map.roads for pair in zip(r.hexes, r.hexes[1:]))
        return cls(map=scenario.map, rows=dict(mc.get("rows") or {}), hexsides=dict(mc.get("hexsides") or {}),
                   road=t.get("road_movement"), roads=roads,
                   shifts=dict(cs.get("rows") or {}), hexside_shifts=dict(cs.get("hexsides") or {}),
                   sides=_features_by_pair(scenario.map))

    def features(self, a: str, b: str) -> tuple[str, ...]:
        return self.sides.get(frozenset((a, b)), ())

    def river_between(self, a: str, b: str) -> bool:
        """5.4 / 4.2: a river hexside not crossed by the bridge."""
        f = self.features(a, b)
        return "river" in f and "bridge" not in f

    def along_road(self, a: str, b: str) -> bool:
        """5.3: ``b`` is the next hex of a road that runs through ``a``."""
        return frozenset((a, b)) in self.roads

    def cost(self, a: str, b: str, kind: str) -> tuple[int | None, tuple[str, ...]]:
        """MP to enter ``b`` from the adjacent ``a`` (None = prohibited) and the rules that priced it."""
        if self.river_between(a, b):
            return None, ("5.4",)
        if self.road is not None and self.along_road(a, b):
            return int(self.road), ("5.3",) + (("5.4",) if "bridge" in self.features(a, b) else ())
        row = self.rows.get(self.map.terrain_of(b), {})
        value = row.get(kind, 1)
        rules: tuple[str, ...] = ("5.2",)
        if value == PROHIBITED:
            return None, rules
        total = int(value)
        for feature in self.features(a, b):
            extra = (self.hexsides.get(feature) or {}).get(kind, 0)
            if feature == "river":
                continue                                  # crossed at the bridge: 5.4
            if extra == PROHIBITED:
                return None, rules
            total += int(extra)
            if feature == "bridge":
                rules += ("5.4",)
        return total, rules


def _features_by_pair(map_: Any) -> dict[frozenset[str], tuple[str, ...]]:
    """Looked up for every step of every candidate move: a dict, not the map's list of hexsides."""
    out: dict[frozenset[str], tuple[str, ...]] = {}
    for side in map_.hexsides:
        key = frozenset(side.hexes)
        out[key] = out.get(key, ()) + (side.feature,)
    return out


@dataclass(frozen=True)
class Crt:
    columns: tuple[str, ...]                       # "1:2", "1:1", "2:1", ... worst first
    rows: Mapping[int, tuple[str, ...]]            # natural d6 -> result per column
    retreat_hexes: Mapping[str, int]               # AR / DR -> hexes

    @classmethod
    def from_tables(cls, tables: Mapping[str, Any]) -> "Crt":
        crt = tables.get("crt") or {}
        columns = tuple(crt.get("columns") or ())
        rows = {int(k): tuple(v) for k, v in (crt.get("rows") or {}).items()}
        for k, v in rows.items():
            if len(v) != len(columns) or any(r not in RESULTS for r in v):
                raise ValueError(f"tables.crt.rows.{k}: one of {', '.join(RESULTS)} per column "
                                 f"({len(columns)} columns)")
        return cls(columns=columns, rows=rows, retreat_hexes=dict(crt.get("retreat_hexes") or {"AR": 1, "DR": 2}))

    def ratio(self, column: str) -> Fraction:
        a, d = column.split(":")
        return Fraction(int(a), int(d))

    def column(self, attack: int, defence: int) -> int | None:
        """6.3: the index of the best column the odds reach (rounded in the defender's favour), None when they
        are worse than the first column.  Odds better than the last column use the last."""
        odds = Fraction(attack, max(defence, 1))
        best = None
        for i, col in enumerate(self.columns):
            if odds >= self.ratio(col):
                best = i
        return best
