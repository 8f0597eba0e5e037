"""The luck report: for every pass/fail roll the referee ruled on, the chance it gave (``p_success``) against what
the die did, summed per side, per roll type and per turn — expected successes against actual ones.

A roll counts for the side whose unit or commander rolled it (``roll.side``, else the unit's side, else the
event's side).  Rolls still owed are left out (nothing happened yet), so a game in progress gets its report so
far.  The spread is the binomial one: the variance of a sum of independent pass/fail rolls is Σ p(1−p), and
``z`` = (actual − expected) / √variance says how unusual a side's luck was (|z| > 2: about one game in twenty).
Table rolls (shock, fire, initiative) have no single chance of success; their natural rolls are summarised as a
mean against the fair dice's: each roll's die says its own (a d10 read 0–9 means 4.5, a d6 3.5, 2d6 7), so
``fair_mean`` is the mean of the dice the side rolled and ``dice`` names them.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from referee.engine.dice import die as die_of


def _side(roll: Mapping[str, Any], event: Mapping[str, Any], unit_sides: Mapping[str, str]) -> str:
    return roll.get("side") or unit_sides.get(roll.get("unit") or "", "") or event.get("side") or "—"


def _tally() -> dict[str, float]:
    return {"rolls": 0, "expected": 0.0, "actual": 0, "variance": 0.0}


def _finish(t: dict[str, float]) -> dict[str, Any]:
    sd = math.sqrt(t["variance"])
    return {"rolls": int(t["rolls"]), "expected": round(t["expected"], 2), "actual": int(t["actual"]),
            "difference": round(t["actual"] - t["expected"], 2),
            "z": round((t["actual"] - t["expected"]) / sd, 2) if sd > 0 else 0.0}


def luck(rulings: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]],
         places: Sequence[tuple[str, str]], unit_sides: Mapping[str, str]) -> dict[str, Any]:
    """``{"sides": {side: totals}, "by_purpose": {side: {purpose: totals}}, "by_turn": [{turn, side, ...}],
    "series": [{index, side, purpose, p, passed}], "table_rolls": {side: {rolls, mean_natural, fair_mean, dice}}}``."""
    sides: dict[str, dict[str, float]] = {}
    by_purpose: dict[str, dict[str, dict[str, float]]] = {}
    by_turn: dict[tuple[str, str], dict[str, float]] = {}
    turn_order: list[str] = []
    series: list[dict[str, Any]] = []
    table: dict[str, list[tuple[int, str]]] = {}
    for ruling, event, place in zip(rulings, events, places):
        turn = place[0]
        if not turn_order or turn_order[-1] != turn:
            if turn not in turn_order:
                turn_order.append(turn)
        for roll in ruling.get("rolls", ()):
            natural = roll.get("natural")
            if natural is None:
                continue
            side = _side(roll, event, unit_sides)
            p = roll.get("p_success")
            if p is None:
                table.setdefault(side, []).append((int(natural), str(roll.get("die") or "d10")))
                continue
            passed = roll.get("outcome") == "pass"
            for t in (sides.setdefault(side, _tally()),
                      by_purpose.setdefault(side, {}).setdefault(roll["purpose"], _tally()),
                      by_turn.setdefault((turn, side), _tally())):
                t["rolls"] += 1
                t["expected"] += p
                t["actual"] += passed
                t["variance"] += p * (1 - p)
            series.append({"index": ruling["index"], "turn": turn, "side": side, "purpose": roll["purpose"],
                           "p": p, "passed": passed})
    return {
        "sides": {s: _finish(t) for s, t in sides.items()},
        "by_purpose": {s: {pu: _finish(t) for pu, t in sorted(d.items())} for s, d in by_purpose.items()},
        "by_turn": [{"turn": turn, "side": s, **_finish(t)} for turn in turn_order
                    for (tu, s), t in by_turn.items() if tu == turn],
        "series": series,
        "table_rolls": {s: _table_rolls(v) for s, v in table.items()},
    }


def _table_rolls(rolls: Sequence[tuple[int, str]]) -> dict[str, Any]:
    """A side's table rolls: how many, their mean, and the mean the fair dice would give (each roll's own)."""
    n = len(rolls)
    dice = list(dict.fromkeys(name for _, name in rolls))
    return {"rolls": n, "mean_natural": round(sum(v for v, _ in rolls) / n, 2),
            "fair_mean": round(sum(_mean(name) for _, name in rolls) / n, 2),
            "dice": [_label(name) for name in dice]}


def _mean(name: str) -> float:
    try:
        return die_of(name).mean
    except ValueError:
        return die_of("d10").mean          # a die the engine does not know: the d10 of DESIGN §5


def _label(name: str) -> str:
    try:
        return die_of(name).label
    except ValueError:
        return name
