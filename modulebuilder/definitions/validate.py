"""``validate_files``: check any mix of definition files, each according to its kind."""
from __future__ import annotations

import os
from collections import defaultdict
from typing import Iterable

from .detect import header, kind_from_folder, kind_of_data
from .files import display_name, read_document
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
    with open(path, encoding="utf-8") as f:
        head = f.read(2000)
    kind, ruleset = header(head, doc.file)
    kind = kind or kind_of_data(doc.data) or kind_from_folder(doc.file)
    return (kind, ruleset) if kind is not None else Problem(doc.file, 1, 1, WHOLE_FILE, UNKNOWN_KIND)


def validate_files(paths: Iterable[PathLike]) -> list[Problem]:
    """Every problem in ``paths``; a scenario brings its whole tree (map, counters, tables).

    Counters files of one game (same ``game:`` or, without one, same folder) are checked together,
    because ids must be unique across them.
    """
    problems: list[Problem] = []
    counter_groups: dict[tuple[str, str | None], list[str]] = defaultdict(list)
    for path in paths:
        found = _kind_and_ruleset(path)
        if isinstance(found, Problem):
            problems.append(found)
            continue
        kind, ruleset = found
        if kind == "scenario":
            problems += check_scenario(path).problems
        elif kind == "map":
            problems += check_map(path).problems
        elif kind == "game":
            problems += check_game_file(path).problems
        elif kind == "tables":
            problems += check_tables(path, ruleset).problems
        elif kind == "resolved-scenario":
            problems += check_resolved(os.fspath(path))
        else:
            counter_groups[(_game_of(path), ruleset)].append(os.fspath(path))
    for (_, ruleset), group in counter_groups.items():
        problems += check_counter_files(group, ruleset).problems
    return unique_sorted(problems)


def _game_of(path: PathLike) -> str:
    doc = read_document(path)
    game = doc.get(("game",)) if not isinstance(doc, Problem) else None
    return f"game:{game}" if isinstance(game, str) else f"dir:{os.path.dirname(display_name(path))}"
