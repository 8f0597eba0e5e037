"""Verifiable referee dice for hosted games, and the check of a game export (``referee verify-dice``).

At creation the game publishes ``commitment(seed)`` (SHA-256 of a secret seed, referee.storage) and, if the
sides sent them, their own seeds.  Rolls come from the *game seed*: the secret seed itself when no side sent a
seed, else a hash of it with every side seed, so that neither the server (committed before the side seeds
matter) nor one side alone chooses the rolls.  Roll ``k`` (counted over the whole game) for ``purpose`` is
``referee.engine.dice.natural(game_seed, k, purpose)``.  The seed is revealed when the game ends.

Verification needs no ruleset: the rulings list the rolls in the order the referee drew them (illegal events
draw none), so walking them in order and re-deriving each one checks the whole game.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from referee.engine.dice import natural, verify

MIX_LABEL = "referee-game-seed/1"


def game_seed(seed: str, side_seeds: Mapping[str, str]) -> str:
    """The seed the rolls come from: ``seed`` alone, or SHA-256 over it and the side seeds (sides sorted)."""
    if not side_seeds:
        return seed
    h = hashlib.sha256(MIX_LABEL.encode())
    for part in (seed, *(f"{side}={value}" for side, value in sorted(side_seeds.items()))):
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(4, "big") + data)      # length-prefixed: no two inputs collide
    return h.hexdigest()


@dataclass(frozen=True)
class Mismatch:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def _rolls(export: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every roll the referee drew, in order, with a label naming it."""
    for entry in export.get("events", []):
        ruling = entry.get("ruling") or {}
        if ruling.get("verdict") != "legal":
            continue
        for j, roll in enumerate(ruling.get("rolls") or []):
            if roll.get("natural") is not None:
                yield f"events[{entry.get('index')}] ({ruling.get('type')}) rolls[{j}]", roll


def check_export(export: Mapping[str, Any]) -> tuple[int, list[Mismatch]]:
    """Re-derive every roll of a game export.  Returns the number of rolls checked and the mismatches."""
    dice = export.get("dice")
    if not isinstance(dice, Mapping):
        return 0, [Mismatch("dice", "the export has no dice section")]
    if dice.get("mode") != "referee":
        return 0, [Mismatch("dice.mode", f"the players rolled in this game ({dice.get('mode')!r}); "
                                         "there are no referee rolls to verify")]
    seed, published = dice.get("seed"), dice.get("commitment")
    if not isinstance(seed, str):
        return 0, [Mismatch("dice.seed", "the seed is not revealed yet (the game has not ended)")]
    if not isinstance(published, str) or not verify(seed, published):
        return 0, [Mismatch("dice.seed", "the revealed seed does not match the published commitment")]
    derived_from = game_seed(seed, dice.get("side_seeds") or {})
    problems: list[Mismatch] = []
    count = 0
    for count, (where, roll) in enumerate(_rolls(export), start=1):
        expected = natural(derived_from, count - 1, str(roll.get("purpose")))
        if roll.get("natural") != expected:
            problems.append(Mismatch(where, f"roll #{count - 1} ({roll.get('purpose')}) is {roll.get('natural')}, "
                                            f"but the seed gives {expected}"))
    return count, problems
