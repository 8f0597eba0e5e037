"""The positional part of a Triumph & Glory game state: where every counter is, which way it faces, its
status, the stack order in each hex, and the map markers that change in play (On Fire, Rubble, Bridge
Destroyed).

Design
======
* **Immutable.**  A :class:`Board` never changes; ``place``/``move``/``remove``/``update``/``restack`` return
  a new Board that shares everything static (map, grid, adjacency, hexside and road indices, tables, rule
  switches) and copies only two small dicts.  The engine validates an event against the current Board and
  keeps it unchanged when the event is illegal ("an illegal event changes nothing", DESIGN §5) — no undo.
* **Indexed by hex.**  ``stacks`` maps a hex to the ids of its combat units, top first (6.24), so every
  "who is in / next to this hex" question is O(stack) and never a scan of all units.  Derived facts that
  are asked many times for one position (enemy ZOC, enemy adjacency) are memoised per Board instance in
  ``cache`` — safe because the Board is immutable.
* **Leaders are on the board but are not combat units** (main digest §0): they are kept out of ``stacks``
  (they never count for stacking, 6.21, and never block movement, 6.22) and indexed in ``leaders_by_hex``.

Rules implemented here: 6.24 (a unit that ends its move in an occupied hex goes to the bottom — ``move``
puts it there; ``restack`` re-orders), set-up order = stack order (DESIGN §4, first listed on top).
Rule switches read from the scenario are collected in :class:`RuleSwitches` (its docstring lists them).
"""
from __future__ import annotations

import os
import re
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Iterable, Literal, Mapping, Sequence

from modulebuilder.records import field, fields, record
from modulebuilder.hexgrid import HexGrid
from modulebuilder.model import Leader, MapDef, Scenario, Unit

from .scenario_rules import option_choice, option_whole
from .terrain import MovementTable

__all__ = ["Board", "BoardMap", "RuleSwitches", "UnitState", "brigade_of"]

Mode = Literal["normal", "limited", "extended", "reinforcement"]

# 6.11: infantry in these hexes has an all-round front (module switch `all_round_terrain`).
ALL_ROUND_TERRAIN = frozenset({"village", "chateau", "castle", "redoubt"})

_NONE: Mapping[str, Any] = MappingProxyType({})
_SUFFIX = re.compile(r"^(?P<brigade>.*\S)\s+(?P<letter>[A-Za-z])$")


def brigade_of(defn: Unit) -> str | None:
    """Brigade of a counter (main digest §2.1): the given ``brigade``, else the designation before a final
    one-letter suffix ("Dumon a" -> "Dumon"); None when there is no suffix (no multi-counter brigade)."""
    if defn.brigade:
        return defn.brigade
    m = _SUFFIX.match(defn.name.strip())
    return m.group("brigade") if m else None


# --------------------------------------------------------------------------------------------- switches

