"""Whose act a Musket & Pike event is (the engine's ``actor`` hook, referee.engine.actors).

For each event type of ``events.schema.json``:

* ``move``, ``face``, ``wheel``, ``counter_march``, ``reform``, ``change_formation``, ``enter`` — the owner of
  the unit (G-M1: a unit acts in its wing's activation, sent by its own side);
* ``assaults``, ``melee`` — the owner of the attackers (both sides' attackers in one declaration: nobody's alone);
* ``fire`` — the owner of the firing unit (reaction fire too: the other side's unit, in the enemy's activation);
* ``formation_hit``, ``attacked``, ``morale_broken`` — outcomes of the chapters these rules do not have
  (fire, melee, morale), reported on a unit: the owner of the unit reports what befell it.  The other
  reading, the attacker reports it, would let a side break the enemy's formations at will with no roll to
  show for it; a side that never reports a hit on its own units is visible in the record instead;
* ``draw`` — the side of the wing drawn (G-M1); ``pass``, ``end_activation``, ``order_change`` — the side of
  the wing being activated;
* ``open_order_setup`` — its ``side`` (6.3.3: each side chooses its own).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from referee.engine.actors import BOTH_SIDES

from .state import MPState


def _named_units(event: Mapping[str, Any]) -> Iterator[str]:
    if isinstance(event.get("unit"), str):
        yield event["unit"]
    yield from (u for u in event.get("units") or () if isinstance(u, str))
    yield from (u for u in event.get("attackers") or () if isinstance(u, str))      # melee
    for assault in event.get("assaults") or ():
        yield from assault.get("attackers") or ()


def _owner(state: MPState, uid: str) -> str | None:
    p = state.static.profiles.get(uid)
    return p.side if p is not None else state.static.leader_sides.get(uid)


def actor(state: MPState, event: Mapping[str, Any]) -> str | None:
    owners = {o for o in (_owner(state, u) for u in _named_units(event)) if o is not None}
    if len(owners) > 1:
        return BOTH_SIDES
    if owners:
        return owners.pop()
    type_ = event.get("type")
    if type_ == "draw":
        return state.static.wings.get(event.get("marker", event.get("wing")), event.get("side"))
    if type_ in ("pass", "end_activation", "order_change"):
        return state.active.side if state.active is not None else event.get("side")
    return event.get("side")
