"""Whose act a Triumph & Glory event is (the engine's ``actor`` hook, referee.engine.actors).

A hosted game rules every event as the act of the side whose token sent it; this module answers, for each
event type of ``events.schema.json``, which side's act it is now:

* an event naming units (``unit``, ``units``, ``order``, ``under_orders``, the attackers of ``assaults``) is
  the act of their owner — a side moves, fires, assaults, retreats, rallies, rolls for, orders only its own
  units (5.2x, 6.1, 8.x, 9.x, 10.x); units of both sides in one act are nobody's alone;
* ``end_activation`` without a side is the act of the side whose activation it is (5.31; a special marker's
  activation, which has no side, ends by either);
* ``go_first`` choosing the first side is the act of the initiative holder (4.0, 5.51); with the rolls that
  decide it when nobody holds it, each side rolls its own (the engine checks ``rolls``);
* every other event carries ``side`` (the schema requires it), which is its actor;
* ``draw`` and ``initiative`` without a side are either side's (5.31: a player draws from the cup; 4.0: both
  roll, each its own die).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from referee.engine.actors import BOTH_SIDES

from .state import TGState


def _named_units(event: Mapping[str, Any]) -> Iterator[str]:
    if isinstance(event.get("unit"), str):
        yield event["unit"]
    for field in ("units", "order"):
        yield from (u for u in event.get(field) or () if isinstance(u, str))
    for group in event.get("under_orders") or ():
        yield from ([group] if isinstance(group, str) else group)
    for assault in event.get("assaults") or ():
        yield from assault.get("attackers") or ()


def actor(state: TGState, event: Mapping[str, Any]) -> str | None:
    units = state.board.units
    owners = {units[u].side for u in _named_units(event) if u in units}
    if len(owners) > 1:
        return BOTH_SIDES
    if owners:
        return owners.pop()
    if event.get("side") is not None:
        return str(event["side"])
    type_ = event.get("type")
    if type_ == "end_activation":
        return state.activation.side if state.activation is not None else None
    if type_ == "go_first" and "first" in event:
        return state.initiative
    return None
