"""The text report: what a player wants next to the board — per turn and phase, each event in a line or a few:
verdict, rules, errors with what would be legal, every roll with its base, each modifier and its rule, the
pass range and chance, the natural roll and outcome, the results, and what the rules wait for."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.engine.ruling import Roll, Ruling


def pass_range(pass_max: int) -> str:
    """'pass on 0–6' / 'pass on 0' / 'cannot pass' / 'always passes'."""
    if pass_max < 0:
        return "cannot pass"
    if pass_max >= 9:
        return "passes on any roll (0–9)"
    return "pass on 0" if pass_max == 0 else f"pass on 0–{pass_max}"


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else ("−" + str(-v) if v < 0 else "0")


def _naturals(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}–{hi}"


def shock_lines(roll: Roll) -> list[str]:
    """A shock as a player reads it: who attacks whom, per target hex every modifier with its rule and the
    total, which natural rolls give which result (before the roll) and the result (after).  ``detail`` is the
    ruleset's (T&G ``ShockDetail``); a roll without it is shown as any table roll."""
    detail = getattr(roll, "detail", None)
    by_hex: dict[str, list[str]] = {}
    for _uid, name, hex_ in detail.attackers:
        by_hex.setdefault(hex_, []).append(name)
    attackers = "; ".join(f"{', '.join(names)} ({h})" for h, names in by_hex.items())
    lines = [f"  {getattr(detail, 'label', 'shock')} ({roll.side}): {attackers}"]     # "charge", "pursuit charge 1"
    targets = getattr(roll, "targets", ())
    for t in targets:
        h = t["hex"]
        defenders = ", ".join(name for _uid, name in detail.defenders.get(h, ())) or "nobody"
        lines.append(f"    against {h}: {defenders}")
        total = 0
        if detail.odds and not any(m["rule"] == "9.51" for m in t["modifiers"]):
            lines.append(f"      ±0 {detail.odds} [9.51]")          # even odds change nothing, but players ask
        for m in t["modifiers"]:
            total += m["value"]
            lines.append(f"      {_signed(m['value'])} {m['reason']} [{m['rule']}]")
        lines.append(f"      total {_signed(total)}")
        if roll.natural is None:
            bands = detail.bands.get(h, ())
            lines.append("      natural " + "; ".join(f"{_naturals(lo, hi)} → {res}" for res, lo, hi in bands)
                         + "; natural: OWED")
        else:
            lines.append(f"      natural {roll.natural} {_signed(total)} = {t['modified']} → {t['result']}")
    return lines


def roll_lines(roll: Roll) -> list[str]:
    if getattr(roll, "detail", None) is not None:
        return shock_lines(roll)
    who = " ".join(x for x in (roll.side, roll.unit) if x)
    head = f"roll {roll.purpose}" + (f" ({who})" if who else "")
    mods = [f"{_signed(m.value)} {m.reason} [{m.rule}]" for m in roll.modifiers]
    lines = []
    if roll.table:
        parts = [head]
        if mods:
            parts.append("modifiers: " + "; ".join(mods))
        if roll.natural is None:
            parts.append("natural: OWED")
        else:
            parts.append(f"natural {roll.natural} → {roll.modified}" + (f" = {roll.result}" if roll.result is not None
                                                                       else ""))
        return ["  " + ", ".join(parts)]
    lines.append(f"  {head}: {roll.base_label} {roll.base} [{roll.base_rule}]")
    for m in mods:
        lines.append(f"      {m}")
    chance = f"{round((roll.p_success or 0) * 100)}%"
    tail = "natural: OWED" if roll.natural is None else f"natural {roll.natural} → {roll.outcome.upper()}"  # type: ignore[union-attr]
    lines.append(f"      {pass_range(roll.pass_max)} ({chance}); {tail}")  # type: ignore[arg-type]
    return lines


def _result_line(r: Mapping[str, Any]) -> str:
    extra = {k: v for k, v in r.items() if k not in ("unit", "effect", "rule")}
    who = f"{r['unit']}: " if r.get("unit") else ""
    more = ", ".join(f"{k} {v if not isinstance(v, list) else ' '.join(map(str, v))}" for k, v in extra.items()
                     if v is not None)
    return f"  → {who}{r['effect']}" + (f" ({more})" if more else "") + f" [{r['rule']}]"


def event_summary(event: Mapping[str, Any]) -> str:
    if event.get("type") == "charge":           # T&G 9.81: "French cuir through 0403 at 0404 (facing 6)"
        return " ".join(str(x) for x in (event.get("side"), event.get("unit"), "through",
                                        " ".join(event.get("path") or ()) or "—", "at", event.get("target")))
    bits = [str(event.get(k)) for k in ("side", "unit", "marker", "hex") if event.get(k) is not None]
    if event.get("units"):
        bits.append(" ".join(event["units"]))
    if event.get("target"):
        tgt = event["target"]
        bits.append("→ " + (" ".join(tgt) if isinstance(tgt, list) else str(tgt)))
    if event.get("assault") is not None:
        bits.append(f"assault {event['assault']}")
    for i, a in enumerate(event.get("assaults") or ()):
        tgt = a.get("target")
        bits.append(f"[{i}] {' '.join(a.get('attackers', ()))} → {' '.join(tgt) if isinstance(tgt, list) else tgt}"
                    + (" (charge)" if a.get("charge") else ""))
    if event.get("to") is not None:
        to = event["to"]
        bits.append("to " + (" ".join(to) if isinstance(to, list) else str(to)))
    if event.get("path"):
        bits.append("→ " + " ".join(event["path"]))
    if event.get("under_orders") is not None:
        bits.append(f"UO: {', '.join(x if isinstance(x, str) else '+'.join(x) for x in event['under_orders']) or 'none'}")
    return " ".join(bits)


def ruling_lines(ruling: Ruling, event: Mapping[str, Any]) -> list[str]:
    verdict = "legal" if ruling.legal else "ILLEGAL"
    rules = ", ".join(ruling.rules)
    summary = event_summary(event)
    lines = [f"[{ruling.index}] {ruling.type}{' ' + summary if summary else ''}: {verdict}"
             + (f" ({rules})" if rules else "")]
    for e in ruling.errors:
        lines.append(f"  ✗ {e.rule} {e.code}: {e.message}")
        if e.alternatives:
            alts = ", ".join(a if isinstance(a, str) else str(a) for a in e.alternatives[:20])
            lines.append(f"      legal instead: {alts}" + (" …" if len(e.alternatives) > 20 else ""))
    for roll in ruling.rolls:
        lines += roll_lines(roll)
    for r in ruling.results:
        lines.append(_result_line(r.to_dict()))
    for a in ruling.awaiting:
        lines.append(f"  … awaiting {a.type}" + (f" from {a.side}" if a.side else "")
                     + (f" for {a.unit}" if a.unit else "") + f" [{a.rule}]")
    return lines


def render(rulings: Sequence[Ruling], events: Sequence[Mapping[str, Any]], places: Sequence[tuple[str, str]],
           title: str = "", final: tuple[str, str] | None = None) -> str:
    out: list[str] = []
    if title:
        out += [title, "=" * len(title)]
    current: tuple[str, str] | None = None
    for ruling, event, place in zip(rulings, events, places):
        if place != current:
            current = place
            out += ["", f"== {place[0]} — {place[1]} =="]
        out += ruling_lines(ruling, event)
    illegal = sum(not r.legal for r in rulings)
    out += ["", f"{len(rulings)} events ruled, {illegal} illegal."
            + (f" Now: {final[0]} — {final[1]}." if final else "")]
    return "\n".join(out) + "\n"
