"""What each side may see (5.23: the opponent's order statuses stay hidden until the first AM of their AG is
drawn this turn), and the JSON ``state`` of ``referee check``."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from .state import TGState


def shows_back(unit: Mapping[str, Any]) -> bool:
    """The board hook (referee.service.board): a counter shows its back when the unit is Disordered (6.4: the
    back of a T&G counter is its Disordered side)."""
    return unit.get("status") == "disordered"


def unit_view(u: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": u.id}
    if u.hex is not None:
        d["hex"] = u.hex
        if u.facing is not None:
            d["facing"] = u.facing
    else:
        d["box"] = u.box
    if not u.is_leader:
        d["status"] = u.status
    return d


def orders_view(state: TGState, side: str, viewer: str | None) -> dict[str, Any]:
    o = state.orders[side]
    own = viewer is None or viewer == side
    groups = []
    for i, g in enumerate(o.groups):
        ag = state.unit(g[0]).ag
        entry: dict[str, Any] = {"ag": ag, "units": list(g)}
        if own or ag in state.revealed:
            entry["status"] = "UO" if i in o.under_orders else "NO"
        else:
            entry["status"] = "hidden"                     # 5.23
        groups.append(entry)
    out: dict[str, Any] = {"given": o.given, "delay": o.delay, "delay_failures": o.failures, "groups": groups}
    if own:
        out["barrage"] = o.barrage
        if o.army is not None:
            out["army"] = o.army
    return out


def view(state: TGState, viewer: str | None) -> dict[str, Any]:
    turn, phase = state.label()
    out: dict[str, Any] = {
        "ruleset": "triumph-and-glory", "scenario": state.static.scenario.id,
        "turn": state.turn, "turn_label": turn, "phase": state.phase, "phase_label": phase,
        "initiative": state.initiative,
        "cup": dict(sorted(Counter(state.cup).items())),
        "orders": {s: orders_view(state, s, viewer) for s in state.static.sides},
        "units": [unit_view(u) for u in state.board.units.values()],
    }
    if state.activation is not None:
        a = state.activation
        out["activation"] = {"marker": a.marker, "side": a.side, "reserve": a.reserve,
                             "acted": sorted(a.acted), "checks_owed": list(a.checks_owed)}
    if state.two_sided is not None and state.two_sided.order is not None:
        out["order_of_play"] = list(state.two_sided.order)
    if state.active_commands:
        out["active_commands"] = sorted(state.active_commands)
    if state.activation is not None and state.activation.combat.declared:
        c = state.activation.combat
        out["activation"]["assaults"] = [{"attackers": list(a.attackers), "target": list(a.targets),
                                          "resolved": i in c.resolved} for i, a in enumerate(c.assaults)]
    if state.collapsed:
        out["collapsed"] = sorted(state.collapsed)
    if state.recovery_owed:
        out["recovery_owed"] = list(state.recovery_owed)
    if state.victory is not None:
        out["victory"] = dict(state.victory)
    if state.board.on_fire or state.board.rubble:
        out["markers"] = {"on_fire": sorted(state.board.on_fire), "rubble": sorted(state.board.rubble)}
    return out
