"""A ruleset skeleton written by ``referee new-ruleset``, installed for a test: into a throwaway folder, with no
dependencies and without build isolation (offline, a few seconds), else the ordinary way; and its commands run
with that folder on the import path."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def install(game: Path, target: Path) -> None:
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target)]
    run = subprocess.run(base + ["--no-build-isolation", "--no-index", str(game)], capture_output=True, text=True,
                         timeout=600)
    if run.returncode != 0:            # no `wheel` here to build without isolation: the ordinary way
        run = subprocess.run(base + [str(game)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]


def run_in(game: Path, target: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in the game's folder, the installed skeleton importable."""
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run([sys.executable, *args], cwd=game, env=env, capture_output=True, text=True, timeout=600)
