"""Every Playwright wait in the tests and benches polls a function: an expression is polled with eval, which the
page's Content-Security-Policy (script-src 'self') refuses, so a wait whose condition was not already true failed
with an EvalError (bench/bench_page.py stopped at its first picture)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WAIT = re.compile(r"wait_for_function\(\s*f?([\"'])(?P<head>.{0,12})")


def test_every_wait_for_function_polls_a_function() -> None:
    files = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "bench").glob("*.py"))
    waits = [(f.relative_to(ROOT), m["head"]) for f in files for m in WAIT.finditer(f.read_text("utf-8"))]
    assert len(waits) >= 6
    assert [(f, head) for f, head in waits if not head.lstrip().startswith("() =>")] == []
