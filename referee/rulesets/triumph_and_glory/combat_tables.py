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

from functools import total_ordering
from math import gcd
from typing import Any, Mapping

from modulebuilder.records import record
from .board import Board
from .rolls import BandTable

__all__ = ["OddsTable", "Ratio", "ShockTerrain", "CombatTables", "DEFAULT_ODDS", "DEFAULT_SHOCK_RESULTS",
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


@total_ordering                     # <=, >, >= from < and ==
class Ratio:
    """An odds ratio (9.51) in lowest terms, its denominator above 0: ``fractions.Fraction(a, d)``'s
    ``numerator`` and ``denominator``, compared exactly (by cross-multiplication) with another ratio, a Fraction
    or an int, and equal to and hashed as the Fraction of the same value.  It exists because importing
    ``fractions`` (and with it ``decimal``) is a visible share of a one-event check's start-up (docs/speed.md),
    for nine rows compared by integers; tests/speed/test_odds_ratio.py holds it to Fraction."""
    __slots__ = ("numerator", "denominator")
    numerator: int
    denominator: int

    def __init__(self, numerator: int, denominator: int = 1) -> None:
        if type(numerator) is not int or type(denominator) is not int:
            raise TypeError("both arguments should be int instances")
        if denominator == 0:
            raise ZeroDivisionError(f"Fraction({numerator}, 0)")
        g = gcd(numerator, denominator)
        if denominator < 0:
            g = -g
        object.__setattr__(self, "numerator", numerator // g)
        object.__setattr__(self, "denominator", denominator // g)

    @classmethod
    def of(cls, value: Any) -> "Ratio":
        """A Fraction's (or any rational's) ratio."""
        return cls(int(value.numerator), int(value.denominator))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field '{name}'")

    def _terms(self, other: Any) -> tuple[int, int] | None:
        n, d = getattr(other, "numerator", None), getattr(other, "denominator", None)
        return (n, d) if isinstance(n, int) and isinstance(d, int) and d > 0 else None

    def __eq__(self, other: Any) -> bool:
        t = self._terms(other)
        return NotImplemented if t is None else self.numerator * t[1] == t[0] * self.denominator

    def __lt__(self, other: Any) -> bool:
        t = self._terms(other)
        return NotImplemented if t is None else self.numerator * t[1] < t[0] * self.denominator

    def __hash__(self) -> int:
        if self.denominator == 1:
            return hash(self.numerator)
        from fractions import Fraction            # the same hash as the equal Fraction's (rarely asked for)
        return hash(Fraction(self.numerator, self.denominator))

    def __repr__(self) -> str:
        return f"Ratio({self.numerator}, {self.denominator})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ratio, (self.numerator, self.denominator))


@record(frozen=True, slots=True)
class OddsTable:
    """9.51: ratios (exact, in lowest terms), highest first, with their DRMs."""
    rows: tuple[tuple[Ratio, int], ...]

    @classmethod
    def parse(cls, raw: Any) -> "OddsTable":
        rows = []
        for r in raw or DEFAULT_ODDS:
            if isinstance(r, Mapping):
                from fractions import Fraction     # a ratio written as a number ("1.5"): Fraction reads it
                rows.append((Ratio.of(Fraction(str(r["min"])).limit_denominator(100)), int(r["drm"])))
            else:
                a, d, drm = r
                rows.append((Ratio(int(a), int(d)), int(drm)))
        if not rows:
            raise ValueError("empty odds table")
        return cls(tuple(sorted(rows, key=lambda x: x[0], reverse=True)))

    def row(self, attacker: int, defender: int) -> tuple[Ratio, int]:
        """Rounded in the defender's favour: the highest table ratio not above attacker/defender; below the
        lowest ratio the lowest row applies ("1-4 or worse")."""
        if defender <= 0:
            raise ValueError("odds need a defender strength above 0 (lone artillery is 9.25, not odds)")
        actual = Ratio(attacker, defender)
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
