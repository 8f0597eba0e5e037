"""Loading an authored scenario file and every file it names, with all their problems at once."""
from __future__ import annotations

from dataclasses import dataclass, field
import os
from typing import Iterable, Mapping

from ..model import Scenario
from . import assemble
from .entries import Entry, entries
from .files import read_document, relative_to
from .consistency import setup_contradictions, turn_range, turns_in_range
from .game import CheckedGame, check_game
from .loaders import (CheckedCounters, CheckedMap, CheckedTables, check_counter_files, check_game_file, check_map,
                      check_tables, own_ruleset, ruleset_problems)
from .map_art import art_image
from .maps import missing_table_rows
from .placements import Placed, build_placements, build_reinforcement, check_placements
from .detect import KIND_NAMES, kind_of_document
from .problems import WHOLE_FILE, Problem, raise_if_any
from .resolved_read import check_resolved, load_resolved
from .rulesets import NO_RULESET, SetupRules, setup_rules
from .schemas import field_owners, schema_problems
from .yamlpos import Located


@dataclass
class CheckedScenario:
    problems: list[Problem] = field(default_factory=list)
    scenario: Scenario | None = None
    files: list[str] = field(default_factory=list)       # every file read, the scenario first


def load_scenario(path: str | os.PathLike[str], *, command: str | None = None) -> Scenario:
    """The scenario at ``path`` with its map, counters and tables (or a resolved scenario file).  Raises
    DefinitionError.  ``command`` names the sub-command for the message about a file of another kind."""
    checked = check_scenario(path, command=command)
    raise_if_any(checked.problems)
    assert checked.scenario is not None
    return checked.scenario


def check_scenario(path: str | os.PathLike[str], *, command: str | None = None) -> CheckedScenario:
    """The scenario and every problem in it and in the files it names (each under its own file name)."""
    doc = read_document(path)
    if isinstance(doc, Problem):
        return CheckedScenario([doc])
    kind, header_ruleset = kind_of_document(doc.file, doc.data)
    if kind == "resolved-scenario":
        return _resolved(doc)
    if kind not in (None, "scenario"):
        # One sentence, not the wall of schema errors a map read as a scenario would give.
        wants = f"; `{command}` wants a scenario" if command else ", not a scenario"
        return CheckedScenario([Problem(doc.file, 1, 1, WHOLE_FILE, f"this is a {KIND_NAMES[kind]} file{wants}")])
    # The scenario's ruleset decides which fields its counters, options and tables may and must have.
    ruleset, problems = ruleset_problems(doc)
    if ruleset == NO_RULESET and header_ruleset:
        # No ruleset named, but the editor header is a ruleset's schema: checked as that ruleset's scenario,
        # whose schema requires the field, so the one problem is the missing line, not every field it brings.
        ruleset = header_ruleset
    problems += schema_problems(doc, "scenario", ruleset)
    refs = _file_refs(doc)
    problems += refs.problems

    game = check_game_file(refs.game) if refs.game else check_game(doc, ("game",))
    problems += game.problems
    if ruleset == NO_RULESET:
        guessed = _ruleset_of_fields(refs.counters, game.factors)
        if guessed is not None:
            # Counters written for a ruleset in a scenario that forgot to name it: one line, not one per field.
            ruleset, fields = guessed
            problems.append(doc.problem(("ruleset",), f"required field missing: the counters use fields of {ruleset} "
                                                      f"({', '.join(fields[:4])}{', ...' if len(fields) > 4 else ''}); "
                                                      f"name it (ruleset: {ruleset}), or declare them as factors in "
                                                      "the game file"))
    the_map = check_map(refs.map) if refs.map else CheckedMap(None)
    counters = check_counter_files(refs.counters, ruleset, game)
    tables = check_tables(refs.tables, ruleset) if refs.tables else CheckedTables(None, [])
    problems += the_map.problems + counters.problems + tables.problems
    problems += _scenario_checks(doc, the_map, counters, setup_rules(ruleset))
    problems += _counter_art(counters, game)
    if the_map.doc is not None and tables.doc is not None:
        problems += missing_table_rows(the_map.doc, the_map.refs, tables.data, tables.doc.file)

    art = art_image(the_map.doc) if the_map.doc is not None else None
    # The art is read too (its digest is in the model), so a cached scenario is stale when the picture changes.
    files = [doc.file] + [f for f in [refs.map, *refs.counters, refs.tables, refs.game, art] if f]
    if problems or the_map.doc is None:
        return CheckedScenario(problems, None, files)
    return CheckedScenario([], _build(doc, the_map, counters, tables, game), files)


def _ruleset_of_fields(files: list[str], factors: tuple[str, ...]) -> tuple[str, list[str]] | None:
    """The ruleset whose fields the counters files use (beyond the game's factors), with those fields; None when
    they use none."""
    owners = field_owners()
    used: dict[str, list[str]] = {}
    named: set[str | None] = set()
    for path in files:
        counters = read_document(path)
        if isinstance(counters, Problem):
            continue
        named.add(own_ruleset(counters))
        for section in ("activation_groups", "units", "leaders"):
            for e in entries(counters, section):
                for name in e.data:
                    for ruleset in owners.get(name, ()) if name not in factors else ():
                        if name not in used.setdefault(ruleset, []):
                            used[ruleset].append(name)
    if not used:
        return None
    # The ruleset the counters files name for themselves (their editor header), else the one whose fields
    # they use most.
    header = named.pop() if len(named) == 1 else None
    best = header if header in used else max(sorted(used), key=lambda r: len(used[r]))
    return best, used[best]


