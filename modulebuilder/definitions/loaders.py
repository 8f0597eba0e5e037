"""Loading the map, counters and tables files of a game: schema, semantic checks, then the model.

Each ``check_*`` function returns what it found plus every problem, never raising, so a scenario can gather
the problems of all its files before it reports; the ``load_*`` functions raise :class:`DefinitionError`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
import os
from typing import Any, Iterable, Mapping

from modulebuilder.input_files import read_head
from ..hexgrid import HexGrid
from ..model import CounterSet, GameDef, Grid, MapDef, frozen_mapping
from .counters import CounterEntries, build_counters, check_counters
from .detect import header
from .files import read_document
from .geometry import grid_of, hex_grid
from .map_art import build_art, check_art
from .maps import MapRefs, authored_refs, build_map, check_map_refs
from .problems import Problem, raise_if_any
from .game import CheckedGame, check_game
from .rulesets import (ENTRY_POINT_GROUP, NO_RULESET, UNINSTALLED, ContributionError, contribution, known_rulesets,
                       ruleset_unit_types)
from .schemas import schema_problems
from .yamlpos import Located

PathLike = str | os.PathLike[str]


@dataclass
class CheckedMap:
    doc: Located | None
    problems: list[Problem] = field(default_factory=list)
    refs: MapRefs = field(default_factory=MapRefs)
    grid: Grid | None = None
    hexes: HexGrid | None = None

    def model(self) -> MapDef:
        assert self.doc is not None and self.grid is not None, "model() of a map that failed its checks"
        return replace(build_map(self.doc, (), self.grid, self.refs), art=build_art(self.doc))


def check_map(path: PathLike) -> CheckedMap:
    doc = read_document(path)
    if isinstance(doc, Problem):
        return CheckedMap(None, [doc])
    problems = schema_problems(doc, "map")
    grid = grid_of(doc.get(("grid",)))
    hexes, grid_problems = hex_grid(doc, ("grid",), grid)
    refs = authored_refs(doc)
    problems += grid_problems
    if hexes is not None:
        problems += check_map_refs(doc, hexes, refs)
    problems += check_art(doc, hexes)
    return CheckedMap(doc, problems, refs, grid, hexes)


@dataclass
class CheckedCounters:
    docs: list[Located]
    problems: list[Problem]
    found: CounterEntries
    factors: tuple[str, ...] = ()

    def model(self) -> CounterSet:
        return build_counters(self.found, self.factors)


def check_counter_files(paths: Iterable[PathLike], ruleset: str | None = None,
                        game: CheckedGame | None = None) -> CheckedCounters:
    """The counters files of one game, checked with the fields of ``ruleset`` (None: the file's own
    ``ruleset:`` if it names one, else the fields of any ruleset, none required) and the unit types and
    factor fields ``game`` declares."""
    docs: list[Located] = []
    problems: list[Problem] = []
    factors = game.factors if game is not None else ()
    rulesets: set[str | None] = set()
    for path in paths:
        doc = read_document(path)
        if isinstance(doc, Problem):
            problems.append(doc)
            continue
        docs.append(doc)
        used = ruleset if ruleset is not None else own_ruleset(doc)
        rulesets.add(used)
        problems += schema_problems(doc, "counters", used, factors)
    found = CounterEntries.of(docs)
    # Kinds are checked against what the ruleset (and the game) declare; a file checked without a ruleset is
    # checked leniently, as its fields are (any kind).
    kinds: list[str] = []
    if rulesets and None not in rulesets and UNINSTALLED not in rulesets:
        kinds = [k for r in sorted(rulesets, key=str) for k in ruleset_unit_types(r)]
        kinds += list(game.unit_types if game is not None else ())
    return CheckedCounters(docs, problems + check_counters(found, tuple(dict.fromkeys(kinds))), found, factors)


@dataclass
class CheckedTables:
    doc: Located | None
    problems: list[Problem]

    @property
    def data(self) -> Mapping[str, Any]:
        data = self.doc.data if self.doc is not None else None
        return data if isinstance(data, dict) else {}


def check_tables(path: PathLike, ruleset: str | None = None) -> CheckedTables:
    doc = read_document(path)
    if isinstance(doc, Problem):
        return CheckedTables(None, [doc])
    used = ruleset if ruleset is not None else own_ruleset(doc)
    return CheckedTables(doc, [_naming_ruleset(p, used) for p in schema_problems(doc, "tables", used)])


def _naming_ruleset(problem: Problem, ruleset: str | None) -> Problem:
    """A tables problem says whose tables it was checked against: every table but ``game`` and
    ``sample_values`` is a ruleset's."""
    whose = {None: f"tables of any installed ruleset: {', '.join(known_rulesets())}",
             NO_RULESET: "tables of a game with no ruleset",
             UNINSTALLED: "shared tables; the ruleset's are not installed"}.get(ruleset, f"tables of ruleset {ruleset}")
    return replace(problem, message=f"{problem.message} ({whose})")


