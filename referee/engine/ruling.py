"""Ruling objects, exactly the shape of DESIGN §5.

Everything here is immutable and JSON-able through ``to_dict``; rule functions build rulings with the small
constructors at the bottom (``legal``, ``illegal``) and the roll helpers (``pass_fail_roll``, ``table_roll``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from referee.engine.dice import die as die_of


@dataclass(frozen=True)
class Modifier:
    """A die-roll modifier and the rule that grants it."""
    value: int
    rule: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "rule": self.rule, "reason": self.reason}


@dataclass(frozen=True)
class Error:
    """Why an event is illegal.  ``alternatives`` lists what would be legal, where that helps."""
    rule: str
    code: str
    message: str
    alternatives: tuple[Any, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"rule": self.rule, "code": self.code, "message": self.message}
        if self.alternatives is not None:
            d["alternatives"] = list(self.alternatives)
        return d


@dataclass(frozen=True)
class Roll:
    """One roll a rule requires, on the named ``die`` (referee.engine.dice: "d10" reads 0–9, "d6", "2d6", ...).

    A pass/fail roll has ``base`` (the target) and ``pass_max``/``p_success``; a table roll has ``modified``
    and ``result``.  ``natural`` is None while the roll is owed.
    """
    purpose: str
    natural: int | None
    unit: str | None = None
    side: str | None = None
    die: str = "d10"
    base: int | None = None
    base_label: str | None = None
    base_rule: str | None = None
    modifiers: tuple[Modifier, ...] = ()
    pass_max: int | None = None
    p_success: float | None = None
    outcome: str | None = None
    modified: int | None = None
    result: Any = None
    table: bool = False

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def passed(self) -> bool | None:
        return None if self.outcome is None else self.outcome == "pass"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"purpose": self.purpose}
        if self.unit is not None:
            d["unit"] = self.unit
        if self.side is not None:
            d["side"] = self.side
        d["die"] = self.die
        d["natural"] = self.natural
        if self.table:
            d["modifiers"] = [m.to_dict() for m in self.modifiers]
            d["modified"] = self.modified
            d["result"] = self.result
            return d
        d.update(base=self.base, base_label=self.base_label, base_rule=self.base_rule,
                 modifiers=[m.to_dict() for m in self.modifiers],
                 pass_max=self.pass_max, p_success=self.p_success, outcome=self.outcome)
        return d


def pass_max(base: int, total_modifier: int, die: str = "d10") -> int:
    """Highest natural roll that passes "natural + ΣDRM ≤ base", clamped to one below the die's lowest total
    (nothing passes) .. its highest (everything passes): −1..9 on the d10.

    §0 of the digest: no natural roll passes or fails automatically."""
    d = die_of(die)
    return max(d.lowest - 1, min(d.highest, base - total_modifier))


def p_success(pass_max_: int, die: str = "d10") -> float:
    """Chance that a fair roll of ``die`` (a d10 shows 0–9; 2d6 sums two d6) shows ``pass_max_`` or less,
    rounded to hundredths."""
    d = die_of(die)
    return round(d.ways_at_most(pass_max_) / d.outcomes, 2)


def pass_max_for(base: int, modifiers: Sequence[Modifier], die: str = "d10") -> int:
    return pass_max(base, sum(m.value for m in modifiers), die)


def pass_fail_roll(purpose: str, natural: int | None, base: int, *, base_label: str, base_rule: str,
                   modifiers: Iterable[Modifier] = (), unit: str | None = None,
                   side: str | None = None, die: str = "d10") -> Roll:
    """A "pass on modified ≤ base" roll (also the "fail on > cohesion" checks, which are the same test), on
    ``die``: the highest natural that passes and the chance of passing are the die's."""
    mods = tuple(modifiers)
    pm = pass_max_for(base, mods, die)
    outcome = None if natural is None else ("pass" if natural <= pm else "fail")
    return Roll(purpose=purpose, natural=natural, unit=unit, side=side, die=die, base=base, base_label=base_label,
                base_rule=base_rule, modifiers=mods, pass_max=pm, p_success=p_success(pm, die),
                outcome=outcome)


