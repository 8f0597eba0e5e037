"""The web page in a real browser: Debian's chromium, headless, driven by Playwright against a live server.

Upload, paste and drop logs; step the board; jump to the illegal move and see it marked on the board; the board
fits the window at 1400, 1024 and 390 px; the luck report and what-ifs; a hosted game.  Skipped (with the
reason) when chromium or Playwright is missing, except under CI=true, where that is a failure.

``REFEREE_SCREENSHOTS=DIR`` also writes the screenshots of the Borodino test to DIR (docs/screenshots/ holds
the committed ones: ``REFEREE_SCREENSHOTS=docs/screenshots pytest tests/service/test_service_browser.py``).
"""
from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
from werkzeug.serving import make_server

from service_helpers import in_ci
from referee.service import create_app
from service_play import players_events
from service_scenario import SMALL

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"
SMALL_LOG = ROOT / "tests" / "fixtures" / "logs" / "small-inline.yaml"
WIDTHS = {1400: 900, 1024: 768, 390: 844}            # laptop, small laptop, phone (height of each window)
SLOW = 120_000                                        # ms: a loaded 2-core machine replays Borodino slowly


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
    # The page's replays run in the checking workers (heavy.page_replay): at normal priority and with a long
    # budget here, as the service's own tests of them do — these tests are about the page, not about scheduling
    # (at the default idle priority a whole test suite at load 14 kept the sample's replay past its 30 s).
    app = create_app({"DATABASE_URL": database_url, "CHECK_BUDGET": 600.0, "CHECK_PRIORITY": "0"})
    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    thread.join(timeout=10)


@pytest.fixture
def browser() -> Iterator[Any]:
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                               args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _page(browser: Any, server: str, width: int = 1400) -> Any:
    page = browser.new_page(viewport={"width": width, "height": WIDTHS.get(width, 900)})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(server + "/", timeout=30_000)
    return page


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


def borodino_with_one_illegal_move(tmp_path: Path) -> tuple[Path, int, dict]:
    """The sample game with one illegal move put in (a unit's real move of two hexes, walked back and forth far
    beyond its allowance, 7.34) just before that move, so everything after still replays as before."""
    log = json.loads(SAMPLE.read_text())
    events = log["events"]
    k = next(i for i, e in enumerate(events) if i > 2400 and e["type"] == "move" and len(e.get("path", [])) == 2)
    a, b = events[k]["path"]
    bad = {**events[k], "path": [a, b] * 4 + [a]}
    events.insert(k, bad)
    path = tmp_path / "borodino-one-illegal.json"
    path.write_text(json.dumps(log))
    return path, k, bad


def _board_fits(page: Any, width: int) -> None:
    """The board's frame lies inside the window, and the whole map inside the frame (scaled to fit)."""
    frame = page.locator("#board-view").bounding_box()
    world = page.locator("#board-map").bounding_box()
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= width + 0.5, frame
    assert world["width"] <= frame["width"] + 1 and world["height"] <= frame["height"] + 1, (world, frame)
    assert world["x"] >= frame["x"] - 1 and world["x"] + world["width"] <= frame["x"] + frame["width"] + 1
    # Nothing of the page scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _upload(page: Any, path: Path) -> None:
    from playwright.sync_api import expect
    page.set_input_files("#log-file", str(path))
    page.click("#check-button")
    expect(page.locator("#status")).to_contain_text("events ruled on", timeout=SLOW)


