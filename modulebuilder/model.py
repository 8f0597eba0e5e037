"""The typed, immutable model of a game that the definitions loader returns.

Everything downstream (renderers, sheets, the VASSAL writer, the referee) reads these objects and never
the YAML.  All containers are tuples or read-only mappings so a loaded model can be shared freely.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Mapping


Orientation = Literal["pointy", "flat"]
Shift = Literal["even", "odd"]
Kind = str                           # a unit type the ruleset or the game declares (infantry, armor, ...)
CavType = Literal["L", "H", "C"]
Status = Literal["good", "disordered"]
Formation = Literal["normal", "shaken", "broken", "hedgehog", "open_order", "column"]
Box = Literal["withdrawn", "recovery", "eliminated", "reinforcement", "destroyed"]

EMPTY: Mapping[str, Any] = MappingProxyType({})


def frozen_mapping(d: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only view of a copy of ``d`` (nested dicts/lists frozen too)."""
    if not d:
        return EMPTY
    return MappingProxyType({k: _freeze(v) for k, v in d.items()})


def _freeze(v: Any) -> Any:
    if isinstance(v, Mapping):
        return frozen_mapping(v)
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    return v


class Values(Mapping[str, Any]):
    """A small read-only mapping that, unlike ``MappingProxyType``, hashes and pickles: a unit's game fields
    travel to the render workers and units are dict keys.  Nested lists become tuples, mappings Values."""
    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, Any] | None = None):
        object.__setattr__(self, "_items", tuple((k, _hashable(v)) for k, v in (items or {}).items()))

    def __getitem__(self, key: str) -> Any:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def __iter__(self) -> Any:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other)

    def __repr__(self) -> str:
        return f"Values({dict(self._items)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Its items as they are (already hashable): read back without __init__'s pass over them, ~580 times
        # when a cached scenario is unpickled at every check's start.
        return (_values_of, (self._items,))


def _values_of(items: tuple[tuple[str, Any], ...]) -> Values:
    values = object.__new__(Values)
    object.__setattr__(values, "_items", items)
    return values


NO_VALUES = Values()


def _hashable(v: Any) -> Any:
    if isinstance(v, Mapping):
        return v if isinstance(v, Values) else Values(v)
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v


def thaw(v: Any) -> Any:
    """Plain JSON-able dicts/lists from frozen model values."""
    if isinstance(v, Mapping):
        return {k: thaw(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, frozenset)):
        return [thaw(x) for x in v]
    return v


# --------------------------------------------------------------------------------------------- counters

@dataclass(frozen=True)
class ActivationGroup:
    id: str
    name: str
    side: str
    colour: str                      # "#rrggbb", the band across the top of its counters
    io_rating: int | None = None     # T&G: printed on the activation marker (5.28); None = "Nap" / never rolls
    markers: int = 2                 # activation markers in the cup (5.31)
    label: str = ""                  # short text printed in the band (corps id), e.g. "I"
    army: str | None = None          # Russian army in Borodino: "1st", "2nd", "reserve"
    text_colour: str = "#000000"
    flags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Face:
    """Values printed on one face of a unit counter.  ``None`` = not printed on that face."""
    assault: int | None = None
    cohesion: int | None = None
    ma: int | None = None
    dfe: int | None = None
    fire: int | None = None
    eff_range: int | None = None
    max_range: int | None = None


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    kind: Kind
    side: str
    ag: str
    front: Face
    back: Face | None                # the Disordered side; None when the counter has no back (flag no_back)
    cav_type: CavType | None = None
    corps: str = ""                  # division / corps id printed on the counter ("MR", "CM", ...)
    brigade: str | None = None       # text before a final one-letter suffix unless given explicitly
    flags: frozenset[str] = frozenset()
    source: str = field(default="", compare=False)   # "file:line" of its definition, for messages
    size: int = 1                    # hexes the counter covers (Musket & Pike two-hex units: 2)
    short_name: str | None = None    # printed instead of ``name`` when that does not fit legibly
    count: int = 1                   # how many of this counter the sheets print
    echelon: str | None = None       # NATO size: team, squad, section, platoon, company, battalion, ... army
    fields: Values = NO_VALUES       # fields its ruleset or game declares beyond these (attack, defence, ...)
    back_fields: Values = NO_VALUES  # their values on the back (``back:``), where they differ
    art: str | None = None           # the unit's own counter art (``art:``), a path the loader resolved

    @property
    def two_sided(self) -> bool:
        """Whether the counter has a back (a two-step unit: reduced, spent, disordered ...); flag no_back: not."""
        return self.back is not None

    def values(self, side: Literal["front", "back"] = "front") -> Values:
        """The value fields printed on one side of the counter: ``fields`` on the front, the same with the
        ``back:`` values laid over them on the back.  Raises ValueError for the back of a one-sided counter."""
        if side == "front":
            return self.fields
        if self.back is None:
            raise ValueError(f"unit {self.id!r} has no back (flag no_back)")
        return Values({**self.fields, **self.back_fields}) if self.back_fields else self.fields

    # Convenience accessors for the good-order values the rules mostly read.
    @property
    def assault(self) -> int | None: return self.front.assault
    @property
    def cohesion(self) -> int | None: return self.front.cohesion
    @property
    def ma(self) -> int | None: return self.front.ma
    @property
    def dfe(self) -> int | None: return self.front.dfe
    @property
    def fire(self) -> int | None: return self.front.fire
    @property
    def eff_range(self) -> int | None: return self.front.eff_range
    @property
    def max_range(self) -> int | None: return self.front.max_range

    def face(self, status: Status) -> Face:
        """Values in force for ``status`` (a unit with no back keeps its front values)."""
        if status == "disordered" and self.back is not None:
            return self.back
        return self.front

    @property
    def horse_artillery(self) -> bool:
        return self.kind == "artillery" and (self.ma or 0) >= 8


