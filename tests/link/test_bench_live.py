"""bench/bench_live.py runs: three moves in the REAL engine, each answered with its ruling in the chat.  The bench
drives the link test's server, and a change to that helper once left the bench failing at start."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("engine")


def test_the_link_latency_bench_rules_every_move_it_makes() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_live.py"), "--moves", "3", "--pause", "100"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert re.search(r"^3 answers for 3 events ruled: act -> ruling in the chat p50 [\d.]+ ms", out.stdout, re.M), \
        out.stdout[-2000:]
