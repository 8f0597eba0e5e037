"""Random identifiers, side tokens and the dice commitment.

Side tokens are stored as a plain SHA-256 of the token, not with a slow password hash (scrypt,
PBKDF2).  Slow hashes exist to make guessing low-entropy *passwords* expensive; a token here is 256
bits from ``secrets`` that nobody chose, so guessing it from its hash is as hard as finding a SHA-256
preimage, whatever the hash costs.  A salt would not help either: no two tokens are ever equal and
no precomputed table can cover 2**256 values.  A fast hash also keeps ``authenticate`` cheap on every
request.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Iterable

TOKEN_BYTES = 32
"""256-bit side tokens."""

GAME_ID_BYTES = 12
"""96 random bits: unguessable enough that game ids can appear in URLs and logs (they grant nothing
without a token), short enough to type."""


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def side_for_token(token: str, hashes: Iterable[tuple[str, str]]) -> str | None:
    """The side whose stored hash matches ``token``, or None.

    Compares against every side with ``hmac.compare_digest`` and does not stop at the first match,
    so the time taken says nothing about which hash (or how much of it) matched."""
    presented = hash_token(token)
    found: str | None = None
    for side, stored in hashes:
        if hmac.compare_digest(presented, stored):
            found = side
    return found


def new_dice_seed() -> str:
    return secrets.token_hex(32)


def seed_commitment(seed: str) -> str:
    """The public commitment to a dice seed: SHA-256 of its UTF-8 text, hex.  Published when the
    game is created; once the seed is revealed anyone can check ``seed_commitment(seed)``."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()