@dataclass(frozen=True)
class Leader:
    id: str
    name: str
    side: str
    # The ratings are Triumph & Glory's (its schema requires them); other rulesets may leave them out.
    orders_rating: int | None = None     # None = printed "?" (set by the scenario)
    delay_rating: int | None = None      # None = never rolls for orders delay
    drm: int | None = None               # CinC DRM, 0 or negative
    command_range: int | None = None
    ma: int | None = None                # None = variable (e.g. Napoleon's d10)
    flags: frozenset[str] = frozenset()
    source: str = field(default="", compare=False)   # provenance, not part of the value
    short_name: str | None = None    # printed instead of ``name`` when that does not fit legibly
    count: int = 1                   # how many of this counter the sheets print
    fields: Values = NO_VALUES       # fields its ruleset declares beyond these


@dataclass(frozen=True)
class Marker:
    id: str
    name: str
    text: str                        # printed on the marker
    count: int = 1
    colour: str = "#f0e6c8"
    text_colour: str = "#000000"
    back_text: str | None = None     # a two-sided marker (e.g. Under Orders / No Orders)
    side: str | None = None
    source: str = field(default="", compare=False)   # provenance, not part of the value


@dataclass(frozen=True)
class CounterSet:
    """Everything defined in one or more counters files."""
    activation_groups: tuple[ActivationGroup, ...] = ()
    units: tuple[Unit, ...] = ()
    leaders: tuple[Leader, ...] = ()
    markers: tuple[Marker, ...] = ()

    def unit(self, uid: str) -> Unit:
        return self._units_by_id[uid]

    @property
    def _units_by_id(self) -> Mapping[str, Unit]:
        return {u.id: u for u in self.units}


# --------------------------------------------------------------------------------------------- map

@dataclass(frozen=True)
class Grid:
    orientation: Orientation
    shifted: Shift
    first_column: int
    first_row: int
    columns: int
    rows: int
    digits: int = 2                  # zero-padding of column and row in hex names


@dataclass(frozen=True)
class Hexside:
    hexes: tuple[str, str]
    feature: str                     # stream, river, bridge, ford, steep, ...


@dataclass(frozen=True)
class Road:
    hexes: tuple[str, ...]
    kind: str = "road"               # road | path
    name: str = ""


@dataclass(frozen=True)
class MapMarker:
    type: str                        # on_fire | rubble | bridge_destroyed
    hexes: tuple[str, ...]


@dataclass(frozen=True)
class MapStyle:
    hex_size: float = 64.0           # pixels from centre to vertex at the default rendering size
    colours: Mapping[str, str] = field(default_factory=lambda: EMPTY)
    margin: float = 0.0              # pixels of border around the grid (title, legend, edge numbers)
    symbols: Mapping[str, str] = field(default_factory=lambda: EMPTY)   # terrain id -> bundled symbol or image path


@dataclass(frozen=True)
class MapArt:
    """The author's painted map and where the grid lies on it: the pixel centres of two hexes."""
    image: str                                        # the PNG or JPEG file (a path usable from here)
    hexes: tuple[tuple[str, tuple[float, float]], ...]    # ((hex, (x, y)), (hex, (x, y)))
    digest: str = ""                                  # the image file's content hash: a changed file is new art


@dataclass(frozen=True)
class MapDef:
    id: str
    title: str
    grid: Grid
    default_terrain: str
    terrain: Mapping[str, str]               # hex -> terrain id (only hexes that differ from the default)
    hexsides: tuple[Hexside, ...] = ()
    roads: tuple[Road, ...] = ()
    elevation: Mapping[str, int] = field(default_factory=lambda: EMPTY)     # hex -> level (default 0)
    names: Mapping[str, str] = field(default_factory=lambda: EMPTY)         # hex -> place name
    markers: tuple[MapMarker, ...] = ()
    boxes: Mapping[str, str] = field(default_factory=lambda: EMPTY)         # off-map box id -> label (withdrawn, recovery, ...)
    style: MapStyle = MapStyle()
    source: str = field(default="", compare=False)   # provenance, not part of the value
    # The author's art, if the map has one: a picture of the map, not part of its rules (the resolved
    # scenario, which is the referee's, does not carry it).
    art: MapArt | None = field(default=None, compare=False)

    def terrain_of(self, hex_id: str) -> str:
        return self.terrain.get(hex_id, self.default_terrain)

    def hexside_features(self, a: str, b: str) -> tuple[str, ...]:
        key = frozenset((a, b))
        return tuple(s.feature for s in self.hexsides if frozenset(s.hexes) == key)


