"""``modulebuilder`` command line.  Each feature package contributes its sub-commands through a
``register(subparsers)`` function, so this file only wires them together."""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from typing import Sequence

# Packages that contribute sub-commands, in the order they appear in --help.
COMMAND_MODULES = (
    "modulebuilder.definitions.commands",   # validate, resolve, summary
    "modulebuilder.render.commands",        # counters, sheets, map
    "modulebuilder.vassal.commands",        # build
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="modulebuilder", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            if importlib.util.find_spec(name) is None:
                continue
        except ModuleNotFoundError:   # its package is not in this checkout
            continue
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
