"""What a ``referee check`` imports: only what the log needs (issue #17, docs/speed.md).

Each check runs in a fresh interpreter, so the modules it imported are exactly those in ``sys.modules``."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "fixtures" / "logs"

PROBE = """
import json, os, sys
from referee.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def imported(*argv: str, cwd: Path = ROOT) -> tuple[int, set[str]]:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "modules.json"
        subprocess.run([sys.executable, "-c", PROBE, str(report), *argv], cwd=cwd, stdout=subprocess.DEVNULL,
                       check=True)
        result = json.loads(report.read_text(encoding="utf-8"))
    return result["code"], set(result["modules"])


def tops(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.parametrize("log", ["sample-borodino.json", "small-inline.yaml"])
def test_check_imports_neither_the_service_nor_flask_nor_the_vassal_readers(log, tmp_path):
    code, modules = imported("check", str(LOGS / log), "--format", "json")
    assert code == 0
    assert not {"flask", "werkzeug", "jinja2", "click"} & tops(modules)
    assert not any(m.startswith("referee.service") for m in modules)
    assert not any(m.startswith("referee.logs.vassal") for m in modules)


def test_a_valid_log_is_checked_without_jsonschema(tmp_path):
    code, modules = imported("check", str(LOGS / "sample-borodino.json"), "--format", "json")
    assert code == 0
    assert "jsonschema" not in modules          # jsonschema-rs said every event is valid


def test_a_bad_event_still_gets_jsonschema_s_message(tmp_path):
    doc = json.loads((LOGS / "sample-borodino.json").read_text(encoding="utf-8"))
    doc["events"] = doc["events"][:2] + [{"type": "move", "side": "French"}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(bad)], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 1
    assert "events[2].unit: missing" in run.stderr.splitlines()
    assert run.stdout == ""


def test_the_service_commands_are_still_there():
    run = subprocess.run([sys.executable, "-m", "referee.cli", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0
    for command in ("check", "rulesets", "serve", "verify"):
        assert command in run.stdout
    run = subprocess.run([sys.executable, "-m", "referee.cli", "verify", "--help"], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 0 and "--head" in run.stdout
