"""``modulebuilder build SCENARIO... --out DIR``: the VASSAL module with every scenario as a set-up."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("build", help="build the VASSAL module (.vmod) of one or more scenarios",
                              description=__doc__)
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario YAML files (same game)")
    p.add_argument("--out", required=True, type=Path, help="output folder (a .cache folder is kept inside)")
    p.add_argument("--counter-size", type=int, default=None, help="counter image size in pixels")
    p.add_argument("--hex-size", type=float, default=None, help="map hex size (centre to vertex) in pixels")
    p.add_argument("--vassal", choices=("3.6", "3.7"), default="3.7",
                   help="the VASSAL version the module declares (default 3.7; the pieces are the same for both)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..definitions import load_scenario
    from ..definitions.problems import DefinitionError
    from . import uptodate
    from .assemble import build
    options = {"counter_size": args.counter_size, "hex_size": args.hex_size, "vassal": args.vassal}
    fresh = uptodate.fresh_module(args.out, args.scenarios, options)
    if fresh is not None:
        print(f"{fresh} is up to date")
        return 0
    try:
        scenarios = [load_scenario(s) for s in args.scenarios]
    except DefinitionError as e:
        print(e, file=sys.stderr)
        return 1
    except OSError as e:
        print(f"cannot read a scenario: {e}", file=sys.stderr)
        return 1
    if args.counter_size is not None and args.counter_size < 24:
        print("--counter-size must be at least 24 pixels", file=sys.stderr)
        return 2
    try:
        result = build(scenarios, args.out, counter_size=args.counter_size, hex_size=args.hex_size,
                       vassal=args.vassal)
    except ValueError as e:      # e.g. a facing at a hexside, a disordered unit without a back
        print(f"cannot build the module: {e}", file=sys.stderr)
        return 1
    uptodate.record(args.out, result.path, args.scenarios, uptodate.input_files(scenarios, args.scenarios), options)
    print(f"wrote {result.path} ({result.images_rendered} images drawn, {result.images_cached} from cache, "
          f"{result.seconds:.1f} s)")
    return 0
