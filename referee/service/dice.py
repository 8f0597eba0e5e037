"""Referee dice that neither the server nor one side chooses: a commit–reveal between the server and the sides.

The protocol (docs/service.md, Verifiable dice):

1. ``POST /games`` — the server draws its secret seed ``S`` (256 random bits) and publishes ``C = SHA-256(S)``
   in the answer.  Nothing a side sends can reach the server before ``C`` is fixed.
2. ``POST /games/<id>/dice`` with a side's own token, once per side, before the first event — either
   ``{"seed": s}`` or ``{"commitment": SHA-256(s)}``; a side that committed reveals ``{"seed": s}`` once every
   side has fixed its part (sent a seed or a commitment).  Until then no side sees another's seed.
3. Every roll derives from the *game seed* ``G = SHA-256("referee-game-seed/2" ‖ S ‖ "side=s" …)`` (each part
   length-prefixed, sides sorted): roll ``k`` for purpose ``p`` is ``HMAC-SHA256(G, "k:p")`` reduced to 0–9
   without bias (referee.engine.dice).  Events are refused (409 ``dice_open``) until every side's seed is in.
4. The record keeps each contribution with its sequence number, in the order they were fixed, inside the hash
   chain (referee.service.chain); ``S`` is revealed when the game ends, and ``referee verify`` checks it all.

Why no party alone steers a roll: ``S`` is fixed (committed) before any side seed exists, so the server cannot
pick ``S`` to suit them, and it cannot change ``S`` later without breaking ``C``.  A side fixes its seed without
knowing ``S`` (secret until the end), so it cannot aim ``G``; with commitments, also without knowing the other
side's seed.  Any one honest party's random contribution makes ``G`` uniformly random to everyone else.  What
remains: a side that committed can refuse to reveal and stall the game (it cannot choose the outcome, only
whether there is one), and with a plain ``seed`` a side trusts the server not to show it to the other side
before both are fixed — the commitment route removes that trust.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Iterable, Mapping

MIX_LABEL = "referee-game-seed/2"
MAX_SEED_LENGTH = 256
COMMITMENT = re.compile(r"[0-9a-f]{64}")


def game_seed(seed: str, side_seeds: Mapping[str, str]) -> str:
    """The seed every roll comes from: SHA-256 over the server's seed and every side's (sides sorted)."""
    h = hashlib.sha256(MIX_LABEL.encode())
    for part in (seed, *(f"{side}={value}" for side, value in sorted(side_seeds.items()))):
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(4, "big") + data)      # length-prefixed: no two inputs collide
    return h.hexdigest()


def commitment_of(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def side_seeds(contributions: Iterable[Any]) -> dict[str, str]:
    return {c.side: c.value for c in contributions if c.kind == "seed"}


def fixed_sides(contributions: Iterable[Any]) -> set[str]:
    """Sides that have fixed their part (a seed or a commitment)."""
    return {c.side for c in contributions}


def missing(sides: Iterable[str], contributions: list[Any]) -> list[str]:
    """What the dice still wait for, one phrase per side."""
    seeds = side_seeds(contributions)
    fixed = fixed_sides(contributions)
    out = []
    for side in sides:
        if side not in fixed:
            out.append(f"{side}'s seed or commitment")
        elif side not in seeds:
            out.append(f"{side}'s seed (revealed)")
    return out


def public(contributions: list[Any], sides: Iterable[str], viewer: str | None) -> list[dict[str, Any]]:
    """The contributions as ``viewer`` may see them: another side's seed stays hidden until every side has
    fixed its part (None = everything, for the export)."""
    all_fixed = fixed_sides(contributions) >= set(sides)
    out = []
    for c in contributions:
        entry: dict[str, Any] = {"seq": c.seq, "side": c.side, "kind": c.kind}
        if c.kind == "commitment" or viewer is None or c.side == viewer or all_fixed:
            entry["value"] = c.value
        out.append(entry)
    return out
