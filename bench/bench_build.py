"""Time the Borodino VASSAL module build, cold (empty cache) and warm (nothing changed), and measure the
command's peak memory.

    .venv/bin/python bench/bench_build.py [--runs 3] [SCENARIO ...]

Reports the module build itself (images, pieces, set-ups, zip: what ``modulebuilder build`` does after
loading the YAML) cold and warm (image cache filled), and the whole command, first and unchanged (then
the up-to-date check skips loading altogether).  Targets: cold <= 20 s, unchanged <= 2 s.

Peak memory: the maximum resident set size of ``modulebuilder build`` as a process of its own, with an
empty cache (everything drawn: the peak is the map, drawn in strips -- render/map_strips.py), as
``/usr/bin/time -v`` reports it (the kernel's ``ru_maxrss`` of that one child).  Target <= 100 MiB
(issue 17; 212 MiB before the strips, most of it the 132 MB supersampled map canvas).  The load average
is printed beside the figures: the machine is shared.

Scale (``--map-scale N``, default 2; 0 skips it): the same build with the scenarios' map replaced by the map
file repeated N times side by side (render/map_samples.py, written to a temporary folder), time and peak
memory beside the original's, each a process of its own.  Memory should grow by the map image (3128 x 2643
pixels of Borodino at 4 bytes: 31.5 MiB a copy), not by a supersampled canvas four times that.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from modulebuilder.definitions import load_scenario  # noqa: E402
from modulebuilder.vassal.assemble import build  # noqa: E402

DEFAULT = [ROOT / "scenarios" / "borodino.yaml", ROOT / "scenarios" / "schevardino.yaml"]


MEMORY_TARGET_MIB = 100


# Run from a small Python of its own: a child forked straight from this process would count this process's
# pages, at the fork, in its maximum RSS (Linux keeps ru_maxrss across exec), and this one has built modules.
_PROBE = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
          "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def peak_rss_mib(cmd: list[str]) -> float:
    """Maximum resident set size of ``cmd`` (MiB), as ``/usr/bin/time -v`` reports it."""
    out = subprocess.run([sys.executable, "-c", _PROBE, *cmd], cwd=ROOT, check=True, capture_output=True, text=True)
    return int(out.stdout.split()[-1]) / 1024              # KiB on Linux


# One cold build with the scenarios' map widened N times (N = 1: the map as it is), for peak_rss_mib.
_SCALED_BUILD = """
import dataclasses, sys, tempfile, time
from pathlib import Path
from modulebuilder.definitions import load_map, load_scenario
from modulebuilder.render.map_samples import write_widened_map
from modulebuilder.vassal.assemble import build
times, paths = int(sys.argv[1]), sys.argv[2:]
scenarios = [load_scenario(Path(p)) for p in paths]
with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp)
    big = load_map(write_widened_map(Path(scenarios[0].map.source.split(":")[0]), times, out / "map.yaml"))
    scenarios = [dataclasses.replace(s, map=big) for s in scenarios]
    t = time.perf_counter()
    build(scenarios, out / "module")
    print(f"{time.perf_counter() - t:.3f}", file=sys.stderr)
"""


def scaled_build(times: int, scenarios: list[Path]) -> tuple[float, float]:
    """(seconds, peak MiB) of a cold module build with the map ``times`` copies wide."""
    cmd = [sys.executable, "-c", _SCALED_BUILD, str(times), *map(str, scenarios)]
    out = subprocess.run([sys.executable, "-c", _PROBE, *cmd], cwd=ROOT, check=True, capture_output=True, text=True)
    return float(out.stderr.split()[-1]), int(out.stdout.split()[-1]) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenarios", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--map-scale", type=int, default=2, help="also build with the map N copies wide (0: skip)")
    args = ap.parse_args()
    t = time.perf_counter()
    scenarios = [load_scenario(p) for p in args.scenarios]
    load_s = time.perf_counter() - t
    cold, warm = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            r = build(scenarios, out)
            cold.append(r.seconds)
            w = build(scenarios, out)
            assert w.images_rendered == 0, "a warm build drew images: the cache key is unstable"
            warm.append(w.seconds)
            size = r.path.stat().st_size
    print(f"scenarios: {', '.join(p.name for p in args.scenarios)}  (loading the YAML: {load_s:.2f} s)")
    print(f"module: {r.path.name}, {size / 1e6:.1f} MB, {r.images_rendered} images")
    for label, xs, target in (("cold", cold, 20.0), ("warm", warm, 2.0)):
        med = statistics.median(xs)
        print(f"{label}: median {med:.2f} s, min {min(xs):.2f} s over {len(xs)} runs; "
              f"with loading {med + load_s:.2f} s; target <= {target:.0f} s: {'ok' if med <= target else 'MISSED'}")
    cli = [sys.executable, "-m", "modulebuilder", "build", *map(str, args.scenarios)]
    with tempfile.TemporaryDirectory() as tmp:
        times = []
        for _ in range(1 + args.runs):
            t = time.perf_counter()
            subprocess.run([*cli, "--out", tmp], check=True, capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - t)
    warm_cli = statistics.median(times[1:])
    print(f"command `modulebuilder build`: first {times[0]:.2f} s (image cache empty), then unchanged "
          f"{warm_cli:.2f} s (up to date, nothing loaded); target <= 2 s: {'ok' if warm_cli <= 2 else 'MISSED'}")
    peaks = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            peaks.append(peak_rss_mib([*cli, "--out", tmp]))
    peak = max(peaks)
    print(f"peak memory of `modulebuilder build`, image cache empty: {', '.join(f'{p:.1f}' for p in peaks)} MiB "
          f"(max RSS, {len(peaks)} runs; load average {os.getloadavg()[0]:.1f}); target <= {MEMORY_TARGET_MIB} MiB: "
          f"{'ok' if peak <= MEMORY_TARGET_MIB else 'MISSED'}")
    if args.map_scale > 1:
        t1, m1 = scaled_build(1, args.scenarios)
        tn, mn = scaled_build(args.map_scale, args.scenarios)
        print(f"map {args.map_scale} copies wide (scenarios unchanged): cold build {tn:.2f} s vs {t1:.2f} s "
              f"({tn / t1:.2f}x), peak {mn:.1f} vs {m1:.1f} MiB (+{mn - m1:.1f} MiB; the map image itself grows by "
              f"{31.5 * (args.map_scale - 1):.1f} MiB); load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
