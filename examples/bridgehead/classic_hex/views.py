"""What a side sees: everything (the game has no hidden information), in the shape every ruleset's view has
(a list of units with ``id``, ``side`` and ``hex`` or ``box``), plus the pending decision."""
from __future__ import annotations

from typing import Any

from .state import State


def view(state: State, side: str | None, decision: dict[str, Any]) -> dict[str, Any]:
    units = []
    for uid, u in state.static.units.items():
        d: dict[str, Any] = {"id": uid, "name": u.name, "side": u.side, "kind": u.kind, "echelon": u.echelon,
                             "attack": u.attack, "defence": u.defence, "movement": u.movement}
        h = state.hexes.get(uid)
        if h is None:
            d["box"] = "eliminated"
        else:
            d["hex"] = h
        units.append(d)
    return {"ruleset": "classic-hex", "turn": state.turn, "player": state.side, "phase": state.phase,
            "over": state.over, "winner": state.winner, "decision": decision,
            "retreats": [{"unit": t.unit, "hexes": t.hexes, "from": t.origin} for t in state.retreats],
            "advance": None if state.advance is None else {"hex": state.advance.hex, "units": list(state.advance.units)},
            "units": units}
