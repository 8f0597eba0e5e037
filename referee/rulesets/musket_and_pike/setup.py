"""The state before the first event, and 6.3.3's secret, simultaneous Open Order choice at the start."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.ruling import Error, Ruling, legal, result
from referee.engine.verbs import refuse

from .profile import Arm
from .state import MAKE_READY, NORMAL, OPEN, MPState, Static, UnitState
from .verbs import OPEN_ORDER, VERBS

BOXES = {"eliminated": "eliminated", "destroyed": "eliminated", "withdrawn": "off_map", "recovery": "off_map",
         "reinforcement": "reinforcement"}


def initial_state(scenario: Any) -> MPState:
    st = Static.from_scenario(scenario)
    placed = {p.unit: p for p in scenario.setup}
    arriving = {uid for r in scenario.reinforcements for uid in r.units}
    units: dict[str, UnitState] = {}
    for u in scenario.counters.units:
        prof = st.profiles[u.id]
        p = placed.get(u.id)
        formation = (getattr(p, "formation", None) if p else None) or NORMAL
        if not prof.has_formation:
            formation = None
        limbered = prof.arm is Arm.ARTILLERY and "limbered" in u.flags
        if p is not None and p.hex is not None:
            units[u.id] = UnitState(hex=p.hex, facing=None if (limbered or prof.arm is Arm.WAGON) else p.facing,
                                    formation=formation, limbered=limbered)
        else:
            box = BOXES.get(p.box, "off_map") if p is not None and p.box else (
                "reinforcement" if u.id in arriving else "off_map")
            units[u.id] = UnitState(hex=None, facing=None, formation=formation, box=box, limbered=limbered)
    orders = {w: str(dict(st.option("orders", {})).get(w, st.option("default_order", MAKE_READY))) for w in st.wings}
    choices = {} if st.option("open_order_choice", False) else None
    return MPState(static=st, units=units, orders=orders, turn=st.first_turn, open_order_choices=choices)


@VERBS.verb("open_order_setup", steps=(OPEN_ORDER,), rules=("6.3.3",), refs={"units": "units"},
            not_now=Error("6.3.3", "no_choice_now", "Open Order is chosen before play, in scenarios that allow it"))
def open_order_setup(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    """6.3.3: each side picks its Open Order units secretly; all are revealed at once when the last side has
    chosen.  Until then the choice is hidden from the other side (see ``views``).  A side that has chosen is
    refused by the dispatcher (the step waits only for the others)."""
    side, picked = event["side"], tuple(event["units"])
    for uid in picked:
        p = state.static.profiles.get(uid)
        if p is None or p.side != side:
            refuse("6.3.3", "not_yours", f"{uid} is not a unit of {side}")
        if not p.has_formation or state.unit(uid).formation != NORMAL:
            refuse("6.3.3", "not_normal", f"{uid} is not a formed unit in Normal formation")
    choices = {**state.open_order_choices, side: picked}
    if set(choices) < set(state.static.sides):
        return legal("open_order_setup", ["6.3.3"], results=[result("chosen", "6.3.3", side=side, hidden=True)]), \
            replace(state, open_order_choices=choices)
    units = dict(state.units)
    results = []
    for s in state.static.sides:
        for uid in choices[s]:
            units[uid] = replace(units[uid], formation=OPEN)
            results.append(result(OPEN, "6.3.3", uid, side=s))
    return legal("open_order_setup", ["6.3.3"], results=results), replace(state, units=units, open_order_choices=None)


@VERBS.candidates("open_order_setup")
def _choices(state: MPState):
    # The random-play driver keeps set-ups as they are: each side chooses no Open Order units.
    return [{"type": "open_order_setup", "side": s, "units": []}
            for s in state.static.sides if s not in state.open_order_choices]
