"""``classic-hex``: the referee's ruleset for *Bridgehead* and games like it (README rules 1.0-8.0).

Shipped as its own distribution (``examples/bridgehead/pyproject.toml``) and found by the referee through the
entry-point group ``referee.rulesets``; built on the engine's framework (``referee.engine.procedure``), which
gives it the dispatcher, the reference checks and the legal-action listing.

Module map: ``state`` (records), ``tables`` (TEC and CRT as data), ``rules`` (pure rule functions: ZOC,
stacking, movement, odds, results, retreats), ``verbs`` (one per event), ``procedure`` (the pending decision),
``views``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from referee.engine.actors import BOTH_SIDES
from referee.engine.procedure import ProcedureRuleset, Step
from referee.engine.references import Names

from . import procedure, views
from .state import MOVEMENT, State, Static
from .tables import Crt
from .verbs import VERBS


class ClassicHex(ProcedureRuleset):
    id = "classic-hex"
    name = "Classic hex-and-counter (Bridgehead)"
    verbs = VERBS
    dice = ("d6",)                  # one d6, read on the CRT (README 1.3, 6.5)

    def build_names(self, scenario: Any) -> Names:
        grid = scenario.map.grid
        d = grid.digits
        hexes = {f"{c:0{d}d}{r:0{d}d}" for c in range(grid.first_column, grid.first_column + grid.columns)
                 for r in range(grid.first_row, grid.first_row + grid.rows)}
        names = Names.of(unit=({u.id for u in scenario.counters.units}, "no unit '{name}' in the scenario"),
                         hex=(hexes, "no hex '{name}' on the map"),
                         side=({s.name for s in scenario.sides}, "no side '{name}' in the scenario"))
        return names

    def check_scenario(self, scenario: Any) -> list[str]:
        """The tables this ruleset reads must be there and well-formed (bad input, not a crash mid-replay)."""
        problems = []
        tables = scenario.tables or {}
        if not (tables.get("crt") or {}).get("columns"):
            problems.append("scenario.tables.crt: the Combat Results Table is missing (README 6.5)")
        else:
            try:
                Crt.from_tables(tables)
            except ValueError as exc:
                problems.append(f"scenario.{exc}")
        if len(scenario.sides) != 2:
            problems.append("scenario.sides: exactly two sides play (README 2.1)")
        first = scenario.options.get("first_player")
        if first is not None and first not in {s.name for s in scenario.sides}:
            problems.append(f"scenario.options.first_player: no side '{first}'")
        return problems

    def initial_state(self, scenario: Any) -> State:
        st = Static.from_scenario(scenario)
        placed = {p.unit: p.hex for p in scenario.setup if p.hex}
        return State(static=st, turn=st.first_turn, player=0, phase=MOVEMENT,
                     hexes={uid: placed.get(uid) for uid in st.units})

    def step(self, state: State) -> Step:
        return procedure.step(state)

    def view(self, state: State, side: str | None) -> dict[str, Any]:
        return views.view(state, side, self.decision(state))

    def progress(self, state: State) -> tuple[str, str]:
        return state.label()

    def actor(self, state: State, event: Mapping[str, Any]) -> str | None:
        """Whose act an event is (the engine's hook for hosted games, referee.engine.actors): the owner of the
        units it names (a retreat is the owner's, 7.3), else whoever the pending decision waits for (2.2)."""
        named = [event.get("unit")] + list(event.get("attackers") or ()) + list(event.get("units") or ())
        owners = {state.static.units[u].side for u in named if u in state.static.units}
        if len(owners) > 1:
            return BOTH_SIDES
        if owners:
            return owners.pop()
        actors = self.step(state).actors
        return actors[0] if len(actors) == 1 else event.get("side")

    def conceal(self, state: State, viewer: str) -> State:
        """The state as ``viewer`` may know it (the engine's hook for a hosted game's "what if",
        referee.engine.hidden): nothing is hidden in these rules — every unit is on the map face up, there are no
        secret orders or choices (README 2.0-8.0), and a die is rolled only when its attack is declared — so a
        side may know the whole state."""
        return state

    def hidden_act(self, state: State, event: Mapping[str, Any]) -> str | None:
        """What a hosted game's log keeps back of another side's recorded act (the engine's hook, the rule that
        hides it): nothing, for the reasons ``conceal`` gives."""
        return None


RULESET = ClassicHex()
