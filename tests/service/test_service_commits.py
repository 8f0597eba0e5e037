"""Group commit: appends that share a transaction keep their own outcomes."""
from __future__ import annotations

import threading
from typing import Iterator

import pytest

from referee.service.commits import Committer
from referee.storage import GameNotFound, NewEvent, NewGame, StaleIndex, Storage, open_storage


@pytest.fixture
def storage(database_url: str) -> Iterator[Storage]:
    with open_storage(database_url) as s:
        yield s


def event(i: int) -> list[NewEvent]:
    return [NewEvent({"type": "end_phase", "n": i}, {"index": i})]


def test_concurrent_appends_to_several_games_each_get_their_own_answer(storage: Storage) -> None:
    games = [storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"))).game_id for _ in range(4)]
    committer = Committer(storage)
    outcomes: dict[tuple[str, int], object] = {}
    lock = threading.Lock()
    start = threading.Barrier(16)

    def append(game_id: str, k: int) -> None:
        start.wait()
        try:
            result: object = committer.append(game_id, "A", 0, event(k))     # all at index 0: one wins per game
        except StaleIndex as exc:
            result = exc
        with lock:
            outcomes[(game_id, k)] = result

    threads = [threading.Thread(target=append, args=(g, k)) for g in games for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        for g in games:
            mine = [outcomes[(g, k)] for k in range(4)]
            assert mine.count(1) == 1                                   # exactly one append per game stored
            assert all(isinstance(o, StaleIndex) and o.current == 1 for o in mine if o != 1)
            stored = storage.list_events(g)
            winner = next(k for k in range(4) if outcomes[(g, k)] == 1)
            assert [e.event["n"] for e in stored] == [winner]
        with pytest.raises(GameNotFound):
            committer.append("no-such-game", "A", 0, event(0))
    finally:
        committer.close()


def test_a_failing_transaction_fails_its_appends_and_leaves_nobody_waiting(storage: Storage,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    gid = storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"))).game_id
    committer = Committer(storage)

    def broken() -> object:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(storage, "transaction", broken)
    errors: list[BaseException] = []

    def append(k: int) -> None:
        try:
            committer.append(gid, "A", 0, event(k))
        except BaseException as exc:  # noqa: BLE001 — checked below
            errors.append(exc)

    threads = [threading.Thread(target=append, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert len(errors) == 6 and all(isinstance(e, RuntimeError) for e in errors)
    monkeypatch.undo()
    assert committer.append(gid, "A", 0, event(9)) == 1           # and the committer still works
    assert [e.event["n"] for e in storage.list_events(gid)] == [9]
