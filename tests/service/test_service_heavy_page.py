"""Issue 12 (bounded work everywhere): the page's replay (``POST /replays``) in the checking workers.

``heavy.page_replay`` must give exactly what ``replay_view.build`` gives in the server's process — every
ruling, every line of words, the places, the final state, and the engine at any step through the snapshots —
while the replay itself runs in a worker process, under the pool's admission, time budget and memory limit."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from referee.service import heavy, replay_view
from referee.service.errors import ApiError
from referee.service.logs import Upload, read
from service_play import players_events
from service_scenario import SMALL

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


@pytest.fixture
def pool() -> Iterator[heavy.HeavyPool]:
    # Normal priority and a long budget: these tests are about what comes back, not about scheduling.
    p = heavy.HeavyPool(budget=120.0, priority="0")
    yield p
    p.close()


def _same(upload: Upload, pool: heavy.HeavyPool) -> int:
    log = read(upload)
    got = heavy.page_replay(pool, upload, log)
    want = replay_view.build(log)
    assert got.replayed.rulings == want.replayed.rulings
    assert got.lines == want.lines
    assert got.replayed.places == want.replayed.places
    assert got.replayed.state == want.replayed.state
    assert len(got.replayed.snapshots) == len(want.replayed.snapshots)
    n = len(log.events)
    for k in sorted({0, 1, 31, 32, 33, n // 2, n - 1, n}):
        a, b = got.replayed.game_at(k), want.replayed.game_at(k)
        assert a.ruleset is log.ruleset
        assert a.ruleset.view(a.state, None) == b.ruleset.view(b.state, None), k
        assert a.ruleset.progress(a.state) == b.ruleset.progress(b.state), k
        assert (a.dice, a.seed, a.rolls_used, a.pending) == (b.dice, b.seed, b.rolls_used, b.pending), k
    return n


def test_the_page_replay_of_the_sample_game_is_the_servers_own(pool: heavy.HeavyPool) -> None:
    assert _same(Upload(SAMPLE.read_bytes(), "sample-borodino.json"), pool) > 5000


def test_the_page_replay_of_a_small_game_with_players_dice(pool: heavy.HeavyPool) -> None:
    body = {"scenario": SMALL, "dice": "players", "events": players_events(1)}
    assert _same(Upload(json.dumps(body).encode(), "game.json"), pool) > 32


def test_the_page_replay_runs_in_the_worker_not_in_this_process(pool: heavy.HeavyPool,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    upload = Upload(SAMPLE.read_bytes(), "sample-borodino.json")
    log = read(upload)

    def not_here(_: Any) -> Any:
        raise AssertionError("the page's replay ran in the server's process")

    monkeypatch.setattr(replay_view, "build", not_here)
    got = heavy.page_replay(pool, upload, log)
    assert len(got.replayed.rulings) == len(log.events)


def test_the_page_replay_over_its_budget_is_503_over_budget(pool: heavy.HeavyPool) -> None:
    upload = Upload(SAMPLE.read_bytes(), "sample-borodino.json")
    log = read(upload)
    heavy.page_replay(pool, Upload(json.dumps({"scenario": SMALL, "events": []}).encode(), "x.json"), log)
    pool.budget = 0.2             # the worker is up; the sample's replay takes ~1 s on an idle machine
    with pytest.raises(ApiError) as caught:
        heavy.page_replay(pool, upload, log)
    assert caught.value.status == 503 and caught.value.code == "over_budget"
    assert caught.value.headers["Retry-After"].isdigit()


def test_the_worker_s_refusal_comes_back_whole(pool: heavy.HeavyPool) -> None:
    """A log the worker cannot rule on is its 422 with every problem, as POST /check would answer."""
    bad = Upload(json.dumps({"scenario": SMALL, "events": [{"type": "move", "unit": "nobody"}]}).encode(), "x.json")
    with pytest.raises(ApiError) as caught:
        heavy.page_replay(pool, bad, read(Upload(json.dumps({"scenario": SMALL, "events": []}).encode(), "y.json")))
    assert caught.value.status == 422 and caught.value.code == "invalid_input"
    assert caught.value.extra["problems"] == ["events[0].side: missing", "events[0].path: missing"]


def test_a_full_pool_refuses_the_page_at_once_with_retry_after() -> None:
    p = heavy.HeavyPool(workers=1, waiting=0)
    p.admit()
    try:
        with pytest.raises(ApiError) as caught:
            p.admit()
        assert caught.value.status == 503 and caught.value.code == "busy"
        assert caught.value.headers["Retry-After"].isdigit()
    finally:
        p.release()
        p.close()


def test_the_page_s_log_read_in_the_worker_is_the_servers_own(pool: heavy.HeavyPool) -> None:
    """POST /replays answers the set-up at once: reading and checking the log (~2 s of CPU at 15.8 MiB) is the
    worker's too; the server gets the same Log (its own scenario object, the same events)."""
    small = {"scenario": SMALL, "dice": "players", "events": players_events(1), "note": "n"}
    for upload in (Upload(SAMPLE.read_bytes(), "sample-borodino.json"), Upload(json.dumps(small).encode(), ""),
                   Upload((ROOT / "tests" / "fixtures" / "logs" / "small-inline.yaml").read_bytes(), "s.yaml")):
        got, want = heavy.read_for_page(pool, upload), read(upload)
        assert got.events == want.events and (got.dice, got.seed, got.warnings) == (want.dice, want.seed,
                                                                                     want.warnings)
        assert got.ruleset is want.ruleset
        assert got.scenario is want.scenario or got.scenario == want.scenario
    bad = Upload(json.dumps({"scenario": SMALL, "events": [{"type": "move", "unit": "nobody"}]}).encode(), "")
    with pytest.raises(ApiError) as caught:
        heavy.read_for_page(pool, bad)
    assert caught.value.status == 422
    assert caught.value.extra["problems"] == ["events[0].side: missing", "events[0].path: missing"]


def test_the_page_s_log_is_not_checked_in_this_process(pool: heavy.HeavyPool, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.logs import jsonlog

    def not_here(*_: Any) -> Any:
        raise AssertionError("the log was checked in the server's process")

    upload = Upload(SAMPLE.read_bytes(), "sample-borodino.json")
    monkeypatch.setattr(jsonlog, "check_events", not_here)
    assert len(heavy.read_for_page(pool, upload).events) > 5000