def own_ruleset(doc: Located) -> str | None:
    """The ruleset a counters or tables file names for itself, if it is a known one: its ``ruleset:`` field,
    else the ruleset of the combined schema its editor header names."""
    value = doc.get(("ruleset",))
    if isinstance(value, str):
        return value if value in known_rulesets() else None
    try:
        return header(read_head(doc.file, 2000), doc.file)[1]
    except (OSError, UnicodeDecodeError):
        return None


def ruleset_problems(doc: Located, path: tuple[str, ...] = ("ruleset",)) -> tuple[str, list[Problem]]:
    """How to check what ``doc`` names at ``path``: its ruleset if its definitions are known, ``NO_RULESET``
    when it names none, else ``UNINSTALLED`` and the one problem that says which ruleset is missing and how
    to install it (everything that needs no ruleset is still checked, without a cascade of its fields)."""
    value = doc.get(path)
    parent = doc.get(path[:-1])
    if not isinstance(parent, dict) or path[-1] not in parent:
        return NO_RULESET, []                 # a game with no ruleset
    if not isinstance(value, str):
        return UNINSTALLED, []                # not text: the schema says so
    try:
        known = contribution(value) is not None
    except ContributionError as exc:
        return UNINSTALLED, [doc.problem(path, str(exc))]
    if known:
        return value, []
    return UNINSTALLED, [doc.problem(path, f"no definitions for ruleset {value!r} (known: {', '.join(known_rulesets())})"
                                           f": it is not installed; {install_hint(value, doc.file)}")]


def install_hint(ruleset: str, near: str) -> str:
    """How to install ``ruleset``: the folder of a distribution beside or above ``near`` that registers it (a
    game shipped with its ruleset, as examples/bridgehead is), else what such a distribution does."""
    folder = os.path.dirname(os.path.abspath(near))
    for _ in range(6):
        if _registers(os.path.join(folder, "pyproject.toml"), ruleset):
            return f"install it with: pip install {os.path.relpath(folder) or '.'}"
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return (f"install the distribution that provides it (pip install ...); it registers {ruleset!r} in the "
            f"entry-point groups {ENTRY_POINT_GROUP} and referee.rulesets")


def _registers(pyproject: str, ruleset: str) -> bool:
    import tomllib
    try:
        with open(pyproject, "rb") as f:
            points = tomllib.load(f).get("project", {}).get("entry-points", {})
    except (OSError, ValueError):
        return False
    return any(isinstance(points.get(g), dict) and ruleset in points[g] for g in (ENTRY_POINT_GROUP, "referee.rulesets"))


def check_game_file(path: PathLike) -> CheckedGame:
    """A game file: its schema, then what the schema cannot see (duplicate ids, factors hiding fields)."""
    doc = read_document(path)
    if isinstance(doc, Problem):
        return CheckedGame([doc])
    problems = schema_problems(doc, "game")
    checked = check_game(doc)
    # What is well formed is kept even beside a mistake (one bad colour), so the units that use the game's
    # unit types and factors are not reported again, one line each, for a problem of the game file.
    return CheckedGame(problems + checked.problems, checked.game)


# --------------------------------------------------------------------------------------------- public

def load_map(path: PathLike) -> MapDef:
    """The map file at ``path`` as a model.  Raises DefinitionError listing every problem."""
    checked = check_map(path)
    raise_if_any(checked.problems)
    return checked.model()


def load_counters(paths: PathLike | Iterable[PathLike], ruleset: str | None = None) -> CounterSet:
    """All units, leaders, activation groups and markers of one game's counters files, in file order,
    checked with the fields of ``ruleset`` (see :func:`check_counter_files`)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    checked = check_counter_files(paths, ruleset)
    raise_if_any(checked.problems)
    return checked.model()


def load_tables(path: PathLike, ruleset: str | None = None) -> Mapping[str, Any]:
    """A rules-tables file as a read-only mapping (the shapes its ruleset declares)."""
    checked = check_tables(path, ruleset)
    raise_if_any(checked.problems)
    return frozen_mapping(checked.data)
