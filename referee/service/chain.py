"""The hosted game's hash chain: a tamper-evident record of its set-up, dice contributions, events and rulings.

Every link is SHA-256 over the previous link and one record, in canonical JSON (sorted keys, no spaces)::

    link(set-up)            = H("referee-chain/1" ‖ {id, ruleset, scenario, sides, dice: {mode, commitment}})
    link(contribution k)    = H(previous ‖ {"contribution": {seq, side, kind, value}})
    link(event i)           = H(previous ‖ {"index": i, "side": submitter, "event": …, "ruling": …})
    end                     = H(head ‖ {"end": event_count})

(each part length-prefixed).  A ruling carries its rolls (natural, modifiers, modified total, result), so the
chain covers every event, roll and ruling.  The head after each answer is returned to the side that made it
(``chain`` in every submission's answer and in the view); a side that keeps the last head it saw can show that
an export was cut short or rewritten after that point (``referee verify --head``), whoever recomputed the
links.  Hand-written: a hash chain is a few lines of hashlib, no library needed.
"""
from __future__ import annotations

import hashlib
from typing import Any, Mapping

import orjson

LABEL = b"referee-chain/1"


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _link(previous: bytes, record: Any) -> str:
    h = hashlib.sha256()
    for part in (previous, canonical(record)):
        h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()


def genesis(game_id: str, ruleset: str, scenario: Any, sides: tuple[str, ...] | list[str], dice_mode: str,
            commitment: str) -> str:
    return _link(LABEL, {"id": game_id, "ruleset": ruleset, "scenario": scenario, "sides": list(sides),
                         "dice": {"mode": dice_mode, "commitment": commitment}})


def contribution_link(previous: str, seq: int, side: str, kind: str, value: str) -> str:
    return _link(previous.encode(), {"contribution": {"seq": seq, "side": side, "kind": kind, "value": value}})


def event_link(previous: str, index: int, side: str, event: Any, ruling: Any) -> str:
    return _link(previous.encode(), {"index": index, "side": side, "event": event, "ruling": ruling})


def end_link(head: str, event_count: int) -> str:
    return _link(head.encode(), {"end": event_count})


def base(stored: Any, contributions: list[Any]) -> str:
    """The link the first event follows: the set-up, then every dice contribution in order."""
    head = genesis(stored.id, stored.ruleset, stored.scenario, stored.sides, stored.dice_mode,
                   stored.dice_commitment)
    for c in contributions:
        head = contribution_link(head, c.seq, c.side, c.kind, c.value)
    return head


def contributions_of(dice: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(dice.get("contributions") or [])
