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

from functools import partial
from typing import Any, Callable, Mapping

from modulebuilder.records import record
from referee.engine.procedure import ProcedureRuleset

# Importing the verb modules declares their verbs in the registry (``verbs``), each beside its rules.
from . import (activation, cinc, charge_events, destruction, fire_events, initiative, morale_events,  # noqa: F401
               moves, orders, owed, phase_events, reserve, secondary_events, shock_events)
from . import actors, legal, procedure, scenario_rules, sequence, views
from .board import Board, RuleSwitches
from .conceal import conceal as _conceal, hidden_act as _hidden_act
from .state import Static, TGState
from .verbs import VERBS
from .wording import why_no_roll as _why_no_roll

UNIT_FIELDS = ("unit",)
UNIT_LIST_FIELDS = ("units", "order")
HEX_FIELDS = ("hex", "to", "target", "village", "at")          # a hex, or (to, target) a list of hexes
HEX_LIST_FIELDS = ("path", "bridge")
# What each field an event may carry names, for the one pass over an event's fields in check_references.
_FIELD_KIND = {**{f: "unit" for f in UNIT_FIELDS}, **{f: "units" for f in UNIT_LIST_FIELDS},
               **{f: "hex" for f in HEX_FIELDS}, **{f: "hexes" for f in HEX_LIST_FIELDS},
               "under_orders": "orders", "assaults": "assaults", "side": "side", "first": "side", "rolls": "rolls",
               "marker": "marker", "ags": "ags", "command": "command"}


@record(frozen=True)
class _Names:
    scenario: Any
    units: frozenset[str]
    sides: tuple[str, ...]
    markers: frozenset[str]
    commands: frozenset[str]
    ags: frozenset[str]
    grid: Any
    hexes: frozenset[str]

    @classmethod
    def of(cls, scenario: Any) -> "_Names":
        sides = tuple(s.name for s in scenario.sides)
        rules = scenario_rules.parse(scenario)
        markers = {a.id for a in scenario.counters.activation_groups} | {"destruction"}
        markers |= {f"{k}:{s}" for k in ("barrage", "cga") for s in sides}
        if rules.cavalry_reserve is not None:
            markers.add(rules.cavalry_reserve.marker)
        cmd = rules.command_activation
        return cls(scenario=scenario,
                   units=frozenset(u.id for u in scenario.counters.units)
                   | frozenset(ldr.id for ldr in scenario.counters.leaders),
                   sides=sides, markers=frozenset(markers),
                   commands=frozenset(cmd.commands) if cmd else frozenset(),
                   ags=frozenset(a.id for a in scenario.counters.activation_groups), grid=scenario.map.grid,
                   hexes=_hex_names(scenario.map.grid))


