"""Creating games, side tokens, reading games back, ending them (both backends)."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone

import pytest

from raw_db import RawDatabase
from referee.storage import GameNotFound, NewGame, Storage, seed_commitment

SCENARIO = {"ruleset": "triumph-and-glory", "map": {"grid": {"orientation": "pointy"}},
            "units": [{"id": "dumon-a", "hex": "0404", "facing": 12}], "sides": {"French": {}}}
T0 = datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=timezone.utc)


def new_game(**overrides: object) -> NewGame:
    fields: dict[str, object] = dict(scenario=SCENARIO, ruleset="triumph-and-glory",
                                     sides=("French", "Russian"))
    fields.update(overrides)
    return NewGame(**fields)  # type: ignore[arg-type]


def test_create_game_returns_url_safe_id_and_one_token_per_side(storage: Storage) -> None:
    created = storage.create_game(new_game())
    assert created.game_id.replace("-", "").replace("_", "").isalnum()
    assert len(created.game_id) >= 16
    assert set(created.tokens) == {"French", "Russian"}
    assert len(set(created.tokens.values())) == 2
    assert all(len(t) >= 43 for t in created.tokens.values())  # 32 random bytes, base64url
    other = storage.create_game(new_game())
    assert other.game_id != created.game_id


def test_authenticate_maps_each_token_to_its_side_only(storage: Storage) -> None:
    created = storage.create_game(new_game())
    other = storage.create_game(new_game())
    french, russian = created.tokens["French"], created.tokens["Russian"]
    assert storage.authenticate(created.game_id, french) == "French"
    assert storage.authenticate(created.game_id, russian) == "Russian"
    assert storage.authenticate(created.game_id, french[:-1] + ("A" if french[-1] != "A" else "B")) is None
    assert storage.authenticate(created.game_id, "") is None
    # A valid token of another game opens nothing here, and an unknown game answers None too.
    assert storage.authenticate(created.game_id, other.tokens["French"]) is None
    assert storage.authenticate("no-such-game", french) is None


def test_tokens_are_stored_only_as_hashes(storage: Storage, raw: RawDatabase) -> None:
    created = storage.create_game(new_game())
    rows = raw.execute("SELECT name, token_hash FROM sides WHERE game_id = ?", (created.game_id,))
    stored = dict(rows)
    assert set(stored) == {"French", "Russian"}
    for side, token in created.tokens.items():
        assert stored[side] == hashlib.sha256(token.encode()).hexdigest()
    # The token text appears nowhere in any table.
    every_value = [str(v) for table in ("games", "sides", "events")
                   for row in raw.execute(f"SELECT * FROM {table}") for v in row]
    for token in created.tokens.values():
        assert not any(token in v for v in every_value)


def test_get_game_round_trips_everything_and_hides_the_seed_while_active(storage: Storage) -> None:
    created = storage.create_game(
        new_game(sides=("Russian", "French"), dice_mode="players", dice_seed="s3cret",
                 side_seeds={"French": "f00d"}), now=T0)
    game = storage.get_game(created.game_id)
    assert game.id == created.game_id
    assert game.created_at == T0
    assert game.scenario == SCENARIO
    assert game.ruleset == "triumph-and-glory"
    assert game.sides == ("Russian", "French")  # the order given, not alphabetical
    assert game.dice_mode == "players"
    assert game.dice_commitment == created.dice_commitment == seed_commitment("s3cret")
    assert game.dice_commitment == hashlib.sha256(b"s3cret").hexdigest()
    assert game.side_seeds == {"French": "f00d"}
    assert game.status == "active" and game.ended_at is None
    assert game.event_count == 0
    assert game.dice_seed is None
    assert storage.dice_seed(created.game_id) == "s3cret"


def test_scenario_given_by_id_is_kept_as_is(storage: Storage) -> None:
    created = storage.create_game(new_game(scenario="borodino-historical"))
    assert storage.get_game(created.game_id).scenario == "borodino-historical"


def test_generated_seed_matches_its_commitment_once_revealed(storage: Storage) -> None:
    created = storage.create_game(new_game())
    ended = storage.end_game(created.game_id, now=T0 + timedelta(hours=3))
    assert ended.status == "ended"
    assert ended.ended_at == T0 + timedelta(hours=3)
    assert ended.dice_seed is not None and len(ended.dice_seed) == 64
    assert seed_commitment(ended.dice_seed) == created.dice_commitment
    assert storage.get_game(created.game_id).dice_seed == ended.dice_seed


def test_ending_twice_keeps_the_first_end(storage: Storage) -> None:
    created = storage.create_game(new_game())
    first = storage.end_game(created.game_id, now=T0)
    again = storage.end_game(created.game_id, now=T0 + timedelta(days=1))
    assert again.ended_at == first.ended_at == T0


def test_unknown_game_raises_game_not_found(storage: Storage) -> None:
    for call in (lambda: storage.get_game("nope"), lambda: storage.list_events("nope"),
                 lambda: storage.end_game("nope"), lambda: storage.dice_seed("nope"),
                 lambda: storage.append_events("nope", "French", 0, [({}, {})])):
        with pytest.raises(GameNotFound) as info:
            call()
        assert info.value.game_id == "nope"


@pytest.mark.parametrize("bad", [
    dict(sides=()), dict(sides=("French", "French")), dict(dice_mode="casino"),
    dict(side_seeds={"Prussian": "x"}),
])
def test_create_game_refuses_bad_input_and_writes_nothing(storage: Storage, raw: RawDatabase,
                                                          bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        storage.create_game(new_game(**bad))
    assert raw.execute("SELECT COUNT(*) FROM games") == [(0,)]


def test_naive_timestamps_are_refused(storage: Storage) -> None:
    with pytest.raises(ValueError):
        storage.create_game(new_game(), now=datetime(2026, 1, 1))