@record(frozen=True, slots=True)
class RuleSwitches:
    """Scenario rule switches the positional rules read (special-rule ids as in the digests).

    ``artillery_cap``      6.21 fire-strength cap of an all-artillery hex: 6; 8 with ``BOR-STACK``
                           (option ``artillery_cap`` overrides).
    ``militia_alone``      ``BOR-MILITIA``: militia never stack and have no ZOC.
    ``overstack_ags``      Borodino set-up note: the 1st Western Army Artillery Reserve may stand 3 per hex
                           until each unit moves or fires.  Special rule ``BOR-ART-RESERVE``; the AGs are
                           option ``artillery_reserve_ags`` or AGs flagged ``artillery_reserve``.
    ``no_extended_sides``  ``BOR-NO-EXTENDED``: sides that may never use extended movement (Russian);
                           option ``no_extended_sides`` overrides.
    ``ford_only``          ``BOR-TERRAIN`` / 7.24: a road cancels the stream cost only at a printed ford
                           (without it any road crossing a stream is a ford).
    ``all_round_terrain``  6.11 terrain ids where infantry has an all-round front (option).
    ``fired_half_of_limited``  7.36 [inferred]: a No-Orders artillery unit that fired gets half of its
                           restricted allowance (default True; option ``fired_half_of_limited``).
    ``counter_charge_vs_infantry``  9.86, cavalry counter-charging an infantry shock: ``charge`` (default, the
                           English rulebook's words "the infantry may not attempt to form Square and the
                           counter-charging cavalry get the usual Charge DRM": resolved as the cavalry's charge
                           on the infantry) or ``subtract`` (gaps §10 [inferred]: the infantry's shock with the
                           cavalry's charge value counted against it); option of the same name.
    ``retreat_into_friends``  9.63/9.64, where a retreat may go: ``last`` (default, the seed's words: a friendly
                           hex only "when there is no other retreat path", and a hex in an enemy front is such a
                           path — the unit routs) or ``before_rout`` (the earlier engine default: a friendly hex
                           is taken before a hex that routs); option of the same name.
    ``reserve_check``      5.54 vs 6.23, moved units stacked together in the Reserve Phase: ``unit`` (default,
                           5.54 "for each" moved unit, on its own cohesion) or ``stack`` (6.23: the hex's top
                           infantry/cavalry unit checks once for the units there that owe a check); option of
                           the same name (docs/referee.md, "5.54 and 6.23").
    """
    artillery_cap: int = 6
    militia_alone: bool = False
    overstack_ags: frozenset[str] = frozenset()
    overstack_max: int = 3
    no_extended_sides: frozenset[str] = frozenset()
    ford_only: bool = False
    all_round_terrain: frozenset[str] = ALL_ROUND_TERRAIN
    fired_half_of_limited: bool = True
    counter_charge_vs_infantry: str = "charge"
    retreat_into_friends: str = "last"
    reserve_check: str = "unit"

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> "RuleSwitches":
        sr = set(scenario.special_rules)
        opt = scenario.options
        overstack: frozenset[str] = frozenset()
        if "BOR-ART-RESERVE" in sr or "artillery_reserve_ags" in opt:
            overstack = frozenset(opt.get("artillery_reserve_ags", ())) | frozenset(
                ag.id for ag in scenario.counters.activation_groups if "artillery_reserve" in ag.flags)
        no_ext = opt.get("no_extended_sides", ("Russian",) if "BOR-NO-EXTENDED" in sr else ())
        return cls(
            artillery_cap=option_whole(opt, "artillery_cap", 8 if "BOR-STACK" in sr else 6),
            militia_alone="BOR-MILITIA" in sr or bool(opt.get("militia_alone", False)),
            overstack_ags=overstack,
            no_extended_sides=frozenset(no_ext),
            ford_only="BOR-TERRAIN" in sr or bool(opt.get("ford_only", False)),
            all_round_terrain=frozenset(opt.get("all_round_terrain", ALL_ROUND_TERRAIN)),
            fired_half_of_limited=bool(opt.get("fired_half_of_limited", True)),
            counter_charge_vs_infantry=option_choice(opt, "counter_charge_vs_infantry", ("charge", "subtract")),
            retreat_into_friends=option_choice(opt, "retreat_into_friends", ("last", "before_rout")),
            reserve_check=option_choice(opt, "reserve_check", ("unit", "stack")),
        )


# --------------------------------------------------------------------------------------------- units

