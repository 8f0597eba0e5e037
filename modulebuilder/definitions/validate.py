"""``validate_files``: check any mix of definition files, each according to its kind."""
from __future__ import annotations

import os
from collections import defaultdict
from typing import Iterable

from modulebuilder.input_files import read_head

from .detect import header, kind_from_folder, kind_of_data
from .files import display_name, read_document
from .game import CheckedGame
from .loaders import check_counter_files, check_game_file, check_map, check_tables
from .problems import WHOLE_FILE, Problem, unique_sorted
from .resolved_read import check_resolved
from .scenario import check_scenario
from .schemas import Kind

PathLike = str | os.PathLike[str]

UNKNOWN_KIND = ("cannot tell what kind of definition file this is; start it with a header such as "
                "'# yaml-language-server: $schema=../modulebuilder/schemas/map.schema.json' "
                "(counters, map, scenario, tables, game or resolved-scenario)")


def file_kind(path: PathLike) -> Kind | Problem:
    """The kind of the file at ``path``, or the problem that prevents knowing it."""
    found = _kind_and_ruleset(path)
    return found if isinstance(found, Problem) else found[0]


def _kind_and_ruleset(path: PathLike) -> tuple[Kind, str | None] | Problem:
    """The kind of the file and the ruleset its header's schema is combined for (None: any)."""
    doc = read_document(path)
    if isinstance(doc, Problem):
        return doc
    try:
        head = read_head(path, 2000)
    except (OSError, UnicodeDecodeError):
        head = ""                   # read_document read it a moment ago; whatever changed, no header
    kind, ruleset = header(head, doc.file)
    kind = kind or kind_of_data(doc.data) or kind_from_folder(doc.file)
    return (kind, ruleset) if kind is not None else Problem(doc.file, 1, 1, WHOLE_FILE, UNKNOWN_KIND)


def validate_files(paths: Iterable[PathLike]) -> list[Problem]:
    """Every problem in ``paths``; a scenario brings its whole tree (map, counters, tables, game file).

    A file a scenario among ``paths`` names is checked as part of that scenario (with its ruleset and its
    game's unit types and factors), not again on its own, so a folder gives the verdict its scenarios give.
    Other counters files of one game (same ``game:`` or, without one, same folder) are checked together,
    because ids must be unique across them, with the game file among ``paths`` whose id is their game.
    """
    problems: list[Problem] = []
    found: list[tuple[PathLike, Kind, str | None]] = []
    for path in paths:
        kind = _kind_and_ruleset(path)
        if isinstance(kind, Problem):
            problems.append(kind)
        else:
            found.append((path, *kind))
    covered: set[str] = set()
    for path, kind, _ in found:
        if kind == "scenario":
            checked = check_scenario(path)
            problems += checked.problems
            covered.update(os.path.realpath(f) for f in checked.files[1:])
    games: dict[str, CheckedGame] = {}
    counter_groups: dict[tuple[str, str | None], list[str]] = defaultdict(list)
    for path, kind, ruleset in found:
        if kind == "scenario" or os.path.realpath(path) in covered:
            continue
        if kind == "map":
            problems += check_map(path).problems
        elif kind == "game":
            game = check_game_file(path)
            problems += game.problems
            if game.game.id:
                games.setdefault(game.game.id, game)
        elif kind == "tables":
            problems += check_tables(path, ruleset).problems
        elif kind == "resolved-scenario":
            problems += check_resolved(os.fspath(path))
        else:
            counter_groups[(_game_of(path), ruleset)].append(os.fspath(path))
    for (game_key, ruleset), group in counter_groups.items():
        game = games.get(game_key.removeprefix("game:")) if game_key.startswith("game:") else None
        problems += check_counter_files(group, ruleset, game or _game_beside(group)).problems
    return unique_sorted(problems)


def _game_beside(group: list[str]) -> CheckedGame | None:
    """The game file of counters files whose game file was not among those validated: ``game.yaml`` in their
    folder or the one above, as a game folder lays it out (its problems are that file's, reported when it is
    validated)."""
    folder = os.path.dirname(os.path.abspath(group[0]))
    for candidate in (folder, os.path.dirname(folder)):
        path = os.path.join(candidate, "game.yaml")
        if os.path.isfile(path):
            return check_game_file(path)
    return None


def _game_of(path: PathLike) -> str:
    doc = read_document(path)
    game = doc.get(("game",)) if not isinstance(doc, Problem) else None
    return f"game:{game}" if isinstance(game, str) else f"dir:{os.path.dirname(display_name(path))}"
