"""Stable ids derived from our unit ids, so a rebuilt module keeps every saved game valid.

A PieceSlot's ``gpid`` is stored in every piece created from it (and in saves/logs); the engine uses it
to refresh pieces when the module changes.  Deriving it from the stable unit id (rather than a counter)
means adding or reordering units never renumbers the others.  Piece ids in our set-ups are derived the
same way (decimal, as the engine's own timestamp ids are).
"""
from __future__ import annotations

import hashlib
from typing import Iterable

GPID_SPACE = 2_000_000_000     # gpids are Java ints; stay well below 2**31 so nextPieceSlotId fits too


def _digest(kind: str, key: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{kind}:{key}".encode(), digest_size=8).digest(), "big")


def gpid(key: str) -> int:
    """The PieceSlot gpid of a unit/leader/marker id (1 .. GPID_SPACE)."""
    return 1 + _digest("gpid", key) % GPID_SPACE


def piece_id(scenario_id: str, key: str) -> str:
    """The id of a piece placed by a set-up (unique per scenario, a 15-digit decimal)."""
    return str(10**14 + _digest(f"piece/{scenario_id}", key) % (9 * 10**14))


def stack_id(scenario_id: str, where: str) -> str:
    return str(10**14 + _digest(f"stack/{scenario_id}", where) % (9 * 10**14))


def check_unique(ids: Iterable[tuple[str, int | str]], what: str) -> None:
    """Refuse a (practically impossible) hash collision instead of writing a module that mixes pieces."""
    seen: dict[int | str, str] = {}
    for key, value in ids:
        if value in seen and seen[value] != key:
            raise ValueError(f"{what}: {key!r} and {seen[value]!r} hash to the same id {value}; rename one")
        seen[value] = key
