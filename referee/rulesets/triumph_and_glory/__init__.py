"""Triumph & Glory v2.2 (as in *Borodino*) — the referee's ruleset plugin.

Registered under the entry-point group ``referee.rulesets`` as ``triumph-and-glory``.  The whole sequence of play
(3.0): initiative (4.0), orders and order groups (5.1x–5.2x), activation markers (5.3x), reserve activation
(5.5x), commanders-in-chief (5.6x), movement, facing and stacking (6.x–7.x), fire (8.x), shock, charges and
secondary shocks (9.x), rally, recovery and collapse (10.x), the *Borodino* special rules and *Schevardino*'s
command activation.

On the engine's framework (``referee.engine.procedure``): data flows one way — event → the engine's dispatcher
→ the guards (``procedure.GUARDS``) and the pending step (``procedure.step``: an owed act holds up the acts that must wait for it) → the verb (declared in ``verbs``' registry) → new state → ``procedure.after``
(``sequence.advance``) → ``procedure.cite_what_decided``.  The modules are layers (docs/architecture.md,
contracted in ``.importlinter``): wiring (``legal``, ``views``, ``notation``, ``wording``, ``actors``) >
``procedure`` > the verbs by rules chapter (``orders``, ``initiative``, ``activation``, ``reserve``, ``cinc``,
``moves``, ``fire_events``, ``shock_events``, ``charge_events``, ``secondary_events``, ``owed``,
``morale_events``, ``destruction``, ``phase_events``) and ``sequence`` > ``verbs``, ``timing`` > ``state`` > the
pure rules (facing, zoc, los, stacking, movement, fire, commitment, shock, charge, retreat, advance, morale,
victory...) > ``board``, ``terrain``, ``rolls``, ``scenario_rules``.
"""
from __future__ import annotations

from typing import Any

from referee.engine.procedure import ProcedureRuleset
from referee.engine.references import Names

# Importing the verb modules declares their verbs in the registry (``verbs``), each beside its rules.
from . import (activation, cinc, charge_events, destruction, fire_events, initiative, morale_events,  # noqa: F401
               moves, orders, owed, phase_events, reserve, secondary_events, shock_events)
from . import actors, legal, procedure, scenario_rules, sequence, views
from .board import Board, RuleSwitches
from .conceal import conceal as _conceal, hidden_act as _hidden_act
from .state import Static, TGState
from .verbs import VERBS
from .wording import why_no_roll as _why_no_roll

def _names(scenario: Any) -> Names:
    """What the events of ``scenario`` may name (the verbs' ``refs`` say which field holds which kind)."""
    sides = tuple(s.name for s in scenario.sides)
    rules = scenario_rules.parse(scenario)
    markers = {a.id for a in scenario.counters.activation_groups} | {"destruction"}
    markers |= {f"{k}:{s}" for k in ("barrage", "cga") for s in sides}
    if rules.cavalry_reserve is not None:
        markers.add(rules.cavalry_reserve.marker)
    cmd = rules.command_activation
    units = [u.id for u in scenario.counters.units] + [ldr.id for ldr in scenario.counters.leaders]
    return Names.of(unit=(units, "no unit '{name}' in the scenario"),
                    hex=(_hex_names(scenario.map.grid), "no hex '{name}' on the map"),
                    side=(sides, "no side '{name}' in the scenario (sides: " + ", ".join(sides) + ")"),
                    roller=(sides, "no side '{name}' in the scenario"),      # a side named by its roll
                    marker=(markers, "no marker '{name}' in the scenario"),
                    ag=((a.id for a in scenario.counters.activation_groups),
                        "no activation group '{name}' in the scenario"),
                    command=(cmd.commands if cmd else (), "no command '{name}' in the scenario"))


class TriumphAndGlory(ProcedureRuleset):
    """On the engine's framework: the verbs in ``verbs``' registry (each with the fields it names, checked by
    the engine's reference checks), the pending decision ``procedure.step``, the guards for every verb and what
    follows a complete ruling from ``procedure``; its own legal listing (``legal``)."""
    id = "triumph-and-glory"
    name = "Triumph & Glory v2.2"
    conceal = staticmethod(_conceal)      # what a side may not know, sealed (referee.engine.hidden): what-ifs
    hidden_act = staticmethod(_hidden_act)   # what another side may not see of a recorded act (hosted views)
    notation = f"{__package__}.notation"     # the chat notation of .vlog files (referee.logs.notation)
    wording = f"{__package__}.wording"       # the words of its rolls in reports (referee.report)
    verbs = VERBS
    guards = procedure.GUARDS
    after = staticmethod(procedure.after)
    finish = staticmethod(procedure.cite_what_decided)

    step = staticmethod(procedure.step)        # the pending decision (one call less per event than a method)
    #: every ruling ``rule`` returns is new (``legal``/``illegal``/``replace``; no ruling is kept in a state or a
    #: memo), so the engine gives it its log index in place (``referee.engine.ruleset``; tests/tg/test_replay_fastpaths.py)
    rulings_are_new = True

    def build_names(self, scenario: Any) -> Names:
        """What events may name in a scenario (built once per scenario by the framework's ``names``)."""
        return _names(scenario)

    def check_scenario(self, scenario: Any) -> list[str]:
        """The scenario options this ruleset reads must have values it understands: a bad one makes the log
        bad input (DESIGN §4), reported before any event is ruled on, not an error in the middle of a replay."""
        try:
            RuleSwitches.from_scenario(scenario)
            scenario_rules.parse(scenario)
        except (ValueError, TypeError) as exc:
            msg = str(exc)
            return [f"scenario.{msg}" if msg.startswith("options.") else f"scenario.options: {msg}"]
        return sequence.start_errors(scenario)

    def initial_state(self, scenario: Any) -> TGState:
        return sequence.initial_state(Static.from_scenario(scenario), Board.from_scenario(scenario))

    def view(self, state: TGState, side: str | None) -> dict[str, Any]:
        return views.view(state, side)

    def unit_actions(self, state: TGState, unit: str) -> list[dict[str, Any]]:
        """Every legal act of one unit now (``legal_actions`` is bounded for random play; this is not)."""
        return legal.unit_actions(state, unit)

    def progress(self, state: TGState) -> tuple[str, str]:
        return state.label()

    def is_over(self, state: TGState) -> bool:
        return state.over

    actor = staticmethod(actors.actor)    # whose act an event is (referee.engine.actors): hosted games
    why_no_roll = staticmethod(_why_no_roll)   # a die sent after an act that needed none
    start_at = staticmethod(sequence.start_at)   # the start a turn track shows (a VASSAL save's tracker)
    shows_back = staticmethod(views.shows_back)   # which face the board draws (referee.service.board)


def _hex_names(grid: Any) -> frozenset[str]:
    """Every hex name of the map (CCRR with the grid's zero-padding): ``f"{c:0{d}d}{r:0{d}d}"`` for each column
    and row, each column's and row's text formatted once (not each pair: docs/speed.md)."""
    d = grid.digits
    columns = [f"{c:0{d}d}" for c in range(grid.first_column, grid.first_column + grid.columns)]
    rows = [f"{r:0{d}d}" for r in range(grid.first_row, grid.first_row + grid.rows)]
    return frozenset([c + r for c in columns for r in rows])


RULESET = TriumphAndGlory()
