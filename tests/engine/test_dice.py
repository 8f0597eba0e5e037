"""The referee's verifiable dice (DESIGN §6): commitment, reproducible rolls, fair faces, slots."""
from __future__ import annotations

from collections import Counter

from hypothesis import given, strategies as st

from referee.engine import dice
from referee.engine.dice import EventDice, commitment, natural, set_slot, verify


def test_commitment_is_sha256_of_the_seed_and_verifies():
    c = commitment("secret")
    assert c == "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"
    assert verify("secret", c) and not verify("other", c)


@given(st.text(min_size=1, max_size=20), st.integers(0, 10_000), st.sampled_from(["initiative", "shock"]))
def test_rolls_are_reproducible_d10_faces(seed, index, purpose):
    n = natural(seed, index, purpose)
    assert 0 <= n <= 9
    assert n == natural(seed, index, purpose)


@given(st.binary(max_size=200), st.binary(max_size=300))
def test_the_written_out_hmac_is_the_standard_library_s(key, msg):
    """dice.hmac_sha256 (written out so that rolling loads no OpenSSL) gives hmac.digest's bytes, for keys
    shorter and longer than SHA-256's 64-byte block."""
    import hmac
    assert dice.hmac_sha256(key, msg) == hmac.digest(key, msg, "sha256")


SINGLE_DICE = {"d10": (10, 0), "d6": (6, 1)}     # faces and lowest face, as DESIGN §5 reads them


def _natural_by_the_standard_library(seed: str, index: int, purpose: str, die: str) -> int:
    """The roll as DESIGN §6 defines it, with the standard library's HMAC (what natural always computed)."""
    import hmac
    n, low = SINGLE_DICE[die]
    limit = (1 << 256) - (1 << 256) % n
    attempt = 0
    while True:
        msg = f"{index}:{purpose}" if attempt == 0 else f"{index}:{purpose}:{attempt}"
        x = int.from_bytes(hmac.digest(seed.encode("utf-8"), msg.encode("utf-8"), "sha256"), "big")
        if x < limit:
            return low + x % n
        attempt += 1


@given(st.text(max_size=100), st.integers(0, 10**6), st.text(max_size=30), st.sampled_from(sorted(SINGLE_DICE)))
def test_every_roll_is_the_one_the_standard_library_s_hmac_gives(seed, index, purpose, die):
    assert natural(seed, index, purpose, die) == _natural_by_the_standard_library(seed, index, purpose, die)


def test_a_roll_by_its_published_definition():
    """Pinned bytes: HMAC-SHA256("secret", "0:initiative"), reduced to a d10, as anyone re-deriving it gets."""
    assert [natural("secret", i, "initiative") for i in range(10)] == [4, 1, 7, 7, 9, 6, 7, 1, 2, 0]


def test_roll_depends_on_index_and_purpose():
    rolls = {(i, p): natural("s", i, p) for i in range(50) for p in ("a", "b")}
    assert len({v for (i, p), v in rolls.items() if p == "a"}) > 5
    assert any(rolls[(i, "a")] != rolls[(i, "b")] for i in range(50))


def test_faces_are_uniform_enough():
    counts = Counter(natural("uniform", i, "x") for i in range(20_000))
    assert set(counts) == set(range(10))
    assert all(1800 < c < 2200 for c in counts.values())


def test_rejection_sampling_bound_is_a_multiple_of_ten():
    assert dice._LIMIT % 10 == 0 and (1 << 256) - dice._LIMIT < 10


def test_event_dice_prefers_the_events_own_roll():
    d = EventDice({"roll": 7}, seed="s", next_index=3)
    assert d.roll("roll", "x") == 7 and d.drawn == {} and d.owed == []


def test_event_dice_players_mode_records_owed_slots():
    d = EventDice({"rolls": {"French": 2}})
    assert d.roll("rolls.French", "initiative") == 2
    assert d.roll("rolls.Russian", "initiative") is None
    assert d.owed == [("rolls.Russian", "initiative")]


def test_event_dice_referee_mode_draws_by_game_index_and_fills_the_event():
    d = EventDice({"type": "initiative"}, seed="s", next_index=5)
    a, b = d.roll("rolls.French", "initiative"), d.roll("rolls.Russian", "initiative")
    assert (a, b) == (natural("s", 5, "initiative"), natural("s", 6, "initiative"))
    assert d.filled_event() == {"type": "initiative", "rolls": {"French": a, "Russian": b}}


def test_set_slot_copies():
    e = {"a": {"b": 1}}
    f = set_slot(e, "a.c", 2)
    assert f == {"a": {"b": 1, "c": 2}} and e == {"a": {"b": 1}}
