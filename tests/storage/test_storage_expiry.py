"""Never-played games expire; a client's recent games are counted (the service's creation quota)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from referee.storage import GameNotFound, NewEvent, NewGame, Storage

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def _new(storage: Storage, creator: str, at: datetime, dice: str = "referee") -> str:
    return storage.create_game(NewGame(scenario="s", ruleset="r", sides=("A", "B"), dice_mode=dice,  # type: ignore[arg-type]
                                       creator=creator), now=at).game_id


def test_only_never_played_games_older_than_the_limit_expire(storage: Storage) -> None:
    old_unplayed = _new(storage, "c1", T0)
    old_contributed = _new(storage, "c1", T0)
    storage.add_contribution(old_contributed, "A", "seed", "abc", now=T0)
    old_played = _new(storage, "c1", T0, dice="players")
    storage.append_events(old_played, "A", 0, [NewEvent({"type": "x"}, {"verdict": "legal"})], now=T0)
    old_ended = _new(storage, "c2", T0)
    storage.end_game(old_ended, now=T0)
    recent = _new(storage, "c2", T0 + timedelta(days=6))
    assert storage.expire_unplayed(T0 + timedelta(days=1)) == 2
    for gone in (old_unplayed, old_contributed):
        with pytest.raises(GameNotFound):
            storage.get_game(gone)
        assert storage.authenticate(gone, "any") is None
    for kept in (old_played, old_ended, recent):
        assert storage.get_game(kept).id == kept
    assert storage.expire_unplayed(T0 + timedelta(days=1)) == 0


def test_a_client_s_recent_games_are_counted(storage: Storage) -> None:
    for hours in (0, 1, 30):
        _new(storage, "client-a", T0 + timedelta(hours=hours))
    _new(storage, "client-b", T0)
    assert storage.count_created("client-a", T0) == 3
    assert storage.count_created("client-a", T0 + timedelta(hours=2)) == 1
    assert storage.count_created("client-b", T0) == 1
    assert storage.count_created("nobody", T0) == 0
