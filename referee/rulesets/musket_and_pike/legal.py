"""Every event that is legal now, for the random-legal-play driver and for clients.

Candidates are generated from the state (one-step moves, every vertex, both wheels, each reform target) and
kept only if the ruleset itself rules them legal, so the list can never disagree with the rulings.
"""
from __future__ import annotations

from typing import Any, Callable

from modulebuilder.hexgrid import add_hours

from .facing import has_facing
from .movement import next_positions
from .recovery import reform_targets
from .reinforcements import arrival
from .state import MPState


def candidates(state: MPState) -> list[dict[str, Any]]:
    st = state.static
    if state.over:
        return []
    if state.open_order_choices is not None:
        # The driver keeps set-ups as they are: each side chooses no Open Order units.
        return [{"type": "open_order_setup", "side": s, "units": []}
                for s in st.sides if s not in state.open_order_choices]
    if state.active is None:
        return [{"type": "draw", "side": st.wings[w], "wing": w} for w in st.wings if w not in state.activated]
    side = state.active.side
    out: list[dict[str, Any]] = [{"type": "end_activation", "side": side}, {"type": "pass", "side": side}]
    for uid in st.wing_units.get(state.active.wing, ()):
        u, p = state.unit(uid), state.profile(uid)
        if u.box == "reinforcement":
            when = arrival(st.scenario, uid)
            out += [{"type": "enter", "side": side, "unit": uid, "hex": h, "facing": f}
                    for h in (when[1] if when else ()) for f in st.grid.vertex_hours]
            continue
        if not u.on_map:
            continue
        base = {"side": side, "unit": uid}
        out += [{"type": "move", **base, "path": [h]} for h in next_positions(st.grid, p, u)]
        if has_facing(p, u):
            out += [{"type": "face", **base, "facing": f} for f in st.grid.vertex_hours if f != u.facing]
            out += [{"type": "wheel", **base, "facing": add_hours(u.facing, d)} for d in (-2, 2)]
            out.append({"type": "counter_march", **base})
        out += [{"type": "reform", **base, "to": t} for t in reform_targets(p, u.formation)]
        out.append({"type": "change_formation", **base, "to": "hedgehog"})
    return out


def legal_actions(state: MPState, rule: Callable[[MPState, dict[str, Any]], Any]) -> list[dict[str, Any]]:
    return [e for e in candidates(state) if rule(state, e)[0].legal]