def _resolved(doc: Located) -> CheckedScenario:
    problems = check_resolved(doc.file)
    return CheckedScenario(problems, None if problems else load_resolved(doc.file), [doc.file])


@dataclass
class FileRefs:
    """The files a scenario names that exist, as paths usable from here; ``problems`` for those that do not."""
    map: str | None = None
    counters: list[str] = field(default_factory=list)
    tables: str | None = None
    game: str | None = None
    problems: list[Problem] = field(default_factory=list)


def _file_refs(doc: Located) -> FileRefs:
    refs = FileRefs()

    def existing(path: tuple[str | int, ...]) -> str | None:
        ref = doc.get(path)
        if not isinstance(ref, str) or not ref:
            return None                      # absent or not text: the schema reports it
        target = relative_to(doc.file, ref)  # paths in a scenario are relative to the scenario
        if os.path.isfile(target):
            return target
        refs.problems.append(doc.problem(path, f"no such file: {target}"))
        return None

    refs.map = existing(("map",))
    counters = doc.get(("counters",))
    refs.counters = [f for i in range(len(counters) if isinstance(counters, list) else 0)
                     if (f := existing(("counters", i)))]
    refs.tables = existing(("tables",))
    refs.game = existing(("game",))          # a game file (an inline game mapping is not a path)
    return refs


def _counter_art(counters: CheckedCounters, game: CheckedGame) -> list[Problem]:
    """The game file's counter art pattern names a picture for every unit (and face): each must be there,
    reported at the unit (its own ``art:`` is its counters file's check)."""
    pattern = game.game.art
    if not pattern:
        return []
    out = []
    for unit in counters.found.units:
        uid = unit.text("id")
        if uid is None or "art" in unit.data:
            continue
        flags = unit.data.get("flags")
        faces = ("front",) if isinstance(flags, list) and "no_back" in flags else ("front", "back")
        for face in faces if "{face}" in pattern else ("front",):
            path = pattern.replace("{id}", uid).replace("{face}", face)
            if not os.path.isfile(path):
                out.append(unit.problem("id", f"no counter art {path} (the game's art: at {game.game.source})"))
    return out


def _scenario_checks(doc: Located, the_map: CheckedMap, counters: CheckedCounters,
                     rules: SetupRules) -> list[Problem]:
    pieces = counters.found.pieces()
    sides = doc.get(("sides",))
    side_names = list(sides) if isinstance(sides, dict) else None
    placed = [Placed(e) for e in entries(doc, "setup")]
    reinforcements = list(entries(doc, "reinforcements"))
    out = check_placements(placed, reinforcements, pieces, the_map.hexes, side_names, rules)
    out += setup_contradictions(placed, reinforcements, pieces, the_map.hexes)
    span, out_of_order = turn_range(doc)
    out += out_of_order + turns_in_range(doc, span, reinforcements)
    out += _cinc_checks(doc, pieces)
    out += _reinforcement_groups(doc, {e.data["id"] for e in counters.found.activation_groups if e.text("id")})
    return out


def _cinc_checks(doc: Located, pieces: Mapping[str, Entry]) -> Iterable[Problem]:
    """A side's CinC must be one of its own leaders: the rules read his ratings every turn."""
    sides = doc.get(("sides",))
    for name, side in (sides.items() if isinstance(sides, dict) else ()):
        cinc = side.get("cinc") if isinstance(side, dict) else None
        if not isinstance(cinc, str):
            continue
        leader = pieces.get(cinc)
        path = ("sides", name, "cinc")
        if leader is None or leader.section != "leaders":
            yield doc.problem(path, f"no leader {cinc!r} in the counters files")
        elif leader.side is not None and leader.side != name:
            yield doc.problem(path, f"leader {cinc!r} is on side {leader.side}, not {name}")


def _reinforcement_groups(doc: Located, groups: set[str]) -> Iterable[Problem]:
    for e in entries(doc, "reinforcements"):
        ag = e.text("ag")
        if ag is not None and ag not in groups:
            yield e.problem("ag", f"no activation group {ag!r}")


def _build(doc: Located, the_map: CheckedMap, counters: CheckedCounters, tables: CheckedTables,
           game: CheckedGame) -> Scenario:
    pieces = counters.found.pieces()
    placed = [Placed(e) for e in entries(doc, "setup")]
    reinforcements = [build_reinforcement(e) for e in entries(doc, "reinforcements")]
    order = [p.piece for p in placed] + [u for r in reinforcements for u in r.units]
    line, _ = doc.position(())
    return assemble.scenario(
        doc.data, map_def=the_map.model(), counters=assemble.in_play(counters.found, order, game.factors),
        setup=build_placements(placed, pieces), reinforcements=tuple(reinforcements),
        tables=tables.data, source=f"{doc.file}:{line}", game=game.game)