def test_borodino_jump_to_the_illegal_move_marks_it_on_a_board_that_fits(server: str, browser: Any,
                                                                          tmp_path: Path) -> None:
    from playwright.sync_api import expect
    log, k, bad = borodino_with_one_illegal_move(tmp_path)
    from referee.service import scenarios
    printed = next(u.name for u in scenarios.resolve("borodino").counters.units if u.id == bad["unit"])
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    for width in WIDTHS:
        page = _page(browser, server, width)
        _upload(page, log)
        expect(page.locator("#status")).to_contain_text("1 illegal")
        _board_fits(page, width)

        page.locator("#board-view").focus()
        page.keyboard.press("n")                                   # jump to the next illegal move
        current = page.locator("#rulings .ruling.current")
        expect(current).to_have_attribute("data-index", str(k), timeout=30_000)
        expect(current).to_contain_text("ILLEGAL")
        expect(current).to_contain_text(printed)                   # printed names, not ids
        expect(current).not_to_contain_text(bad["unit"])
        expect(page.locator("#board-world")).to_have_attribute("data-step", str(k + 1), timeout=30_000)
        expect(page.locator("#explain")).to_contain_text("not_enough_mp")

        # The board marks the unit, at the counter's place, its path, and the hexes it could have reached.
        ring = page.locator(f"#sel .mark-unit[data-unit='{bad['unit']}']")
        expect(ring).to_have_count(1)
        counter = page.locator(f"#counters .counter[data-unit='{bad['unit']}']")
        rb, cb = ring.bounding_box(), counter.bounding_box()
        assert abs((rb["x"] + rb["width"] / 2) - (cb["x"] + cb["width"] / 2)) < max(4, cb["width"]), (rb, cb)
        assert abs((rb["y"] + rb["height"] / 2) - (cb["y"] + cb["height"] / 2)) < max(4, cb["height"]), (rb, cb)
        assert page.locator("#sel .mark-path.illegal").count() == 1
        alternatives = page.evaluate("[...document.querySelectorAll('#sel .mark-reach')].map(e => e.dataset.hex)")
        assert bad["path"][0] in alternatives and len(alternatives) >= 5
        # The jumped-to ruling is in the middle of the list's visible part (on a phone the list is below the
        # board, so the page is not scrolled to it: the board stays in view).
        lb, ib = page.locator("#rulings").bounding_box(), current.bounding_box()
        assert lb["y"] - 1 <= ib["y"] and ib["y"] + min(ib["height"], 40) <= lb["y"] + lb["height"] + 1, (lb, ib)
        if width > 500:
            expect(current).to_be_in_viewport()
        _board_fits(page, width)
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / f"page-{width}.png"), full_page=width < 500)
        # Back and forth with the keys: the step label follows, the counter moves back.
        page.keyboard.press("ArrowRight")
        expect(page.locator("#board-world")).to_have_attribute("data-step", str(k + 2), timeout=30_000)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#board-world")).to_have_attribute("data-step", str(k), timeout=30_000)
        expect(page.locator("#step-label")).to_contain_text(f"after {k} of {len(json.loads(log.read_text())['events'])}")
        assert page.errors == []
        if width == 1400:
            # Zoom in and out with the buttons; fit brings the whole map back.
            scale = float(page.locator("#board-world").get_attribute("data-scale"))
            page.click("#zoom-in")
            assert float(page.locator("#board-world").get_attribute("data-scale")) > scale
            page.click("#zoom-fit")
            assert abs(float(page.locator("#board-world").get_attribute("data-scale")) - scale) < 1e-3
            # A retreat the rules produced is drawn as an arrow from where the unit stood to where it went.
            i = page.evaluate("S.rulings.findIndex(r => r.results.some(x => x.effect === 'retreated' && x.to))")
            assert i >= 0
            page.evaluate(f"select({i})")
            expect(page.locator("#board-world")).to_have_attribute("data-step", str(i + 1), timeout=30_000)
            expect(page.locator("#sel .mark-retreat")).not_to_have_count(0)
            points = page.locator("#sel .mark-retreat").first.get_attribute("points").split()
            assert len(set(points)) >= 2, points                  # from one hex to another
            # The luck report, with its chart.
            page.click("#tab-luck")
            expect(page.locator("#luck table").first).to_contain_text("French", timeout=30_000)
            expect(page.locator("#luck svg rect.bar-French").first).to_be_attached()
            if shots:
                page.screenshot(path=str(Path(shots) / "page-luck-1400.png"))
            # What if, at the illegal move's position: the unit's legal actions, the hexes its moves reach.
            page.evaluate(f"showStep({k}, true)")
            expect(page.locator("#board-world")).to_have_attribute("data-step", str(k), timeout=30_000)
            page.click("#tab-whatif")
            page.fill("#w-unit", printed)
            page.click("#w-actions")
            expect(page.locator("#w-answer")).to_contain_text(f"{printed}:", timeout=30_000)
            reach = page.evaluate("[...document.querySelectorAll('#probe .mark-probe')].map(e => e.dataset.hex)")
            # The hexes the ruling offers (normal movement, 7.34) are among them; every legal act is listed, so
            # its extended moves' hexes (7.13) are shaded too.
            assert set(alternatives) <= set(reach) and len(reach) > len(alternatives)
            page.fill("#w-event", json.dumps(bad))
            page.click("#w-ask")
            expect(page.locator("#w-answer")).to_have_attribute("data-verdict", "illegal", timeout=30_000)
            if shots:
                page.screenshot(path=str(Path(shots) / "page-whatif-1400.png"))
        page.close()


