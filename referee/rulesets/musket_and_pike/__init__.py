"""Musket & Pike (GMT series rules) - facing, formations and the mandatory Rally: the referee's second
ruleset plugin, registered under the entry-point group ``referee.rulesets`` as ``musket-and-pike``.

It rules what the rules digest ``shared/rules/musket-and-pike.md`` contains: facing of one- and two-hex
units ([6.1]), facing changes (6.2.1-6.2.4), formations and their hits (6.3.1-6.3.4), formation recovery
([6.4]) and MP-RALLY.  The missing chapters (activation, orders, movement, fire, melee, morale) enter only
as documented engine defaults or as events that report their outcome (see docs/musket-and-pike.md).

It is built on the engine's framework (``referee.engine.procedure``): the verbs are declared in ``verbs``'
registry by the modules that apply their rules, the pending decision is ``procedure.step``, and the engine's
dispatcher, reference checks and legal-action listing do the rest.

Module map: ``profile`` (what a counter is), ``state``, ``terrain`` (TEC as data), ``facing`` ([6.1]),
``facing_changes`` (6.2.x), ``formations`` (6.3.x), ``recovery`` ([6.4]), ``rally`` (MP-RALLY),
``movement``, ``allowance`` (MP left), ``procedure`` (the steps); the verbs: ``setup`` (initial state, secret
Open Order), ``activation`` (draw / pass / end / orders), ``reinforcements`` (enter), ``moving`` (move),
``turning`` (face, wheel, counter-march), ``reforming`` (reform and Hedgehog), ``combat`` (melee and the
outcomes of the missing chapters), ``firing`` (fire); ``views``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from modulebuilder.hexgrid import HexGrid

from referee.engine.procedure import ProcedureRuleset, Step
from referee.engine.references import Names

# Importing the verb modules declares their verbs in the registry.
from . import activation, combat, firing, moving, reforming, reinforcements, setup, turning  # noqa: F401
from . import actors, procedure, views
from .conceal import conceal as _conceal, hidden_act as _hidden_act
from .state import MPState
from .verbs import VERBS


@lru_cache(maxsize=16)
def _grid(model: Any) -> HexGrid:
    """One geometry per map grid: logs name hexes in thousands of events."""
    return HexGrid.from_model(model)


class MusketAndPike(ProcedureRuleset):
    id = "musket-and-pike"
    name = "Musket & Pike (facing, formations, Rally)"
    verbs = VERBS
    notation = f"{__package__}.notation"     # the chat notation of .vlog files (referee.logs.notation)
    conceal = staticmethod(_conceal)      # what a side may not know, sealed (referee.engine.hidden): what-ifs
    hidden_act = staticmethod(_hidden_act)   # what another side may not see of a recorded act (hosted views)

    def build_names(self, scenario: Any) -> Names:
        """Units (and leaders), hexes, wings and sides an event may name (cached per scenario by the engine)."""
        counters = scenario.counters
        names = Names.of(
            unit=({u.id for u in counters.units} | {ldr.id for ldr in counters.leaders},
                  "no unit '{name}' in the scenario"),
            hex=(_grid(scenario.map.grid).hexes(), "no hex '{name}' on the map"),
            wing=({a.id for a in counters.activation_groups}, "no wing '{name}' in the scenario"),
            side=({s.name for s in scenario.sides}, "no side '{name}' in the scenario"))
        return names

    def check_scenario(self, scenario: Any) -> list[str]:
        return []

    def initial_state(self, scenario: Any) -> MPState:
        return setup.initial_state(scenario)

    def step(self, state: MPState) -> Step:
        return procedure.step(state)

    def view(self, state: MPState, side: str | None) -> dict[str, Any]:
        return views.view(state, side)

    def progress(self, state: MPState) -> tuple[str, str]:
        return state.label()

    actor = staticmethod(actors.actor)    # whose act an event is (referee.engine.actors): hosted games
    shows_back = staticmethod(views.shows_back)   # which face the board draws (referee.service.board)


RULESET = MusketAndPike()
