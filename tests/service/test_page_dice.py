"""The page names each roll's die: Bridgehead's combat rolls read "d6" in the rulings, and the luck report
compares its table rolls with a fair d6's mean (3.50), not a d10's (4.50).  Playwright, headless Chromium."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from test_service_browser import SLOW, _page, _upload, browser, server  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "examples" / "bridgehead"


@pytest.fixture(scope="module")
def bridgehead_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample game with its scenario resolved inline (the page's server runs in the project's folder)."""
    from bridgehead_dist import ensure_installed
    why = ensure_installed()
    if why:
        pytest.skip(why)
    from referee.engine import registry
    registry._entry_points.cache_clear()
    registry.get.cache_clear()
    from modulebuilder.definitions import load_scenario, resolve
    log = json.loads((GAME / "sample-game.json").read_text("utf-8"))
    log["scenario"] = resolve(load_scenario(GAME / "scenarios" / "bridgehead.yaml"))
    path = tmp_path_factory.mktemp("bridgehead") / "bridgehead-sample.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    return path


def test_the_page_names_the_d6_in_rulings_and_luck(server: str, browser: Any, bridgehead_log: Path) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server)
    _upload(page, bridgehead_log)
    expect(page.locator("#status")).to_contain_text("4 illegal", timeout=SLOW)
    texts = page.evaluate("[...document.querySelectorAll('#rulings .ruling')].map(li => li.innerText)")
    combat = [t for t in texts if "combat:" in t]
    assert combat and all("d6" in t and "d10" not in t for t in combat), combat
    assert any("combat: American: d6 2 → 2: AR" in t for t in texts)
    page.click("#tab-luck")
    rows = page.locator("#luck table").last
    expect(rows).to_contain_text("d6", timeout=30_000)
    cells = page.evaluate("[...document.querySelectorAll('#luck table:last-of-type tbody tr')]"
                          ".map(tr => [...tr.cells].map(c => c.innerText))")
    assert cells and all(row[1] == "d6" and row[4] == "3.50" for row in cells), cells
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / "page-luck-d6-1400.png"))
    assert page.errors == []
    page.close()