def test_filters_outline_unit_search_and_roll_words(server: str, browser: Any) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server)
    _upload(page, SMALL_LOG)
    expect(page.locator("#status")).to_contain_text("13 events ruled on, 3 illegal")
    page.check("#f-illegal")
    expect(page.locator("#filter-count")).to_have_text("3 of 13 shown")
    expect(page.locator("#rulings .ruling")).to_have_count(3)
    page.uncheck("#f-illegal")
    page.fill("#f-unit", "Guy a")
    expect(page.locator("#rulings .ruling").first).to_contain_text("Guy a")
    assert all("Guy a" in t for t in page.locator("#rulings .ruling").all_inner_texts())
    page.fill("#f-unit", "")
    page.check("#f-rolls")
    # The filter and the lazily filled list settle after the click (a loaded machine showed them half done).
    # A function, not an expression: Playwright polls an expression with eval, which the page's CSP refuses.
    page.wait_for_function("() => [...document.querySelectorAll('#rulings .ruling')].every("
                           "(li) => li.innerText.includes('d10'))", timeout=10_000)
    texts = page.locator("#rulings .ruling").all_inner_texts()
    assert texts and all("d10" in t for t in texts)
    # The roll in words: who, the target and its rule, the chance, the natural roll, the total, the outcome.
    assert any("Individual order (5.28): Guy a needs 6 or less (IO rating of the I Corps (Davout) AM, 5.28) on a "
               "d10 (70 %): 6 → 6: passes — the group is under orders for this activation" in t for t in texts)
    page.uncheck("#f-rolls")
    # The outline: turns and phases as links to their first ruling.
    page.click("#outline-box summary")
    page.locator("#outline a", has_text="Activation Phase").first.click()
    expect(page.locator("#rulings .ruling.current")).to_contain_text("individual_order", timeout=10_000)
    # Previous illegal from there: the first illegal orders (index 2 is before 6).
    page.click("#prev-illegal")
    expect(page.locator("#rulings .ruling.current")).to_have_attribute("data-index", "2")
    # The keyboard in the list: the current ruling is its one tab stop; ↓ selects the next one.
    page.locator("#rulings .ruling.current").focus()
    page.keyboard.press("ArrowDown")
    expect(page.locator("#rulings .ruling.current")).to_have_attribute("data-index", "3")
    expect(page.locator("#rulings .ruling.current")).to_have_attribute("tabindex", "0")
    expect(page.locator("#board-world")).to_have_attribute("data-step", "4")
    assert page.errors == []
    page.close()


