"""The page shows the log's warnings (what ``referee check`` prints as ``warning: …``) above the rulings, each
once, as text: a die's chat report that disagrees with the die's own record, a turn file ruled from a save as it
stands.  At 1400×900 and on a phone (390×844).  Playwright, headless Chromium."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from test_service_browser import SLOW, _page, browser, server  # noqa: F401  (fixtures)
from tests.vassal_logs.test_vlog_dice import edited

ROOT = Path(__file__).resolve().parents[2]
VLOGS = ROOT / "tests" / "vassal_logs" / "fixtures"
MODULE = VLOGS / "borodino-cup-facts.vmod"
SAID = "step 5: the chat says d10 = 7, but the die recorded 2: ruled on 2, the die's own record"
HOSTILE = "turn<img src=x onerror=alert(1)>.vsav"        # a save's name is the player's: text, never markup


def _open(page: Any, logs: list[Path]) -> None:
    from playwright.sync_api import expect
    page.set_input_files("#log-file", [str(p) for p in logs])
    page.set_input_files("#module-file", str(MODULE))
    page.click("#check-button")
    expect(page.locator("#status")).to_contain_text("events ruled on", timeout=SLOW)


def _shot(page: Any, name: str) -> None:
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / name))


@pytest.mark.parametrize("width", [1400, 390])
def test_an_edited_die_report_is_shown_above_the_rulings(server: str, browser: Any, tmp_path: Path,
                                                         width: int) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server, width)
    expect(page.locator("#log-warnings")).to_be_hidden()
    _open(page, [edited(tmp_path)])
    box = page.locator("#log-warnings")
    box.scroll_into_view_if_needed()
    expect(box).to_be_visible()
    assert box.locator("li").all_inner_texts() == [SAID]
    # above the rulings, in the same pane
    assert box.bounding_box()["y"] + box.bounding_box()["height"] <= page.locator("#rulings").bounding_box()["y"]
    assert box.bounding_box()["x"] >= 0 and box.bounding_box()["x"] + box.bounding_box()["width"] <= width
    _shot(page, f"page-warnings-dice-{width}.png")
    # Checking the same log again shows each warning once, not twice (on a phone the forms are behind "Open…").
    if page.locator("#sources-toggle").is_visible():
        page.click("#sources-toggle")
    page.click("#check-button")
    expect(page.locator("#status")).to_contain_text("events ruled on", timeout=SLOW)
    assert box.locator("li").all_inner_texts() == [SAID]
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_a_turn_file_after_its_save_is_warned_of_and_a_file_name_stays_text(server: str, browser: Any,
                                                                           tmp_path: Path, width: int) -> None:
    from playwright.sync_api import expect
    save = tmp_path / HOSTILE
    shutil.copyfile(VLOGS / "from-save-t1-unmoved.vsav", save)
    page = _page(browser, server, width)
    _open(page, [save, VLOGS / "from-save-russian-unmoved.vlog"])
    box = page.locator("#log-warnings")
    box.scroll_into_view_if_needed()
    expect(box).to_be_visible()
    texts = box.locator("li").all_inner_texts()
    assert len(texts) == 2, texts
    assert texts[0].startswith(f"ruled from {HOSTILE} as it stands: Turn 1: Command Activation on its turn track")
    assert texts[1].startswith("the first act (VASSAL step 1 of from-save-russian-unmoved.vlog), move, is illegal")
    assert page.locator("#log-warnings img").count() == 0
    _shot(page, f"page-warnings-save-{width}.png")
    assert page.errors == []
    page.close()
