"""Reinforcements entering play (G-M3 engine default; 6.3.4 lets them enter in Column).

The excerpt only says that reinforcements exist (they suspend MP-RALLY) and may enter in Column.  Engine
default: a unit listed under the scenario's ``reinforcements`` enters in its wing's activation, on or after
its turn, on one of its entry hexes (a two-hex unit: the left half there, the right half at facing+3 on
the map), paying the TEC cost of the hex, in Normal formation or in Column (``formation: column``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.ruling import Ruling, legal, result
from referee.engine.verbs import refuse

from .activation import acted
from .facing import footprint
from .movement import enemy_hexes
from .state import COLUMN, NORMAL, MPState
from .verbs import ACTIVATION, VERBS


def arrival(scenario: Any, uid: str) -> tuple[int | None, tuple[str, ...]] | None:
    """(turn, entry hexes) of a unit's reinforcement line, or None if it is not a reinforcement."""
    return next(((r.turn, r.entry) for r in scenario.reinforcements if uid in r.units), None)


@VERBS.verb("enter", steps=(ACTIVATION,), rules=("G-M3",), refs={"unit": "unit", "hex": "hex"})
def enter(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    uid, hex_, facing = event["unit"], event["hex"], event["facing"]
    st = state.static
    p = st.profiles.get(uid)
    if p is None or p.wing != state.active.wing:
        refuse("G-M1", "not_in_active_wing", f"{uid} is not a unit of {state.active.wing}")
    u = state.unit(uid)
    when = arrival(st.scenario, uid)
    if u.box != "reinforcement" or when is None:
        refuse("G-M3", "not_a_reinforcement", f"{uid} is not waiting to enter")
    turn, entry = when
    if turn is not None and state.turn < turn:
        refuse("G-M3", "too_early", f"{uid} enters on turn {turn} or later")
    if hex_ not in entry:
        refuse("G-M3", "not_an_entry_hex", f"{uid} enters at {', '.join(entry)}",
                                       entry)
    if not st.grid.is_vertex(facing):
        refuse("6.1", "not_a_vertex", f"{facing} is not a vertex hour",
                                       st.grid.vertex_hours)
    formation = event.get("formation", NORMAL) if p.has_formation else None
    placed = replace(u, hex=hex_, box=None, facing=facing, formation=formation)
    hexes = footprint(st.grid, p, placed)
    if len(hexes) < p.size:
        refuse("6.1", "off_map", "the right half would be off the map")
    if set(hexes) & enemy_hexes(state, p.side):
        refuse("G-M3", "enemy_occupied", f"{hex_} holds an enemy unit")
    cost = st.terrain.enter(hex_, hex_, p.arm.value).cost
    if cost is None:
        refuse("G-M3", "prohibited_terrain", f"{hex_} is prohibited terrain")
    new = acted(replace(state, units={**state.units, uid: replace(placed, mp_spent=cost)}))
    rules = ["G-M3"] + (["6.3.4"] if formation == COLUMN else [])
    return legal("enter", rules, results=[result("entered", rules[-1], uid, hex=hex_, formation=formation,
                                                  mp=cost)]), new


@VERBS.candidates("enter")
def _entries(state: MPState):
    st = state.static
    side = state.active.side
    out = []
    for uid in st.wing_units.get(state.active.wing, ()):
        if state.unit(uid).box == "reinforcement":
            when = arrival(st.scenario, uid)
            out += [{"type": "enter", "side": side, "unit": uid, "hex": h, "facing": f}
                    for h in (when[1] if when else ()) for f in st.grid.vertex_hours]
    return out
