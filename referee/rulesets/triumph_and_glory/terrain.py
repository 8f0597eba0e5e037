"""Movement-cost table lookups (7.21–7.24, gaps digest §18.1; DESIGN §4 ``movement_costs``).

The table is data: ``rows`` {terrain id: {infantry, cavalry, artillery, commander}} give the MP to enter a hex,
``hexsides`` {feature: {...}} the MP *added* for crossing a hexside.  A cell is an int, ``"P"`` (prohibited),
or ``{cost, disorders}`` (e.g. cavalry entering woods pays 3 and becomes Disordered, 7.21 illustration).
Strings such as ``"+1"`` and ``"3D"`` (the chart's D = Disordered) are accepted too.

Special rows the movement rules read when present: ``road`` (the road rate, 7.22), ``rubble`` (a burnt village,
BOR-5), and hexside ``up_one_level`` (added per elevation level climbed; +0 in *Borodino*, 7.22 illustration).
A ``path`` costs half the other terrain, rounded up (gaps §3.2), so it needs no row.

Defaults (engine choice, documented): a scenario without ``movement_costs`` uses :data:`DEFAULT_MOVEMENT_COSTS`
— the *Borodino* values seen in the rulebook's illustrations (clear cav 1 / art 2, cultivated 1/2/3, woods
inf 2 / cav 3D, village inf 2, road art 1) completed with the series (Lonato) chart where *Borodino* is unknown.
A terrain id missing from the table costs as ``clear``; a hexside feature missing from it adds nothing; a
missing ``commander`` cell uses the infantry cell.  ``river`` and ``impassable`` hexsides are prohibited
(7.23) unless the table says otherwise.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from modulebuilder.records import record

__all__ = ["Cost", "PROHIBITED", "FREE", "MovementTable", "parse_cost", "column_of", "DEFAULT_MOVEMENT_COSTS"]

COLUMNS = ("infantry", "cavalry", "artillery", "commander")


@record(frozen=True, slots=True)
class Cost:
    """MP to enter a hex or cross a hexside; ``mp is None`` = prohibited."""
    mp: int | None
    disorders: bool = False

    @property
    def prohibited(self) -> bool:
        return self.mp is None

    def halved(self) -> "Cost":
        """Path rate: half the other terrain's cost, rounded up (gaps §3.2: cavalry woods+path 3 -> 2)."""
        return self if self.mp is None else Cost(math.ceil(self.mp / 2), self.disorders)


PROHIBITED = Cost(None)
FREE = Cost(0)


def parse_cost(value: Any) -> Cost:
    """One table cell -> Cost.  Raises ValueError on a cell that is none of the documented forms."""
    if isinstance(value, Cost):
        return value
    if isinstance(value, bool):
        raise ValueError(f"bad movement cost {value!r}")
    if isinstance(value, int):
        return Cost(value)
    if isinstance(value, Mapping):
        inner = parse_cost(value.get("cost", "P"))
        return Cost(inner.mp, bool(value.get("disorders", False)) or inner.disorders)
    if isinstance(value, str):
        s = value.strip().upper().lstrip("+")
        if s in ("P", "NA"):
            return PROHIBITED
        disorders = s.endswith("D")
        s = s.rstrip("D")
        if s.isdigit():
            return Cost(int(s), disorders)
    raise ValueError(f"bad movement cost {value!r}: expected an integer, 'P' or {{cost, disorders}}")


def column_of(kind: str) -> str:
    """7.21: the table column for a unit kind (horse artillery uses ``artillery``; CinCs ``commander``)."""
    return kind if kind in COLUMNS else "infantry"


def _row(cells: Mapping[str, Any]) -> dict[str, Cost]:
    if not isinstance(cells, Mapping):          # a single value for every column
        return {c: parse_cost(cells) for c in COLUMNS}
    row = {c: parse_cost(v) for c, v in cells.items() if c in COLUMNS}
    if "commander" not in row and "infantry" in row:
        row["commander"] = row["infantry"]
    return row


DEFAULT_MOVEMENT_COSTS: dict[str, Any] = {
    "rows": {
        "clear": {"infantry": 1, "cavalry": 1, "artillery": 2, "commander": 1},
        "cultivated": {"infantry": 1, "cavalry": 2, "artillery": 3, "commander": 1},
        "woods": {"infantry": 2, "cavalry": {"cost": 3, "disorders": True}, "artillery": 3, "commander": 2},
        "village": {"infantry": 2, "cavalry": 3, "artillery": 3, "commander": 2},
        "rubble": {"infantry": 2, "cavalry": 3, "artillery": 3, "commander": 2},
        "redoubt": {"infantry": 2, "cavalry": 2, "artillery": 2, "commander": 1},
        "marsh": {"infantry": 2, "cavalry": 3, "artillery": "P", "commander": 2},
        "road": {"infantry": 1, "cavalry": 1, "artillery": 1, "commander": 1},
    },
    "hexsides": {
        "stream": {"infantry": 1, "cavalry": 1, "artillery": 1, "commander": 0},
        "river": "P",
        "impassable": "P",
        "bridge": 0,
        "ford": 0,
        "up_one_level": 0,
    },
}


class MovementTable:
    """The movement-cost chart of a scenario: O(1) lookups of parsed cells."""

    __slots__ = ("rows", "hexsides")

    def __init__(self, rows: Mapping[str, Mapping[str, Cost]], hexsides: Mapping[str, Mapping[str, Cost]]):
        self.rows = rows
        self.hexsides = hexsides

    @classmethod
    def from_tables(cls, tables: Mapping[str, Any] | None) -> "MovementTable":
        """From a scenario's ``tables`` (DESIGN §4); defaults when ``movement_costs`` is absent."""
        mc = (tables or {}).get("movement_costs") or DEFAULT_MOVEMENT_COSTS
        rows = {t: _row(cells) for t, cells in (mc.get("rows") or {}).items()}
        sides = {f: _row(cells) for f, cells in (mc.get("hexsides") or {}).items()}
        for f in ("river", "impassable"):
            sides.setdefault(f, {c: PROHIBITED for c in COLUMNS})
        return cls(rows, sides)

    def hex_cost(self, terrain: str, column: str) -> Cost:
        """7.21: MP to enter a hex of ``terrain`` (unknown terrain costs as clear)."""
        row = self.rows.get(terrain) or self.rows.get("clear") or {}
        return row.get(column) or row.get("infantry") or Cost(1)

    def road_cost(self, column: str) -> Cost | None:
        """7.22: the road rate, or None when the table has no road row."""
        row = self.rows.get("road")
        return None if row is None else (row.get(column) or row.get("infantry"))

    def hexside_cost(self, feature: str, column: str) -> Cost:
        """7.2x: MP added for crossing a hexside with ``feature`` (0 when the table does not list it)."""
        row = self.hexsides.get(feature)
        if row is None:
            return FREE
        return row.get(column) or row.get("infantry") or FREE

    def impassable(self, feature: str) -> bool:
        """6.32 / 7.23: a hexside no unit may cross (every column prohibited)."""
        row = self.hexsides.get(feature)
        return bool(row) and all(c.prohibited for c in row.values())
