"""Dice: rolls carried by the log, rolls still owed, and the referee's verifiable seeded rolls.

The referee's source is a commitment scheme (DESIGN §6): the secret ``seed`` is fixed when the game starts and
``commitment(seed)`` (its SHA-256) is published; roll number ``index`` for ``purpose`` is
``HMAC-SHA256(seed, f"{index}:{purpose}")`` reduced to 0–9 by rejection sampling (so every face has exactly
probability 1/10).  Revealing the seed at the end lets anyone re-derive every roll with ``natural``.

A rule function never talks to a source directly: it asks its :class:`EventDice` for the roll that belongs
in one *slot* of the event (``"roll"``, ``"rolls.French"``).  The event's own value wins; otherwise the
referee rolls (``dice: referee``) or the roll is recorded as owed (``dice: players``).
"""
from __future__ import annotations

from typing import Any, Mapping

from modulebuilder.dice import D10, Die, die, faces  # noqa: F401  (the engine's names for them)

# Neither hashlib nor hmac is imported to roll or to commit: importing hashlib loads OpenSSL, and hmac imports
# hashlib (only :func:`verify`, the service's and `referee verify`'s, still does).

_LIMIT = (1 << 256) - (1 << 256) % 10     # largest multiple of 10 below 2**256: the d10's rejection bound


def commitment(seed: str) -> str:
    """The published hash of the secret seed."""
    return _sha256()(seed.encode("utf-8")).hexdigest()


def natural(seed: str, index: int, purpose: str, die_name: "str | Die" = "d10") -> int:
    """Roll number ``index`` (0-based, counted over the whole game) for ``purpose``: a fair d10, 0–9, or the
    named die (a d6 reads 1–6, 2d6 the sum of two).  One HMAC, reduced without bias to one of the die's equally
    likely outcomes (10 for a d10, 36 for 2d6), then read die by die; a d10 and a d6 are exactly the rolls this
    function always gave."""
    d = die(die_name)
    n = d.outcomes
    limit = _LIMIT if n == 10 else (1 << 256) - (1 << 256) % n
    key = seed.encode("utf-8")
    attempt = 0
    while True:
        msg = f"{index}:{purpose}" if attempt == 0 else f"{index}:{purpose}:{attempt}"
        x = int.from_bytes(hmac_sha256(key, msg.encode("utf-8")), "big")
        if x < limit:                       # rejection sampling: never biased toward low faces
            r, total = x % n, 0
            for _ in range(d.count):
                r, face = divmod(r, d.sides)
                total += d.low + face
            return total
        attempt += 1


_IPAD = bytes(b ^ 0x36 for b in range(256))     # RFC 2104's inner and outer pads, as byte.translate tables
_OPAD = bytes(b ^ 0x5C for b in range(256))


def hmac_sha256(key: bytes, msg: bytes) -> bytes:
    """HMAC-SHA256 (RFC 2104): the bytes of ``hmac.digest(key, msg, "sha256")``.

    Written out rather than imported because the standard ``hmac`` module imports ``hashlib`` and with it
    OpenSSL, a visible share of a check whose referee rolls dice (the sample game's); the algorithm is the two
    hashes below over the SHA-256 :func:`commitment` already uses (tests/engine/test_dice.py holds the two to
    the same bytes)."""
    sha256 = _sha256()
    if len(key) > 64:                   # a key longer than the hash's block is hashed first
        key = sha256(key).digest()
    key = key.ljust(64, b"\0")
    return sha256(key.translate(_OPAD) + sha256(key.translate(_IPAD) + msg).digest()).digest()


def _sha256() -> Any:
    """CPython's own SHA-256 constructor: the digest of hashlib's OpenSSL one, without loading OpenSSL (3.12
    renamed its module); hashlib's on an interpreter that has neither."""
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256


def verify(seed: str, published: str) -> bool:
    """Whether ``seed`` is the one the published commitment was made for."""
    import hmac
    return hmac.compare_digest(commitment(seed), published)


def get_slot(event: Mapping[str, Any], slot: str) -> Any:
    """The value at a dotted slot path of an event, or None."""
    cur: Any = event
    for part in slot.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return None
        cur = cur[part]
    return cur


def set_slot(event: Mapping[str, Any], slot: str, value: Any) -> dict[str, Any]:
    """A copy of ``event`` with ``value`` stored at ``slot`` (intermediate objects created as needed)."""
    out = dict(event)
    parts = slot.split(".")
    cur = out
    for part in parts[:-1]:
        nxt = dict(cur.get(part) or {})
        cur[part] = nxt
        cur = nxt
    cur[parts[-1]] = value
    return out


class EventDice:
    """The dice handed to one rule call.

    ``seed`` is None when the players roll.  ``next_index`` is the game-wide number of the next referee roll;
    the engine advances it by ``len(drawn)`` only when the ruling is legal, so an illegal attempt re-rolls
    nothing (the same attempt gets the same roll).
    """
    __slots__ = ("event", "seed", "next_index", "owed", "drawn", "dies")

    def __init__(self, event: Mapping[str, Any], seed: str | None = None, next_index: int = 0) -> None:
        self.event = event
        self.seed = seed
        self.next_index = next_index
        self.owed: list[tuple[str, str]] = []       # (slot, purpose) still to be rolled by the players
        self.drawn: dict[str, int] = {}             # slot -> natural the referee rolled
        self.dies: dict[str, str] = {}              # slot -> die, for the slots that are not d10s

    def roll(self, slot: str, purpose: str, die: str = "d10") -> int | None:
        """The natural roll in ``slot``: the event's own, else the referee's, else None (owed)."""
        given = get_slot(self.event, slot)
        if given is not None:
            return int(given)
        if slot in self.drawn:
            return self.drawn[slot]
        if die != "d10":
            self.dies[slot] = die
        if self.seed is not None:
            value = natural(self.seed, self.next_index + len(self.drawn), purpose, die)
            self.drawn[slot] = value
            return value
        if (slot, purpose) not in self.owed:
            self.owed.append((slot, purpose))
        return None

    def filled_event(self) -> dict[str, Any]:
        """The event with the referee's rolls written in (what a players'-dice log of the game would hold)."""
        out = dict(self.event)
        for slot, value in self.drawn.items():
            out = set_slot(out, slot, value)
        return out
