"""``modulebuilder build SCENARIO... --out DIR``: the VASSAL module with every scenario as a set-up."""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from ..measure import screen_size_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("build", help="build the VASSAL module (.vmod) of one or more scenarios",
                              description=__doc__)
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO", help="scenario YAML files (same game)")
    p.add_argument("--out", required=True, type=Path, help="output folder (a .cache folder is kept inside)")
    p.add_argument("--counter-size", type=screen_size_argument(what="--counter-size"), default=None,
                   help="counter size: a length as printed beside the map's printed hex (5/8, 0.6in, 16mm; "
                        "the map prints hexes 3/4 in across), or pixels (60px); default: fits the hex")
    p.add_argument("--hex-size", type=float, default=None, help="map hex size (centre to vertex) in pixels")
    p.add_argument("--template", default=None, metavar="NAME|FILE",
                   help="counter template for the pieces, as for counters and sheets: a bundled one (nato, "
                        "triumph-and-glory, ...) or a template file; default: the game file's, else the series look")
    p.add_argument("--vassal", choices=("3.6", "3.7"), default="3.7",
                   help="the VASSAL version the module declares (default 3.7; the pieces are the same for both)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..definitions import load_scenario
    from ..definitions.problems import DefinitionError
    from . import uptodate
    from .assemble import build
    options = {"counter_size": args.counter_size and args.counter_size.text, "hex_size": args.hex_size,
               "vassal": args.vassal, **({"template": args.template} if args.template else {})}
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
    counter_px = None
    if args.counter_size is not None:
        # The module shows the map at its hex size in pixels; a printed length keeps the counter's size
        # relative to the hex it has on paper (render/commands.py DEFAULT_HEX_INCHES across the flats).
        from ..render.commands import DEFAULT_HEX_INCHES
        from .assemble import art_hex_size
        hex_px = args.hex_size or art_hex_size(scenarios[0].map) or scenarios[0].map.style.hex_size
        counter_px = args.counter_size.in_pixels(hex_px * math.sqrt(3) / float(DEFAULT_HEX_INCHES))
        if counter_px < 24:
            print(f"--counter-size {args.counter_size.text}: {counter_px} pixels; the module needs at least 24",
                  file=sys.stderr)
            return 2
    try:
        result = build(scenarios, args.out, counter_size=counter_px, hex_size=args.hex_size,
                       vassal=args.vassal, template=args.template)
    except ValueError as e:      # e.g. a facing at a hexside, a disordered unit without a back
        print(f"cannot build the module: {e}", file=sys.stderr)
        return 1
    uptodate.record(args.out, result.path, args.scenarios,
                    uptodate.input_files(scenarios, args.scenarios, args.template), options)
    print(f"wrote {result.path} ({result.images_rendered} images drawn, {result.images_cached} from cache, "
          f"{result.seconds:.1f} s)")
    return 0