def test_paste_drop_and_wrong_files_get_clear_messages(server: str, browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server)
    # A wrong kind of file, named in the message; nothing sent.
    wrong = tmp_path / "notes.txt"
    wrong.write_text("hello")
    page.set_input_files("#log-file", str(wrong))
    page.click("#check-button")
    expect(page.locator("#status")).to_contain_text("notes.txt is not a log this page reads")
    # A log that cannot be ruled on: the server's problems, in the page.
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"scenario": SMALL, "dice": "players",
                                  "events": [{"type": "move", "side": "French", "unit": "nobody", "path": ["0101"]},
                                             {"type": "no_such_event"}]}))
    page.set_input_files("#log-file", str(broken))
    page.click("#check-button")
    expect(page.locator("#status")).to_have_class("error")
    expect(page.locator("#problems")).to_contain_text("events[0].unit: no unit 'nobody' in the scenario")
    expect(page.locator("#problems")).to_contain_text("events[1].type: unknown event type")
    # Pasted YAML.
    page.click("#paste-toggle")
    page.fill("#paste-text", SMALL_LOG.read_text())
    page.click("#paste-check")
    expect(page.locator("#status")).to_contain_text("13 events ruled on, 3 illegal", timeout=SLOW)
    # Pasted nonsense: the parser's line and column.
    page.fill("#paste-text", "{ not json")
    page.click("#paste-check")
    expect(page.locator("#status")).to_have_class("error")
    expect(page.locator("#status")).to_contain_text("body")
    # A dropped file (a real drop event with the file in its DataTransfer).
    events = players_events(1)[:12]
    page.evaluate("""([name, text]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name, {type: "application/json"}));
        document.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""", ["dropped.json", json.dumps({"scenario": SMALL, "dice": "players", "events": events})])
    expect(page.locator("#status")).to_contain_text("12 events ruled on", timeout=SLOW)
    expect(page.locator("#title")).to_contain_text("dropped.json")
    assert page.errors == []
    page.close()


def test_what_if_on_an_uploaded_log_and_a_hosted_game(server: str, browser: Any) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server)
    _upload(page, SMALL_LOG)
    page.locator("#rulings .ruling[data-index='7']").click()        # after Dumon a's move: Guy a may move
    expect(page.locator("#board-world")).to_have_attribute("data-step", "8")
    page.click("#tab-whatif")
    expect(page.locator("#whatif-at")).to_have_text("after 8 of 13 events")
    page.fill("#w-unit", "Guy a")
    page.click("#w-actions")
    expect(page.locator("#w-answer")).to_contain_text("Guy a:")
    assert page.locator("#probe .mark-probe").count() > 3          # the hexes its moves reach, on the board
    page.locator("#w-list li", has_text="move").first.click()
    expect(page.locator("#w-answer")).to_have_attribute("data-verdict", "legal")
    page.fill("#w-event", json.dumps({"type": "move", "side": "French", "unit": "guy-a",
                                      "path": ["0805", "0804", "0803", "0802", "0801"]}))
    page.click("#w-ask")
    expect(page.locator("#w-answer")).to_have_attribute("data-verdict", "illegal")
    expect(page.locator("#w-answer")).to_contain_text("Guy a needs 5 MP but has 4")
    # Nothing changed: the board and the rulings are as before.
    expect(page.locator("#board-world")).to_have_attribute("data-step", "8")
    page.click("#tab-rulings")
    expect(page.locator("#rulings .ruling")).to_have_count(13)

    # A hosted game, opened by id and token: the caller's rulings, the board now, a what-if for its own side.
    events = players_events(1)[:8]
    game = _hosted_game(server, events)
    page.fill("#game-id", game["id"])
    page.fill("#game-token", game["tokens"]["French"])
    page.click("#open-button")
    expect(page.locator("#title")).to_contain_text(f"Game {game['id']} — French", timeout=30_000)
    expect(page.locator("#rulings .ruling")).to_have_count(8)
    expect(page.locator("#board-world")).to_have_attribute("data-step", "8")
    assert page.locator("#counters .counter").count() > 0
    page.click("#tab-whatif")
    expect(page.locator("#whatif-at")).to_have_text("after 8 of 8 events (now), with only what French knows there")
    move = {"type": "move", "side": "French", "unit": "dumon-a", "path": ["0305", "0304"]}
    page.fill("#w-event", json.dumps(move))
    page.click("#w-ask")
    expect(page.locator("#w-answer")).to_have_attribute("data-verdict", "illegal")     # it has moved (event 6)
    # Back to before Dumon a's move (ruling 5 selected: the board after 6 events): the same question is legal.
    page.click("#tab-rulings")
    page.locator("#rulings .ruling[data-index='5']").click()
    expect(page.locator("#board-world")).to_have_attribute("data-step", "6")
    page.click("#tab-whatif")
    expect(page.locator("#whatif-at")).to_have_text("after 6 of 8 events, with only what French knows there")
    page.fill("#w-unit", "Dumon a")
    page.click("#w-actions")
    # Every legal act of the unit: its normal and extended moves (7.11, 7.13) and its facings (6.12).
    expect(page.locator("#w-answer")).to_contain_text("Dumon a: 46 legal actions after 6 events")
    page.fill("#w-event", json.dumps(move))
    page.click("#w-ask")
    expect(page.locator("#w-answer")).to_have_attribute("data-verdict", "legal")
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        for width in (1400, 1024, 390):
            page.set_viewport_size({"width": width, "height": WIDTHS[width]})
            page.wait_for_timeout(300)                 # the board refits to the new frame
            page.screenshot(path=str(Path(shots) / f"page-hosted-whatif-{width}.png"), full_page=width < 500)
        page.set_viewport_size({"width": 1400, "height": WIDTHS[1400]})
    page.keyboard.press("End")
    expect(page.locator("#board-world")).to_have_attribute("data-step", "8")
    assert page.errors == []
    page.close()


