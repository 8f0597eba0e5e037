"""Sub-commands ``counters``, ``sheets`` and ``map`` of ``modulebuilder``.

Input problems (bad definitions, text that will not fit, a counter size that does not fit the paper)
are printed as plain lines and exit 1; progress of long builds goes to stderr."""
from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from modulebuilder.hexgrid import size_across_flats
from modulebuilder.render.physical import COUNTER_SIZES, parse_inches, px
from modulebuilder.render.faces import render_faces
from modulebuilder.render.map import render_map
from modulebuilder.render.map_art import grid_check, print_art, screen_art
from modulebuilder.render.sources import load_map_source, load_sources
from modulebuilder.render.sheet_templates import length

DEFAULT_HEX_INCHES = Fraction(3, 4)          # across the flats; fits 5/8" counters with room to see terrain


MIN_COUNTER_IN, MAX_COUNTER_IN = Fraction(3, 10), Fraction(3)


def _size(text: str) -> Fraction:
    """Any counter size in inches or millimetres: ``5/8``, ``0.6in``, ``7/8``, ``16mm``."""
    try:
        value = length(text)
    except (ValueError, ZeroDivisionError) as exc:
        raise argparse.ArgumentTypeError(f"counter size: {exc}") from None
    if not MIN_COUNTER_IN <= value <= MAX_COUNTER_IN:
        raise argparse.ArgumentTypeError(f"counter size {text!r}: choose between {MIN_COUNTER_IN} and {MAX_COUNTER_IN} inches "
                                         f"(common sizes: {', '.join(str(s) for s in COUNTER_SIZES)})")
    return value


def _inches(text: str) -> Fraction:
    """A length for bleeds, margins and hexes: inches or any unit :mod:`modulebuilder.measure` reads."""
    from modulebuilder.measure import parse_length
    try:
        return parse_length(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_inches(text: str) -> Fraction:
    value = _inches(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"length {text!r} must be greater than zero")
    return value


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"back offset {text!r}: expected X,Y in millimetres, e.g. 0.5,-1") from None
    return x, y


def _copies(text: str) -> tuple[str, int]:
    ident, _, n = text.partition("=")
    if not ident or not n.isdigit():
        raise argparse.ArgumentTypeError(f"copies {text!r}: expected ID=N, e.g. dumon-a=2")
    return ident, int(n)


def _dpi(text: str) -> int:
    v = int(text)
    if not 72 <= v <= 1200:
        raise argparse.ArgumentTypeError(f"dpi {v}: choose 72..1200 (300 is the usual, 600 for fine printers)")
    return v


