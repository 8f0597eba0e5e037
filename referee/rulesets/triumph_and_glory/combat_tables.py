"""The combat tables a scenario supplies (DESIGN §4 ``tables``) and the defaults used when it does not
(gaps digest §18.2–§18.5).  Every table this ruleset's combat rules read is parsed here, once:

``odds``           9.51 / §18.3.  ``[[a, d, drm], ...]`` (attacker:defender → DRM) or ``[{min, drm}, ...]``.
                   Default: 4:1 +4, 3:1 +3, 2:1 +2, 3:2 +1, 1:1 0, 2:3 −1, 1:2 −2, 1:3 −3, 1:4 −4.
``shock_terrain``  9.53 / §18.2.  ``{rows: {terrain: drm}, hexsides: {feature: drm}}``, + favours the attacker.
                   Default ``{rows: {clear: +1}}`` — the only *Borodino* value known; the clear +1 is
                   conditional (shock.open_ground_applies).  A terrain or feature not listed gives no DRM.
``shock_results``  9.6 / §18.4.  Bands ``[{min?, max?, result}]`` (or ``range: "0-4"``).  Default: < 0
                   ``attacker_disordered_counter_shock``; 0–4 ``attacker_disordered_check``; 5–9
                   ``defender_disordered_check``; ≥ 10 ``defender_disordered_retreat``.
``fire``           8.x / §18.5.  ``{results: [bands], terrain: {terrain: drm}}``.  Default results: ≤ 8
                   ``none``; 9–12 ``cohesion_check``; 13–14 ``disordered``; ≥ 15 ``disordered_retreat``; no
                   terrain DRMs (unknown for *Borodino*).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from modulebuilder.records import record
from .board import Board
from .rolls import BandTable

__all__ = ["OddsTable", "ShockTerrain", "CombatTables", "DEFAULT_ODDS", "DEFAULT_SHOCK_RESULTS",
           "DEFAULT_FIRE_RESULTS", "tables_of"]

DEFAULT_ODDS: tuple[tuple[int, int, int], ...] = (
    (4, 1, 4), (3, 1, 3), (2, 1, 2), (3, 2, 1), (1, 1, 0), (2, 3, -1), (1, 2, -2), (1, 3, -3), (1, 4, -4))

DEFAULT_SHOCK_RESULTS: tuple[dict[str, Any], ...] = (
    {"max": -1, "result": "attacker_disordered_counter_shock"},
    {"min": 0, "max": 4, "result": "attacker_disordered_check"},
    {"min": 5, "max": 9, "result": "defender_disordered_check"},
    {"min": 10, "result": "defender_disordered_retreat"})

DEFAULT_FIRE_RESULTS: tuple[dict[str, Any], ...] = (
    {"max": 8, "result": "none"}, {"min": 9, "max": 12, "result": "cohesion_check"},
    {"min": 13, "max": 14, "result": "disordered"}, {"min": 15, "result": "disordered_retreat"})


@record(frozen=True, slots=True)
class OddsTable:
    """9.51: ratios (exact fractions), highest first, with their DRMs."""
    rows: tuple[tuple[Fraction, int], ...]

    @classmethod
    def parse(cls, raw: Any) -> "OddsTable":
        rows = []
        for r in raw or DEFAULT_ODDS:
            if isinstance(r, Mapping):
                rows.append((Fraction(str(r["min"])).limit_denominator(100), int(r["drm"])))
            else:
                a, d, drm = r
                rows.append((Fraction(int(a), int(d)), int(drm)))
        if not rows:
            raise ValueError("empty odds table")
        return cls(tuple(sorted(rows, key=lambda x: x[0], reverse=True)))

    def row(self, attacker: int, defender: int) -> tuple[Fraction, int]:
        """Rounded in the defender's favour: the highest table ratio not above attacker/defender; below the
        lowest ratio the lowest row applies ("1-4 or worse")."""
        if defender <= 0:
            raise ValueError("odds need a defender strength above 0 (lone artillery is 9.25, not odds)")
        actual = Fraction(attacker, defender)
        for ratio, drm in self.rows:
            if ratio <= actual:
                return ratio, drm
        return self.rows[-1]


@record(frozen=True, slots=True)
class ShockTerrain:
    rows: Mapping[str, int]
    hexsides: Mapping[str, int]

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | None) -> "ShockTerrain":
        raw = raw if raw else {"rows": {"clear": 1}}
        return cls({k: int(v) for k, v in (raw.get("rows") or {}).items()},
                   {k: int(v) for k, v in (raw.get("hexsides") or {}).items()})


@record(frozen=True, slots=True)
class CombatTables:
    odds: OddsTable
    shock_terrain: ShockTerrain
    shock_results: BandTable
    fire_results: BandTable
    fire_terrain: Mapping[str, int]

    @classmethod
    def parse(cls, tables: Mapping[str, Any] | None) -> "CombatTables":
        t = tables or {}
        fire = t.get("fire") or {}
        return cls(OddsTable.parse(t.get("odds")), ShockTerrain.parse(t.get("shock_terrain")),
                   BandTable.parse(t.get("shock_results") or DEFAULT_SHOCK_RESULTS),
                   BandTable.parse(fire.get("results") or DEFAULT_FIRE_RESULTS),
                   {k: int(v) for k, v in (fire.get("terrain") or {}).items()})


def tables_of(board: Board) -> CombatTables:
    """The scenario's combat tables, parsed once per scenario (on its static map's memo)."""
    static = board.static
    hit = static.memo.get("combat_tables")
    if hit is None:
        hit = static.memo["combat_tables"] = CombatTables.parse(static.scenario.tables if static.scenario else None)
    return hit