# --------------------------------------------------------------------------------------------- game

@dataclass(frozen=True)
class SideStyle:
    colour: str | None = None        # "#rrggbb"
    text_colour: str | None = None


@dataclass(frozen=True)
class UnitType:
    id: str                          # the kind as units write it (armor)
    name: str = ""                   # for charts and the order of battle (Armor)
    symbol: str | None = None        # NATO symbol: a type name or an APP-6 / 2525 id; None = the id


@dataclass(frozen=True)
class Factor:
    id: str                          # the field as units write it (attack)
    name: str = ""


@dataclass(frozen=True)
class GameDef:
    """What a game declares for all its scenarios (a game file, or ``game:`` inline in the scenario).
    Empty when the scenario declares nothing: the ruleset's unit types and fields are the game's."""
    id: str = ""
    title: str = ""
    version: str | None = None       # the module's version; None = the module's default
    sides: Values = NO_VALUES        # side name -> SideStyle
    unit_types: tuple[UnitType, ...] = ()
    factors: tuple[Factor, ...] = ()
    back_side: str | None = None     # what a counter's back is called (Reduced, Spent ...); None = not declared
    # How the game is printed and played in its module (None: the ruleset's or the builder's default).
    template: str | None = None      # counter template: a bundled id or a file (made absolute by the loader)
    dice: str | None = None          # the module's die: d6, 2d6, d10 0-9, d10 1-10
    phases: tuple[str, ...] | None = None    # the phases of a turn
    per_side: bool = False           # ``phases`` are each side's, repeated for each side in turn
    cup: bool | None = None          # an activation cup in the module
    facing: bool | None = None       # units turn to face a vertex
    about: str | None = None         # the About box's Rules text
    art: str | None = None           # counter art path pattern ({id}, {face}), absolute
    source: str = field(default="", compare=False)   # "file:line" of the declaration, for messages

    def unit_type(self, kind: str) -> UnitType | None:
        return next((t for t in self.unit_types if t.id == kind), None)


# --------------------------------------------------------------------------------------------- scenario

@dataclass(frozen=True)
class Placement:
    """Where a unit or leader starts.  Exactly one of ``hex`` and ``box`` is set."""
    unit: str
    hex: str | None = None
    box: Box | None = None
    facing: int | None = None        # a vertex clock hour
    status: Status = "good"
    formation: Formation | None = None   # Musket & Pike: the formation it starts in (None = the ruleset's default)


@dataclass(frozen=True)
class Reinforcement:
    units: tuple[str, ...]
    entry: tuple[str, ...]           # entry hexes
    turn: int | None = None          # None = when a condition says (e.g. its command is activated)
    condition: str | None = None
    ag: str | None = None


@dataclass(frozen=True)
class TurnTrack:
    first: int
    last: int
    start: str | None = None         # "06:00"
    minutes: int | None = None

    def label(self, turn: int) -> str:
        if self.start is None or self.minutes is None:
            return str(turn)
        h, m = (int(x) for x in self.start.split(":"))
        t = h * 60 + m + (turn - self.first) * self.minutes
        return f"{(t // 60) % 24:02d}{t % 60:02d}"


@dataclass(frozen=True)
class SideDef:
    name: str
    cinc: str | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    ruleset: str                     # the referee ruleset id; "" when the game names none (built, not ruled)
    map: MapDef
    counters: CounterSet
    sides: tuple[SideDef, ...]
    turns: TurnTrack
    setup: tuple[Placement, ...]
    reinforcements: tuple[Reinforcement, ...] = ()
    special_rules: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=lambda: EMPTY)       # rule switches (documented defaults of the digests)
    victory: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    tables: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    start: Mapping[str, Any] = field(default_factory=lambda: EMPTY)         # {turn, phase}
    description: str = ""
    source: str = field(default="", compare=False)   # provenance, not part of the value
    game: GameDef = GameDef()
    # What the back of a two-sided unit counter is called: the game's ``back_side``, else the ruleset's
    # (Disordered for Triumph & Glory, Shaken for Musket & Pike), else Reduced.  Derived when loaded.
    back_side: str = "Reduced"

    def side_style(self, side: str) -> SideStyle:
        """The colours the game gives ``side`` (both None when it gives none)."""
        return self.game.sides.get(side, SideStyle())
