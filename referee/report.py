"""The text report: what a player wants next to the board — per turn and phase, each event in a line or a few:
verdict, rules, errors with what would be legal, every roll in words, the results, and what the rules wait for.

Every roll reads as a sentence (``roll_sentence``): who rolls for what, the target and its rule, the chance, the
natural roll, each modifier with its rule, the modified total, and the outcome with its consequence — before the
roll (what passing and failing would do) and after it.  Units, leaders and activation groups are named as
printed (``Damas a``, not ``fr-th-damas-a``); hexes by their printed numbers.

What the words need to know about a ruleset (a roll's name, what passing or failing it does, what a table's
result code means) comes from the ruleset's optional ``wording`` hook (``referee/rulesets/<id>/wording.py``, named
by the ruleset object's ``wording`` attribute and imported by name): this module imports no ruleset.  Without a hook the
words fall back to the codes (a roll's purpose as DESIGN §5 names it; a result code spelled out).
The web page shows the same lines (referee/service/replay_view.py), so the page and ``--format text`` agree.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import importlib
import re
from typing import Any, Iterable, Mapping, Sequence

from referee.engine.dice import die as die_of
from referee.engine.ruling import Awaiting, Error, Modifier, Result, Roll, Ruling


# ----------------------------------------------------------------------------------------- names and words

@dataclass(frozen=True)
class Words:
    """How the report names things: printed names by id, and the ruleset's wording hook (or None)."""
    names: Mapping[str, str] = field(default_factory=dict)
    wording: Any = None

    def name(self, ident: Any) -> str:
        return self.names.get(ident, str(ident)) if isinstance(ident, str) else str(ident)

    @property
    def _pattern(self) -> re.Pattern[str] | None:
        # Built on first use; frozen dataclass, so cached in __dict__ by hand.
        pat = self.__dict__.get("_pat", False)
        if pat is False:
            ids = sorted((i for i in self.names if i and self.names[i] != i), key=len, reverse=True)
            pat = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, ids)) + r")(?![\w-])") if ids else None
            object.__setattr__(self, "_pat", pat)
        return pat  # type: ignore[return-value]

    def text(self, line: str) -> str:
        """``line`` with every id it mentions replaced by its printed name (rule texts name units by id)."""
        pat = self._pattern
        return line if pat is None else pat.sub(lambda m: self.names[m.group(0)], line)

    def label(self, purpose: str) -> str:
        hook = getattr(self.wording, "roll_label", None)
        label = hook(purpose) if hook else None
        return label or purpose             # without the ruleset's words, the purpose as DESIGN §5 names it

    def outcome(self, purpose: str, passed: bool) -> str | None:
        hook = getattr(self.wording, "consequence", None)
        return hook(purpose, passed) if hook else None

    def result(self, purpose: str, code: Any) -> str:
        hook = getattr(self.wording, "result", None)
        said = hook(purpose, code) if hook else None
        if said:
            return said
        return code.replace("_", " ") if isinstance(code, str) else str(code)


def words_for(scenario: Any, ruleset: Any = None) -> Words:
    """The printed names of a scenario's units, leaders and activation groups, and the ruleset's wording."""
    names: dict[str, str] = {}
    counters = getattr(scenario, "counters", None)
    for group in ("activation_groups", "leaders", "units"):
        for item in getattr(counters, group, ()) or ():
            if getattr(item, "id", None) and getattr(item, "name", None):
                names[item.id] = item.name
    return Words(names, wording_of(ruleset))


def wording_of(ruleset: Any) -> Any:
    """The ruleset's wording hook: the module named by its ``wording`` attribute (as ``notation`` names the chat
    notation's, referee/logs/notation.py), imported by name so that the report imports no ruleset; or None."""
    ref = getattr(ruleset, "wording", None)
    if isinstance(ref, str):
        try:
            return importlib.import_module(ref)
        except ImportError:
            return None
    return ref


PLAIN = Words()


# ----------------------------------------------------------------------------------------- rolls in words

