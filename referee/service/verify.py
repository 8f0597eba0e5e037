"""``referee verify EXPORT [--head HEX]``: check a hosted game's export whole (docs/service.md).

Four checks, each reporting the first thing that differs (one sentence, naming where):

1. **dice** — the server's revealed seed matches the commitment published at creation; every side's seed is
   there, matches the commitment that side sent, and was revealed only after every side had fixed its part
   (the order of the record); the game seed is the one derived from them all (referee.service.dice);
2. **rulings** — the referee is run again over the exported events, each as the act of the side that
   submitted it, with the derived game seed: every ruling (verdict, rules, errors, every roll with its
   natural, modifiers, modified total and result, results, awaiting) must be the exported one; and the
   export's ``log`` must hold exactly the exported events;
3. **chain** — every link is recomputed from the set-up, the contributions and each event with its ruling
   (referee.service.chain); the indexes run 0, 1, 2, … with none missing or moved; the head and the end
   link match; ``--head`` (the last head a side was given) must be a link of this chain;
4. **complete** — the game has ended, and the export holds every event the chain's end counts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from referee.engine import actors, registry
from referee.engine.dice import verify as seed_matches
from referee.engine.replay import new_game
from referee.service import chain, dice


@dataclass(frozen=True)
class Mismatch:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class Report:
    events: int
    rolls: int
    problems: list[Mismatch]
    scenario: str = ""              # where the scenario ruled again on came from (a file, or the export)


def first_difference(expected: Any, got: Any, where: str, ours: str = "the referee rules",
                     theirs: str = "the export says") -> str | None:
    """The path of the first place two JSON values differ, with both values; None when equal."""
    if isinstance(expected, Mapping) and isinstance(got, Mapping):
        for key in list(expected) + [k for k in got if k not in expected]:
            if key not in got:
                return f"{where}.{key}: missing ({ours} {_short(expected[key])})"
            if key not in expected:
                return f"{where}.{key}: {theirs} {_short(got[key])}, where {ours} nothing"
            found = first_difference(expected[key], got[key], f"{where}.{key}", ours, theirs)
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for i, (a, b) in enumerate(zip(expected, got)):
            found = first_difference(a, b, f"{where}[{i}]", ours, theirs)
            if found:
                return found
        if len(expected) != len(got):
            return f"{where}: {theirs} {len(got)} entries, {ours} {len(expected)}"
        return None
    if expected != got or type(expected) is not type(got) and not (_number(expected) and _number(got)):
        return f"{where}: {theirs} {_short(got)}, {ours} {_short(expected)}"
    return None


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _contribs(raw: Any) -> list[Any]:
    @dataclass(frozen=True)
    class C:
        seq: int
        side: str
        kind: str
        value: str
    return [C(int(c["seq"]), str(c["side"]), str(c["kind"]), str(c.get("value", ""))) for c in raw]


def _check_dice(export: Mapping[str, Any]) -> tuple[str | None, list[Mismatch], list[Any]]:
    """(game seed or None for players' dice, problems, contributions)."""
    d = export.get("dice")
    if not isinstance(d, Mapping):
        return None, [Mismatch("dice", "the export has no dice section")], []
    try:
        contributions = _contribs(d.get("contributions") or [])
    except (KeyError, TypeError, ValueError):
        return None, [Mismatch("dice.contributions", "not a list of {seq, side, kind, value}")], []
    if d.get("mode") != "referee":
        return None, ([Mismatch("dice.contributions", "a players'-dice game has no referee dice contributions")]
                      if contributions else []), contributions
    seed, published = d.get("seed"), d.get("commitment")
    if not isinstance(seed, str):
        return None, [Mismatch("dice.seed", "the server's seed is not revealed (the game has not ended)")], contributions
    if not isinstance(published, str) or not seed_matches(seed, published):
        return None, [Mismatch("dice.seed", "the revealed seed does not match the commitment published when the "
                                            "game was created")], contributions
    sides = list(export.get("sides") or [])
    fixed: set[str] = set()
    committed: dict[str, str] = {}
    seeds: dict[str, str] = {}
    for i, c in enumerate(contributions):
        where = f"dice.contributions[{i}]"
        if c.seq != i:
            return None, [Mismatch(where, f"sequence number {c.seq} where {i} was expected (reordered or cut)")], \
                contributions
        if c.side not in sides:
            return None, [Mismatch(where, f"'{c.side}' is not a side of this game")], contributions
        if c.kind == "commitment":
            if c.side in fixed:
                return None, [Mismatch(where, f"{c.side} committed after fixing its part")], contributions
            committed[c.side] = c.value
        elif c.kind == "seed":
            if c.side in seeds:
                return None, [Mismatch(where, f"a second seed of {c.side}")], contributions
            if c.side in committed:
                if dice.commitment_of(c.value) != committed[c.side]:
                    return None, [Mismatch(where, f"{c.side}'s seed does not match its commitment")], contributions
                if fixed < set(sides):
                    return None, [Mismatch(where, f"{c.side} revealed its seed before every side had fixed its "
                                                  "part")], contributions
            seeds[c.side] = c.value
        else:
            return None, [Mismatch(where, f"unknown kind {c.kind!r}")], contributions
        fixed.add(c.side)
    lacking = [s for s in sides if s not in seeds]
    if lacking:
        return None, [Mismatch("dice.contributions", f"no seed of {', '.join(lacking)}")], contributions
    derived = dice.game_seed(seed, seeds)
    problems = []
    if d.get("game_seed") not in (None, derived):
        problems.append(Mismatch("dice.game_seed", "is not the seed derived from the server's and the sides' seeds"))
    log = export.get("log")
    if isinstance(log, Mapping) and log.get("seed") not in (None, derived):
        problems.append(Mismatch("log.seed", "is not the seed derived from the server's and the sides' seeds"))
    return derived, problems, contributions


def scenario_of(export: Mapping[str, Any], base_dir: str | None = None) -> tuple[Any, str]:
    """The scenario to rule again on, and where it came from.

    An export names its scenario by id (``scenario``) and, from a server of this version, carries it resolved
    (``scenario_resolved``).  A file ``scenarios/<id>.yaml`` found here (the working folder, ``base_dir`` — the
    export's own folder — or the project) is an independent copy and is preferred; it must then be the scenario
    the export carries, or the game was not played on it.  Otherwise the carried one is used, so an export
    verifies from any folder."""
    from referee.logs.jsonlog import find_scenario, load_scenario
    ref = export.get("scenario")
    carried = export.get("scenario_resolved")
    if not isinstance(ref, str):
        return load_scenario(ref), "the scenario the export holds"
    path = find_scenario(ref, base_dir) if SCENARIO_ID.match(ref) else None
    if path is None:
        if isinstance(carried, Mapping):
            return load_scenario(dict(carried)), "the scenario the export carries"
        raise LookupError(f"no scenarios/{ref}.yaml in this folder, the export's or the project, and the export "
                          "carries no resolved scenario (scenario_resolved): run verify in the game's folder")
    scenario = load_scenario(path, base_dir)
    if isinstance(carried, Mapping):
        from modulebuilder.definitions import resolve
        found = first_difference(resolve(scenario), dict(carried), "scenario_resolved",
                                 f"{path} holds", "the export carries")
        if found:
            raise ValueError(f"{path} is not the scenario the game was played on: {found}")
    return scenario, path


SCENARIO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def _check_rulings(export: Mapping[str, Any], seed: str | None, base_dir: str | None = None,
                   where: list[str] | None = None) -> tuple[int, list[Mismatch]]:
    events = export.get("events")
    try:
        scenario, source = scenario_of(export, base_dir)
        ruleset = registry.get(str(export.get("ruleset")))
    except Exception as exc:  # noqa: BLE001 — an export whose scenario cannot be loaded is a finding
        return 0, [Mismatch("scenario", f"cannot be loaded ({exc})")]
    if where is not None:
        where.append(source)
    mode = (export.get("dice") or {}).get("mode", "players")
    game = new_game(ruleset, scenario, mode, seed if mode == "referee" else None)
    rolls = 0
    for i, entry in enumerate(events):
        ruling, game, _ = actors.step(game, i, entry.get("event") or {}, str(entry.get("side")))
        expected = ruling.to_dict()
        rolls += sum(1 for r in expected["rolls"] if r.get("natural") is not None)
        found = first_difference(expected, entry.get("ruling"), f"events[{i}].ruling")
        if found:
            return rolls, [Mismatch(f"events[{i}] ({entry.get('event', {}).get('type')})",
                                    f"the ruling differs from the referee's: {found}")]
    log = export.get("log")
    if not isinstance(log, Mapping):
        return rolls, [Mismatch("log", "the export has no log")]
    found = first_difference([e.get("event") for e in events], log.get("events"), "log.events",
                             "the game's events hold", "the log has")
    if found:
        return rolls, [Mismatch("log", f"the log is not the game's events: {found}")]
    return rolls, []


def _links(export: Mapping[str, Any], contributions: list[Any]) -> Iterator[tuple[int, str]]:
    head = chain.genesis(str(export.get("id")), str(export.get("ruleset")), export.get("scenario"),
                         list(export.get("sides") or []), str((export.get("dice") or {}).get("mode")),
                         str((export.get("dice") or {}).get("commitment")))
    for c in contributions:
        head = chain.contribution_link(head, c.seq, c.side, c.kind, c.value)
    yield -1, head
    for i, e in enumerate(export.get("events") or []):
        head = chain.event_link(head, int(e.get("index", -1)), str(e.get("side")), e.get("event"), e.get("ruling"))
        yield i, head


def _check_chain(export: Mapping[str, Any], contributions: list[Any], kept: str | None) -> list[Mismatch]:
    events = export.get("events") or []
    for i, e in enumerate(events):
        if e.get("index") != i:
            return [Mismatch(f"events[{i}]", f"has index {e.get('index')!r} where {i} was expected: events were "
                                             "reordered, dropped or added")]
    heads = []
    for i, head in _links(export, contributions):
        heads.append(head)
        if i >= 0 and events[i].get("chain") != head:
            return [Mismatch(f"events[{i}].chain", "does not match the chain recomputed from the set-up, the dice "
                                                   "and the events up to it: this event or its ruling was "
                                                   "changed after it was recorded")]
    c = export.get("chain")
    if not isinstance(c, Mapping):
        return [Mismatch("chain", "the export has no chain section")]
    head = heads[-1]
    if c.get("head") != head:
        return [Mismatch("chain.head", "is not the last link of the events")]
    if c.get("events") != len(events):
        return [Mismatch("chain.events", f"counts {c.get('events')} events, the export holds {len(events)}: "
                                         "cut short")]
    if c.get("end") != chain.end_link(head, len(events)):
        return [Mismatch("chain.end", "does not seal this head and event count: the export was cut short or "
                                      "extended after the game ended")]
    if kept is not None and kept not in heads:
        return [Mismatch("--head", "the head you kept is no link of this export's chain: the export was cut "
                                   "short before it, or rewritten")]
    return []


def verify_export(export: Mapping[str, Any], kept_head: str | None = None, base_dir: str | None = None) -> Report:
    """Check an export whole; ``base_dir`` (the export file's folder) is also searched for its scenario."""
    if export.get("format") != "referee-game-export/2" or not isinstance(export.get("events"), list):
        return Report(0, 0, [Mismatch("format", "not a hosted game export (referee-game-export/2 with events)")])
    for i, e in enumerate(export["events"]):
        if not (isinstance(e, Mapping) and isinstance(e.get("event"), Mapping) and isinstance(e.get("ruling"), Mapping)):
            return Report(0, 0, [Mismatch(f"events[{i}]", "expected {index, side, event, ruling, chain}")])
    problems: list[Mismatch] = []
    if export.get("status") != "ended":
        problems.append(Mismatch("status", "the game has not ended: its record is not complete"))
    seed, dice_problems, contributions = _check_dice(export)
    problems += dice_problems
    rolls = 0
    where: list[str] = []
    if not dice_problems or seed is not None:
        rolls, found = _check_rulings(export, seed, base_dir, where)
        problems += found
    problems += _check_chain(export, contributions, kept_head)
    return Report(len(export["events"]), rolls, problems, where[0] if where else "")
