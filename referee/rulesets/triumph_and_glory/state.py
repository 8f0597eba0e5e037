"""The Triumph & Glory game state: the Board (positions, other engineer's ``board.py``) plus the records of the
sequence of play — turn and phase, each side's orders, initiative, the cup, the activation in progress, the
two-sided phases (Reserve, CinC Movement) and Schevardino's active commands.

Every record is a frozen dataclass; a rule function returns a new state with ``dataclasses.replace`` and the
engine keeps the old one when an event is illegal.  Rules live in the phase modules, never here: this module
only says what the state *is* and answers read-only questions about it.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Literal, Mapping

from modulebuilder.records import field, record
from modulebuilder.model import ActivationGroup, Leader, Scenario

from .board import Board, UnitState
from .combat import NO_COMBAT, Combat
from .scenario_rules import ScenarioRules, parse

# 3.0 phases A–F (F, CinC movement, is the last phase: gaps §1), then the end of the game.
ORDERS, INITIATIVE, ACTIVATION, RESERVE, MORALE, CINC = (
    "orders", "initiative", "activation", "reserve", "morale", "cinc_movement")
PHASES = (ORDERS, INITIATIVE, ACTIVATION, RESERVE, MORALE, CINC)
# Schevardino (gaps §13.1): a command-activation step, then each side in turn acts with its active units.
COMMAND, SIDE_TURN = "command", "side_turn"
OVER = "over"

PHASE_TITLES = {ORDERS: "Orders Phase", INITIATIVE: "Initiative Phase", ACTIVATION: "Activation Phase",
                RESERVE: "Reserve Activation Phase", MORALE: "Morale Phase", CINC: "CinC Movement Phase",
                COMMAND: "Command Activation", SIDE_TURN: "Movement and Combat", OVER: "Game over"}

Delay = Literal["none", "owed", "passed", "failed"]
OrderStatus = Literal["UO", "NO"]


@record(frozen=True)
class Static:
    """What never changes during a game: the scenario and everything derived from it once."""
    scenario: Scenario
    rules: ScenarioRules
    sides: tuple[str, ...]
    ags: Mapping[str, ActivationGroup]
    cinc: Mapping[str, Leader | None]                 # side -> CinC
    reinforcement_turn: Mapping[str, int]             # AG -> turn its reinforcements arrive
    ag_units: Mapping[str, tuple[str, ...]]           # AG -> its units (an index: drawing a marker is frequent)
    _labels: dict[int, str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> "Static":
        leaders = {ldr.id: ldr for ldr in scenario.counters.leaders}
        sides = tuple(s.name for s in scenario.sides)
        arrive: dict[str, int] = {}
        units = {u.id: u for u in scenario.counters.units}
        for r in scenario.reinforcements:
            if r.turn is None:
                continue
            for ag in {r.ag} if r.ag else {units[u].ag for u in r.units if u in units}:
                arrive[ag] = min(arrive.get(ag, r.turn), r.turn)
        return cls(scenario=scenario, rules=parse(scenario), sides=sides,
                   ags=MappingProxyType({a.id: a for a in scenario.counters.activation_groups}),
                   cinc=MappingProxyType({s.name: leaders.get(s.cinc) if s.cinc else None
                                          for s in scenario.sides}),
                   reinforcement_turn=MappingProxyType(arrive),
                   ag_units=MappingProxyType(_by_ag(scenario)))

    def turn_label(self, turn: int) -> str:
        """"Turn 3 (0830)" — memoised: reports ask for it at every event."""
        cache = self._labels
        if turn not in cache:
            tt = self.scenario.turns
            cache[turn] = f"Turn {turn}" + (f" ({tt.label(turn)})" if tt.start else "")
        return cache[turn]

    def other(self, side: str) -> str:
        return next((s for s in self.sides if s != side), side)


@record(frozen=True)
class SideOrders:
    """One side's orders for the turn (5.21–5.29).

    ``groups`` are the order groups formed in this Orders Phase (5.12), each a tuple of unit ids; a unit keeps
    its group (and its status) for the whole turn even if it drifts away (5.24).  ``previous_uo`` are last
    turn's Under-Orders groups, which a failed orders-delay roll keeps (5.29)."""
    delay: Delay = "none"
    failures: int = 0                                 # 5.29 "Orders Delay DRM" marker (A-8: reset on a pass)
    given: bool = False
    groups: tuple[tuple[str, ...], ...] = ()
    group_of: Mapping[str, int] = field(default_factory=dict)
    under_orders: frozenset[int] = frozenset()
    barrage: bool = False
    army: str | None = None                           # BOR-1 option chosen this turn
    previous_uo: tuple[frozenset[str], ...] = ()
    previous_army: str | None = None

    def status(self, unit: str) -> OrderStatus:
        g = self.group_of.get(unit)
        return "UO" if g is not None and g in self.under_orders else "NO"