def pass_range(pass_max: int, die: str = "d10") -> str:
    """'pass on 0–6' / 'pass on 0' / 'cannot pass' / 'passes on any roll (0–9)', in the faces of ``die``
    ('pass on 1–3' on a d6, 'pass on 2–7' on 2d6)."""
    d = die_of(die)
    if pass_max < d.lowest:
        return "cannot pass"
    if pass_max >= d.highest:
        return f"passes on any roll ({d.lowest}–{d.highest})"
    return f"pass on {d.lowest}" if pass_max == d.lowest else f"pass on {d.lowest}–{pass_max}"


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else ("−" + str(-v) if v < 0 else "0")


def _naturals(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _mods(modifiers: Iterable[Any]) -> str:
    """', +1 no orders (5.27), +2 DFE of Gogel Jgr a (front) (9.42)' — each modifier with its rule."""
    out = []
    for m in modifiers:
        value, rule, reason = (m["value"], m["rule"], m["reason"]) if isinstance(m, Mapping) else \
            (m.value, m.rule, m.reason)
        out.append(f", {_signed(value)} {reason} ({rule})")
    return "".join(out)


def _percent(p: float | None) -> str:
    return f"{round((p or 0) * 100)} %"


def _who(roll: Roll, words: Words) -> str:
    if roll.unit:
        return words.name(roll.unit)
    return roll.side or ""


def roll_sentence(roll: Roll, words: Words = PLAIN) -> str:
    """One roll as a sentence, before the roll (natural owed) or after it.

    Pass/fail: "Commitment: Leclerc needs 5 or less (cohesion of Leclerc, 9.43) on a d10 (30 %): 6, +1 no
    orders (5.27), +2 DFE of Gogel Jgr a (front) (9.42) → 9: fails — none from that hex may assault".
    Table: "Fire: VII Art b: d10 3, +3 fire strength of VII Art b (8.2), −4 range 4 (8.3) → 2: no effect"."""
    label = words.label(roll.purpose)
    who = _who(roll, words)
    head = f"{label}: {who}" if who else label
    mods = _mods(roll.modifiers)
    dname = _die_label(roll.die)
    on = f"on a {dname}" if dname.startswith("d") else f"on {dname}"      # on a d10, on 2d6
    if roll.table:
        if roll.natural is None:
            return f"{head}: {dname}{mods}, read on the table — roll owed"
        return f"{head}: {dname} {roll.natural}{mods} → {roll.modified}: {words.result(roll.purpose, roll.result)}"
    pm = roll.pass_max if roll.pass_max is not None else -1
    target = f"needs {roll.base} or less" + (f" ({roll.base_label}, {roll.base_rule})" if roll.base_label else "")
    chance = _percent(roll.p_success)
    if_pass, if_fail = words.outcome(roll.purpose, True), words.outcome(roll.purpose, False)
    if roll.natural is None:
        text = f"{head} {target} {on}{mods}: {_pass_range(pm, roll.die)} ({chance}) — roll owed"
        ifs = [f"if it passes, {if_pass}" if if_pass else "", f"if it fails, {if_fail}" if if_fail else ""]
        ifs = [s for s in ifs if s]
        return text + ("; " + "; ".join(ifs) if ifs else "")
    total = roll.natural + roll.total_modifier
    passed = roll.outcome == "pass"
    consequence = if_pass if passed else if_fail
    return (f"{head} {target} {on} ({chance}): {roll.natural}{mods} → {total}: "
            f"{'passes' if passed else 'fails'}" + (f" — {consequence}" if consequence else ""))


def _die_label(name: str) -> str:
    """The die as a player names it ("d10", "2d6"); a name the engine does not know, as written."""
    try:
        return die_of(name).label
    except ValueError:
        return str(name)


def _pass_range(pass_max: int, name: str) -> str:
    try:
        return pass_range(pass_max, name)
    except ValueError:
        return pass_range(pass_max)


def shock_lines(roll: Roll, words: Words = PLAIN) -> list[str]:
    """A shock as a player reads it: who attacks whom, per target hex every modifier with its rule and the
    total, which natural rolls give which result (before the roll) and the result in words (after).
    ``detail`` is the ruleset's (T&G ``ShockDetail``)."""
    detail = getattr(roll, "detail", None)
    by_hex: dict[str, list[str]] = {}
    for _uid, name, hex_ in detail.attackers:
        by_hex.setdefault(hex_, []).append(name)
    attackers = "; ".join(f"{', '.join(names)} ({h})" for h, names in by_hex.items())
    label = getattr(detail, "label", "shock")                   # "charge", "pursuit charge 1"
    lines = [f"  {label} ({roll.side}): {attackers}"]
    for t in getattr(roll, "targets", ()):
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
        # The result in words (the ruleset's), not the table's code: the JSON keeps the code.
        if roll.natural is None:
            bands = detail.bands.get(h, ())
            lines.append("      natural " + "; ".join(f"{_naturals(lo, hi)} → {words.result(roll.purpose, res)}"
                                                      for res, lo, hi in bands) + "; natural: OWED")
        else:
            lines.append(f"      natural {roll.natural} {_signed(total)} = {t['modified']} → "
                         f"{words.result(roll.purpose, t['result'])}")
    return lines


def roll_lines(roll: Roll, words: Words = PLAIN) -> list[str]:
    if getattr(roll, "detail", None) is not None:
        return shock_lines(roll, words)
    return ["  " + roll_sentence(roll, words)]


# ----------------------------------------------------------------------------------------- events, rulings

def _result_line(r: Mapping[str, Any], words: Words) -> str:
    extra = {k: v for k, v in r.items() if k not in ("unit", "effect", "rule")}
    who = f"{words.name(r['unit'])}: " if r.get("unit") else ""

    def value(v: Any) -> str:
        return ", ".join(words.name(x) for x in v) if isinstance(v, list) else words.name(v)
    more = ", ".join(f"{k} {value(v)}" for k, v in extra.items() if v is not None)
    return f"  → {who}{r['effect'].replace('_', ' ')}" + (f" ({more})" if more else "") + f" [{r['rule']}]"


def event_summary(event: Mapping[str, Any], words: Words = PLAIN) -> str:
    n = words.name
    if event.get("type") == "charge":           # T&G 9.81: "French Cuirassiers through 0403 at 0404"
        return " ".join(str(x) for x in (event.get("side"), n(event.get("unit")), "through",
                                        " ".join(event.get("path") or ()) or "—", "at", event.get("target")))
    bits = [n(event.get(k)) for k in ("side", "unit", "marker", "hex") if event.get(k) is not None]
    if event.get("units"):
        bits.append(", ".join(n(u) for u in event["units"]))
    if event.get("target"):
        tgt = event["target"]                   # hexes, or a unit (named as printed)
        bits.append("→ " + (" ".join(tgt) if isinstance(tgt, list) else n(tgt)))
    if isinstance(event.get("assault"), int):
        bits.append(f"assault {event['assault'] + 1}")     # as players type it: '!shock 1' is the first
    for i, a in enumerate(event.get("assaults") or ()):
        tgt = a.get("target")
        bits.append(f"[{i + 1}] {', '.join(n(u) for u in a.get('attackers', ()))} → "
                    f"{' '.join(tgt) if isinstance(tgt, list) else tgt}" + (" (charge)" if a.get("charge") else ""))
    if event.get("to") is not None:
        to = event["to"]
        bits.append("to " + (" ".join(to) if isinstance(to, list) else str(to)))
    if event.get("path"):
        bits.append("→ " + " ".join(event["path"]))
    if event.get("under_orders") is not None:
        bits.append("UO: " + (", ".join(n(x) if isinstance(x, str) else "+".join(n(u) for u in x)
                                        for x in event["under_orders"]) or "none"))
    return " ".join(bits)


def where_from(source: Mapping[str, Any] | None) -> str:
    """' — VASSAL step 14 of turn2.vlog': where a ruling of a VASSAL log comes from, as *Step forward* counts."""
    if not source or source.get("step") is None:
        return ""
    return f" — VASSAL step {source['step']}" + (f" of {source['file']}" if source.get("file") else "")


def roll_source_lines(source: Mapping[str, Any] | None) -> list[str]:
    """A roll typed in the chat, or a die report that disagrees with what the die recorded, in words."""
    roll = (source or {}).get("roll") or {}
    if roll.get("by") == "typed":
        line = f" ({roll['line']!r})" if roll.get("line") else ""
        return [f"  roll typed in the chat{line}, not rolled with VASSAL's die button"]
    if roll.get("by") == "die" and roll.get("chat") is not None:
        return [f"  ⚠ the chat says d10 = {roll['chat']}, but the die recorded {roll['recorded']}: ruled on "
                f"{roll['recorded']}, the die's own record"]
    if roll.get("by") == "die" and roll.get("recorded") is None:
        return ["  ⚠ no record of the die in this step (d10_total, d10_result): ruled on the chat report's words"]
    return []


def ruling_lines(ruling: Ruling, event: Mapping[str, Any], words: Words = PLAIN,
                 source: Mapping[str, Any] | None = None) -> list[str]:
    """A ruling in words; ``source``: where it comes from in a VASSAL log (``Log.sources``), if it does."""
    verdict = "legal" if ruling.legal else "ILLEGAL"
    rules = ", ".join(ruling.rules)
    summary = event_summary(event, words)
    lines = [f"[{ruling.index}] {ruling.type}{' ' + summary if summary else ''}: {verdict}"
             + (f" ({rules})" if rules else "") + where_from(source)]
    lines += roll_source_lines(source)
    for e in ruling.errors:
        lines.append(f"  ✗ {e.rule} {e.code}: {words.text(e.message)}")
        if e.alternatives:
            alts = ", ".join(a if isinstance(a, str) else str(a) for a in e.alternatives[:20])
            lines.append(f"      legal instead: {words.text(alts)}" + (" …" if len(e.alternatives) > 20 else ""))
    for roll in ruling.rolls:
        lines += [words.text(line) for line in roll_lines(roll, words)]
    for r in ruling.results:
        lines.append(_result_line(r.to_dict(), words))
    for a in ruling.awaiting:
        lines.append(f"  … awaiting {a.type}" + (f" of assault {a.assault + 1}" if a.assault is not None else "")
                     + (f" from {a.side}" if a.side else "")
                     + (f" for {words.name(a.unit)}" if a.unit else "") + f" [{a.rule}]")
    return lines


def ruling_from_dict(d: Mapping[str, Any]) -> Ruling:
    """A stored ruling (its JSON, DESIGN §5) back as an object, to word it.  What the JSON does not keep (a shock's
    attackers and defenders by name) is not shown: its roll is worded as a table roll."""
    def roll(r: Mapping[str, Any]) -> Roll:
        mods = tuple(Modifier(m["value"], m["rule"], m["reason"]) for m in r.get("modifiers", ()))
        table = "pass_max" not in r
        return Roll(purpose=r["purpose"], natural=r.get("natural"), unit=r.get("unit"), side=r.get("side"),
                    die=r.get("die", "d10"), base=r.get("base"), base_label=r.get("base_label"),
                    base_rule=r.get("base_rule"), modifiers=mods, pass_max=r.get("pass_max"),
                    p_success=r.get("p_success"), outcome=r.get("outcome"), modified=r.get("modified"),
                    result=r.get("result"), table=table)
    return Ruling(
        index=d["index"], type=d["type"], verdict=d["verdict"], rules=tuple(d.get("rules", ())),
        errors=tuple(Error(e["rule"], e["code"], e["message"], tuple(e["alternatives"]) if "alternatives" in e
                           else None) for e in d.get("errors", ())),
        rolls=tuple(roll(r) for r in d.get("rolls", ())),
        results=tuple(Result(r["effect"], r["rule"], r.get("unit"),
                             {k: v for k, v in r.items() if k not in ("effect", "rule", "unit")})
                      for r in d.get("results", ())),
        awaiting=tuple(Awaiting(a["type"], a.get("side"), a["rule"], a.get("unit"), a.get("assault"))
                       for a in d.get("awaiting", ())))


def render(rulings: Sequence[Ruling], events: Sequence[Mapping[str, Any]], places: Sequence[tuple[str, str]],
           title: str = "", final: tuple[str, str] | None = None, words: Words = PLAIN,
           sources: Sequence[Mapping[str, Any]] | None = None) -> str:
    out: list[str] = []
    if title:
        out += [title, "=" * len(title)]
    current: tuple[str, str] | None = None
    for i, (ruling, event, place) in enumerate(zip(rulings, events, places)):
        if place != current:
            current = place
            out += ["", f"== {words.text(place[0])} — {words.text(place[1])} =="]
        out += ruling_lines(ruling, event, words, sources[i] if sources else None)
    illegal = sum(not r.legal for r in rulings)
    out += ["", f"{len(rulings)} events ruled, {illegal} illegal."
            + (f" Now: {final[0]} — {words.text(final[1])}." if final else "")]
    return "\n".join(out) + "\n"
