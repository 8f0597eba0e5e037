"""A game played live (Storage.commit_live, for referee/service/live.py), on both backends: one commit stores the
link's steps, the events ruled from them, a take-back and the read events together; a commit worked out on a
version or an event count that has moved writes nothing; a never-played game with live steps still expires."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from referee.storage import GameEnded, GameNotFound, LiveChanged, LiveCommit, NewEvent, NewGame, Storage, TakeBackRefused

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _game(storage: Storage, **kw: object) -> str:
    return storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"), dice_mode="players"),
                               **kw).game_id  # type: ignore[arg-type]


def _event(n: int) -> NewEvent:
    return NewEvent({"type": "x", "n": n}, {"verdict": "legal"}, f"chain{n}")


def test_a_commit_stores_steps_events_and_reads_together(storage: Storage) -> None:
    gid = _game(storage)
    v1 = storage.commit_live(gid, LiveCommit(None, "A", "l1", 0, (("M/1", "CHAT x"), ("CHAT y",)), 0,
                                             events=(_event(0), _event(1)), reads=(({"type": "x"}, 0), ({"u": 1}, None),
                                                                                   ({"type": "x"}, 1)),
                                             said={"u1": "on the board: ..."}, start="begin_save"))
    head = storage.live_head(gid)
    assert (v1, head.version, head.steps, head.reads, head.said, head.event_count) == \
        (1, 1, 2, 3, {"u1": "on the board: ..."}, 2)
    assert storage.live_start(gid) == "begin_save"
    assert [(s.seq, s.side, s.link, s.link_index, s.commands) for s in storage.live_steps(gid)] == [
        (0, "A", "l1", 0, ("M/1", "CHAT x")), (1, "A", "l1", 1, ("CHAT y",))]
    # An Undo: event 1 taken back, the read events from position 2 rewritten, another event stored in its place.
    v2 = storage.commit_live(gid, LiveCommit(1, "A", "l1", 2, (("CHAT* UNDO: x",),), 2, events=(_event(9),),
                                             take_back=1, reads_from=2, reads=(({"type": "z"}, 1),)))
    assert v2 == 2
    assert [(e.index, e.event["n"]) for e in storage.list_events(gid)] == [(0, 0), (1, 9)]
    assert [(r.position, r.event, r.stored_index) for r in storage.live_reads(gid)] == [
        (0, {"type": "x"}, 0), (1, {"u": 1}, None), (2, {"type": "z"}, 1)]
    assert [r.position for r in storage.live_reads(gid, after_version=1)] == [2]       # what v2 wrote
    assert storage.live_counts(gid) == {("A", "l1"): 3}


def test_a_commit_on_what_has_moved_writes_nothing(storage: Storage) -> None:
    gid = _game(storage)
    storage.commit_live(gid, LiveCommit(None, "A", "l1", 0, (("CHAT y",),), 0, start="s"))
    before = storage.live_head(gid)
    for stale in (LiveCommit(None, "A", "l1", 1, (("a",),), 0, start="s"),          # another made the record
                  LiveCommit(1, "A", "l1", 1, (("a",),), 5),                          # the events moved
                  LiveCommit(1, "A", "l1", 0, (("a",),), 0)):                         # the link's count moved
        with pytest.raises(LiveChanged):
            storage.commit_live(gid, stale)
    storage.append_events(gid, "B", 0, [_event(0)])
    with pytest.raises(TakeBackRefused):          # B's event: not A's to take back
        storage.commit_live(gid, LiveCommit(1, "A", "l1", 1, (("a",),), 1, take_back=0))
    after = storage.live_head(gid)
    assert (after.version, after.steps, after.reads) == (before.version, before.steps, before.reads) == (1, 1, 0)
    storage.end_game(gid)
    with pytest.raises(GameEnded):
        storage.commit_live(gid, LiveCommit(1, "A", "l1", 1, (("a",),), 1))


def test_a_never_played_game_with_live_steps_expires(storage: Storage) -> None:
    gid = _game(storage, now=T0)
    storage.commit_live(gid, LiveCommit(None, "A", "l1", 0, (("CHAT hello",),), 0, reads=(({"u": 1}, None),),
                                        start="s"))
    assert storage.expire_unplayed(T0 + timedelta(days=8)) == 1
    with pytest.raises(GameNotFound):            # gone, with its steps and read events
        storage.live_head(gid)
