"""Musket & Pike (GMT series rules) - facing, formations and the mandatory Rally: the referee's second
ruleset plugin, registered under the entry-point group ``referee.rulesets`` as ``musket-and-pike``.

It rules what the rules digest ``shared/rules/musket-and-pike.md`` contains: facing of one- and two-hex
units ([6.1]), facing changes (6.2.1-6.2.4), formations and their hits (6.3.1-6.3.4), formation recovery
([6.4]) and MP-RALLY.  The missing chapters (activation, orders, movement, fire, melee, morale) enter only
as documented engine defaults or as events that report their outcome (see docs/musket-and-pike.md).

Module map: ``profile`` (what a counter is), ``state``, ``terrain`` (TEC as data), ``facing`` ([6.1]),
``facing_changes`` (6.2.x), ``formations`` (6.3.x), ``recovery`` ([6.4]), ``rally`` (MP-RALLY),
``movement``, ``allowance`` (MP left), ``reinforcements``, ``activation`` (draw / pass / end / orders),
``turning`` (face, wheel, counter-march events), ``moving`` (move events), ``reforming`` (reform and Hedgehog
events), ``combat`` (outcomes of the missing chapters), ``setup`` (initial state, secret Open Order),
``legal``, ``views``.
"""
from __future__ import annotations

import json
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

from modulebuilder.hexgrid import HexGrid

from referee.engine.dice import EventDice
from referee.engine.ruling import Ruling

from . import activation, combat, legal, moving, reforming, reinforcements, setup, turning, views
from .state import MPState

Handler = Callable[[MPState, Mapping[str, Any]], tuple[Ruling, MPState]]

HANDLERS: Mapping[str, Handler] = {
    "open_order_setup": setup.open_order_setup,
    "draw": activation.draw,
    "pass": activation.pass_activation,
    "end_activation": activation.end_activation,
    "order_change": activation.order_change,
    "enter": reinforcements.enter,
    "move": moving.move,
    "face": turning.face,
    "wheel": turning.wheel,
    "counter_march": turning.counter_march,
    "reform": reforming.reform,
    "change_formation": reforming.change_formation,
    "formation_hit": combat.formation_hit,
    "attacked": combat.attacked,
    "morale_broken": combat.morale_broken,
    "assaults": combat.assaults,
}


@lru_cache(maxsize=16)
def _grid(model: Any) -> HexGrid:
    """One geometry per map grid: logs name hexes in thousands of events."""
    return HexGrid.from_model(model)


class MusketAndPike:
    id = "musket-and-pike"
    name = "Musket & Pike (facing, formations, Rally)"
    notation = f"{__package__}.notation"     # the chat notation of .vlog files (referee.logs.notation)

    @cached_property
    def _schema(self) -> dict[str, Any]:
        return json.loads(resources.files(__package__).joinpath("events.schema.json").read_text("utf-8"))

    def event_schema(self) -> Mapping[str, Any]:
        return self._schema

    def check_references(self, scenario: Any, event: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Units, leaders, wings, sides and hexes an event names must exist (else the log is bad input)."""
        counters = scenario.counters
        pieces = {u.id for u in counters.units} | {ldr.id for ldr in counters.leaders}
        wings = {a.id for a in counters.activation_groups}
        sides = {s.name for s in scenario.sides}
        grid = _grid(scenario.map.grid)
        out: list[tuple[str, str]] = []
        if "unit" in event and event["unit"] not in pieces:
            out.append(("unit", f"no unit '{event['unit']}' in the scenario"))
        for i, uid in enumerate(event.get("units", ()) or ()):
            if uid not in pieces:
                out.append((f"units[{i}]", f"no unit '{uid}' in the scenario"))
        for i, a in enumerate(event.get("assaults", ()) or ()):
            out += [(f"assaults[{i}].attackers[{j}]", f"no unit '{u}' in the scenario")
                    for j, u in enumerate(a["attackers"]) if u not in pieces]
            if not grid.contains(a["target"]):
                out.append((f"assaults[{i}].target", f"no hex '{a['target']}' on the map"))
        if "wing" in event and event["wing"] not in wings:
            out.append(("wing", f"no wing '{event['wing']}' in the scenario"))
        if "side" in event and event["side"] not in sides:
            out.append(("side", f"no side '{event['side']}' in the scenario"))
        if "hex" in event and not grid.contains(event["hex"]):
            out.append(("hex", f"no hex '{event['hex']}' on the map"))
        for i, h in enumerate(event.get("path", ()) or ()):
            if not grid.contains(h):
                out.append((f"path[{i}]", f"no hex '{h}' on the map"))
        return out

    def initial_state(self, scenario: Any) -> MPState:
        return setup.initial_state(scenario)

    def rule(self, state: MPState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, MPState]:
        # No rule of this excerpt rolls a die of its own (digest §0), so ``dice`` is never asked.
        return HANDLERS[event["type"]](state, event)

    def view(self, state: MPState, side: str | None) -> dict[str, Any]:
        return views.view(state, side)

    def legal_actions(self, state: MPState) -> list[dict[str, Any]]:
        return legal.legal_actions(state, lambda s, e: HANDLERS[e["type"]](s, e))

    def progress(self, state: MPState) -> tuple[str, str]:
        return state.label()

    def is_over(self, state: MPState) -> bool:
        return state.over


RULESET = MusketAndPike()
