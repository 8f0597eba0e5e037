"""``modulebuilder`` command line.  Each feature package contributes its sub-commands through a
``register(subparsers)`` function; this file wires them together and gives the whole command line what a
user expects of it: ``--version``, a help text for every option and an example per sub-command (the
packages may word their own; what they leave out is filled in here, so ``--help`` never shows a bare
option), one-line errors instead of tracebacks, and ``--out`` checked before any work is done."""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from importlib import metadata
from typing import Sequence

# Packages that contribute sub-commands, in the order they appear in --help.
COMMAND_MODULES = (
    "modulebuilder.definitions.commands",   # validate, resolve, summary, schemas, new
    "modulebuilder.render.commands",        # counters, sheets, map, ...
    "modulebuilder.vassal.commands",        # build
)

DESCRIPTION = """\
Turn a hex-and-counter game written as YAML (counters, map, scenarios, rules tables) into counter images,
print-ready counter sheets, a rendered map and a VASSAL module.  Every problem in the definitions is
reported at once, as file:line:column: field: message."""

EPILOG = """\
a first session:
  modulebuilder new my-game                       # a complete small game to start from
  modulebuilder validate my-game                  # every problem at once
  modulebuilder build my-game/scenario.yaml --out out/
  modulebuilder sheets my-game/scenario.yaml --size 5/8 --out out/sheets

Sizes are lengths: 5/8, 0.6in, 16mm, 1.5cm (a bare number is in inches).
'modulebuilder COMMAND --help' describes each command."""

# An example for each sub-command, shown at the end of its --help.
EXAMPLES: dict[str, list[str]] = {
    "validate": ["modulebuilder validate scenarios/borodino.yaml", "modulebuilder validate counters/borodino maps"],
    "resolve": ["modulebuilder resolve scenarios/borodino.yaml --out borodino.json",
                "modulebuilder resolve scenarios/mp-sample.yaml --format yaml"],
    "summary": ["modulebuilder summary scenarios/borodino.yaml scenarios/schevardino.yaml"],
    "schemas": ["modulebuilder schemas --out modulebuilder/schemas",
                "modulebuilder schemas --ruleset triumph-and-glory --out my-game/schemas"],
    "new": ["modulebuilder new my-game", "modulebuilder new my-game --ruleset musket-and-pike --title 'Lützen 1632'"],
    "counters": ["modulebuilder counters scenarios/borodino.yaml --out out/faces",
                 "modulebuilder counters counters/borodino/french.yaml --size 16mm --dpi 150 --out out/faces"],
    "sheets": ["modulebuilder sheets scenarios/borodino.yaml --size 5/8 --paper letter --layout both --out out/sheets",
               "modulebuilder sheets scenarios/mp-sample.yaml --size 16mm --paper a4 --out out/sheets"],
    "map": ["modulebuilder map maps/borodino.yaml --out out/map",
            "modulebuilder map scenarios/borodino.yaml --hex-inches 0.75in --paper a4 --out out/map",
            "modulebuilder map maps/borodino.yaml --cmyk --out out/map-cmyk"],
    "aids": ["modulebuilder aids scenarios/borodino.yaml --out out/aids"],
    "build": ["modulebuilder build scenarios/borodino.yaml scenarios/schevardino.yaml --out out/",
              "modulebuilder build examples/tiny/scenario.yaml --counter-size 5/8 --out out/"],
}

# Help for options a sub-command registers without one, by destination.
OPTION_HELP: dict[str, str] = {
    "out": "folder to write into (created if missing)",
    "scenario": "a scenario file (or a resolved scenario)",
    "scenarios": "scenario files",
    "sources": "scenario files and/or counters files",
    "map": "a map file, or a scenario (its map)",
    "format": "json (default) or yaml",
    "dpi": "resolution in dots per inch (default 300)",
    "paper": "paper size: letter (default) or a4",
    "layout": "duplex (backs on the reverse, mirrored), gutter (fold along the middle) or both",
    "template": "counter template: a bundled name or a template file",
    "files": "definition files, or folders of them",
}

# Sub-commands whose --out is a folder (resolve's is a file).
FOLDER_OUTPUT = frozenset({"build", "sheets", "map", "counters", "aids", "schemas", "new"})


def version() -> str:
    try:
        return metadata.version("hexwargame-tools")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="modulebuilder", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"modulebuilder {version()}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            if importlib.util.find_spec(name) is None:
                continue
        except ModuleNotFoundError:   # its package is not in this checkout
            continue
        importlib.import_module(name).register(sub)
    for name, command in sub.choices.items():
        _explain(name, command)
    return parser


def _explain(name: str, command: argparse.ArgumentParser) -> None:
    """Fill in what a sub-command left out: option help and an example (kept where it gave its own)."""
    command.formatter_class = argparse.RawDescriptionHelpFormatter
    for action in command._actions:
        if action.help is None and not isinstance(action, argparse._HelpAction):
            action.help = OPTION_HELP.get(action.dest, action.dest.replace("_", " "))
    examples = EXAMPLES.get(name)
    if examples and not command.epilog:
        command.epilog = "example" + ("s" if len(examples) > 1 else "") + ":\n" + \
            "\n".join(f"  {line}" for line in examples)


def _check_out(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    out = getattr(args, "out", None)
    if args.command in FOLDER_OUTPUT and out is not None and os.path.exists(out) and not os.path.isdir(out):
        parser.error(f"--out {os.fspath(out)}: is a file; give a folder to write into (it is created if missing)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_out(parser, args)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:      # a folder that cannot be written, a disk full: the file and the reason
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"modulebuilder {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except Exception as exc:    # a bug: say so in one line; MODULEBUILDER_TRACEBACK=1 shows where
        if os.environ.get("MODULEBUILDER_TRACEBACK"):
            raise
        print(f"modulebuilder {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(set MODULEBUILDER_TRACEBACK=1 to see where)", file=sys.stderr)
        return 70


if __name__ == "__main__":
    sys.exit(main())
