"""Appending events: the expected_index guard (HTTP 409) and all-or-nothing batches (both backends)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from raw_db import RawDatabase, open_with_timeout
from referee.storage import (GameEnded, NewEvent, NewGame, StaleIndex, Storage, StorageBusy,
                             StorageError)

T1 = datetime(2026, 11, 29, 13, 0, tzinfo=timezone.utc)


def ev(n: int, **extra: object) -> NewEvent:
    return NewEvent({"type": "move", "side": "French", "unit": f"u{n}", **extra},
                    {"index": n, "type": "move", "verdict": "legal", "errors": []})


@pytest.fixture
def game_id(storage: Storage) -> str:
    return storage.create_game(NewGame(scenario="s", ruleset="r", sides=("French", "Russian"))).game_id


def test_append_numbers_events_from_the_expected_index(storage: Storage, game_id: str) -> None:
    assert storage.append_events(game_id, "French", 0, [ev(0), ev(1)], now=T1) == 2
    assert storage.append_events(game_id, "Russian", 2, [ev(2)]) == 3
    events = storage.list_events(game_id)
    assert [(e.index, e.side, e.event["unit"]) for e in events] == [
        (0, "French", "u0"), (1, "French", "u1"), (2, "Russian", "u2")]
    assert events[0].ruling == {"index": 0, "type": "move", "verdict": "legal", "errors": []}
    assert events[0].created_at == T1
    assert [e.index for e in storage.list_events(game_id, since=2)] == [2]
    assert storage.list_events(game_id, since=3) == []
    assert storage.get_game(game_id).event_count == 3


def test_stale_expected_index_writes_nothing_and_reports_the_current_index(
        storage: Storage, game_id: str) -> None:
    storage.append_events(game_id, "French", 0, [ev(0), ev(1)])
    for stale in (0, 1, 3, 7):  # a replayed submission, a lagging client, ones from the future
        with pytest.raises(StaleIndex) as info:
            storage.append_events(game_id, "Russian", stale, [ev(99)])
        assert (info.value.expected, info.value.current) == (stale, 2)
    assert [e.event["unit"] for e in storage.list_events(game_id)] == ["u0", "u1"]
    # The client catches up with the index it was told and succeeds.
    assert storage.append_events(game_id, "Russian", 2, [ev(2)]) == 3


def test_empty_submission_checks_the_index_and_stores_nothing(storage: Storage, game_id: str) -> None:
    assert storage.append_events(game_id, "French", 0, []) == 0
    with pytest.raises(StaleIndex):
        storage.append_events(game_id, "French", 1, [])


def test_a_failing_insert_in_the_middle_of_a_batch_writes_nothing(
        storage: Storage, game_id: str, raw: RawDatabase) -> None:
    """A database trigger rejects one event of the batch, after the events before it were
    inserted: the transaction must roll them back too."""
    if raw.is_sqlite:
        raw.execute("""CREATE TRIGGER reject_poison BEFORE INSERT ON events
                       WHEN NEW.event LIKE '%"poison"%'
                       BEGIN SELECT RAISE(ABORT, 'poisoned event'); END""")
    else:
        raw.execute("""CREATE FUNCTION reject_poison() RETURNS trigger LANGUAGE plpgsql AS $$
                       BEGIN
                         IF NEW.event LIKE '%"poison"%' THEN RAISE EXCEPTION 'poisoned event'; END IF;
                         RETURN NEW;
                       END $$""")
        raw.execute("""CREATE TRIGGER reject_poison BEFORE INSERT ON events
                       FOR EACH ROW EXECUTE FUNCTION reject_poison()""")
    storage.append_events(game_id, "French", 0, [ev(0)])
    with pytest.raises(StorageError) as info:
        storage.append_events(game_id, "French", 1, [ev(1), ev(2), ev(3, tag="poison"), ev(4)])
    assert not isinstance(info.value, StaleIndex)
    assert info.value.__cause__ is None and info.value.__suppress_context__  # no driver traceback
    assert raw.execute("SELECT event_index FROM events WHERE game_id = ? ORDER BY event_index",
                       (game_id,)) == [(0,)]
    assert storage.get_game(game_id).event_count == 1
    # The game is not wedged: the same index is still free.
    assert storage.append_events(game_id, "French", 1, [ev(1), ev(2)]) == 3


def test_event_that_is_not_json_is_refused_before_anything_is_written(
        storage: Storage, game_id: str) -> None:
    with pytest.raises(ValueError, match="event 1 is not JSON"):
        storage.append_events(game_id, "French", 0, [ev(0), ({"type": "x", "bad": {1, 2}}, {})])
    assert storage.list_events(game_id) == []


def test_event_from_a_side_not_in_the_game_is_refused_by_the_database(
        storage: Storage, game_id: str) -> None:
    with pytest.raises(StorageError, match="constraint"):
        storage.append_events(game_id, "Prussian", 0, [ev(0)])
    assert storage.list_events(game_id) == []


def test_ended_game_accepts_no_more_events(storage: Storage, game_id: str) -> None:
    storage.append_events(game_id, "French", 0, [ev(0)])
    storage.end_game(game_id)
    with pytest.raises(GameEnded):
        storage.append_events(game_id, "French", 1, [ev(1)])
    assert storage.get_game(game_id).event_count == 1


def test_transaction_commits_several_operations_together(storage: Storage, game_id: str) -> None:
    with storage.transaction() as tx:
        n = tx.append_events(game_id, "French", 0, [ev(0)])
        tx.append_events(game_id, "Russian", n, [ev(1)])
        assert tx.get_game(game_id).event_count == 2  # sees its own writes
    assert storage.get_game(game_id).event_count == 2


def test_transaction_rolls_everything_back_when_the_block_fails(storage: Storage, game_id: str) -> None:
    class Abandon(Exception):
        pass

    with pytest.raises(Abandon):
        with storage.transaction() as tx:
            tx.append_events(game_id, "French", 0, [ev(0), ev(1)])
            tx.end_game(game_id)
            raise Abandon
    game = storage.get_game(game_id)
    assert (game.event_count, game.status) == (0, "active")


def test_a_writer_kept_waiting_past_the_timeout_gets_storage_busy(
        storage: Storage, game_id: str, database_url: str) -> None:
    """Another instance holds the game's write lock: a second writer waits, gives up with
    StorageBusy (HTTP 503) having written nothing, and readers are not blocked meanwhile."""
    with open_with_timeout(database_url, 0.3) as impatient:
        with storage.transaction() as tx:
            tx.append_events(game_id, "French", 0, [ev(0)])
            with pytest.raises(StorageBusy):
                impatient.append_events(game_id, "Russian", 0, [ev(1)])
            assert impatient.get_game(game_id).event_count == 0  # uncommitted: invisible
        assert impatient.get_game(game_id).event_count == 1
        with pytest.raises(StaleIndex) as info:
            impatient.append_events(game_id, "Russian", 0, [ev(1)])
        assert info.value.current == 1
    assert [e.event["unit"] for e in storage.list_events(game_id)] == ["u0"]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), datetime(2026, 1, 1, tzinfo=timezone.utc)])
def test_values_json_cannot_hold_are_refused_too(storage: Storage, game_id: str, bad: object) -> None:
    """NaN, infinities and datetimes: the fast encoder would write them (null, a string); storage refuses them."""
    with pytest.raises(ValueError, match="ruling 0 is not JSON"):
        storage.append_events(game_id, "French", 0, [({"type": "x"}, {"p": [1, {"q": bad}]})])
    assert storage.list_events(game_id) == []