def table_roll(purpose: str, natural: int | None, result: Any, *, modifiers: Iterable[Modifier] = (),
               unit: str | None = None, side: str | None = None, die: str = "d10") -> Roll:
    """A roll read off a table (or compared between players): ``modified`` = natural + ΣDRM."""
    mods = tuple(modifiers)
    modified = None if natural is None else natural + sum(m.value for m in mods)
    return Roll(purpose=purpose, natural=natural, unit=unit, side=side, die=die, modifiers=mods, modified=modified,
                result=result if natural is not None else None, table=True)


@dataclass(frozen=True)
class Result:
    """A state change the rules produced: ``{unit?, effect, rule, ...}``."""
    effect: str
    rule: str
    unit: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        if self.unit is not None:
            d["unit"] = self.unit
        d["effect"] = self.effect
        d["rule"] = self.rule
        d.update(self.extra)
        return d


def result(effect: str, rule: str, unit: str | None = None, **extra: Any) -> Result:
    return Result(effect=effect, rule=rule, unit=unit, extra=extra)


@dataclass(frozen=True)
class Awaiting:
    """What the rules require next: ``{type, side, unit?, assault?, rule}``; ``assault`` is the index in the
    declaration an owed shock is for (the event's ``assault`` field), so that two owed shocks are told apart."""
    type: str
    side: str | None
    rule: str
    unit: str | None = None
    assault: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type, "side": self.side}
        if self.unit is not None:
            d["unit"] = self.unit
        if self.assault is not None:
            d["assault"] = self.assault
        d["rule"] = self.rule
        return d


@dataclass(frozen=True)
class Ruling:
    index: int
    type: str
    verdict: str                                  # "legal" | "illegal"
    rules: tuple[str, ...] = ()
    errors: tuple[Error, ...] = ()
    rolls: tuple[Roll, ...] = ()
    results: tuple[Result, ...] = ()
    awaiting: tuple[Awaiting, ...] = ()

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def owes_roll(self) -> bool:
        return bool(self.rolls) and any(r.natural is None for r in self.rolls)   # most rulings roll nothing

    def with_index(self, index: int, type_: str | None = None) -> "Ruling":
        # The engine's copy of every ruling (the rule's, with the log index): its __dict__ copied in one block
        # rather than rebuilt from eight attribute reads (the rule's own ruling may be shared, so not changed).
        d = self.__dict__.copy()
        d["index"] = index
        if type_:
            d["type"] = type_
        r = object.__new__(Ruling)
        _set(r, "__dict__", d)
        return r

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "type": self.type, "verdict": self.verdict,
                "rules": list(self.rules), "errors": [e.to_dict() for e in self.errors],
                "rolls": [r.to_dict() for r in self.rolls], "results": [r.to_dict() for r in self.results],
                "awaiting": [a.to_dict() for a in self.awaiting]}


_set = object.__setattr__


def _ruling(index: int, type_: str, verdict: str, rules: tuple[str, ...] = (), errors: tuple[Error, ...] = (),
            rolls: tuple[Roll, ...] = (), results: tuple[Result, ...] = (),
            awaiting: tuple[Awaiting, ...] = ()) -> Ruling:
    """``Ruling(...)`` without the frozen ``__init__``'s eight ``object.__setattr__`` calls: two rulings are
    built per event (the rule's, then the engine's with the index).  The instance
    is the same (same ``__dict__``, equality, hash and repr); the arguments must already be tuples."""
    r = object.__new__(Ruling)
    _set(r, "__dict__", {"index": index, "type": type_, "verdict": verdict, "rules": rules, "errors": errors,
                         "rolls": rolls, "results": results, "awaiting": awaiting})
    return r


def legal(type_: str, rules: Iterable[str] = (), *, rolls: Iterable[Roll] = (), results: Iterable[Result] = (),
          awaiting: Iterable[Awaiting] = ()) -> Ruling:
    """A legal ruling; the engine sets ``index``."""
    return _ruling(-1, type_, "legal", _unique(rules), (), tuple(rolls), tuple(results), tuple(awaiting))


def illegal(type_: str, errors: Iterable[Error], rules: Iterable[str] = ()) -> Ruling:
    errs = tuple(errors)
    if not errs:
        raise ValueError("an illegal ruling needs at least one error")
    return _ruling(-1, type_, "illegal", _unique([*rules, *(e.rule for e in errs)]), errs)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