@record(frozen=True, slots=True)
class UnitState:
    """One counter's position and state.  ``defn`` is the printed counter (model.Unit) or a CinC
    (model.Leader).  Exactly one of ``hex`` / ``box`` is set.  The per-activation flags (``moved``,
    ``fired``, ``mode``, ``started_in_zoc``, ``mp_spent``) are reset by
    ``movement.begin_activation`` at the start of the unit's activation."""
    id: str
    defn: Unit | Leader
    hex: str | None = None
    box: str | None = None
    facing: int | None = None
    status: Literal["good", "disordered"] = "good"
    # per activation
    moved: bool = False
    fired: bool = False
    mode: Mode | None = None
    started_in_zoc: bool = False          # 6.34: only such a unit may leave an enemy ZOC
    mp_spent: int = 0
    # longer lived
    square: bool = False                  # 9.85: no ZOC, no minimum move
    overstack: bool = False               # Borodino artillery reserve: may stand 3 per hex until moved/fired

    def evolve(self, **changes: Any) -> "UnitState":
        """A copy with some fields changed (``dataclasses.replace`` without its per-call introspection: all
        values read at once, the changed ones put in place by index)."""
        values = list(_GET_FIELDS(self))
        index = _FIELD_INDEX
        try:
            for name, value in changes.items():
                values[index[name]] = value
        except KeyError as e:
            raise TypeError(f"UnitState has no field {e.args[0]!r}") from None
        return UnitState(*values)

    def after_move(self, hex_id: str, facing: int | None, mode: str, mp_spent: int, status: str) -> "UnitState":
        """The state after a completed move into ``hex_id`` (``movement.apply_move``): moved, the mode and MP
        recorded, a Borodino reserve battery's overstack allowance gone.  ``evolve`` with these changes, built
        in one call: a move is most events of a game."""
        return UnitState(self.id, self.defn, hex_id, None, self.facing if facing is None else facing, status,
                         True, self.fired, mode, self.started_in_zoc, mp_spent, self.square, False)

    @property
    def side(self) -> str:
        return self.defn.side

    @property
    def is_leader(self) -> bool:
        return isinstance(self.defn, Leader)

    @property
    def is_combat(self) -> bool:
        return not self.is_leader

    @property
    def kind(self) -> str:
        """``infantry`` | ``cavalry`` | ``artillery`` | ``commander`` (a CinC; the movement-table column)."""
        return getattr(self.defn, "kind", "commander")   # a Leader has no kind: the CinC column

    @property
    def ag(self) -> str | None:
        return getattr(self.defn, "ag", None)       # a Leader has no AG (asked very often: no isinstance)

    @property
    def flags(self) -> frozenset[str]:
        return self.defn.flags

    @property
    def disordered(self) -> bool:
        return self.status == "disordered"

    @property
    def brigade(self) -> str | None:
        return None if self.is_leader else brigade_of(self.defn)  # type: ignore[arg-type]

    def value(self, name: str) -> int | None:
        """A printed value on the face now up (a missing Disordered value falls back to the front)."""
        if self.is_leader:
            return getattr(self.defn, name, None)
        u: Unit = self.defn  # type: ignore[assignment]
        v = getattr(u.face(self.status), name)
        return getattr(u.front, name) if v is None else v

    @property
    def ma(self) -> int:
        return self.value("ma") or 0

    @property
    def fire(self) -> int:
        return self.value("fire") or 0


_UNIT_FIELDS = tuple(f.name for f in fields(UnitState))
# How many earlier positions a Board may take local answers from.  An activation's units are asked about again
# after the few events of the previous activation (its moves, its end, the draw): fewer lose most of them, more
# walk further on a miss than they find (docs/speed.md, "Figures behind T&G's tuned constants").
MEMO_CHAIN = 16
_set = object.__setattr__
_GET_FIELDS = attrgetter(*_UNIT_FIELDS)
_FIELD_INDEX = {n: i for i, n in enumerate(_UNIT_FIELDS)}


# --------------------------------------------------------------------------------------------- static map

