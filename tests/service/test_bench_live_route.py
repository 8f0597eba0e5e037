"""bench/bench_live_route.py runs: a few moves against ``referee serve``, a restart, and in process."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_live_route_bench_runs_and_reports_each_figure() -> None:
    bench = [sys.executable, str(ROOT / "bench" / "bench_live_route.py"), "--moves", "6"]
    out = subprocess.run(bench, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert re.search(r"^post +at 6: median +[\d.]+ ms", out.stdout, re.M), out.stdout
    assert re.search(r"^after a restart: first post [\d.]+ ms, then median [\d.]+ ms", out.stdout, re.M), out.stdout
    out = subprocess.run([*bench, "--in-process"], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert re.search(r"^CPU per post, in process: posts 1-20 median [\d.]+ ms", out.stdout, re.M), out.stdout
