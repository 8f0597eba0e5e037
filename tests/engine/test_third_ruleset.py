"""The third ruleset shipped the way a stranger would ship one (issue #13): ``examples/bridgehead`` is its own
distribution.  These tests install it from its folder into this environment with pip — nothing under
``referee/`` or ``modulebuilder/`` names it — and run it through the command line and the service."""
from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bridgehead_dist import ensure_installed

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def installed():
    """pip-install the distribution, as its README says, unless it is installed already (``bridgehead_dist``)."""
    why = ensure_installed()
    if why:
        pytest.skip(why)
    return _fresh_registry()


def _fresh_registry():
    importlib.invalidate_caches()
    from referee.engine import registry
    registry._entry_points.cache_clear()
    registry.get.cache_clear()
    return registry


@pytest.fixture(scope="module")
def scenario(installed):
    from modulebuilder.definitions import DefinitionError, load_scenario
    try:
        scenario = load_scenario(GAME / "scenarios" / "bridgehead.yaml")
    except DefinitionError as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        pytest.skip(f"the definitions loader refuses the Bridgehead data ({problems[0]}): it needs the "
                    "per-ruleset schemas")
    from classic_hex.state import factor          # the installed distribution's own reading of a unit
    if factor(scenario.counters.units[0], "attack") is None:
        pytest.skip("the definitions model does not carry a game's factor fields (attack, defence, movement) yet")
    return scenario


def test_the_installed_distribution_registers_classic_hex(installed):
    assert "classic-hex" in installed.available()
    ruleset = installed.get("classic-hex")
    assert ruleset.id == "classic-hex"
    # Installed from the folder, not imported from the project's source tree.
    assert "referee" not in type(ruleset).__module__


def test_nothing_under_referee_or_modulebuilder_names_the_third_ruleset():
    """No import of it, no registration, no data naming it (a docstring may use it as an example)."""
    imports = re.compile(r"^\s*(from|import)\s+classic_hex\b", re.M)
    for package in ("referee", "modulebuilder"):
        for path in (ROOT / package).rglob("*"):
            if not path.is_file():
                continue
            if path.suffix == ".py":
                assert not imports.search(path.read_text("utf-8", errors="replace")), path
            elif path.suffix in (".json", ".toml", ".yaml", ".cfg", ".txt"):
                assert "classic-hex" not in path.read_text("utf-8", errors="replace"), path
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
from referee.service import create_app
app = create_app({"DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/referee.sqlite", "TESTING": True})
client = app.test_client()
out = {"rulesets": client.get("/api/v1/rulesets").json, "checks": []}
for log in json.loads(sys.stdin.read()):
    resp = client.post("/api/v1/check", json=log)
    out["checks"].append([resp.status_code, resp.json])
print(json.dumps(out))
"""


def inline_scenario() -> dict:
    """A small classic-hex situation written inline, as DESIGN §4's resolved scenario (the game's tables)."""
    import yaml
    tables = yaml.safe_load((GAME / "tables" / "bridgehead.yaml").read_text("utf-8"))
    tables.pop("game", None)
    return {"ruleset": "classic-hex",
            "game": {"unit_types": [{"id": "infantry"}, {"id": "armor"}],
                     "factors": [{"id": "attack"}, {"id": "defence"}, {"id": "movement"}]},
            "map": {"grid": {"orientation": "flat", "shifted": "even", "first_column": 1, "first_row": 1,
                             "columns": 6, "rows": 6},
                    "terrain": {"default": "clear", "hexes": {"0303": "town"}}},
            "activation_groups": [{"id": "blue", "name": "Blue", "side": "Blue", "colour": "#2b4c9b"},
                                  {"id": "red", "name": "Red", "side": "Red", "colour": "#9b2b2b"}],
            "units": [{"id": "b1", "name": "B1", "kind": "armor", "side": "Blue", "ag": "blue", "attack": 8,
                       "defence": 4, "movement": 6, "hex": "0203"},
                      {"id": "r1", "name": "R1", "kind": "infantry", "side": "Red", "ag": "red", "attack": 2,
                       "defence": 2, "movement": 4, "hex": "0303"}],
            "sides": {"Blue": {}, "Red": {}}, "turns": 1, "tables": tables,
            "victory": {"Blue": "Blue units hold the town", "hexes": ["0303"]}}


def service(*logs: dict) -> dict:
    """POST /api/v1/check in a fresh process (as a server started after the install would see it)."""
    run = subprocess.run([sys.executable, "-c", SERVICE_SCRIPT], input=json.dumps(logs), capture_output=True,
                         text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_service_checks_a_classic_hex_log(installed):
    events = [{"type": "end_phase", "side": "Blue"},
              {"type": "attack", "side": "Blue", "attackers": ["b1"], "target": "0303", "roll": 1},
              {"type": "retreat", "side": "Red", "unit": "r1", "path": ["0403", "0503"]},
              {"type": "advance", "side": "Blue", "units": ["b1"], "to": "0303"}]
    scenario = inline_scenario()
    out = service({"scenario": scenario, "dice": "players", "events": events},
                  {"scenario": scenario, "events": [{"type": "attack", "side": "Blue", "attackers": ["nobody"],
                                                     "target": "0303"}]})
    listed = {r["id"]: r for r in out["rulesets"]["rulesets"]}
    assert {"move", "attack", "retreat", "advance", "end_phase", "roll"} <= set(listed["classic-hex"]["event_types"])
    (status, body), (bad_status, bad) = out["checks"]
    assert status == 200, body
    attack = body["rulings"][1]
    # 8 against 2 is 4:1; the town shifts it two columns left to 2:1, where a 1 is DR.
    assert attack["results"][0]["odds"] == "4:1" and attack["results"][0]["column"] == "2:1"
    assert attack["rolls"][0]["result"] == "DR"
    assert [r["verdict"] for r in body["rulings"]] == ["legal"] * 4
    where = {u["id"]: u["hex"] for u in body["state"]["units"]}
    assert where == {"b1": "0303", "r1": "0503"}
    assert bad_status in (400, 422) and "nobody" in bad["error"]["message"], bad


def test_the_service_checks_the_sample_game(scenario):
    from modulebuilder.definitions import DefinitionError, resolve
    try:
        resolved = resolve(scenario)
    except DefinitionError as exc:
        pytest.skip(f"modulebuilder cannot resolve the Bridgehead scenario yet ({exc.problems[0]})")
    log = json.loads((GAME / "sample-game.json").read_text("utf-8"))
    out = service({**log, "scenario": resolved})
    status, body = out["checks"][0]
    assert status == 200, body
    rulings = body["rulings"]
    assert [r["verdict"] for r in rulings].count("illegal") == 4
    assert rulings[15]["results"][-1] == {"unit": "us-b-89", "effect": "eliminated", "rule": "7.1"}


def test_a_current_install_is_not_reinstalled(installed, monkeypatch):
    """Reinstalling removes the ruleset's entry points for a moment, under the other worker's tests (the
    registry cache tests saw classic-hex missing or listed twice): once the distribution is in place, the tests
    that need it run no pip."""
    import bridgehead_dist

    def no_pip(*args, **kwargs):
        raise AssertionError(f"pip was run again: {args}")
    monkeypatch.setattr(bridgehead_dist.subprocess, "run", no_pip)
    assert bridgehead_dist.installed_is_current()
    assert bridgehead_dist.ensure_installed() is None
