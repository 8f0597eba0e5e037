"""The web page in a real browser: Debian's chromium, headless, driven by Playwright against a live server.

Upload a log, read a ruling, step the board: the picture must change.  Skipped (with the reason) when
chromium or Playwright is missing, except under CI=true, where that is a failure.
"""
from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest
from werkzeug.serving import make_server

from service_helpers import in_ci
from referee.service import create_app
from service_play import players_events
from service_scenario import SMALL

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _need_browser() -> None:
    reason = None
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        reason = "Debian's chromium is not installed (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "playwright is not installed (pip install playwright)"
    if reason:
        if in_ci():
            pytest.fail(f"CI=true, so the browser test must run, but {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture
def server(database_url: str) -> Iterator[str]:
    """The app on 127.0.0.1 at a free port, in a thread (werkzeug), for the browser to talk to."""
    app = create_app({"DATABASE_URL": database_url})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(timeout=10)


def _hosted_game(server: str, events: list[dict]) -> dict:
    """A players'-dice game on the server with ``events`` submitted, each by its own side."""
    import http.client
    from urllib.parse import urlsplit

    from service_play import submitter

    conn = http.client.HTTPConnection(urlsplit(server).hostname, urlsplit(server).port, timeout=30)

    def post(path: str, body: dict, token: str | None = None) -> dict:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        conn.request("POST", path, body=json.dumps(body), headers=headers)
        resp = conn.getresponse()
        data = json.loads(resp.read())
        assert resp.status in (200, 201), data
        return data

    game = post("/api/v1/games", {"scenario": SMALL, "dice": "players"})
    for i, event in enumerate(events):
        post(f"/api/v1/games/{game['id']}/events", {"expected_index": i, "events": [event]},
             game["tokens"][submitter(event)])
    conn.close()
    return game


def test_upload_a_log_read_rulings_and_step_the_board(server: str, tmp_path: Path) -> None:
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    events = players_events(1)[:20]
    log = tmp_path / "small-game.json"
    log.write_text(json.dumps({"scenario": SMALL, "dice": "players", "events": events}))
    first_move = next(i for i, e in enumerate(events) if e["type"] == "move")

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                                     args=ARGS, headless=True)
        try:
            page = browser.new_page()
            page.goto(server + "/", timeout=30_000)
            page.set_input_files("#log-file", str(log))
            page.click("#check-button")
            expect(page.locator("#status")).to_contain_text("20 events ruled on", timeout=30_000)
            ruling = page.locator(f"#rulings li[data-index='{first_move}']")
            expect(ruling).to_contain_text("move (")
            expect(ruling).to_contain_text("legal")
            expect(page.locator("#board")).to_have_attribute("data-step", "0", timeout=30_000)

            def board_after(step: int) -> bytes:
                expect(page.locator("#board")).to_have_attribute("data-step", str(step), timeout=30_000)
                page.wait_for_function("document.getElementById('board').complete && "
                                       "document.getElementById('board').naturalWidth > 0", timeout=30_000)
                return page.locator("#board").screenshot()

            ruling.click()                                   # the board after that ruling's event: moved
            moved = board_after(first_move + 1)
            page.click("#prev")                              # one step back: the unit is where it was
            before = board_after(first_move)
            assert moved != before
            expect(page.locator("#step-label")).to_contain_text(f"after {first_move} of 20 events")

            # A hosted game, opened by id and token: the caller's rulings and the board now.
            game = _hosted_game(server, events[:3])
            page.fill("#game-id", game["id"])
            page.fill("#game-token", game["tokens"]["French"])
            page.click("#open-button")
            expect(page.locator("#title")).to_contain_text(f"Game {game['id']} — French", timeout=30_000)
            expect(page.locator("#rulings li")).to_have_count(3)
            board_after(3)
        finally:
            browser.close()
