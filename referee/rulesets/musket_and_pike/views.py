"""What a side may see.  The only hidden information in these rules is the secret Open Order choice (6.3.3)."""
from __future__ import annotations

from typing import Any, Mapping

from .facing import column_front_hour, footprint, has_facing
from .formations import movement_allowance
from .profile import Arm
from .state import COLUMN, MPState


def shows_back(unit: Mapping[str, Any]) -> bool:
    """The board hook (referee.service.board): the back of a Musket & Pike counter is its Shaken side."""
    return unit.get("formation") == "shaken"


def view(state: MPState, side: str | None) -> dict[str, Any]:
    st = state.static
    # A list of {id, hex, facing, ...} like every ruleset's view, so generic consumers (the service's board
    # picture) place the counters; ``hex`` is the left half of a two-hex unit, ``hexes`` its whole footprint.
    units = []
    for uid, u in state.units.items():
        p = state.profile(uid)
        d: dict[str, Any] = {"id": uid, "side": p.side, "wing": p.wing, "arm": p.arm.value, "size": p.size}
        if u.on_map:
            d["hex"] = u.hex
            d["hexes"] = list(footprint(st.grid, p, u))
            d["facing"] = u.facing if has_facing(p, u) else None
            if p.size == 2 and u.formation == COLUMN and u.facing is not None:
                d["column_front"] = column_front_hour(u.facing)     # 6.3.4: faces a hexside
                d["column_marker"] = d["hexes"][-1]                  # on the right half, the head
        else:
            d["box"] = u.box
        d["formation"] = u.formation
        if u.morale_broken:
            d["morale_broken"] = True
        if p.arm is Arm.ARTILLERY:
            d.update(limbered=u.limbered, fired=u.fired)
        d["ma"] = movement_allowance(p, u, st.options)
        d["mp_spent"] = u.mp_spent
        if u.loss_hits:
            d["loss_hits"] = u.loss_hits
        units.append(d)
    out: dict[str, Any] = {"ruleset": "musket-and-pike", "turn": state.turn, "over": state.over,
                           "orders": dict(state.orders), "activated": sorted(state.activated),
                           "active": None if state.active is None else
                           {"wing": state.active.wing, "side": state.active.side,
                            "rally_forced": state.active.rally_forced},
                           "units": units}
    if state.open_order_choices is not None:
        # 6.3.3: a side sees its own pending choice and only whether the other side has chosen.
        out["open_order_choices"] = {s: (list(c) if side is None or s == side else "hidden")
                                     for s, c in state.open_order_choices.items()}
    return out
