"""Benchmark of the renderers: ms per counter face, the map, and the whole print build.

    .venv/bin/python bench/bench_render.py [--scenario scenarios/borodino.yaml] [--units 300] [--dpi 300]

Uses the Borodino scenario when it loads (its counters and map), otherwise a synthetic set of the same
size.  Targets: <= 5 ms per face at 300 dpi; the whole print build <= 15 s cold on 2 cores."""
from __future__ import annotations

import argparse
import math
import os
import resource
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from modulebuilder.model import CounterSet, MapDef  # noqa: E402
from modulebuilder.render.faces import face_jobs, render_faces  # noqa: E402
from modulebuilder.render.map import render_map  # noqa: E402
from modulebuilder.render.map_print import full_map_pdf, tiled_map_pdf  # noqa: E402
from modulebuilder.render.print_job import PrintOptions, build_print_job  # noqa: E402
from modulebuilder.render.samples import sample_counters, sample_map  # noqa: E402


def load(scenario: str | None, units: int) -> tuple[CounterSet, MapDef, str]:
    if scenario and Path(scenario).exists():
        try:
            from modulebuilder.definitions import load_scenario
            s = load_scenario(scenario)
            return s.counters, s.map, scenario
        except Exception as exc:                     # fall back to synthetic data, but say why
            print(f"(could not load {scenario}: {exc}; using synthetic data)", file=sys.stderr)
    return sample_counters(units), sample_map(), f"synthetic ({units} units)"


def timed(fn):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - t


def cpu_seconds() -> float:
    """CPU used by this process and its finished workers: on a busy machine wall time mostly measures
    the neighbours, CPU time measures us."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def print_map(mapdef: MapDef, out: Path, dpi: int = 150) -> None:
    """The map's print versions as the ``map`` command makes them (3/4" hexes)."""
    img, _ = render_map(mapdef, 0.75 * dpi / math.sqrt(3))
    (out / "map-full.pdf").write_bytes(full_map_pdf(img, dpi))
    (out / "map-tiles.pdf").write_bytes(tiled_map_pdf(img, dpi, "letter"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "borodino.yaml"))
    ap.add_argument("--units", type=int, default=300)
    ap.add_argument("--dpi", type=int, default=300)
    args = ap.parse_args()
    counters, mapdef, what = load(args.scenario, args.units)
    size_px = round(0.625 * args.dpi)
    n = len(face_jobs(counters))
    print(f"data: {what}: {len(counters.units)} units, {n} faces, 5/8\" at {args.dpi} dpi = {size_px} px")
    # Cold first: nothing cached yet in this process, as when the command runs.
    cpu0 = cpu_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        opts = PrintOptions(counter_in=Fraction(5, 8), dpi=args.dpi, layout="both")
        _, t_sheets = timed(lambda: build_print_job(counters, Path(tmp), opts))
        _, t_map_print = timed(lambda: print_map(mapdef, Path(tmp)))
        size = sum(p.stat().st_size for p in Path(tmp).iterdir())
    cpu = cpu_seconds() - cpu0
    print(f"print build, cold: sheets (faces, duplex + gutter + calibration PDFs) {t_sheets:.2f} s, "
          f"map print (150 dpi full + tiles) {t_map_print:.2f} s; total {t_sheets + t_map_print:.2f} s wall, "
          f"{cpu:.2f} s CPU, {size / 1e6:.1f} MB")

    _, serial = timed(lambda: render_faces(counters, size_px, dpi=args.dpi, workers=1))
    print(f"faces, 1 core : {serial * 1000 / n:6.2f} ms/face  ({serial:.2f} s, caches warm)")
    _, par = timed(lambda: render_faces(counters, size_px, dpi=args.dpi))
    print(f"faces, pool   : {par * 1000 / n:6.2f} ms/face  ({par:.2f} s wall)")

    _, t_map = timed(lambda: render_map(mapdef))
    print(f"map PNG ({mapdef.style.hex_size:g} px hexes): {t_map:.2f} s")
    print(f"(load average {os.getloadavg()[0]:.1f}: other work on the machine inflates wall times)")


if __name__ == "__main__":
    main()
