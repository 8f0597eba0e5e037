"""The game state: immutable records, replaced (never changed) by every legal event.

``Static`` holds what a scenario fixes for the whole game (geometry, unit profiles, tables, options);
``MPState`` what events change.  Units are keyed by id in plain dicts that are copied on write.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from modulebuilder.hexgrid import HexGrid

from .profile import Profile, profile_of
from .terrain import Terrain

# Formation ids (6.3.1).  ``None`` = no formation: artillery, wagons, and morale-broken units (12.4.3).
NORMAL, SHAKEN, BROKEN = "normal", "shaken", "broken"
HEDGEHOG, OPEN, COLUMN = "hedgehog", "open_order", "column"
FORMATIONS = (NORMAL, SHAKEN, BROKEN, HEDGEHOG, OPEN, COLUMN)

# Wing orders named by the excerpt (G-M2); scenarios may name others, which these rules do not restrict.
RALLY, MAKE_READY = "rally", "make_ready"


@dataclass(frozen=True)
class UnitState:
    hex: str | None                    # the hex, or the left half L of a two-hex unit; None when off the map
    facing: int | None                 # vertex clock hour the counter points at (None: wagons, limbered guns);
                                       # facing.has_facing() says whether it has a front at all ([6.1], §3.4)
    formation: str | None
    box: str | None = None             # eliminated | off_map | reinforcement
    morale_broken: bool = False        # 12.4.3: no formation and no facing
    pre_hedgehog_facing: int | None = None   # 6.3.2c: restored when the Hedgehog is left
    limbered: bool = False             # artillery
    fired: bool = False                # artillery on its Fired side (6.2.3)
    mp_spent: int = 0                  # this activation
    reforms: int = 0                   # reform actions taken this activation
    loss_hits: int = 0                 # 6.3.2e: fire hits a Hedgehog takes as losses

    @property
    def on_map(self) -> bool:
        return self.hex is not None and self.box is None


@dataclass(frozen=True)
class Static:
    scenario: Any
    grid: HexGrid
    profiles: Mapping[str, Profile]
    terrain: Terrain
    sides: tuple[str, ...]
    wings: Mapping[str, str]                       # wing id -> side
    wing_units: Mapping[str, tuple[str, ...]]
    leader_hexes: Mapping[str, str]                # leader id -> hex
    leader_sides: Mapping[str, str]
    options: Mapping[str, Any]
    first_turn: int
    last_turn: int

    @classmethod
    def from_scenario(cls, scenario: Any) -> "Static":
        counters = scenario.counters
        profiles = {u.id: profile_of(u) for u in counters.units}
        wings = {a.id: a.side for a in counters.activation_groups}
        wing_units = {w: tuple(p.id for p in profiles.values() if p.wing == w) for w in wings}
        placed = {p.unit: p for p in scenario.setup}
        leader_hexes = {ldr.id: placed[ldr.id].hex for ldr in counters.leaders
                        if ldr.id in placed and placed[ldr.id].hex}
        return cls(scenario=scenario, grid=HexGrid.from_model(scenario.map.grid), profiles=profiles,
                   terrain=Terrain.from_scenario(scenario), sides=tuple(s.name for s in scenario.sides),
                   wings=wings, wing_units=wing_units, leader_hexes=leader_hexes,
                   leader_sides={ldr.id: ldr.side for ldr in counters.leaders},
                   options=dict(scenario.options), first_turn=scenario.turns.first,
                   last_turn=scenario.turns.last)

    def option(self, name: str, default: Any) -> Any:
        return self.options.get(name, default)


@dataclass(frozen=True)
class Activation:
    """The wing being activated (G-M1: activation is by wing)."""
    wing: str
    side: str
    rally_forced: bool                 # MP-RALLY applied at its start
    acted: bool = False                # any action taken (a wing that acted has not passed)


@dataclass(frozen=True)
class MPState:
    static: Static
    units: Mapping[str, UnitState]
    orders: Mapping[str, str]                      # wing -> current order of its Wing Commander
    turn: int
    activated: frozenset[str] = frozenset()        # wings activated this turn
    active: Activation | None = None
    over: bool = False
    # 6.3.3: Open Order chosen secretly before play; None once revealed (or when the scenario has no choice)
    open_order_choices: Mapping[str, tuple[str, ...]] | None = None

    def unit(self, uid: str) -> UnitState:
        return self.units[uid]

    def profile(self, uid: str) -> Profile:
        return self.static.profiles[uid]

    def with_unit(self, uid: str, **changes: Any) -> "MPState":
        units = dict(self.units)
        units[uid] = replace(units[uid], **changes)
        return replace(self, units=units)

    def label(self) -> tuple[str, str]:
        if self.over:
            return (f"Turn {self.turn}", "game over")
        if self.open_order_choices is not None:
            return (f"Turn {self.turn}", "set-up: secret Open Order choices")
        if self.active is None:
            return (f"Turn {self.turn}", "activation: draw a wing")
        return (f"Turn {self.turn}", f"activation of {self.active.wing} ({self.active.side})")
