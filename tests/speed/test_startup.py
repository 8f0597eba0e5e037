"""What a ``referee check`` imports: only what the log needs (issue #17, docs/speed.md).

Each check runs in a fresh interpreter, so the modules it imported are exactly those in ``sys.modules``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests" / "fixtures" / "logs"

PROBE = """
import json, os, sys
compiled = []
def count(event, args):
    # Code compiled from text while the process runs (dataclasses' and namedtuple's generated methods,
    # typing's forward references, records' __init__), not a module's source read from its file.
    if event == "compile" and not str(args[1]).endswith(".py"):
        compiled.append(str(args[1]))
sys.addaudithook(count)
from referee.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules), "compiled": len(compiled)}, f)
"""


def probe(*argv: str, cwd: Path = ROOT, env: dict | None = None) -> dict:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "modules.json"
        subprocess.run([sys.executable, "-c", PROBE, str(report), *argv], cwd=cwd, stdout=subprocess.DEVNULL,
                       check=True, env=env)
        return json.loads(report.read_text(encoding="utf-8"))


def imported(*argv: str, cwd: Path = ROOT, env: dict | None = None) -> tuple[int, set[str]]:
    result = probe(*argv, cwd=cwd, env=env)
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


@pytest.fixture
def warm(tmp_path):
    """A cache folder of its own, warmed by one check (the parsed scenario and the registry's entry points)."""
    env = {**os.environ, "HEXWARGAME_CACHE_DIR": str(tmp_path / "cache"), "HEXWARGAME_CACHE": ""}
    assert imported("check", str(LOGS / "sample-borodino.json"), "--format", "json", env=env)[0] == 0
    return env


def test_a_warm_check_imports_neither_importlib_metadata_nor_an_import_hook_finder(warm):
    """The registry's entry points come from the cache (referee/engine/registry.py: importing
    importlib.metadata was ~20 ms); an editable install is a .pth line (pyproject's package-dir: setuptools'
    finder module was ~20 ms of every start)."""
    code, modules = imported("check", str(LOGS / "sample-borodino.json"), "--format", "json", env=warm)
    assert code == 0
    assert "importlib.metadata" not in modules
    assert "importlib.resources" not in modules      # the event schema is read from the package's folder
    assert not any(m.startswith("__editable__") for m in modules)


def test_a_ruleset_s_event_schema_is_read_from_a_zipped_package_too(tmp_path, monkeypatch):
    """procedure._package_file reads the package's folder, and goes through importlib.resources where the
    package is not on the file system."""
    import importlib
    import zipfile

    from referee.engine.procedure import _package_file
    archive = tmp_path / "zipped.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped_pkg/__init__.py", "")
        z.writestr("zipped_pkg/events.schema.json", '{"zipped": true}')
    monkeypatch.syspath_prepend(str(archive))
    importlib.import_module("zipped_pkg")
    assert json.loads(_package_file("zipped_pkg", "events.schema.json")) == {"zipped": True}
    assert json.loads(_package_file("referee.rulesets.triumph_and_glory", "events.schema.json"))["$defs"]


# What a one-event check no longer imports (docs/speed.md §1): each was measured with -X importtime, and a
# module that comes back on the check path makes this fail, naming it.
NOT_ON_THE_CHECK_PATH = {
    "orjson": "a check's JSON is written by referee.jsonout.ruling_text and text (cli.write_json)",
    "uuid": "imported by orjson",
    "platform": "imported by uuid",
    "argparse": "a plain check command line is read by referee.cli.plain_check",
    "tempfile": "a check's JSON is held in memory up to cli.SPOOL_BYTES (32 MB), a temporary file only beyond",
    "shutil": "(the same)",
    "_hashlib": "OpenSSL: blake2b (the caches) and sha256 (the dice commitment) from CPython's own modules",
    "hashlib": "(the same)",
    "secrets": "a seed is drawn only when a referee-dice log has none (engine.replay.new_game)",
    "threading": "the replay's gc lock is a _thread lock",
    "pathlib": "a check's paths are strings and os.path (referee.logs.jsonlog, cli._suffix, the scenario cache)",
    "fnmatch": "imported by pathlib",
}


def test_a_one_event_check_imports_none_of_what_was_taken_off_its_path(warm):
    doc = json.loads((LOGS / "sample-borodino.json").read_text(encoding="utf-8"))
    doc["events"] = doc["events"][:1]
    one = Path(warm["HEXWARGAME_CACHE_DIR"]) / "one-event.json"
    one.write_text(json.dumps(doc), encoding="utf-8")
    imported("check", str(one), "--format", "json", env=warm)        # its scenario cached
    code, modules = imported("check", str(one), "--format", "json", env=warm)
    assert code == 0
    back = {m: why for m, why in NOT_ON_THE_CHECK_PATH.items() if m in modules}
    assert not back, back


# What a check of the whole sample game (5,886 events) no longer imports (docs/speed.md §1, fourth session).
NOT_ON_THE_SAMPLE_S_PATH = {
    "orjson": "the rulings are written by referee.jsonout.ruling_text, without to_dict or orjson",
    "uuid": "(the same)",
    "platform": "(the same)",
    "tempfile": "the sample's 1.7 MB of JSON is held in memory (cli.SPOOL_BYTES)",
    "shutil": "imported by tempfile",
    "hmac": "the referee's rolls are HMAC-SHA256 by engine.dice.hmac_sha256, over CPython's own SHA-256",
    "_hashlib": "OpenSSL, imported by hmac and hashlib",
    "hashlib": "imported by hmac",
    "fractions": "T&G's odds ratios are combat_tables.Ratio (fractions only reads a ratio written as a number)",
}


def test_the_sample_game_imports_none_of_what_was_taken_off_its_path(warm):
    code, modules = imported("check", str(LOGS / "sample-borodino.json"), "--format", "json", env=warm)
    assert code == 0
    back = {m: why for m, why in NOT_ON_THE_SAMPLE_S_PATH.items() if m in modules}
    assert not back, back


FREEZE_PROBE = """
import gc, sys
from referee import cli
sys.argv = ["referee", *sys.argv[1:]]
code = cli.main()
after_main = gc.get_freeze_count()
code = cli.run() or code
print(code, after_main, gc.get_freeze_count(), file=sys.stderr)
"""


def test_the_console_script_ends_with_the_heap_frozen_and_main_leaves_the_collector_alone():
    """cli.run (the console script, python -m referee) freezes the heap before the process ends, so that the
    interpreter's last collection does not traverse it (~20 ms of a one-event check); main, which tests and
    host programs call, does not; the output is the same bytes either way."""
    from importlib.metadata import entry_points
    assert entry_points(group="console_scripts", name="referee")["referee"].value == "referee.cli:run"
    run = subprocess.run([sys.executable, "-c", FREEZE_PROBE, "check", str(LOGS / "small-inline.yaml"),
                          "--format", "json"], cwd=ROOT, capture_output=True, check=True)
    code, after_main, after_run = map(int, run.stderr.split())
    assert code == 0 and after_main == 0 and after_run > 0
    half = len(run.stdout) // 2
    assert run.stdout[:half] == run.stdout[half:] and json.loads(run.stdout[:half])["rulings"]
    module = subprocess.run([sys.executable, "-m", "referee", "check", str(LOGS / "small-inline.yaml"),
                             "--format", "json"], cwd=ROOT, capture_output=True, check=True)
    assert module.stdout == run.stdout[:half]
