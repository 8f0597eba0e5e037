"""Sub-commands ``validate``, ``resolve`` and ``summary`` of ``modulebuilder``.

They print problems as plain lines (``file:line:column: path: message``), never a traceback: an author
running them wants to know what to fix, not where the loader was when it noticed.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from ruamel.yaml import YAML

from .loaders import check_game_file
from .problems import DefinitionError, Problem
from .resolved_write import resolve
from .rulesets import NO_RULESET, known_rulesets
from .scenario import load_scenario
from .schemas import write_combined
from .summary import summary_lines
from .validate import validate_files


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("validate", help="check definition files and report every problem",
                              description="Check counters, map, scenario, tables and resolved-scenario files. "
                                          "A scenario brings its map, counters and tables.")
    p.add_argument("files", nargs="+", metavar="FILE", help="a definition file, or a folder of them")
    p.set_defaults(func=_guarded(cmd_validate))

    p = subparsers.add_parser("resolve", help="write a scenario as one resolved document (DESIGN §4)")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    p.add_argument("--format", choices=("json", "yaml"), default="json")
    p.set_defaults(func=_guarded(cmd_resolve))

    p = subparsers.add_parser("summary", help="describe scenarios: map, turns, units per side")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO")
    p.set_defaults(func=_guarded(cmd_summary))

    p = subparsers.add_parser("schemas", help="write the JSON Schemas combined for each ruleset, for editors",
                              description="Write, per ruleset, the shared schemas with the ruleset's fields, "
                                          "options and tables merged in: OUT/<ruleset>/<kind>.schema.json, or "
                                          "OUT/<kind>.schema.json with --ruleset.  A file's header "
                                          "'# yaml-language-server: $schema=<that file>' makes an editor "
                                          "validate it as `modulebuilder validate` does.")
    p.add_argument("--out", metavar="DIR", required=True, help="folder to write into (created if missing)")
    p.add_argument("--ruleset", metavar="ID", help="only this ruleset, written straight into DIR ('none': a game "
                                                  "whose scenarios name no ruleset)")
    p.add_argument("--game", metavar="FILE", help="a game file whose factor fields join the unit's fields, so an "
                                                 "editor knows them as `modulebuilder validate` does")
    p.set_defaults(func=_guarded(cmd_schemas))

    p = subparsers.add_parser("new", help="start a new game: a folder that validates and builds as it is",
                              description="Write a small complete game into the folder GAME (counters, map, "
                                          "scenario, rules tables, a game file and the schemas its headers "
                                          "name), for a ruleset that ships a starter.")
    p.add_argument("game", metavar="GAME", help="the folder to create; its name gives the game's id and title")
    p.add_argument("--ruleset", default="triumph-and-glory", metavar="ID",
                   help="the ruleset of its scenario (default triumph-and-glory; also musket-and-pike)")
    p.add_argument("--title", default=None, help="the game's title (default: from the folder's name)")
    p.set_defaults(func=_guarded(cmd_new))


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Problems with the input are printed one per line (exit 1), never raised."""
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except DefinitionError as exc:
            _print_problems(exc.problems)
            return 1
        except OSError as exc:
            print(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": "), file=sys.stdout)
            return 1
    return run


def _print_problems(problems: Any) -> None:
    for problem in problems:
        print(problem)


def cmd_validate(args: argparse.Namespace) -> int:
    files = expand(args.files)
    problems: list[Problem] = validate_files(files) + empty_folders(args.files)
    if problems:
        _print_problems(problems)
        return 1
    print(f"ok: {len(files)} file{'s' if len(files) != 1 else ''}")
    return 0


def expand(paths: list[str]) -> list[str]:
    """Files as given; a folder stands for the YAML files under it (``validate counters/borodino``)."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            out += sorted(str(p) for p in Path(path).rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
        else:
            out.append(path)
    return out


def empty_folders(paths: list[str]) -> list[Problem]:
    """A folder with no definition file in it is a mistake (a wrong path), not a success of 0 files."""
    return [Problem(os.path.normpath(p), 1, 1, "file", "no definition files (*.yaml, *.yml) in this folder")
            for p in paths if os.path.isdir(p) and not expand([p])]


def cmd_resolve(args: argparse.Namespace) -> int:
    doc = resolve(load_scenario(args.scenario, command="resolve"))
    if args.format == "json":
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    else:
        text = _yaml_text(doc, os.path.dirname(os.path.abspath(args.out or "resolved.yaml")))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _yaml_text(doc: Any, folder: str) -> str:
    """YAML in the document's own key order, headed so an editor validates it where it is written."""
    yaml = YAML()
    yaml.default_flow_style = None     # short lists and mappings on one line, the rest as blocks
    yaml.width = 110
    # The schema combined for the scenario's ruleset, so an editor knows that ruleset's fields too.
    schemas = resources.files("modulebuilder.schemas")
    if doc.get("ruleset") in known_rulesets() and schemas.joinpath(doc["ruleset"]).is_dir():
        schemas = schemas.joinpath(doc["ruleset"])
    schema = schemas.joinpath("resolved-scenario.schema.json")
    out = io.StringIO()
    out.write(f"# yaml-language-server: $schema={os.path.relpath(str(schema), folder)}\n")
    yaml.dump(doc, out)
    return out.getvalue()


def cmd_schemas(args: argparse.Namespace) -> int:
    known = known_rulesets()
    if args.ruleset is not None and args.ruleset not in (*known, "none"):
        print(f"--ruleset: no definitions for ruleset {args.ruleset!r} (known: {', '.join(known)}; or none)")
        return 1
    factors: tuple[str, ...] = ()
    if args.game:
        game = check_game_file(args.game)
        if game.problems:
            raise DefinitionError(game.problems)
        factors = game.factors
    ruleset = NO_RULESET if args.ruleset == "none" else args.ruleset
    targets = [(args.out, ruleset)] if ruleset is not None else [(os.path.join(args.out, r), r) for r in known]
    for folder, each in targets:
        for path in write_combined(folder, each, factors):
            print(path)
    return 0


def cmd_new(args: argparse.Namespace) -> int:
    from .scaffold import ScaffoldError, scaffold
    try:
        written = scaffold(args.game, ruleset=args.ruleset, title=args.title)
    except ScaffoldError as exc:
        print(exc)
        return 1
    print(f"wrote {len(written)} files into {args.game}/; next: modulebuilder validate {args.game}")
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    problems: list[Problem] = []
    for path in args.scenarios:
        try:
            print("\n".join(summary_lines(load_scenario(path, command="summary"))))
        except DefinitionError as exc:
            problems += exc.problems
    _print_problems(problems)
    return 1 if problems else 0