@record(frozen=True)
class Activation:
    """The activation in progress (5.31, 5.5x, Schevardino side turns).

    ``units``: who may act; ``io``: group index -> "passed" | "failed" (5.28, this activation only);
    ``acted``: units that moved or turned; ``checks_owed``: 5.54 disorder checks still to roll."""
    marker: str
    side: str | None
    ags: frozenset[str] = frozenset()
    units: frozenset[str] = frozenset()
    io: Mapping[int, str] = field(default_factory=dict)
    acted: frozenset[str] = frozenset()
    reserve: bool = False
    checks_owed: tuple[str, ...] = ()
    start_hexes: Mapping[str, str | None] = field(default_factory=dict)   # 7.13: where each unit began
    combat: Combat = NO_COMBAT                         # fire and shock of this activation (combat.py)
    rallied: frozenset[str] = frozenset()              # 10.1: one rally attempt per unit per activation
    fires_owed: tuple[str, ...] = ()                   # BOR-5: On Fire villages still to roll (Destruction AM)
    destruction_used: bool = False                     # BOR-5: one burn or one bridge per draw


@record(frozen=True)
class TwoSided:
    """Reserve Activation and CinC Movement: who goes first (4.0, 5.51), whose turn it is, what is used."""
    order: tuple[str, ...] | None = None              # None until go_first
    done: frozenset[str] = frozenset()
    reserve_used: frozenset[str] = frozenset()        # 5.51: one OG per side
    ma: Mapping[str, int] = field(default_factory=dict)        # side -> CinC MA this turn (rolled or fixed)
    mp_spent: Mapping[str, int] = field(default_factory=dict)  # side -> MP the CinC spent

    @property
    def current(self) -> str | None:
        if self.order is None:
            return None
        return next((s for s in self.order if s not in self.done), None)


@record(frozen=True)
class TGState:
    static: Static
    board: Board
    turn: int
    phase: str
    orders: Mapping[str, SideOrders]
    initiative: str | None = None
    initiative_decided: bool = False
    cup: tuple[str, ...] = ()                         # marker ids (a multiset, sorted)
    cup_ags: frozenset[str] = frozenset()             # AGs whose AMs went into the cup this turn (5.57)
    revealed: frozenset[str] = frozenset()            # AGs drawn at least once this turn (5.23)
    activation: Activation | None = None
    two_sided: TwoSided | None = None
    active_commands: frozenset[str] = frozenset()     # Schevardino
    command_chosen: bool = False                      # Schevardino: this turn's extra command
    cga: Mapping[str, tuple[str, str]] = field(default_factory=dict)   # 5.34 this turn: side -> its two AGs
    cga_decided: frozenset[str] = frozenset()         # sides that declared or declined a CGA this turn
    cga_used: Mapping[str, int] = field(default_factory=dict)          # 5.34 uses so far, per side
    side_turn: str | None = None                      # Schevardino: whose move it is
    collapsed: frozenset[str] = frozenset()           # 10.5: AGs that have collapsed (for good)
    morale_started: bool = False                      # 3.0 E: collapse done this turn, recovery rolls owed
    recovery_owed: tuple[str, ...] = ()               # 10.2: units in the Recovery Box still to roll
    victory: Mapping[str, object] | None = None       # set when the game ends (Borodino SR 15–16, Schevardino)
    # 9.73: units that made their secondary shock, in the phase ``secondary_phase`` names ((turn, phase, side
    # turn)); in any other phase nobody has (secondary_events.secondary_used).
    secondary_used: frozenset[str] = frozenset()
    secondary_phase: tuple[object, ...] = ()

    # ---- read-only questions

    @property
    def rules(self) -> ScenarioRules:
        return self.static.rules

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def unit(self, uid: str) -> UnitState:
        return self.board.units[uid]

    def status(self, uid: str) -> OrderStatus:
        """The unit's order status at the start of the turn (5.21, 5.24)."""
        u = self.board.units[uid]
        o = self.orders.get(u.side)
        return o.status(uid) if o else "NO"

    def cinc_of(self, side: str) -> UnitState | None:
        ldr = self.static.cinc.get(side)
        return self.board.units.get(ldr.id) if ldr else None

    def in_command_range(self, uid: str) -> bool:
        """5.61: hex distance from the CinC to the unit ≤ command range (CinC's hex not counted)."""
        u = self.board.units[uid]
        c = self.cinc_of(u.side)
        if c is None or c.hex is None or u.hex is None:
            return False
        return self.board.grid.distance(c.hex, u.hex) <= c.defn.command_range  # type: ignore[union-attr]

    def group_members(self, side: str, index: int) -> tuple[str, ...]:
        return self.orders[side].groups[index]

    def label(self) -> tuple[str, str]:
        turn = self.static.turn_label(self.turn)
        phase = PHASE_TITLES.get(self.phase, self.phase)
        if self.phase == SIDE_TURN and self.side_turn:
            phase = f"{self.side_turn} {phase}"
        if self.activation is not None and self.phase == ACTIVATION:
            phase += f" — {self.activation.marker}"
        return turn, phase


def _by_ag(scenario: Scenario) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for u in scenario.counters.units:
        out.setdefault(u.ag, []).append(u.id)
    return {k: tuple(v) for k, v in out.items()}
