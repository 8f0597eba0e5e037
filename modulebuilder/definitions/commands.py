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

from .problems import DefinitionError, Problem
from .resolved_write import resolve
from .scenario import load_scenario
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
    problems: list[Problem] = validate_files(files)
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


def cmd_resolve(args: argparse.Namespace) -> int:
    doc = resolve(load_scenario(args.scenario))
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
    schema = resources.files("modulebuilder.schemas").joinpath("resolved-scenario.schema.json")
    out = io.StringIO()
    out.write(f"# yaml-language-server: $schema={os.path.relpath(str(schema), folder)}\n")
    yaml.dump(doc, out)
    return out.getvalue()


def cmd_summary(args: argparse.Namespace) -> int:
    problems: list[Problem] = []
    for path in args.scenarios:
        try:
            print("\n".join(summary_lines(load_scenario(path))))
        except DefinitionError as exc:
            problems += exc.problems
    _print_problems(problems)
    return 1 if problems else 0