# ------------------------------------------------------------------ playing a hosted game from the page

VLOGS = ROOT / "tests" / "vassal_logs" / "fixtures"


def _in(inner: dict, outer: dict, slack: float = 1.0) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


@pytest.mark.parametrize("width", [1400, 390])
def test_a_hosted_game_is_played_from_the_page_with_the_token_kept_in_the_tab(server: str, browser: Any,
                                                                             width: int) -> None:
    from playwright.sync_api import expect
    events = players_events(1)
    first_french = next(i for i, e in enumerate(events) if i >= 6 and e.get("side") == "French")
    game = _hosted_game(server, events[:first_french])
    page = _page(browser, server, width)
    page.fill("#game-id", game["id"])
    page.fill("#game-token", game["tokens"]["French"])
    page.click("#open-button")
    expect(page.locator("#title")).to_contain_text(f"Game {game['id']} — French", timeout=30_000)
    token = game["tokens"]["French"]
    kept = json.loads(page.evaluate("sessionStorage.getItem('referee.hosted-game')"))
    assert kept == {"id": game["id"], "token": token}
    assert token not in page.url and page.input_value("#game-token") == ""      # never in an address or a field
    # A reload of the tab opens the game again from the session.
    page.reload()
    expect(page.locator("#title")).to_contain_text(f"Game {game['id']} — French", timeout=30_000)
    expect(page.locator("#rulings .ruling")).to_have_count(first_french)
    # The French turn, as events, from the Play tab.
    turn = []
    for e in events[first_french:]:
        if e.get("side") not in (None, "French") or e["type"] == "roll":
            break
        turn.append(e)
    page.click("#tab-play")
    page.fill("#turn-events", json.dumps(turn))
    page.click("#turn-submit")
    expect(page.locator("#turn-answer")).to_contain_text(
        f"Turn accepted: {len(turn)} event{'s' if len(turn) != 1 else ''} ruled, 0 illegal; the game is at "
        f"{first_french + len(turn)} events", timeout=30_000)
    expect(page.locator("#rulings .ruling")).to_have_count(first_french + len(turn))
    expect(page.locator("#board-world")).to_have_attribute("data-step", str(first_french + len(turn)))
    board = page.locator("#board-view").bounding_box()
    assert board["y"] < WIDTHS[width] * 0.6                     # the board is on the first screen
    if width < 500:
        # Choosing a ruling low in the list keeps the board in view (sticky above the rulings).
        page.click("#tab-rulings")
        page.locator("#rulings .ruling").last.scroll_into_view_if_needed()
        page.locator("#rulings .ruling").nth(2).click()
        box = page.locator("#board-view").bounding_box()
        assert box["y"] >= -1 and box["y"] + 40 < WIDTHS[width], box
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        page.click("#tab-play") if width >= 500 else None
        page.screenshot(path=str(Path(shots) / f"page-hosted-play-{width}.png"))
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("width", [1400, 390])
def test_fit_shows_the_scenarios_area_and_zooming_keeps_the_selected_unit_in_view(server: str, browser: Any,
                                                                                  width: int) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server, width)
    page.set_input_files("#log-file", str(VLOGS / "schevardino-game.vlog"))
    page.set_input_files("#module-file", str(VLOGS / "borodino-cup-facts.vmod"))
    page.click("#check-button")
    expect(page.locator("#status")).to_contain_text("events ruled on", timeout=SLOW)
    frame = page.locator("#board-view").bounding_box()
    whole = min(frame["width"] / page.evaluate("$('board-map').width"),
                frame["height"] / page.evaluate("$('board-map').height"))
    scale = float(page.locator("#board-world").get_attribute("data-scale"))
    assert scale > 1.5 * whole, (scale, whole)                 # Schevardino's strip, not the whole Borodino map
    shown = [c.bounding_box() for c in page.locator("#counters .counter").all()]
    assert shown and all(_in(b, frame, 2) for b in shown if b)  # and every counter on it in view
    # Each ruling says the VASSAL step and file it comes from, as VASSAL's Step forward counts them.
    expect(page.locator("#rulings .ruling[data-index='1']")).to_contain_text("VASSAL step 4 of schevardino-game.vlog")
    page.locator("#rulings .ruling[data-index='1']").click()   # Gratien's move
    ring = page.locator("#sel .mark-unit").first
    expect(ring).to_be_visible()
    for _ in range(4):
        page.click("#zoom-in")
        assert _in(ring.bounding_box(), page.locator("#board-view").bounding_box(), 2)
    page.click("#zoom-fit")
    # Fitted again to the area (the frame is a little shorter now: the selected ruling is explained above it).
    assert float(page.locator("#board-world").get_attribute("data-scale")) > 1.5 * whole
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / f"page-schevardino-fit-{width}.png"))
    assert page.errors == []
    page.close()


def test_a_games_turn_files_are_read_in_order_and_each_ruling_names_its_file(server: str, browser: Any) -> None:
    from playwright.sync_api import expect
    page = _page(browser, server)
    page.set_input_files("#log-file", [str(VLOGS / "pbem-turn2.vlog"), str(VLOGS / "pbem-turn1.vlog")])
    page.set_input_files("#module-file", str(VLOGS / "tiny.vmod"))
    page.click("#check-button")
    expect(page.locator("#status")).to_contain_text("events ruled on", timeout=SLOW)
    expect(page.locator("#title")).to_contain_text("pbem-turn1.vlog, pbem-turn2.vlog (2 files, in this order)")
    heads = page.locator("#rulings .ruling .head").all_inner_texts()
    files = [h.rsplit(" of ", 1)[1].strip() for h in heads]
    assert files[0] == "pbem-turn1.vlog" and files[-1] == "pbem-turn2.vlog" and files == sorted(files)
    shots = os.environ.get("REFEREE_SCREENSHOTS")
    if shots:
        page.locator("#rulings .ruling").last.click()
        page.screenshot(path=str(Path(shots) / "page-turn-files-1400.png"))
    assert page.errors == []
    page.close()
