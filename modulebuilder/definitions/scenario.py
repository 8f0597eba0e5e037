"""Loading an authored scenario file and every file it names, with all their problems at once."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..model import Scenario
from . import assemble
from .entries import Entry, entries
from .files import read_document, relative_to
from .loaders import (CheckedCounters, CheckedMap, CheckedTables, check_counter_files, check_map, check_tables,
                      ruleset_problems)
from .maps import missing_table_rows
from .placements import Placed, build_placements, build_reinforcement, check_placements
from .problems import Problem, raise_if_any
from .rulesets import SetupRules, setup_rules
from .schemas import schema_problems
from .yamlpos import Located


@dataclass
class CheckedScenario:
    problems: list[Problem] = field(default_factory=list)
    scenario: Scenario | None = None
    files: list[str] = field(default_factory=list)       # every file read, the scenario first


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """The scenario at ``path`` with its map, counters and tables.  Raises DefinitionError."""
    checked = check_scenario(path)
    raise_if_any(checked.problems)
    assert checked.scenario is not None
    return checked.scenario


def check_scenario(path: str | os.PathLike[str]) -> CheckedScenario:
    """The scenario and every problem in it and in the files it names (each under its own file name)."""
    doc = read_document(path)
    if isinstance(doc, Problem):
        return CheckedScenario([doc])
    # The scenario's ruleset decides which fields its counters, options and tables may and must have.
    ruleset, problems = ruleset_problems(doc)
    problems += schema_problems(doc, "scenario", ruleset)
    refs = _file_refs(doc)
    problems += refs.problems

    the_map = check_map(refs.map) if refs.map else CheckedMap(None)
    counters = check_counter_files(refs.counters, ruleset)
    tables = check_tables(refs.tables, ruleset) if refs.tables else CheckedTables(None, [])
    problems += the_map.problems + counters.problems + tables.problems
    problems += _scenario_checks(doc, the_map, counters, setup_rules(ruleset))
    if the_map.doc is not None and tables.doc is not None:
        problems += missing_table_rows(the_map.doc, the_map.refs, tables.data, tables.doc.file)

    files = [doc.file] + [f for f in [refs.map, *refs.counters, refs.tables] if f]
    if problems or the_map.doc is None:
        return CheckedScenario(problems, None, files)
    return CheckedScenario([], _build(doc, the_map, counters, tables), files)


@dataclass
class FileRefs:
    """The files a scenario names that exist, as paths usable from here; ``problems`` for those that do not."""
    map: str | None = None
    counters: list[str] = field(default_factory=list)
    tables: str | None = None
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
    return refs


def _scenario_checks(doc: Located, the_map: CheckedMap, counters: CheckedCounters,
                     rules: SetupRules) -> list[Problem]:
    pieces = counters.found.pieces()
    sides = doc.get(("sides",))
    side_names = list(sides) if isinstance(sides, dict) else None
    placed = [Placed(e) for e in entries(doc, "setup")]
    out = check_placements(placed, list(entries(doc, "reinforcements")), pieces, the_map.hexes, side_names, rules)
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


def _build(doc: Located, the_map: CheckedMap, counters: CheckedCounters, tables: CheckedTables) -> Scenario:
    pieces = counters.found.pieces()
    placed = [Placed(e) for e in entries(doc, "setup")]
    reinforcements = [build_reinforcement(e) for e in entries(doc, "reinforcements")]
    order = [p.piece for p in placed] + [u for r in reinforcements for u in r.units]
    line, _ = doc.position(())
    return assemble.scenario(
        doc.data, map_def=the_map.model(), counters=assemble.in_play(counters.found, order),
        setup=build_placements(placed, pieces), reinforcements=tuple(reinforcements),
        tables=tables.data, source=f"{doc.file}:{line}")
