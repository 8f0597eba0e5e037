"""SQLite only: writers of one process queue on a mutex, and checkpoints run in the storage's own thread."""
from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from referee.storage import NewEvent, NewGame, StaleIndex, StorageBusy
from referee.storage.sqlite import SQLiteStorage


def ev(n: int) -> NewEvent:
    return NewEvent({"type": "move", "unit": f"u{n}", "pad": "x" * 2000}, {"index": n, "verdict": "legal"})


def test_a_writer_of_the_same_process_waits_its_turn_then_sees_the_first_ones_events(tmp_path: Path) -> None:
    with SQLiteStorage(str(tmp_path / "r.sqlite")) as storage:
        gid = storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"))).game_id
        outcome: list[object] = []
        started = threading.Event()

        def second() -> None:
            started.set()
            try:
                outcome.append(storage.append_events(gid, "B", 0, [ev(1)]))
            except StaleIndex as exc:
                outcome.append(exc)

        with storage.transaction() as tx:
            tx.append_events(gid, "A", 0, [ev(0)])
            t = threading.Thread(target=second)
            t.start()
            started.wait()
            time.sleep(0.2)                          # the second writer is queued meanwhile
            assert outcome == []
        t.join(timeout=10)
        assert len(outcome) == 1 and isinstance(outcome[0], StaleIndex) and outcome[0].current == 1
        assert [e.event["unit"] for e in storage.list_events(gid)] == ["u0"]


def test_a_writer_of_the_same_process_gives_up_after_the_busy_timeout(tmp_path: Path) -> None:
    with SQLiteStorage(str(tmp_path / "r.sqlite"), busy_timeout=0.3) as storage:
        gid = storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"))).game_id
        failure: list[BaseException] = []

        def impatient() -> None:
            try:
                storage.append_events(gid, "B", 0, [ev(1)])
            except BaseException as exc:  # noqa: BLE001 — checked below
                failure.append(exc)

        with storage.transaction() as tx:
            tx.append_events(gid, "A", 0, [ev(0)])
            t = threading.Thread(target=impatient)
            t0 = time.monotonic()
            t.start()
            t.join(timeout=10)
            waited = time.monotonic() - t0
        assert len(failure) == 1 and isinstance(failure[0], StorageBusy)
        assert 0.25 <= waited < 5
        assert [e.event["unit"] for e in storage.list_events(gid)] == ["u0"]


def test_checkpoints_run_in_the_background_and_stop_with_the_storage(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    storage = SQLiteStorage(str(path))
    gid = storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"))).game_id
    for i in range(200):                              # ~200 WAL pages: far below SQLite's own threshold
        storage.append_events(gid, "A", i, [ev(i)])
    deadline = time.monotonic() + 10
    while True:
        # The database file itself, WAL ignored (immutable): the events are there once a checkpoint copied them.
        try:
            with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as raw:
                in_file = raw.execute("SELECT count(*) FROM events").fetchone()[0]
        except sqlite3.DatabaseError:                 # not even the tables yet, or (immutable=1 takes no lock)
            in_file = -1                              # a page read while the checkpoint was writing it
        if in_file == 200:
            break
        assert time.monotonic() < deadline, in_file
        time.sleep(0.1)
    thread = storage._checkpointer
    assert thread is not None and thread.is_alive()
    storage.close()
    assert not thread.is_alive()
    with SQLiteStorage(str(path)) as again:
        assert again.get_game(gid).event_count == 200


@pytest.mark.parametrize("synchronous", ["full", "normal"])
def test_sqlite_autocheckpoint_is_only_a_bound(tmp_path: Path, synchronous: str) -> None:
    with SQLiteStorage(str(tmp_path / "r.sqlite"), synchronous=synchronous) as storage:
        with storage._connection() as conn:
            assert conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 20_000