class TriumphAndGlory(ProcedureRuleset):
    """On the engine's framework: the verbs in ``verbs``' registry, the pending decision ``procedure.step``,
    the guards for every verb and what follows a complete ruling from ``procedure``; its own reference checks
    (one pass over an event's fields) and legal listing (``legal``)."""
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

    def build_names(self, scenario: Any) -> "_Names":
        """What events may name in a scenario (built once per scenario by the framework's ``names``)."""
        return _Names.of(scenario)

    def check_references(self, scenario: Any, event: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Units, hexes, sides, markers and commands an event names must exist (else the log is bad input):
        ``_problems``, after ``_all_known`` has vouched for the common event (a log has thousands)."""
        return _references(self.names(scenario), event)

    def references_of(self, scenario: Any) -> Callable[[Mapping[str, Any]], list[tuple[str, str]]]:
        """``check_references`` bound to ``scenario``, its names looked up once (the log reader's loop over
        thousands of events; referee.engine.ruleset)."""
        return partial(_references, self.names(scenario))

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


def _references(n: _Names, event: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [] if _all_known(n, event) else _problems(n, event)


def _problems(n: _Names, event: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Units, hexes, sides, markers and commands an event names must exist (else the log is bad input): one
    ``(field, message)`` for each name the scenario does not have.  One pass over the event's own fields."""
    problems: list[tuple[str, str]] = []
    units, hexes = n.units, n.hexes

    def unit(where: str, uid: Any) -> None:
        if not isinstance(uid, str) or uid not in units:
            problems.append((where, f"no unit '{uid}' in the scenario"))

    def hex_(where: str, h: Any) -> None:
        if not isinstance(h, str) or h not in hexes:
            problems.append((where, f"no hex '{h}' on the map"))

    for f, value in event.items():
        kind = _FIELD_KIND.get(f)
        if kind is None:
            continue
        if kind == "unit":
            unit(f, value)
        elif kind == "units":
            for i, uid in enumerate(value or ()):
                unit(f"{f}[{i}]", uid)
        elif kind == "hex" or kind == "hexes":
            if isinstance(value, str):
                hex_(f, value)
            elif isinstance(value, list):
                for i, h in enumerate(value):
                    hex_(f"{f}[{i}]", h)
        elif kind == "orders":
            for i, entry in enumerate(value or ()):
                if isinstance(entry, str):
                    unit(f"under_orders[{i}]", entry)
                else:
                    for k, uid in enumerate(entry):
                        unit(f"under_orders[{i}][{k}]", uid)
        elif kind == "assaults":
            for i, a in enumerate(value or ()):
                for k, uid in enumerate(a.get("attackers", ()) or ()):
                    unit(f"assaults[{i}].attackers[{k}]", uid)
                targets = a.get("target")
                for k, h in enumerate([targets] if isinstance(targets, str) else targets or ()):
                    hex_(f"assaults[{i}].target[{k}]", h)
        elif kind == "side":
            if value not in n.sides:
                problems.append((f, f"no side '{value}' in the scenario (sides: {', '.join(n.sides)})"))
        elif kind == "rolls":
            problems += [(f"rolls.{s}", f"no side '{s}' in the scenario") for s in (value or {}) if s not in n.sides]
        elif kind == "marker":
            if value not in n.markers:
                problems.append(("marker", f"no marker '{value}' in the scenario"))
        elif kind == "ags":
            problems += [(f"ags[{i}]", f"no activation group '{a}' in the scenario")
                         for i, a in enumerate(value or ()) if a not in n.ags]
        elif kind == "command" and value not in n.commands:
            problems.append(("command", f"no command '{value}' in the scenario"))
    return problems


def _all_known(n: _Names, event: Mapping[str, Any]) -> bool:
    """True only where :func:`_problems` finds nothing: every unit, hex, side and marker the event names is the
    scenario's.  It exists because ``_problems`` builds two closures and a field name per hex of a path for each
    event (~15,000 instructions a move, ~3 % of a check of the sample game); this is a set test per field.
    Anything it does not vouch for (another kind of field, a value of another type, an unhashable value) is
    ``False``, and ``_problems`` decides.  A value that equals a str is a str (or a subclass) here, as every
    value a JSON or YAML reader gives is (tests/speed/test_references_fast.py holds it to the long way)."""
    units, hexes = n.units, n.hexes
    try:
        for f, value in event.items():
            kind = _FIELD_KIND.get(f)
            if kind is None:
                continue
            if kind == "hexes" or kind == "hex":
                if type(value) is str:
                    if value not in hexes:
                        return False
                elif type(value) is not list or not hexes.issuperset(value):
                    return False
            elif kind == "unit":
                if type(value) is not str or value not in units:
                    return False
            elif kind == "side":
                if value not in n.sides:
                    return False
            elif kind == "units":
                if type(value) is not list or not units.issuperset(value):
                    return False
            elif kind == "marker":
                if value not in n.markers:
                    return False
            else:
                return False
    except TypeError:               # an unhashable value: the long way words it (or raises as it did)
        return False
    return True


def _hex_names(grid: Any) -> frozenset[str]:
    """Every hex name of the map (CCRR with the grid's zero-padding): ``f"{c:0{d}d}{r:0{d}d}"`` for each column
    and row, each column's and row's text formatted once (1,218 formatted pairs were ~1 ms of every check)."""
    d = grid.digits
    columns = [f"{c:0{d}d}" for c in range(grid.first_column, grid.first_column + grid.columns)]
    rows = [f"{r:0{d}d}" for r in range(grid.first_row, grid.first_row + grid.rows)]
    return frozenset([c + r for c in columns for r in rows])


RULESET = TriumphAndGlory()
