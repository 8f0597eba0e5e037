"""The third ruleset shipped the way a stranger would ship one (issue #13): ``examples/bridgehead`` is its own
distribution.  These tests install it from its folder into this environment with pip — nothing under
``referee/`` or ``modulebuilder/`` names it — and run it through the command line and the service."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def installed():
    """pip-install the distribution, as its README says (no dependencies: the referee is this environment).
    First offline with this environment's build tools; if they cannot build a wheel, the ordinary way."""
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", str(GAME)]
    out = subprocess.run(base[:-1] + ["--no-build-isolation", "--no-index", str(GAME)], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0:
        out = subprocess.run(base, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        why = [line.strip() for line in out.stderr.splitlines() if "error" in line.lower()] or [out.stderr[-300:]]
        pytest.skip(f"examples/bridgehead does not install here (pip: {why[0]})")
    importlib.invalidate_caches()
    from referee.engine import registry
    registry._entry_points.cache_clear()
    registry.get.cache_clear()
    return registry


@pytest.fixture(scope="module")
def scenario(installed):
    from modulebuilder.definitions import DefinitionError, load_scenario
    try:
        return load_scenario(GAME / "scenarios" / "bridgehead.yaml")
    except DefinitionError as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        pytest.skip(f"the definitions loader refuses the Bridgehead data ({problems[0]}): it needs the "
                    "per-ruleset schemas")


def test_the_installed_distribution_registers_classic_hex(installed):
    assert "classic-hex" in installed.available()
    ruleset = installed.get("classic-hex")
    assert ruleset.id == "classic-hex"
    # Installed from the folder, not imported from the project's source tree.
    assert "referee" not in type(ruleset).__module__


def test_nothing_under_referee_or_modulebuilder_names_the_third_ruleset():
    for package in ("referee", "modulebuilder"):
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and path.suffix in (".py", ".json", ".toml", ".yaml", ".cfg"):
                text = path.read_text("utf-8", errors="replace")
                assert "classic_hex" not in text and "classic-hex" not in text, path
    assert "classic-hex" not in (ROOT / "pyproject.toml").read_text("utf-8")


def test_referee_check_rules_the_sample_game(scenario):
    out = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(GAME / "sample-game.json"),
                          "--format", "json"], capture_output=True, text=True, timeout=300, cwd=GAME)
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    verdicts = [r["verdict"] for r in body["rulings"]]
    assert len(verdicts) == 24 and verdicts.count("illegal") == 4
    assert body["rulings"][10]["rolls"][0] == {"purpose": "combat", "side": "American", "die": "d6",
                                               "natural": 2, "modifiers": [], "modified": 2, "result": "AR"}
    assert body["state"]["ruleset"] == "classic-hex" and body["state"]["turn"] == 2


SERVICE_SCRIPT = r"""
import json, sys, tempfile
from pathlib import Path
from modulebuilder.definitions import load_scenario, resolve
from referee.service import create_app
game = Path(sys.argv[1])
app = create_app({"DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/referee.sqlite", "TESTING": True})
client = app.test_client()
out = {"rulesets": client.get("/api/v1/rulesets").json}
log = json.loads((game / "sample-game.json").read_text("utf-8"))
log["scenario"] = resolve(load_scenario(game / "scenarios" / "bridgehead.yaml"))
resp = client.post("/api/v1/check", json=log)
out["check"] = [resp.status_code, resp.json]
bad = client.post("/api/v1/check", json={**log, "events": [{"type": "attack", "side": "American",
                                                            "attackers": ["nobody"], "target": "0705"}]})
out["bad"] = [bad.status_code, bad.json]
print(json.dumps(out))
"""


def test_the_service_checks_a_bridgehead_log(scenario):
    """POST /api/v1/check in a fresh process (as a server started after the install would see it)."""
    run = subprocess.run([sys.executable, "-c", SERVICE_SCRIPT, str(GAME)], capture_output=True, text=True,
                         timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    listed = {r["id"]: r for r in out["rulesets"]["rulesets"]}
    assert {"move", "attack", "retreat", "advance", "end_phase", "roll"} <= set(listed["classic-hex"]["event_types"])
    status, body = out["check"]
    assert status == 200, body
    rulings = body["rulings"]
    assert [r["verdict"] for r in rulings].count("illegal") == 4
    assert rulings[15]["results"][-1] == {"unit": "us-b-89", "effect": "eliminated", "rule": "7.1"}
    status, body = out["bad"]
    assert status in (400, 422) and "nobody" in body["error"]["message"], body
