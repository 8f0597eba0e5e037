"""Roll specifications: what a rule asks the dice for, before and after the die is known (DESIGN §5 ``rolls``).

Every Triumph & Glory roll is one d10, faces 0–9, **0 is zero** (main digest §0), and no natural roll succeeds
or fails automatically (G-16).  Two shapes occur and both are built here, so every rule module describes its
roll the same way and the engine only has to attach ``natural``:

* :class:`PassRoll` — a pass/fail test.  Every T&G test has the one direction "pass iff natural + ΣDRM ≤ base"
  (commitment ≤ cohesion, every cohesion check "fails on > cohesion", rally, recovery, recall, square,
  counter-charge, the BOR-5 fire-out roll ≤ 3).  Hence ``pass_max = clamp(base − ΣDRM, −1, 9)`` and
  ``p_success = (pass_max + 1) / 10``.
* :class:`TableRoll` — natural + ΣDRM read off a table (shock 9.6, artillery fire 8.5).  ``modified`` and the
  table ``result``; several target hexes of one shock share the natural roll and each has its own modifiers
  (``targets``, 9.22).

The records are pure data; ``to_dict(natural)`` gives the ruling's roll object.  :class:`BandTable` is the
parsed form of a "modified roll → result" table (``shock_results``, ``fire`` results).
"""
from __future__ import annotations

import math
import re
from typing import Any, Iterable, Mapping, Sequence

# One Modifier type and one pass arithmetic for the engine and every rule: the ruling shows what the rules used.
from modulebuilder.records import record
from referee.engine.ruling import Modifier, p_success, pass_max

__all__ = ["Modifier", "PassRoll", "TableRoll", "TargetRoll", "BandTable", "Band", "mod", "check_natural",
           "pass_max", "p_success", "nonzero", "DIE_FACES"]

DIE_FACES = range(10)          # one d10, 0–9 (main digest §0)


def mod(value: int, rule: str, reason: str) -> Modifier:
    return Modifier(value, rule, reason)


def check_natural(natural: int | None) -> None:
    """A natural d10 is 0–9 (main digest §0); None means the roll is still owed."""
    if natural is not None and (isinstance(natural, bool) or not isinstance(natural, int)
                                or natural not in DIE_FACES):
        raise ValueError(f"a natural d10 roll is 0-9, not {natural!r}")


@record(frozen=True, slots=True)
class PassRoll:
    """A "pass on natural + ΣDRM ≤ base" roll.  ``base_label`` says what the base is ("cohesion of Guy a")."""
    purpose: str
    base: int
    base_rule: str
    base_label: str
    modifiers: tuple[Modifier, ...] = ()
    unit: str | None = None

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def pass_max(self) -> int:
        return pass_max(self.base, self.total_modifier)

    @property
    def p_success(self) -> float:
        return p_success(self.pass_max)

    @property
    def pass_set(self) -> tuple[int, ...]:
        """The natural faces that succeed (the catalogue's "pass set")."""
        return tuple(range(self.pass_max + 1))

    def passes(self, natural: int) -> bool:
        check_natural(natural)
        return natural <= self.pass_max

    def outcome(self, natural: int | None) -> str | None:
        """``"pass"`` / ``"fail"``, or None while the roll is owed."""
        check_natural(natural)
        return None if natural is None else ("pass" if natural <= self.pass_max else "fail")

    def arithmetic(self, natural: int) -> str:
        """The test written out as the rulebook does: ``"6 - 2 + 1 = 5 <= 5: pass"``."""
        check_natural(natural)
        terms = "".join(f" {'-' if m.value < 0 else '+'} {abs(m.value)}" for m in self.modifiers)
        total = natural + self.total_modifier
        verdict = "pass" if total <= self.base else "fail"
        return f"{natural}{terms} = {total} {'<=' if total <= self.base else '>'} {self.base}: {verdict}"

    def to_dict(self, natural: int | None = None) -> dict[str, Any]:
        d: dict[str, Any] = {"purpose": self.purpose}
        if self.unit is not None:
            d["unit"] = self.unit
        d.update(die="d10", natural=natural, base=self.base, base_rule=self.base_rule,
                 base_label=self.base_label, modifiers=[m.to_dict() for m in self.modifiers],
                 pass_max=self.pass_max, p_success=self.p_success, outcome=self.outcome(natural))
        return d


# --------------------------------------------------------------------------------------------- tables

_BAND_TEXT = re.compile(r"^\s*(?:(?P<op><=|>=|<|>)\s*(?P<v>-?\d+)|(?P<lo>-?\d+)\s*(?:-|–|to)\s*(?P<hi>-?\d+)|"
                        r"(?P<one>-?\d+))\s*$")


