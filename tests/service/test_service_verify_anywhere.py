"""``referee verify`` from any folder: a game hosted on a scenario of the game's own folder (Bridgehead's
``scenarios/bridgehead.yaml``, not one of the project's) is verified from another folder, because the export
carries the scenario resolved; a copy found beside the export must be that scenario."""
from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.service import create_app
from referee.service.extension import ext
from service_helpers import bearer

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Bridgehead's sample game, hosted by a server started in a copy of the game's folder, ended, exported."""
    from bridgehead_dist import ensure_installed
    why = ensure_installed()
    if why:
        pytest.skip(why)
    from referee.engine import registry
    registry._entry_points.cache_clear()
    registry.get.cache_clear()
    folder = tmp_path_factory.mktemp("game")
    for part in ("scenarios", "counters", "maps", "tables", "schemas"):
        shutil.copytree(GAME / part, folder / part)
    shutil.copy(GAME / "game.yaml", folder / "game.yaml")
    mp = pytest.MonkeyPatch()
    mp.chdir(folder)
    app = create_app({"DATABASE_URL": f"sqlite:///{folder / 'referee.sqlite'}", "TESTING": True})
    try:
        client = app.test_client()
        game = client.post("/api/v1/games", json={"scenario": "bridgehead", "dice": "players"})
        assert game.status_code == 201, game.json
        game = game.json
        events = json.loads((GAME / "sample-game.json").read_text("utf-8"))["events"]
        side = None
        for i, event in enumerate(events):
            side = event.get("side") or side
            sent = client.post(f"/api/v1/games/{game['id']}/events", headers=bearer(game["tokens"][side]),
                               json={"expected_index": i, "events": [event]})
            assert sent.status_code == 200, (i, sent.json)
        client.post(f"/api/v1/games/{game['id']}/end", headers=bearer(game["tokens"]["American"]))
        out = client.get(f"/api/v1/games/{game['id']}/export").json
    finally:
        with app.app_context():
            ext().close()
        mp.undo()
    return {"export": out, "folder": folder}


def verify(export: dict[str, Any], where: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    where.mkdir(parents=True, exist_ok=True)
    path = where / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "referee", "verify", str(path)], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def test_the_export_carries_its_scenario_resolved(export):
    carried = export["export"]["scenario_resolved"]
    assert export["export"]["scenario"] == "bridgehead"
    assert carried["ruleset"] == "classic-hex" and carried["name"] == "Bridgehead: the Venn crossing"
    assert {u["id"] for u in carried["units"]} >= {"us-14-tk", "us-1-27"}


def test_an_export_verifies_from_any_folder(export, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = verify(export["export"], tmp_path / "downloads", cwd=elsewhere)
    assert run.returncode == 0, run.stderr
    assert "verified: 24 events" in run.stdout and "the scenario the export carries" in run.stdout, run.stdout


def test_an_old_export_without_its_scenario_is_found_beside_it(export, tmp_path):
    old = {k: v for k, v in export["export"].items() if k != "scenario_resolved"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    far = verify(old, tmp_path / "downloads", cwd=elsewhere)
    assert far.returncode == 1
    assert "no scenarios/bridgehead.yaml in this folder, the export's or the project" in far.stderr, far.stderr
    beside = verify(old, export["folder"], cwd=elsewhere)
    assert beside.returncode == 0, beside.stderr
    assert str(export["folder"] / "scenarios" / "bridgehead.yaml") in beside.stdout


def test_a_carried_scenario_that_is_not_the_file_found_is_named(export, tmp_path):
    changed = copy.deepcopy(export["export"])
    changed["scenario_resolved"]["turns"] = 9
    run = verify(changed, export["folder"] / "changed", cwd=export["folder"])
    assert run.returncode == 1
    assert "is not the scenario the game was played on: scenario_resolved.turns" in run.stderr, run.stderr
