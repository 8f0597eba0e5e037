"""What the cache tests share: a prefix of the sample game as a log of its own, an environment whose cache is a
private folder, and ``referee check`` run as a process (its stdout, the bytes a user gets)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


def short_sample(tmp_path: Path, events: int) -> Path:
    """The sample game's first ``events`` events, written as ``short.json`` in ``tmp_path``."""
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))
    doc["events"] = doc["events"][:events]
    log = tmp_path / "short.json"
    log.write_text(json.dumps(doc), encoding="utf-8")
    return log


def private_cache_env(tmp_path: Path) -> dict[str, str]:
    """This process's environment with the cache on, in ``tmp_path / "cache"``."""
    env = dict(os.environ, HEXWARGAME_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("HEXWARGAME_CACHE", None)
    return env


def check(log: Path, *extra: str, env: dict[str, str]) -> bytes:
    """``referee check LOG --format json`` in a fresh process: its stdout."""
    run = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(log), "--format", "json", *extra],
                         cwd=ROOT, capture_output=True, env=env, check=True)
    return run.stdout