def _progress(label: str) -> Callable[[int, int], None]:
    """Progress on stderr: one line rewritten in place on a terminal, a line per quarter in a log."""
    tty = sys.stderr.isatty()

    def report(done: int, total: int) -> None:
        step = max(1, total // (20 if tty else 4))
        if done != total and done % step:
            return
        if tty:
            print(f"\r{label}: {done}/{total}", end="\n" if done == total else "", file=sys.stderr, flush=True)
        else:
            print(f"{label}: {done}/{total}", file=sys.stderr, flush=True)
    return report


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Bad input is reported on stderr as plain lines (one per problem) with exit status 1."""
    def run(args: argparse.Namespace) -> int:
        from modulebuilder.definitions import DefinitionError
        try:
            return command(args)
        except DefinitionError as exc:
            for problem in exc.problems:
                print(problem, file=sys.stderr)
        except ValueError as exc:                      # TextDoesNotFit, bad hexes, paper too small, ...
            for line in str(exc).splitlines():         # FacesDoNotFit: one line per counter
                print(f"error: {line}", file=sys.stderr)
        except OSError as exc:
            print(f"error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return run


def cmd_counters(args: argparse.Namespace) -> int:
    sources = load_sources(args.sources)
    counters = sources.counters
    size_px = args.px or px(args.size, args.dpi)
    faces = render_faces(counters, size_px, dpi=None if args.px else args.dpi, progress=_progress("counter faces"),
                         back=sources.back, template=sources.template(args.template), game=sources.game)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for key, img in faces.items():
        img.save(out / (key.replace("/", "-") + ".png"), optimize=False)
    print(f"{len(faces)} faces ({size_px} px) in {out}")
    return 0


def cmd_sheets(args: argparse.Namespace) -> int:
    from modulebuilder.render.print_job import PrintOptions, build_print_job
    sources = load_sources(args.sources)
    counters = sources.counters
    opts = PrintOptions(args.size, args.paper, args.dpi, args.bleed, args.margin, args.layout, args.back_offset,
                        args.png, args.title or "", back=sources.back, template=sources.template(args.template), cmyk=args.cmyk,
                        cmyk_profile=args.cmyk_profile, sheet=args.sheet, die_line=args.die_line)
    copies = dict(args.copies)
    unknown = sorted(set(copies) - {c.id for c in (*counters.units, *counters.leaders, *counters.markers)})
    if unknown:
        raise ValueError(f"--copies names no counter: {', '.join(unknown)}")
    files = build_print_job(counters, Path(args.out), opts, copies=copies, progress=_progress("counter faces"),
                            log=lambda s: print(s, file=sys.stderr), game=sources.game)
    for f in files:
        print(f)
    return 0


def cmd_map(args: argparse.Namespace) -> int:
    from modulebuilder.render.map_print import map_print_pdfs
    from modulebuilder.render.pdf import RGB_SPACE
    mapdef = load_map_source(args.map)
    if args.cmyk:
        from modulebuilder.render.cmyk import cmyk_space
        colours = cmyk_space(args.cmyk_profile)          # a bad profile fails before any drawing
    else:
        colours = RGB_SPACE
    if args.check_grid and mapdef.art is None:
        print(f"--check-grid: map {mapdef.id!r} has no art (art: {{image, hexes}} in its map file)", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.check_grid:
        png = out / f"{mapdef.id}-grid-check.png"
        grid_check(mapdef).save(png)
        print(png)
        return 0
    if mapdef.art is not None:
        img, _ = screen_art(mapdef, args.hex_size)
    else:
        img, _ = render_map(mapdef, args.hex_size)
    png = out / f"{mapdef.id}.png"
    img.save(png)
    print(png)
    # Print version: hexes of the chosen physical size across the flats.
    if mapdef.art is not None:
        pimg, _, note = print_art(mapdef, float(args.hex_inches), args.dpi)
        print(f"note: {note}", file=sys.stderr)
    else:
        print_size = size_across_flats(float(args.hex_inches) * args.dpi)
        print(f"print map: rendering at {args.dpi} dpi ...", file=sys.stderr)
        pimg, _ = render_map(mapdef, print_size)
    for name, data in map_print_pdfs(pimg, args.dpi, args.paper, mapdef.id, mapdef.title, colours, args.landscape):
        (out / name).write_bytes(data)
        print(out / name)
    return 0


def cmd_aids(args: argparse.Namespace) -> int:
    from modulebuilder.definitions import load_scenario
    from modulebuilder.render.aids import write_aids
    from modulebuilder.render.pdf import RGB_SPACE
    scenarios = [load_scenario(p) for p in args.scenarios]
    colours = RGB_SPACE
    if args.cmyk:
        from modulebuilder.render.cmyk import cmyk_space
        colours = cmyk_space(args.cmyk_profile)
    template = args.template or next((s.game.template for s in scenarios if s.game.template), None)
    for f in write_aids(scenarios, Path(args.out), paper=args.paper, template=template, colours=colours):
        print(f)
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("counters", help="render one PNG per counter face")
    p.add_argument("sources", nargs="+", metavar="SCENARIO_OR_COUNTERS")
    p.add_argument("--size", type=_size, default=Fraction(5, 8), help='counter size in inches (default 5/8)')
    p.add_argument("--dpi", type=_dpi, default=300)
    p.add_argument("--px", type=int, default=None, help="pixel size for screen images (overrides --size/--dpi)")
    p.add_argument("--template", default=None, metavar="NAME|FILE",
                   help="counter template: a bundled one (nato, leader, marker, ...) or a template file")
    p.add_argument("--out", required=True, metavar="DIR")
    p.set_defaults(func=_guarded(cmd_counters))

    p = subparsers.add_parser("sheets", help="print-ready counter sheets (PDF, optional PNG pages)")
    p.add_argument("sources", nargs="+", metavar="SCENARIO_OR_COUNTERS")
    p.add_argument("--size", type=_size, default=Fraction(5, 8), help="counter size: 5/8, 0.6in, 16mm (default 5/8)")
    p.add_argument("--template", default=None, metavar="NAME|FILE",
                   help="counter template: a bundled one (nato, leader, marker, ...) or a template file")
    p.add_argument("--sheet", default=None, metavar="NAME",
                   help="sheet template (letter, a4, tgc-large-punchout, tgc-medium-punchout, factory-punchboard-a3): "
                        "paper, bleed, gap and margin; overrides --paper/--bleed/--margin")
    p.add_argument("--cmyk", action="store_true", help="write DeviceCMYK through an ICC profile with its output intent")
    p.add_argument("--cmyk-profile", default=None, metavar="ICC", help="CMYK output profile (default: FOGRA39)")
    p.add_argument("--die-line", action="store_true", help="add the cut paths on a 'Die line' layer (DieCut spot colour)")
    p.add_argument("--paper", choices=("letter", "a4"), default="letter")
    p.add_argument("--dpi", type=_dpi, default=300)
    p.add_argument("--bleed", type=_inches, default=Fraction(1, 16), help="bleed: 1/16, 1.5mm (default 1/16 in)")
    p.add_argument("--margin", type=_inches, default=Fraction(1, 4), help="paper margin: 1/4, 6mm (default 1/4 in)")
    p.add_argument("--layout", choices=("duplex", "gutter", "both"), default="duplex")
    p.add_argument("--back-offset", type=_offset, default=(0.0, 0.0), metavar="X,Y",
                   help="shift back pages by X,Y mm to correct duplex drift (see calibration.pdf)")
    p.add_argument("--png", action="store_true", help="also write each page as a PNG at --dpi")
    p.add_argument("--copies", type=_copies, action="append", default=[], metavar="ID=N",
                   help="print counter ID N times (markers default to their count, others to 1); repeatable")
    p.add_argument("--title", default="", help="text in each sheet's footer")
    p.add_argument("--out", required=True, metavar="DIR")
    p.set_defaults(func=_guarded(cmd_sheets))

    p = subparsers.add_parser("aids", help="game aids per scenario: set-up card, order of battle, turn track, tables (PDF)",
                              description="Example: modulebuilder aids scenarios/borodino.yaml --out out/aids [--cmyk]")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO")
    p.add_argument("--paper", choices=("letter", "a4"), default="letter")
    p.add_argument("--template", default=None, metavar="NAME|FILE", help="counter template for the counters shown")
    p.add_argument("--cmyk", action="store_true",
                   help="write DeviceCMYK through an ICC profile with its output intent, as the sheets do "
                        "(sRGB -> FOGRA39, relative colorimetric with black-point compensation; greys and black "
                        "on the black plate alone)")
    p.add_argument("--cmyk-profile", default=None, metavar="ICC", help="CMYK output profile (default: FOGRA39)")
    p.add_argument("--out", required=True, metavar="DIR")
    p.set_defaults(func=_guarded(cmd_aids))

    p = subparsers.add_parser("map", help="render the map (PNG) and its print versions (PDF, full and tiled)")
    p.add_argument("map", metavar="MAP_OR_SCENARIO")
    p.add_argument("--hex-size", type=float, default=None, help="PNG hex size, centre to vertex in px")
    p.add_argument("--hex-inches", type=_positive_inches, default=DEFAULT_HEX_INCHES,
                   help="printed hex size across the flats, inches (default 3/4)")
    p.add_argument("--dpi", type=_dpi, default=300, help="resolution of the print PDFs (default 300)")
    p.add_argument("--paper", choices=("letter", "a4"), default="letter")
    p.add_argument("--cmyk", action="store_true",
                   help="print PDFs in DeviceCMYK through an ICC profile, with its output intent (the PNG stays RGB)")
    p.add_argument("--cmyk-profile", default=None, metavar="ICC", help="CMYK output profile (default: FOGRA39)")
    p.add_argument("--landscape", action="store_true", help="tile the map on the paper turned sideways")
    p.add_argument("--check-grid", action="store_true",
                   help="only write ID-grid-check.png: the map's art with the grid and hex numbers drawn over it")
    p.add_argument("--out", required=True, metavar="DIR")
    p.set_defaults(func=_guarded(cmd_map))