@record(frozen=True, slots=True)
class Band:
    """``lo ≤ modified ≤ hi`` (either end may be open: ±inf) gives ``result``."""
    lo: float
    hi: float
    result: str

    def holds(self, modified: int) -> bool:
        return self.lo <= modified <= self.hi


def _parse_band(row: Mapping[str, Any]) -> Band:
    result = row.get("result", row.get("effect"))
    if not isinstance(result, str):
        raise ValueError(f"table row {dict(row)!r} has no result")
    if "min" in row or "max" in row:
        return Band(float(row["min"]) if "min" in row else -math.inf,
                    float(row["max"]) if "max" in row else math.inf, result)
    text = str(row.get("range", row.get("total", "")))
    m = _BAND_TEXT.match(text)
    if not m:
        raise ValueError(f"bad table band {text!r}: expected '<= 8', '9-12', '>= 15', '< 0' or min/max")
    if m["one"] is not None:
        v = int(m["one"])
        return Band(v, v, result)
    if m["lo"] is not None:
        return Band(int(m["lo"]), int(m["hi"]), result)
    v, op = int(m["v"]), m["op"]
    return {"<=": Band(-math.inf, v, result), "<": Band(-math.inf, v - 1, result),
            ">=": Band(v, math.inf, result), ">": Band(v + 1, math.inf, result)}[op]


@record(frozen=True, slots=True)
class BandTable:
    """A "modified roll → result" table.  Bands must cover every integer exactly once (checked on build),
    so a lookup never falls through."""
    bands: tuple[Band, ...]

    @classmethod
    def parse(cls, rows: Iterable[Mapping[str, Any]]) -> "BandTable":
        bands = tuple(sorted((_parse_band(r) for r in rows), key=lambda b: b.lo))
        if not bands or bands[0].lo != -math.inf or bands[-1].hi != math.inf:
            raise ValueError("a result table must cover every modified roll (open first and last bands)")
        for a, b in zip(bands, bands[1:]):
            if b.lo != a.hi + 1:
                raise ValueError(f"result table bands leave a gap or overlap between {a.hi} and {b.lo}")
        return cls(bands)

    def lookup(self, modified: int) -> str:
        for b in self.bands:
            if b.holds(modified):
                return b.result
        raise AssertionError("unreachable: bands cover every integer")

    def distribution(self, total_modifier: int) -> dict[str, float]:
        """Chance of each result for a fair d10 plus ``total_modifier`` (for displays and tests)."""
        out: dict[str, float] = {}
        for n in DIE_FACES:
            r = self.lookup(n + total_modifier)
            out[r] = round(out.get(r, 0.0) + 0.1, 2)
        return out


@record(frozen=True, slots=True)
class TargetRoll:
    """One target hex of a table roll: its own modifiers (9.22: one die, modified separately per hex)."""
    hex: str
    modifiers: tuple[Modifier, ...]

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


@record(frozen=True, slots=True)
class TableRoll:
    """A table roll.  With one target its modifiers are ``targets[0].modifiers`` and the ruling shows them
    flat; with several the ruling carries ``targets`` (DESIGN §5)."""
    purpose: str
    table: BandTable
    targets: tuple[TargetRoll, ...]
    unit: str | None = None

    @classmethod
    def single(cls, purpose: str, table: BandTable, modifiers: Sequence[Modifier], hex_id: str = "",
               unit: str | None = None) -> "TableRoll":
        return cls(purpose, table, (TargetRoll(hex_id, tuple(modifiers)),), unit)

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        return self.targets[0].modifiers

    def modified(self, natural: int, target: int = 0) -> int:
        check_natural(natural)
        return natural + self.targets[target].total_modifier

    def result(self, natural: int, target: int = 0) -> str:
        return self.table.lookup(self.modified(natural, target))

    def to_dict(self, natural: int | None = None) -> dict[str, Any]:
        check_natural(natural)
        d: dict[str, Any] = {"purpose": self.purpose}
        if self.unit is not None:
            d["unit"] = self.unit
        d.update(die="d10", natural=natural)
        per = [{"hex": t.hex, "modifiers": [m.to_dict() for m in t.modifiers],
                "modified": None if natural is None else natural + t.total_modifier,
                "result": None if natural is None else self.table.lookup(natural + t.total_modifier)}
               for t in self.targets]
        if len(per) == 1:
            d.update({k: v for k, v in per[0].items() if k != "hex"})
        else:
            d["targets"] = per
        return d


def nonzero(mods: Iterable[Modifier | None]) -> tuple[Modifier, ...]:
    """Drop absent and zero modifiers: a ruling lists only what changes the roll."""
    return tuple(m for m in mods if m is not None and m.value != 0)

