"""The game's records: what the scenario fixes for the whole game (``Static``) and what events change
(``State``).  Immutable; every legal event replaces the state."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from modulebuilder.hexgrid import HexGrid

from .tables import Crt, Terrain

MOVEMENT, COMBAT = "movement", "combat"


@dataclass(frozen=True)
class Unit:
    """1.1: a unit's factors, NATO type and echelon, as printed."""
    id: str
    name: str
    side: str
    kind: str                # infantry | armor | mechanized (the NATO type)
    echelon: str
    attack: int
    defence: int
    movement: int


def factor(unit: Any, name: str) -> Any:
    """A field of the game's own schema on a definitions unit (the model keeps the ruleset's fields apart from
    the common ones; before that, as attributes)."""
    for holder in ("values", "fields", "extra"):
        values = getattr(unit, holder, None)
        if isinstance(values, Mapping) and name in values:
            return values[name]
    return getattr(unit, name, None)


@dataclass(frozen=True)
class Static:
    scenario: Any
    grid: HexGrid
    units: Mapping[str, Unit]
    sides: tuple[str, str]           # in player-turn order: the first player first (2.1)
    terrain: Terrain
    crt: Crt
    stacking_limit: int              # 3.1
    first_turn: int
    last_turn: int
    victory_hexes: tuple[str, ...]   # 8.1
    victory_side: str                # who wins by holding them

    @classmethod
    def from_scenario(cls, scenario: Any) -> "Static":
        units = {}
        for u in scenario.counters.units:
            units[u.id] = Unit(id=u.id, name=u.name, side=u.side, kind=str(u.kind),
                               echelon=str(factor(u, "echelon") or ""), attack=int(factor(u, "attack") or 0),
                               defence=int(factor(u, "defence") or 0), movement=int(factor(u, "movement") or 0))
        sides = [s.name for s in scenario.sides]
        first = scenario.options.get("first_player", sides[0])
        order = (first, next(s for s in sides if s != first))
        victory = dict(scenario.victory or {})
        holder = next((s for s in sides if s in victory and victory[s] != "otherwise"), order[0])
        return cls(scenario=scenario, grid=HexGrid.from_model(scenario.map.grid), units=units, sides=order,
                   terrain=Terrain.from_scenario(scenario), crt=Crt.from_tables(scenario.tables or {}),
                   stacking_limit=int(scenario.options.get("stacking_limit", 2)),
                   first_turn=scenario.turns.first, last_turn=scenario.turns.last,
                   victory_hexes=tuple(victory.get("hexes", ())), victory_side=holder)


@dataclass(frozen=True)
class Retreat:
    """7.3: a unit that must retreat ``hexes`` hexes from ``origin``."""
    unit: str
    hexes: int
    origin: str


@dataclass(frozen=True)
class Advance:
    """7.6: the attackers that may advance into the defender's hex while the choice lasts."""
    hex: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class State:
    static: Static
    turn: int
    player: int                                   # 0 or 1: index into static.sides
    phase: str                                    # movement | combat
    hexes: Mapping[str, str | None]               # unit -> hex; None = eliminated (7.2)
    moved: frozenset[str] = frozenset()           # 5.1: units that moved this phase
    attacked_with: frozenset[str] = frozenset()   # 6.2: units that attacked this phase
    attacked_hexes: frozenset[str] = frozenset()  # 6.2: hexes attacked this phase
    retreats: tuple[Retreat, ...] = ()            # 7.3: owed, in order
    advance: Advance | None = None                # 7.6
    over: bool = False
    winner: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def side(self) -> str:
        """The phasing player (2.2)."""
        return self.static.sides[self.player]

    def unit(self, uid: str) -> Unit:
        return self.static.units[uid]

    def alive(self, uid: str) -> bool:
        return self.hexes.get(uid) is not None

    def at(self, hex_: str) -> list[str]:
        """The units in a hex, in set-up order."""
        return [uid for uid, h in self.hexes.items() if h == hex_]

    def enemies_of(self, side: str) -> dict[str, str]:
        """hex -> one enemy unit there, for every hex holding a unit not of ``side``."""
        return {h: uid for uid, h in self.hexes.items() if h is not None and self.unit(uid).side != side}

    def moved_to(self, moves: Mapping[str, str | None], **changes: Any) -> "State":
        return replace(self, hexes={**self.hexes, **moves}, **changes)

    def label(self) -> tuple[str, str]:
        if self.over:
            return (f"Turn {self.turn}", "game over")
        if self.retreats:
            return (f"Turn {self.turn}", f"{self.side} combat phase: retreats")
        return (f"Turn {self.turn}", f"{self.side} {self.phase} phase")