class BoardMap:
    """Everything about a Board that never changes during a game, built once and shared by every Board."""

    __slots__ = ("map", "grid", "table", "rules", "scenario", "adjacent", "hexside", "hexside_at", "road_link",
                 "road_at", "entry_hexes", "memo", "priced_sides", "_around")

    def __init__(self, mapdef: MapDef, table: MovementTable, rules: RuleSwitches,
                 scenario: Scenario | None = None) -> None:
        self.map = mapdef
        self.grid = HexGrid.from_model(mapdef.grid)
        self.table = table
        self.rules = rules
        self.scenario = scenario
        # hex -> on-map neighbours (hour order); the hot loop of every search reads this.
        self.adjacent: dict[str, tuple[str, ...]] = {
            h: tuple(self.grid.neighbours(h).values()) for h in self.grid.hexes()}
        # frozenset({a, b}) -> hexside features; MapDef.hexside_features scans a list.
        sides: dict[frozenset[str], tuple[str, ...]] = {}
        for s in mapdef.hexsides:
            key = frozenset(s.hexes)
            sides[key] = sides.get(key, ()) + (s.feature,)
        self.hexside = sides
        # frozenset({a, b}) -> "road" | "path" when a road/path runs from a to b (7.22); road beats path.
        links: dict[frozenset[str], str] = {}
        for road in mapdef.roads:
            for a, b in zip(road.hexes, road.hexes[1:]):
                key = frozenset((a, b))
                if links.get(key) != "road":
                    links[key] = "road" if road.kind != "path" else "path"
        self.road_link = links
        # The same two indices keyed a -> b -> value: the movement search reads them without building sets.
        self.hexside_at: dict[str, dict[str, tuple[str, ...]]] = {}
        for key, feats in sides.items():
            a, b = tuple(key)
            self.hexside_at.setdefault(a, {})[b] = feats
            self.hexside_at.setdefault(b, {})[a] = feats
        self.road_at: dict[str, dict[str, str]] = {}
        for key, kind in links.items():
            a, b = tuple(key)
            self.road_at.setdefault(a, {})[b] = kind
            self.road_at.setdefault(b, {})[a] = kind
        # a -> the neighbours b whose step a -> b costs more than (or otherwise differs from) entering b from
        # anywhere: a hexside feature, a road or path link, or a climb.  Every other step is priced by b's
        # terrain alone, so the movement rules memoise it per destination, not per pair (see movement._edge).
        elevation = mapdef.elevation
        priced: dict[str, set[str]] = {}
        for a, by in self.hexside_at.items():
            priced.setdefault(a, set()).update(by)
        for a, by in self.road_at.items():
            priced.setdefault(a, set()).update(by)
        near_relief = {n for h in elevation if h in self.adjacent for n in (h, *self.adjacent[h])}
        for a in near_relief:
            level = elevation.get(a, 0)
            priced.setdefault(a, set()).update(b for b in self.adjacent[a] if elevation.get(b, 0) > level)
        self.priced_sides: dict[str, frozenset[str]] = {a: frozenset(bs) for a, bs in priced.items() if bs}
        self.memo: dict[Any, Any] = {}      # position-independent answers (e.g. terrain cost of a step)
        self._around: dict[str, frozenset[str]] = {}
        self.entry_hexes: frozenset[str] = frozenset(
            h for r in (scenario.reinforcements if scenario else ()) for h in r.entry)

    # Pickled (with its scenario, in the parsed-scenario cache: ``_board_map``) without its memos, which are
    # answers found during a game, rebuilt on demand.
    def __getstate__(self) -> dict[str, Any]:
        return {name: ({} if name in ("memo", "_around") else getattr(self, name)) for name in self.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def around(self, hex_id: str) -> frozenset[str]:
        """``hex_id`` and its on-map neighbours (the hexes whose local answers a change in ``hex_id`` may
        alter), built once per hex."""
        hit = self._around.get(hex_id)
        if hit is None:
            hit = self._around[hex_id] = frozenset((hex_id, *self.adjacent.get(hex_id, ())))
        return hit

    def ring2(self, hex_id: str) -> frozenset[str]:
        """The on-map hexes two steps from ``hex_id`` through an on-map neighbour (``around`` excluded), built
        once per hex: the 5.12 chain link's second ring (``orders.order_groups``)."""
        key = ("ring2", hex_id)
        hit = self.memo.get(key)
        if hit is None:
            adjacent = self.adjacent
            hit = self.memo[key] = frozenset(h for n in adjacent[hex_id] for h in adjacent[n]) - self.around(hex_id)
        return hit

    def disc(self, hex_id: str, radius: int) -> frozenset[str]:
        """On-map hexes at most ``radius`` from ``hex_id`` (``HexGrid.within`` as a set), built once per hex and
        radius: the recovery placement (10.3) takes the union of one disc per enemy unit."""
        key = ("disc", hex_id, radius)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = frozenset(self.grid.within(hex_id, radius))
        return hit

    def terrain(self, hex_id: str) -> str:
        return self.map.terrain_of(hex_id)

    def features(self, a: str, b: str) -> tuple[str, ...]:
        return self.hexside_at.get(a, _NONE).get(b, ())

    def link(self, a: str, b: str) -> str | None:
        """``road`` / ``path`` when one runs from ``a`` to ``b`` (7.22), else None."""
        return self.road_at.get(a, _NONE).get(b)

    def elevation(self, hex_id: str) -> int:
        return self.map.elevation.get(hex_id, 0)


_MAPS: dict[int, tuple[Scenario, BoardMap]] = {}
MAPS_KEPT = 16


def _board_map(scenario: Scenario) -> BoardMap:
    """The static part of ``scenario``'s boards, built once per scenario object and shared by every game on it.

    Building it (adjacency, hexside and road indices) is a share of a replay, and its memo (step prices, discs,
    neighbourhoods) holds only position-independent answers, so a second game on the same scenario — the
    service keeps each hosted game's scenario loaded, a benchmark replays one log several times — starts with
    them known.  Keyed by identity; the scenario is kept alive with it, so the id is not reused."""
    hit = _MAPS.get(id(scenario))
    if hit is None or hit[0] is not scenario:
        if len(_MAPS) >= MAPS_KEPT:
            _MAPS.clear()
        static = _kept_or_built(scenario)
        hit = _MAPS[id(scenario)] = (scenario, static)
    return hit[1]


def _build_map(scenario: Scenario) -> BoardMap:
    return BoardMap(scenario.map, MovementTable.from_tables(scenario.tables), RuleSwitches.from_scenario(scenario),
                    scenario)


def _kept_or_built(scenario: Scenario) -> BoardMap:
    """The BoardMap kept with the scenario's parsed-scenario cache entry when this package's code is the one
    that built it, else a new one (which the entry then keeps): reading it back is cheaper than building it
    (docs/speed.md §1).  Without the definitions package's cache, built."""
    try:
        from modulebuilder.definitions import cache
    except ImportError:
        return _build_map(scenario)
    return cache.derived(scenario, "triumph-and-glory.BoardMap", _code_stamp(), lambda: _build_map(scenario))


_STAMP: list[bytes] = []


def _code_stamp() -> bytes:
    """This package's code, as the cache's ``code_stamp`` sees it, taken once per process."""
    if not _STAMP:
        from modulebuilder.definitions.cache import code_stamp
        _STAMP.append(code_stamp(os.path.dirname(__file__)))
    return _STAMP[0]


# --------------------------------------------------------------------------------------------- board

@record(frozen=True, slots=True, eq=False)
class Board:
    """An immutable position.  Build with :meth:`from_scenario`; change with the methods that return a new
    Board.  Unknown unit ids raise ``KeyError`` (the engine refuses such events as bad input, DESIGN §6)."""
    static: BoardMap
    units: Mapping[str, UnitState]                     # every unit and leader, by id
    stacks: Mapping[str, tuple[str, ...]]              # hex -> combat unit ids, top first (6.24)
    leaders_by_hex: Mapping[str, tuple[str, ...]]      # hex -> leader ids
    on_fire: frozenset[str] = frozenset()              # BOR-5
    rubble: frozenset[str] = frozenset()               # BOR-5
    bridges_destroyed: frozenset[frozenset[str]] = frozenset()   # BOR-5
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    # The previous position's memo and the hexes the change touched: a local answer (ZOC, enemy adjacency of
    # a hex) not at or next to a changed hex is taken from there (see ``local_memo``).
    inherited: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)   # (memo, changed, up, depth)
    # The dicts behind the read-only ``units`` and ``stacks`` views, for the hot queries of this package (ZOC,
    # enemy adjacency, the movement step): a MappingProxyType's ``get`` and ``in`` cost 2–3× a dict's, and a
    # replay asks ~180,000 of them.  Never changed after the Board is built, like the views.
    _units: dict[str, UnitState] = field(default=None, init=False, repr=False, compare=False)  # type: ignore[assignment]
    _stacks: dict[str, tuple[str, ...]] = field(default=None, init=False, repr=False,  # type: ignore[assignment]
                                                compare=False)

    # ---- construction

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> "Board":
        """The set-up position.  Units sharing a hex stack in set-up order, first listed on top (DESIGN §4)."""
        static = _board_map(scenario)
        rules = static.rules
        defs: dict[str, Unit | Leader] = {u.id: u for u in scenario.counters.units}
        defs.update({ldr.id: ldr for ldr in scenario.counters.leaders})
        units: dict[str, UnitState] = {}
        stacks: dict[str, tuple[str, ...]] = {}
        leaders: dict[str, tuple[str, ...]] = {}
        for p in scenario.setup:
            d = defs[p.unit]
            st = UnitState(id=d.id, defn=d, hex=p.hex, box=p.box, facing=p.facing, status=p.status,
                           overstack=isinstance(d, Unit) and d.kind == "artillery"
                           and d.ag in rules.overstack_ags)
            units[d.id] = st
            if p.hex is not None:
                index = leaders if st.is_leader else stacks
                index[p.hex] = index.get(p.hex, ()) + (d.id,)
        for uid, d in defs.items():     # counters without a placement wait off-map
            if uid not in units:
                units[uid] = UnitState(id=uid, defn=d, box="reinforcement")
        markers = scenario.map.markers
        board = cls(
            static=static, units=MappingProxyType(units), stacks=MappingProxyType(stacks),
            leaders_by_hex=MappingProxyType(leaders),
            on_fire=frozenset(h for m in markers if m.type == "on_fire" for h in m.hexes),
            rubble=frozenset(h for m in markers if m.type == "rubble" for h in m.hexes),
            bridges_destroyed=frozenset(frozenset(m.hexes) for m in markers if m.type == "bridge_destroyed"),
        )
        _set_udict(board, units)
        _set_sdict(board, stacks)
        return board

    # ---- shortcuts to the static part

    @property
    def grid(self) -> HexGrid:
        return self.static.grid

    @property
    def map(self) -> MapDef:
        return self.static.map

    @property
    def table(self) -> MovementTable:
        return self.static.table

    @property
    def rules(self) -> RuleSwitches:
        return self.static.rules

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        return self.static.adjacent[hex_id]

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.static.adjacent

    # ---- queries

    def unit(self, uid: str) -> UnitState:
        return self.units[uid]

    def stack(self, hex_id: str) -> tuple[UnitState, ...]:
        """Combat units in ``hex_id``, top first (6.24).  Leaders are not in stacks."""
        return tuple(map(self._units.__getitem__, self._stacks.get(hex_id, ())))   # no generator: asked often

    units_at = stack

    def top(self, hex_id: str) -> UnitState | None:
        ids = self._stacks.get(hex_id)
        return self.units[ids[0]] if ids else None

    def leaders_at(self, hex_id: str) -> tuple[UnitState, ...]:
        return tuple(self.units[u] for u in self.leaders_by_hex.get(hex_id, ()))

    def side_at(self, hex_id: str) -> str | None:
        """Side of the combat units in the hex (never mixed, 6.22), or None if it holds none."""
        ids = self._stacks.get(hex_id)
        return self._units[ids[0]].defn.side if ids else None

    def enemy_units_at(self, hex_id: str, side: str) -> tuple[UnitState, ...]:
        return tuple(u for u in self.stack(hex_id) if u.side != side)

    def friendly_units_at(self, hex_id: str, side: str) -> tuple[UnitState, ...]:
        return tuple(u for u in self.stack(hex_id) if u.side == side)

    def has_enemy(self, hex_id: str, side: str) -> bool:
        ids = self._stacks.get(hex_id)
        return bool(ids) and self._units[ids[0]].defn.side != side

    def local_memo(self, key: tuple[Any, ...], hex_id: str) -> Any:
        """A memoised answer that depends only on the units in ``hex_id``'s neighbours (ZOC, enemy adjacency):
        this Board's, else the previous Board's when no unit changed in or next to ``hex_id`` since — most
        events change one or two hexes, and recomputing every ZOC after each of them was the replay's main
        repeated work.  None when unknown."""
        hit = self.cache.get(key)
        if hit is None:
            inh = self.inherited
            if inh is None:
                return None
            near = self.static.around(hex_id)     # h is next to hex_id iff hex_id is next to h (adjacency is
            while inh is not None:                # symmetric): one neighbourhood for the whole chain
                for h in inh[1]:                          # valid while no change came near hex_id
                    if h in near:
                        return None
                hit = inh[0].get(key)
                if hit is not None:
                    self.cache[key] = hit      # carried forward, so later Boards find it close by
                    break
                inh = inh[2]
        return hit

    def adjacent_to_enemy(self, hex_id: str, side: str) -> bool:
        """True if a combat unit of another side stands next to ``hex_id`` (7.36, 7.37).  Memoised."""
        key = ("adj_enemy", hex_id, side)
        hit = self.local_memo(key, hex_id)
        if hit is None:
            hit = any(self.has_enemy(n, side) for n in self.static.adjacent[hex_id])
            self.cache[key] = hit
        return hit

    def units_of(self, side: str) -> Iterable[UnitState]:
        return (u for u in self.units.values() if u.side == side)

    def on_map_units(self) -> Iterable[UnitState]:
        units = self._units
        return (units[u] for ids in self._stacks.values() for u in ids)

    def on_map_ags(self) -> set[str | None]:
        """The AGs of the combat units on the map: ``{u.ag for u in on_map_units()}`` in one comprehension (the
        cup's 5.32 asks it a few times a turn, over every unit)."""
        units = self._units
        return {units[u].defn.ag for ids in self._stacks.values() for u in ids}   # stacks hold Units: an AG each

    def bridge_intact(self, a: str, b: str) -> bool:
        """A ``bridge`` feature on the hexside a|b without a Bridge Destroyed marker (BOR-5)."""
        key = frozenset((a, b))
        return "bridge" in self.static.hexside.get(key, ()) and key not in self.bridges_destroyed

    # ---- changes (each returns a new Board)

    def _with(self, units: dict[str, UnitState] | None = None,
              stacks: dict[str, tuple[str, ...]] | None = None,
              leaders: dict[str, tuple[str, ...]] | None = None, changed: Sequence[str | None] | None = None,
              markers: Mapping[str, Any] | None = None) -> "Board":
        # Built slot by slot rather than through the frozen dataclass __init__ (one Board per event), each slot
        # through its own descriptor (cheaper than object.__setattr__ by name, as a slots record's __init__).
        b = _new_board(Board)
        _set_static(b, self.static)
        if units is None:
            _set_units(b, self.units)
            _set_udict(b, self._units)
        else:
            _set_units(b, MappingProxyType(units))
            _set_udict(b, units)
        if stacks is None:
            _set_stacks(b, self.stacks)
            _set_sdict(b, self._stacks)
        else:
            _set_stacks(b, MappingProxyType(stacks))
            _set_sdict(b, stacks)
        _set_leaders(b, self.leaders_by_hex if leaders is None else MappingProxyType(leaders))
        if markers:
            _set_on_fire(b, markers.get("on_fire", self.on_fire))
            _set_rubble(b, markers.get("rubble", self.rubble))
            _set_bridges(b, markers.get("bridges_destroyed", self.bridges_destroyed))
        else:
            _set_on_fire(b, self.on_fire)
            _set_rubble(b, self.rubble)
            _set_bridges(b, self.bridges_destroyed)
        _set_cache(b, {})
        inherited = None
        if changed is not None and not markers:
            # A hex's local answers depend on its neighbours: every hex next to (or at) a change is stale.  The
            # changed hexes are kept, not the stale set: ``local_memo`` tests the few it is asked about (most
            # Boards are never asked one), which is cheaper than building the set for every Board.
            stale = tuple(changed) if None not in changed else tuple(h for h in changed if h is not None)
            up = self.inherited
            depth = up[3] + 1 if up is not None else 1
            # A bounded chain of earlier positions (then it starts afresh), so old memos are released.
            inherited = (self.cache, stale, up if depth <= MEMO_CHAIN else None,
                         depth if depth <= MEMO_CHAIN else 1)
        _set_inherited(b, inherited)
        return b

    def update(self, uid: str, **changes: Any) -> "Board":
        """The same position with fields of one unit changed (status, facing, flags...), not its place."""
        if "hex" in changes or "box" in changes:
            raise ValueError("use place/move/remove to change where a unit is")
        units = self._units.copy()
        units[uid] = units[uid].evolve(**changes)
        return self._with(units=units, changed=(units[uid].hex,))

    def update_many(self, changes: Mapping[str, Mapping[str, Any]]) -> "Board":
        """Several units' fields at once (e.g. resetting activation flags): one copy, not one per unit."""
        units = self._units.copy()
        for uid, ch in changes.items():
            units[uid] = units[uid].evolve(**ch)
        return self._with(units=units, changed=[units[uid].hex for uid in changes])

    def with_units(self, new: Mapping[str, UnitState]) -> "Board":
        """Whole UnitStates replaced, not moved (same hex and box as before): ``update_many`` for callers that
        built the new states themselves."""
        units = self._units.copy()
        units.update(new)
        return self._with(units=units, changed=[u.hex for u in new.values()])

    @staticmethod
    def _detach(u: UnitState, index: dict[str, tuple[str, ...]]) -> None:
        """Take ``u`` out of ``index`` (the stacks or the leaders copy that is being built)."""
        h = u.hex
        if h is None:
            return
        ids = index.get(h)
        if ids is None or ids == (u.id,):   # most units leave a hex they held alone
            index.pop(h, None)
            return
        rest = tuple(x for x in ids if x != u.id)
        if rest:
            index[h] = rest
        else:
            index.pop(h, None)

    def place(self, uid: str, hex_id: str, facing: int | None = None, *, top: bool = False,
              **changes: Any) -> "Board":
        """``uid`` is put into ``hex_id`` — at the bottom of the stack (6.24) unless ``top`` — wherever it
        was before (map or box).  Legality is the caller's business: validate first, then apply."""
        units = self._units.copy()
        u = units[uid]
        leader = isinstance(u.defn, Leader)   # u.is_leader, without the property call: one move per event
        # copy only the index that changes: leaders and combat units are indexed apart
        index = self.leaders_by_hex.copy() if leader else self._stacks.copy()
        self._detach(u, index)
        here = index.get(hex_id)
        if here is None:                   # most moves end in an empty hex
            index[hex_id] = (uid,)
        else:
            here = tuple(x for x in here if x != uid)
            index[hex_id] = (uid,) + here if top else here + (uid,)
        changes["hex"], changes["box"] = hex_id, None
        if facing is not None:
            changes["facing"] = facing
        units[uid] = u.evolve(**changes)
        return self._with(units, None if leader else index, index if leader else None, changed=(u.hex, hex_id))

    def move(self, uid: str, hex_id: str, facing: int | None = None, **changes: Any) -> "Board":
        """A completed move: to the bottom of the stack in ``hex_id`` (6.24), marked as moved; a moved
        Borodino reserve battery loses its overstack allowance."""
        changes.setdefault("moved", True)
        return self.place(uid, hex_id, facing, overstack=False, **changes)

    def relocate(self, new: UnitState) -> "Board":
        """``new`` (a unit's next state, on the map) replaces the unit of its id, which goes to the bottom of
        the stack in ``new.hex`` (6.24): ``place`` for a caller that built the new state itself (a completed
        move, ``UnitState.after_move``) — one dict copy per index and no keyword plumbing."""
        uid, hex_id = new.id, new.hex
        units = self._units.copy()
        old = units[uid]
        units[uid] = new
        leader = isinstance(old.defn, Leader)
        index = self.leaders_by_hex.copy() if leader else self._stacks.copy()
        self._detach(old, index)
        here = index.get(hex_id)               # type: ignore[arg-type]
        if here is None:                       # most moves end in an empty hex
            index[hex_id] = (uid,)             # type: ignore[index]
        else:
            index[hex_id] = tuple(x for x in here if x != uid) + (uid,)   # type: ignore[index]
        return self._with(units, None if leader else index, index if leader else None, (old.hex, hex_id))

    def remove(self, uid: str, box: str) -> "Board":
        """``uid`` leaves the map for an off-map box (withdrawn, recovery, eliminated, destroyed ...)."""
        units = self._units.copy()
        u = units[uid]
        index = self.leaders_by_hex.copy() if u.is_leader else self._stacks.copy()
        self._detach(u, index)
        units[uid] = u.evolve(hex=None, box=box)
        return self._with(units, None if u.is_leader else index, index if u.is_leader else None, changed=(u.hex,))

    def restack(self, hex_id: str, order: Iterable[str]) -> "Board":
        """The stack in ``hex_id`` re-ordered, top first.  ``order`` must be a permutation of the stack
        (``stacking.stack_order_errors`` says whether the re-ordering is allowed, 6.24)."""
        order = tuple(order)
        if sorted(order) != sorted(self.stacks.get(hex_id, ())):
            raise ValueError(f"{order} is not a permutation of the stack in {hex_id}")
        stacks = self._stacks.copy()
        stacks[hex_id] = order
        return self._with(stacks=stacks, changed=(hex_id,))

    def set_marker(self, kind: Literal["on_fire", "rubble", "bridges_destroyed"], item: Any,
                   present: bool = True) -> "Board":
        """Add or remove a map marker: a hex for on_fire/rubble, a pair of hexes for bridges_destroyed."""
        cur = getattr(self, kind)
        if kind == "bridges_destroyed":
            item = frozenset(item)
        return self._with(markers={kind: cur | {item} if present else cur - {item}})


# The slot descriptors of Board, bound once: ``_with`` builds a Board per event through them.
_new_board = object.__new__
_set_static = Board.__dict__["static"].__set__
_set_units = Board.__dict__["units"].__set__
_set_stacks = Board.__dict__["stacks"].__set__
_set_leaders = Board.__dict__["leaders_by_hex"].__set__
_set_on_fire = Board.__dict__["on_fire"].__set__
_set_rubble = Board.__dict__["rubble"].__set__
_set_bridges = Board.__dict__["bridges_destroyed"].__set__
_set_cache = Board.__dict__["cache"].__set__
_set_inherited = Board.__dict__["inherited"].__set__
_set_udict = Board.__dict__["_units"].__set__
_set_sdict = Board.__dict__["_stacks"].__set__
