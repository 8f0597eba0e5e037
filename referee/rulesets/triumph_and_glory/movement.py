"""Movement (7.1–7.4, 6.33–6.34, 6.22, 6.21 at the end of a move; gaps digest §3, §2, §4; DESIGN §5 ``move``).

Public API (all pure; nothing here changes a Board):

* ``check_move(board, unit_id, path, mode=None, context=MoveContext(), facing=None) -> MoveResult`` — the
  ruling on one ``move`` event: legal?, every error with its rule, MP per step, effects (``disordered`` by
  terrain), whether it stopped in an enemy ZOC.  ``path`` is the hexes entered, in order (a leading start hex
  is tolerated).  ``apply_move(board, result)`` then gives the new Board.
* ``search(...) -> Search`` (costs, predecessors, destinations), and over it ``reachable(...) -> {hex: cost}`` and
  ``cheapest_path(...) -> [hexes] | None`` — one Dijkstra over the same step rules, so ``check_move(cheapest_path(d))``
  is legal and costs ``reachable()[d]``, and one step more to a hex it does not reach is refused
  (property-tested).
* ``legal_moves(...)`` — every (mode, destination, cost) a unit may take now, for a random-legal-play driver.
* ``allowance(unit, mode, fired, rules)`` — 7.11–7.13, 7.36.  ``begin_activation(board, ids)`` resets the
  per-activation flags and records who starts in an enemy ZOC (6.34); call it when an activation starts.
* A unit may move in several ``move`` events in one activation (a board tool logs each drag): the MPs add up
  (``UnitState.mp_spent``), the mode may not change (7.13 play note: one movement type per activation), the
  minimum move is only for the first, and a unit that stopped in an enemy ZOC stays there (6.33/6.34).

Speed: the terrain price of a step is memoised on the static map per (column, from, to); ZOC and enemy
adjacency are memoised per Board; so a legal ``check_move`` costs a few dict look-ups per hex.  Illegal moves
pay one search for their ``alternatives`` (``alternatives=False`` skips it).

Rules and the engine defaults chosen (gaps digest tags [inferred] are switches or documented here):

* 7.11 normal = printed MA of the face now up (Under Orders).  7.12 limited = ⌈MA/2⌉ (No Orders, and every
  Reserve activation, 5.53); a No-Orders unit asking for ``normal`` is refused.  A group that failed its IO
  may not move (5.28, ``context.may_move``).
* 7.13 extended = 2×MA: Under Orders only, not Disordered (9.61), not for the sides in ``no_extended_sides``
  (BOR-NO-EXTENDED: Russians), never through friends, non-artillery never ends stacked (artillery only with
  artillery, within the 6.21 cap), and — default for "within three hexes" — illegal if the unit's start or any
  hex of its path, or the start hex of any other unit of its OG (``context.og_hexes``), is ≤ 3 hexes from an
  enemy combat unit.  Fired artillery may not extend (7.36 tail).
* 7.21 each hex costs its table cell for the unit's column (horse artillery: artillery; CinC: commander);
  ``{cost, disorders}`` cells Disorder a Good-Order unit at the end of its move (effect ``disordered``).
* 7.22 road rate only from a hex with a connecting road; path = half the terrain, rounded up; roads never
  cancel elevation costs.  7.37 no road/path rate into a hex adjacent to an enemy combat unit.
* 7.23 a prohibited hex or hexside (``P``) may not be entered / crossed; an intact bridge crosses any
  hexside at no extra cost (BOR-TERRAIN: the Moskva only there); a road crossing a prohibited *hex* allows it at
  the road rate.
* 7.24 a road/path crossing a stream cancels its cost (a ford); with BOR-TERRAIN (switch ``ford_only``) only
  where a ``ford`` is printed.  A hexside marked only ``ford`` is a stream with a ford.
* 6.22 / 7.32 never into or through an enemy combat unit.  BOR-5 never into an On Fire hex.
* 6.33 entering an enemy ZOC ends the move; a Disordered unit pays +1 to enter.  6.34 only a unit that started
  its activation in an enemy ZOC may leave it, paying +1 on the first hex, and may then not enter an
  enemy-controlled frontal hex.  CinCs ignore ZOC (gaps §4 default).
* 7.34 a hex is entered only with enough MPs; 7.35 minimum move: one hex whatever its cost, if the unit has
  spent nothing this activation, the hex may be entered, it is not in an enemy ZOC and the unit is not in
  square (9.85).
* 7.36 artillery that fired: ⌈allowance/2⌉ (No Orders: ½ of ⌈MA/2⌉, switch ``fired_half_of_limited``) and
  never into a hex adjacent to an enemy.
* 7.38 passing through a friendly-occupied hex costs +1 MP (not when stopping there; CinCs do not pay).
* 6.21 stacking and 6.11/6.14 facing are judged at the end of the move; the unit goes to the bottom (6.24).
* 7.41 a reinforcement enters through an entry hex; the k-th unit of its AG pays k × the entry hex's cost
  (``context.entry_index``).  7.42b Reinforcement Extended Movement (mode ``reinforcement``): 2×MA, every hex
  entered along a road.  7.44 hexes within two of an enemy entry hex still in use (``context.forbidden_hexes``,
  see :func:`entry_exclusion`) may not be entered.
* 9.85 a unit in square moves at most one hex of cost ≤ 2, never into an enemy ZOC.
"""
from __future__ import annotations

import heapq
import math
from typing import Callable, Iterable, Literal, NamedTuple, Sequence

from modulebuilder.records import field, record
from modulebuilder.model import Leader

from .board import Board, UnitState
from referee.engine.ruling import Error
from .facing import facing_error, required_facing
from .stacking import may_end_entering, stack_after_entering, stacking_errors_entering, stacking_rules
from .terrain import Cost, column_of
from .zoc import enemy_facts, in_enemy_frontal_zoc, in_enemy_zoc

__all__ = ["MoveContext", "MoveResult", "PathHex", "Effect", "Search", "allowance", "check_move", "apply_move",
           "search", "reachable", "cheapest_path", "legal_moves", "begin_activation", "entry_exclusion", "MODES"]

Mode = Literal["normal", "limited", "extended", "reinforcement"]
MODES: tuple[str, ...] = ("normal", "limited", "extended", "reinforcement")
EXTENDED_DISTANCE = 3        # 7.13
ENTRY_EXCLUSION = 2          # 7.44
SQUARE_MAX_COST = 2          # 9.85


@record(frozen=True, slots=True)
class MoveContext:
    """What the state machine knows about the mover's activation (the Board knows the position)."""
    under_orders: bool = True                 # its order group is Under Orders (or won an IO), 5.26
    reserve: bool = False                     # Reserve Activation: moves as a No-Orders unit, 5.53
    may_move: bool = True                     # False after a failed Individual Order, 5.28
    og_hexes: tuple[str, ...] = ()            # hexes where the rest of its OG started (7.13 all-or-nothing)
    allowance: int | None = None              # overrides the MA (CinC: Napoleon's d10, BOR-NAPOLEON)
    entry_hexes: tuple[str, ...] = ()         # 7.41 entry hexes of a reinforcement (default: the scenario's)
    entry_index: int = 1                      # 7.41 k-th unit of its AG to enter pays k × the entry cost
    forbidden_hexes: frozenset[str] = frozenset()   # 7.44 (see entry_exclusion) and scenario limits


@record(frozen=True, slots=True)
class PathHex:
    """One hex a move entered, with what entering it cost."""
    hex: str
    cost: int                                 # MP paid for this hex (terrain + hexside + ZOC + pass-through)
    total: int
    notes: tuple[str, ...] = ()               # the rules that priced it, e.g. ("7.22 road", "6.34 leave ZOC")


@record(frozen=True, slots=True)
class Effect:
    unit: str
    effect: str                               # DESIGN §5 result effect: "disordered"
    rule: str
    hex: str | None = None

    def to_json(self) -> dict:
        out = {"unit": self.unit, "effect": self.effect, "rule": self.rule}
        if self.hex:
            out["hex"] = self.hex
        return out


@record(frozen=True, slots=True)
class MoveResult:
    unit: str
    legal: bool
    errors: tuple[Error, ...]
    steps: tuple[PathHex, ...]
    mode: str
    allowance: int
    start: str | None
    end: str | None
    facing: int | None
    effects: tuple[Effect, ...] = ()
    stops_in_zoc: bool = False
    minimum_move: bool = False
    rules: tuple[str, ...] = ()

    @property
    def mp_spent(self) -> int:
        return self.steps[-1].total if self.steps else 0

    @property
    def path(self) -> list[str]:
        return [s.hex for s in self.steps]


# ------------------------------------------------------------------------------------------- allowance

def allowance(unit: UnitState, mode: str, fired: bool = False, half_of_limited: bool = True) -> int:
    """7.11 normal MA; 7.12 limited ⌈MA/2⌉; 7.13 / 7.42 extended 2×MA; 7.36 fired artillery halves it."""
    ma = unit.ma
    if mode == "normal":
        base = ma
    elif mode == "limited":
        base = math.ceil(ma / 2)
    elif mode in ("extended", "reinforcement"):
        base = 2 * ma
    else:
        raise KeyError(mode)
    if fired and unit.kind == "artillery":
        return math.ceil((base if (mode == "limited" and half_of_limited) else ma) / 2)
    return base


def entry_exclusion(board: Board, enemy_entry_hexes: Iterable[str]) -> frozenset[str]:
    """7.44: hexes within two of an enemy entry hex, closed while the enemy still has units to enter."""
    grid = board.grid
    return frozenset(h for e in enemy_entry_hexes if board.on_map(e) for h in grid.within(e, ENTRY_EXCLUSION))


def begin_activation(board: Board, unit_ids: Iterable[str]) -> Board:
    """Reset the per-activation flags of ``unit_ids`` and record which start in an enemy ZOC (6.34)."""
    changed: dict[str, UnitState] = {}
    units = board.units
    zoc_at: dict[tuple[str, str], bool] = {}      # an AG's units often share hexes: one ZOC test per hex and side
    for uid in unit_ids:
        u = units[uid]
        if u.hex is None:
            zoc = False
        else:
            key = (u.hex, u.side)
            zoc = zoc_at.get(key)                  # type: ignore[assignment]
            if zoc is None:
                zoc = zoc_at[key] = in_enemy_zoc(board, u.hex, u.side)
        # Most units start clean already: copying a UnitState only when a flag changes keeps a draw cheap.
        if u.moved or u.fired or u.mode is not None or u.mp_spent or u.started_in_zoc != zoc:
            # Built directly, not through evolve(**changes): every draw resets the units it activates.
            changed[uid] = UnitState(u.id, u.defn, u.hex, u.box, u.facing, u.status, False, False, None, zoc, 0,
                                     u.square, u.overstack)
    return board.with_units(changed) if changed else board


# ------------------------------------------------------------------------------------------- the plan

class _Plan:
    """Everything about one mover that does not change along its path (built once per check/search)."""

    __slots__ = ("board", "unit", "side", "column", "mode", "ctx", "start", "allowance", "leader", "extended",
                 "fired_art", "start_in_zoc", "started_in_zoc", "restricted", "spent_before", "entering", "entry_hexes",
                 "enemies")

    def __init__(self, board: Board, unit: UnitState, mode: str, ctx: MoveContext,
                 enemies: tuple[frozenset[str], ...] | None = None) -> None:
        self.board, self.unit, self.side, self.mode, self.ctx = board, unit, unit.side, mode, ctx
        self.leader = leader = isinstance(unit.defn, Leader)     # unit.is_leader without the property call
        self.column = "commander" if leader else column_of(unit.defn.kind)
        self.start = unit.hex
        self.entering = unit.hex is None and unit.box == "reinforcement"
        self.entry_hexes = (tuple(ctx.entry_hexes) or tuple(sorted(board.static.entry_hexes))) if self.entering else ()
        self.extended = mode in ("extended", "reinforcement")
        self.fired_art = unit.fired and not leader and unit.defn.kind == "artillery"
        if leader:
            self.allowance = ctx.allowance if ctx.allowance is not None else (unit.defn.ma or 8)   # 5.62
        else:
            self.allowance = ctx.allowance if ctx.allowance is not None else allowance(
                unit, mode, unit.fired, board.rules.fired_half_of_limited)
        self.start_in_zoc = (not leader and self.start is not None
                             and (self.start in enemies[0] if enemies is not None
                                  else in_enemy_zoc(board, self.start, self.side)))
        # 6.34: did the unit start its activation in an enemy ZOC?  A unit that has not moved yet is where it
        # started, so the flag set by begin_activation is only needed once it has moved.
        self.started_in_zoc = unit.started_in_zoc or (self.start_in_zoc and not unit.moved)
        self.restricted = self.started_in_zoc          # 6.34: once it leaves, no enemy frontal ZOC hex
        self.spent_before = unit.mp_spent if unit.moved else 0
        # A search passes the whole map's enemy ZOC, enemy adjacency and enemy hexes (``zoc.enemy_facts``); a
        # single move asks the Board hex by hex.
        self.enemies = enemies

    def zoc(self, h: str) -> bool:
        """6.33: is ``h`` in an enemy ZOC for this mover (CinCs ignore ZOC)?"""
        if self.leader:
            return False
        e = self.enemies
        return h in e[0] if e is not None else in_enemy_zoc(self.board, h, self.side)

    def next_to_enemy(self, h: str) -> bool:
        """7.36 / 7.37: does an enemy combat unit stand next to ``h``?"""
        e = self.enemies
        return h in e[1] if e is not None else self.board.adjacent_to_enemy(h, self.side)

    def friends(self, h: str) -> bool:
        """A friendly combat unit (not the mover) stands in ``h``."""
        ids = self.board._stacks.get(h)    # noqa: SLF001 — the dict behind Board.stacks, for speed
        if not ids:
            return False                   # most hexes entered are empty
        # someone besides the mover (ids are distinct), and of its side (sides never mix in a hex, 6.22)
        return ids != (self.unit.id,) and self.board._units[ids[0]].defn.side == self.side   # noqa: SLF001

    def pass_through(self, h: str) -> int:
        """7.38: +1 to go on from an intermediate hex holding friends (CinCs are not units: free)."""
        return 1 if (not self.leader and h != self.start and self.friends(h)) else 0

    def near_enemy(self, h: str) -> bool:
        """7.13: is ``h`` within three hexes of an enemy combat unit?"""
        b = self.board
        return any(b.has_enemy(n, self.side) for n in b.grid.within(h, EXTENDED_DISTANCE))


def _err(rule: str, code: str, msg: str, alt: Sequence | None = None) -> Error:
    return Error(rule, code, msg, tuple(alt) if alt is not None else None)


# ------------------------------------------------------------------------------------------- one step

class _Price(NamedTuple):
    """MP to step into a hex, hexside and climb included; ``mp is None`` = refused by ``refusal``.
    (A NamedTuple rather than a frozen dataclass: several are built for each new edge of a game, and a tuple is
    cheaper to build.)"""
    mp: int | None
    disorders: bool = False
    notes: tuple[str, ...] = ()
    refusal: tuple[str, str, str] | None = None      # (rule, code, message)


class _Edge(NamedTuple):
    """The position-independent price of the step a -> b for one table column: off-road, and at the road or
    path rate when one connects a and b (``linked``; whether that rate applies depends on 7.37)."""
    plain: _Price
    linked: _Price | None


def _crossing(board: Board, column: str, a: str, b: str, link: str | None) -> _Price:
    """7.23 / 7.24 / 7.22: MP added for crossing the hexside a|b and climbing, or why it may not be crossed."""
    static, table = board.static, board.table
    feats = static.features(a, b)
    mp, disorders, notes = 0, False, []
    if feats:
        if board.bridge_intact(a, b):
            notes.append("7.23 bridge")            # BOR-TERRAIN: across the bridge at no extra cost
        else:
            fs = [f for f in feats if f != "bridge"]
            has_ford = "ford" in fs
            if has_ford and not any("stream" in f for f in fs):
                fs.append("stream")                # a printed ford sits on a stream
            for f in fs:
                if f == "ford":
                    continue
                if "stream" in f and link and (has_ford or not board.rules.ford_only):
                    notes.append("7.24 ford")
                    continue
                c = table.hexside_cost(f, column)
                if c.prohibited:
                    return _Price(None, refusal=("7.23", "prohibited_hexside", f"may not cross the {f} between "
                                                                               f"{a} and {b}"))
                mp += c.mp  # type: ignore[operator]
                disorders |= c.disorders
                if c.mp:
                    notes.append(f"7.21 {f} +{c.mp}")
    climb = static.elevation(b) - static.elevation(a)
    if climb > 0:
        c = table.hexside_cost("up_one_level", column)
        if c.prohibited:
            return _Price(None, refusal=("7.23", "prohibited_climb", f"may not climb from {a} to {b}"))
        if c.mp:
            mp += c.mp * climb
            notes.append(f"7.22 climb +{c.mp * climb}")
        disorders |= c.disorders
    return _Price(mp, disorders, tuple(notes))


def _with_hex(crossing: _Price, cost: Cost, notes: tuple[str, ...], b: str, terrain: str) -> _Price:
    if crossing.mp is None:
        return crossing
    if cost.prohibited:
        return _Price(None, refusal=("7.23", "prohibited_terrain", f"may not enter the {terrain} hex {b}"))
    return _Price(crossing.mp + cost.mp, crossing.disorders or cost.disorders,  # type: ignore[operator]
                  crossing.notes + notes)


def _compute_edge(board: Board, column: str, a: str | None, b: str) -> _Edge:
    """7.21–7.24: the terrain price of a -> b (a None = entering from off the map, 7.41)."""
    table = board.table
    terrain = board.static.terrain(b)
    if b in board.rubble and "rubble" in table.rows:
        terrain = "rubble"                                                   # BOR-5
    cost = table.hex_cost(terrain, column)
    link = board.static.link(a, b) if a else None
    crossing = _crossing(board, column, a, b, link) if a else _Price(0)
    plain = _with_hex(crossing, cost, (), b, terrain)
    if link is None:
        return _Edge(plain, None)
    if link == "road":
        road = table.road_cost(column)
        if road is not None and (cost.prohibited or road.mp < cost.mp):     # type: ignore[operator]
            return _Edge(plain, _with_hex(crossing, Cost(road.mp), ("7.22 road",), b, terrain))
        return _Edge(plain, _with_hex(crossing, Cost(cost.mp), (), b, terrain))   # a road never disorders
    return _Edge(plain, _with_hex(crossing, cost.halved(), ("7.22 path",), b, terrain))


def _edge(board: Board, column: str, a: str | None, b: str) -> _Edge:
    """``_compute_edge`` memoised on the static map — unless a marker that changes in play (a bridge that can
    be destroyed, Rubble) is involved.

    Most steps cross a bare hexside on the flat (no feature, road, path or climb: ``BoardMap.priced_sides``):
    their price is that of entering ``b`` from off the map, so they share one memo entry per destination
    and column (keyed per pair, most entries would serve one step)."""
    static = board.static
    if a is not None and b in static.priced_sides.get(a, ()):
        if "bridge" in static.features(a, b) or b in board.rubble:
            return _compute_edge(board, column, a, b)
        key: tuple[str | None, ...] = (column, a, b)
    else:
        if b in board.rubble:
            return _compute_edge(board, column, None, b)
        a, key = None, (column, b)
    hit = static.memo.get(key)
    if hit is None:
        hit = static.memo[key] = _compute_edge(board, column, a, b)
    return hit


def _entry_refusal(plan: _Plan, b: str) -> Error | None:
    """Why the mover may not enter ``b`` at all, whatever hex it comes from (6.22, BOR-5, 7.44, 7.36, 7.13),
    or None.  A fact of the position and the mover only, so a search asks it once per hex (``search``)."""
    board, unit, side = plan.board, plan.unit, plan.side
    ids = board._stacks.get(b)                                # noqa: SLF001 — see Board._stacks
    if ids and board._units[ids[0]].defn.side != side:      # board.has_enemy(b, side), inlined
        return _err("6.22", "enemy_occupied", f"{unit.defn.name} may not enter {b}: enemy units there (7.32)")
    if b in board.on_fire:
        return _err("BOR-5", "on_fire", f"no unit may enter the burning hex {b}")
    if b in plan.ctx.forbidden_hexes:
        return _err("7.44", "forbidden_hex", f"{unit.defn.name} may not enter {b} (within two hexes of an enemy "
                                             f"entry hex)")
    if plan.fired_art and plan.next_to_enemy(b):
        return _err("7.36", "fired_artillery_adjacent", f"{unit.defn.name} fired and may not move next to an "
                                                        f"enemy ({b})")
    if plan.extended:
        if plan.near_enemy(b):
            return _err("7.13", "extended_near_enemy", f"extended movement may not come within "
                        f"{EXTENDED_DISTANCE} hexes of an enemy ({b})")
        if plan.friends(b) and (unit.kind != "artillery"
                                or any(u.kind != "artillery" for u in board.friendly_units_at(b, side))):
            return _err("7.13", "extended_friends", f"extended movement may not enter friendly units ({b})")
    return None


_OUT_OF_ZOC = (False, 0)
_IN_ZOC = (True, 0)
_IN_ZOC_DISORDERED = (True, 1)


def _zoc_entry(plan: _Plan, b: str) -> tuple[bool, int] | Error:
    """6.33 / 6.34 of entering ``b``: (is ``b`` in an enemy ZOC — the move stops there —, the MP that adds: +1
    for a Disordered unit), or the refusal of a unit that left an enemy ZOC.  CinCs ignore ZOC."""
    if not plan.zoc(b):
        return _OUT_OF_ZOC
    if plan.restricted and in_enemy_frontal_zoc(plan.board, b, plan.side):
        return _err("6.34", "zoc_frontal_after_leaving", f"{plan.unit.defn.name} left an enemy ZOC and may not "
                                                         f"enter the enemy-controlled frontal hex {b}")
    return _IN_ZOC_DISORDERED if plan.unit.disordered else _IN_ZOC


def _step(plan: _Plan, a: str | None, b: str, first: bool) -> tuple[int, bool, tuple[str, ...], bool] | Error:
    """The MP to enter ``b`` from ``a`` (its hexside, hex, ZOC surcharges — not 7.38), whether it Disorders,
    the rules that priced it and whether ``b`` is in an enemy ZOC (6.33: the move stops there — returned so
    the caller need not ask again), or the rule against it."""
    board = plan.board
    adjacent = board.static.adjacent
    if b not in adjacent:
        return _err("7.31", "off_map", f"{b} is not a hex of the map")
    if a is not None and b not in adjacent[a]:
        return _err("7.31", "not_adjacent", f"{b} is not adjacent to {a}: a move is a path of adjacent hexes")
    refusal = _entry_refusal(plan, b)
    if refusal is not None:
        return refusal
    if plan.mode == "reinforcement" and a is not None and board.static.link(a, b) != "road":
        return _err("7.42", "reinforcement_off_road",
                    f"reinforcement extended movement only along a road ({a} to {b})")
    edge = _edge(board, plan.column, a, b)
    price = edge.plain
    if edge.linked is not None:
        if plan.next_to_enemy(b):
            price = _Price(price.mp, price.disorders, price.notes + ("7.37 no road rate next to an enemy",),
                           price.refusal)
        else:
            price = edge.linked
    if price.mp is None:
        rule, code, msg = price.refusal  # type: ignore[misc]
        return _err(rule, code, f"{plan.unit.defn.name} {msg}")
    mp, notes = price.mp, price.notes
    if a is None:                                          # 7.41: k-th unit through the entry hex pays k times
        mp *= max(plan.ctx.entry_index, 1)
        notes += (f"7.41 entry x{plan.ctx.entry_index}",)
    if first and plan.start_in_zoc:
        mp += 1
        notes += ("6.34 leave ZOC +1",)
    zoc = _zoc_entry(plan, b)
    if type(zoc) is not tuple:
        return zoc  # type: ignore[return-value]
    in_zoc, extra = zoc
    if extra:
        mp += extra
        notes += ("6.33 disordered into ZOC +1",)
    return mp, price.disorders, notes, in_zoc


# ------------------------------------------------------------------------------------------- whole move

def _mode_errors(board: Board, unit: UnitState, mode: str, ctx: MoveContext) -> list[Error]:
    """7.1x / 5.26–5.28 / 5.53 / 9.61 / BOR-NO-EXTENDED: may this unit move, in this mode, now?"""
    name = unit.defn.name
    if not ctx.may_move:
        return [_err("5.28", "failed_individual_order", f"{name}'s group failed its Individual Order: rally only")]
    if unit.moved and unit.mode is not None and unit.mode != mode and not unit.is_leader:
        return [_err("7.13", "one_movement_type", f"{name} already moved with {unit.mode} movement this "
                                                  f"activation", (unit.mode,))]
    if unit.is_leader:
        return [] if mode == "normal" else [_err("5.62", "cinc_mode", "a CinC moves at its normal allowance",
                                                 ("normal",))]
    under = ctx.under_orders and not ctx.reserve
    if mode == "normal" and not under:
        return [_err("7.12", "no_orders_limited",
                     f"{name} is {'Reserve-activated' if ctx.reserve else 'without orders'}: limited movement only",
                     ("limited",))]
    if mode in ("extended", "reinforcement"):
        if unit.side in board.rules.no_extended_sides:
            return [_err("BOR-NO-EXTENDED", "no_extended", f"{unit.side} units may not use extended movement",
                         ("normal", "limited") if under else ("limited",))]
        if not under:
            return [_err("7.13", "extended_needs_orders", "extended movement needs Under Orders", ("limited",))]
        if unit.disordered:
            return [_err("9.61", "extended_disordered", f"{name} is Disordered: no extended movement",
                         ("normal", "limited"))]
        if unit.fired:
            return [_err("7.36", "extended_after_fire", "artillery that fired may not use extended movement",
                         ("normal", "limited"))]
        if mode == "reinforcement" and unit.box != "reinforcement":
            return [_err("7.42", "not_a_reinforcement", f"{name} is not entering as a reinforcement")]
    if unit.hex is None and unit.box != "reinforcement":
        return [_err("7.31", "not_on_map", f"{name} is not on the map ({unit.box})")]
    return []


_MODE_RULE = {"normal": "7.11", "limited": "7.12"}     # the rule of each movement mode (else 7.13)


def _default_mode(unit: UnitState, ctx: MoveContext) -> str:
    return "normal" if unit.is_leader or (ctx.under_orders and not ctx.reserve) else "limited"


def check_move(board: Board, unit_id: str, path: Sequence[str], mode: str | None = None,
               context: MoveContext = MoveContext(), facing: int | None = None,
               alternatives: bool = True) -> MoveResult:
    """Rule on moving ``unit_id`` along ``path`` (hexes entered, in order) and ending with ``facing``.

    With ``alternatives`` (default) an error about the path lists the hexes the unit could reach instead —
    one extra search, paid only by illegal moves; pass False where nobody reads them."""
    unit = board.units[unit_id]
    mode = mode or _default_mode(unit, context)
    path = list(path)
    if path and unit.hex is not None and path[0] == unit.hex:
        path = path[1:]                                    # tolerate a path that repeats the start hex
    rules = ["5.62" if unit.is_leader else _MODE_RULE.get(mode, "7.13")]
    if mode not in MODES:
        return _result(unit_id, unit, mode, 0, facing, rules,
                       [_err("7.1", "bad_mode", f"unknown movement mode {mode!r}", MODES)])
    plan = _Plan(board, unit, mode, context)

    def reach() -> list[str] | None:
        return sorted(reachable(board, unit_id, mode, context)) if alternatives else None

    errors = _mode_errors(board, unit, mode, context) or _start_errors(plan, path)     # 7.1, 6.33/6.34, 7.41, 7.13
    if errors:
        return _result(unit_id, unit, mode, plan.allowance, facing, rules, errors)
    walk = _walk(plan, path, rules, reach)                                            # 7.2, 7.3, 6.33, 7.38
    error = walk.error or _mp_error(plan, walk, rules, reach) or _square_error(plan, walk, rules)   # 7.34, 9.85
    if error is not None:
        return _result(unit_id, unit, mode, plan.allowance, facing, rules, [error], walk.steps)
    errors = _end_errors_cited(plan, walk, facing, rules)                             # 6.21, 6.11, 6.12
    if errors:
        return _result(unit_id, unit, mode, plan.allowance, facing, rules, errors, walk.steps, walk.end)
    effects = ()
    if walk.disorders_at is not None and not unit.disordered:
        effects = (Effect(unit_id, "disordered", "7.21", walk.disorders_at),)        # 7.21
    end = walk.end if walk.end is not None else unit.hex
    return MoveResult(unit_id, True, (), tuple(walk.steps), mode, plan.allowance, unit.hex, end, facing, effects,
                      walk.stopped, walk.minimum, tuple(dict.fromkeys(rules)))


def _start_errors(plan: _Plan, path: Sequence[str]) -> list[Error]:
    """Whether the unit may set out at all: 6.33/6.34 out of an enemy ZOC, 7.41 through an entry hex, 7.13 no
    extended movement near an enemy (the unit's or its order group's start)."""
    unit, name = plan.unit, plan.unit.defn.name
    if plan.start_in_zoc and path and not plan.started_in_zoc:
        return [_err("6.34", "zoc_leave", f"{name} did not start its activation in the enemy ZOC of {unit.hex} and "
                                          f"may not leave it")]
    if plan.start_in_zoc and path and unit.moved:
        return [_err("6.33", "zoc_stop", f"{name} stopped in the enemy ZOC of {unit.hex} and may not move on this "
                                         f"activation")]
    if plan.entering and path and path[0] not in plan.entry_hexes:
        return [_err("7.41", "entry_hex", f"reinforcements enter through {', '.join(plan.entry_hexes)}",
                     plan.entry_hexes)]
    if plan.entering and not path:
        return [_err("7.41", "entry_hex", "a reinforcement must enter the map", plan.entry_hexes)]
    if plan.extended and plan.ctx.og_hexes and any(plan.near_enemy(h) for h in plan.ctx.og_hexes if h):
        return [_err("7.13", "extended_group_near_enemy", "a unit of the order group starts within "
                                                          f"{EXTENDED_DISTANCE} hexes of an enemy")]
    if plan.extended and unit.hex and plan.near_enemy(unit.hex):
        return [_err("7.13", "extended_near_enemy", f"{name} starts within {EXTENDED_DISTANCE} hexes of an enemy")]
    return []


class _Walk:
    """The hexes a move entered, as ``_walk`` priced them, and the refusal that stopped it, if one did."""

    __slots__ = ("steps", "total", "end", "stopped", "disorders_at", "minimum", "error")

    def __init__(self, start: str | None) -> None:
        self.steps: list[PathHex] = []
        self.total = 0
        self.end = start                  # the last hex entered (the start until one is)
        self.stopped = False              # it entered an enemy ZOC (6.33)
        self.disorders_at: str | None = None     # the first hex whose terrain Disorders (7.21)
        self.minimum = False              # a minimum move (7.35)
        self.error: Error | None = None


def _walk(plan: _Plan, path: Sequence[str], rules: list[str], reach: Callable[[], list[str] | None]) -> _Walk:
    """7.3: enter the hexes of ``path`` one by one, each priced by ``_step`` (7.2x, 6.33, 6.34) plus 7.38 for
    the friends passed through; the walk stops at the first hex refused.  The rules that priced or refused a
    hex join ``rules``."""
    walk = _Walk(plan.start)
    name = plan.unit.defn.name
    for h in path:
        prev = walk.end
        if walk.stopped:                                   # 6.33: entering an enemy ZOC ends the move
            rules.append("6.33")
            walk.error = _err("6.33", "zoc_stop", f"{name} entered an enemy ZOC at {prev} and must stop there",
                              reach())
            return walk
        step = _step(plan, prev, h, not walk.steps)
        if type(step) is not tuple:                        # an Error
            rules.append(step.rule)                        # type: ignore[union-attr]
            walk.error = _err(step.rule, step.code, step.message, reach())          # type: ignore[union-attr]
            return walk
        mp, disorders, notes, in_zoc = step
        if walk.steps and plan.extended and plan.friends(prev):       # type: ignore[arg-type]
            rules.append("7.13")
            walk.error = _err("7.13", "extended_through_friends",
                              f"extended movement may not pass through friendly units ({prev})")
            return walk
        if walk.steps and plan.pass_through(prev):          # type: ignore[arg-type]  # 7.38 for the hex left
            mp += 1
            notes = notes + ("7.38 pass through friends +1",)
        walk.total += mp
        walk.steps.append(PathHex(h, mp, walk.total, notes))
        rules.extend([n.split()[0] for n in notes])
        if disorders and walk.disorders_at is None:
            walk.disorders_at = h
        if in_zoc:
            walk.stopped = True
            rules.append("6.33")
        walk.end = h
    return walk


def _mp_error(plan: _Plan, walk: _Walk, rules: list[str], reach: Callable[[], list[str] | None]) -> Error | None:
    """7.34: a hex is entered only with enough MPs — but 7.35, the minimum move: one hex whatever its cost, if
    the unit has spent nothing this activation, the hex is not in an enemy ZOC, the unit is not in square (9.85),
    not entering (7.41) and not a CinC."""
    unit = plan.unit
    if walk.total + plan.spent_before <= plan.allowance:
        return None
    walk.minimum = (len(walk.steps) == 1 and plan.spent_before == 0 and not unit.moved and not walk.stopped
                    and not unit.square and not plan.entering and not plan.leader)
    if walk.minimum:
        rules.append("7.35")
        return None
    rules.append("7.34")
    return _err("7.34", "not_enough_mp", f"{unit.defn.name} needs {walk.total} MP but has "
                                         f"{plan.allowance - plan.spent_before}", reach())


def _square_error(plan: _Plan, walk: _Walk, rules: list[str]) -> Error | None:
    """9.85: a unit in square moves at most one hex of cost 2 or less, never from or into an enemy ZOC."""
    steps = walk.steps
    if not plan.unit.square or not (plan.start_in_zoc or len(steps) > 1 or walk.stopped
                                    or (steps and steps[0].cost > SQUARE_MAX_COST)):
        return None
    rules.append("9.85")
    return _err("9.85", "square_move", "a unit in square moves one hex of cost 2 or less, never from or into an "
                                       "enemy ZOC")


def _end_errors_cited(plan: _Plan, walk: _Walk, facing: int | None, rules: list[str]) -> list[Error]:
    """6.21 / 6.22 / 7.13 / 6.11 / 6.12 / 6.14 at the end of the move, the rules judged by joining ``rules``."""
    end, unit = walk.end, plan.unit
    if end is not None and not plan.board._stacks.get(end):   # noqa: SLF001 — most moves end alone
        errors = _lone_end_errors(plan, facing)
        if not plan.leader and facing is not None and facing != unit.facing:
            rules.append("6.12")
    else:
        errors = _end_errors(plan, end, facing) if walk.steps or facing is not None else []
        rules.extend(_end_rules(plan, end, facing))
    rules.extend(e.rule for e in errors)
    return errors


def _result(unit_id: str, unit: UnitState, mode: str, allowed: int, facing: int | None, rules: list[str],
            errors: list[Error], steps: Sequence[PathHex] = (), end: str | None = None) -> MoveResult:
    """``check_move``'s refusal: the errors, the steps judged before the one refused, the rules cited."""
    return MoveResult(unit_id, not errors, tuple(errors), tuple(steps), mode, allowed, unit.hex,
                      end if end is not None else unit.hex, facing, (), False, False, tuple(dict.fromkeys(rules)))


def _end_rules(plan: _Plan, end: str | None, facing: int | None) -> list[str]:
    """The rules the end of the move was judged by, passed or not: the stacking rules when the
    unit ends with friends (6.21, BOR-STACK ...), 6.11 when it takes their facing, 6.12 when its facing changes."""
    board, unit = plan.board, plan.unit
    if end is None or plan.leader:
        return []
    out: list[str] = []
    need = None
    if end != plan.start and board._stacks.get(end):       # most moves end alone: nothing to stack with
        out += stacking_rules(stack_after_entering(board, unit, end), board.rules)
        need = required_facing(board, unit, end)
        if need is not None:
            out.append("6.11")
    final = facing if facing is not None else need
    if final is not None and final != unit.facing:
        out.append("6.12")
    return out


def _lone_end_errors(plan: _Plan, facing: int | None) -> list[Error]:
    """``_end_errors`` for a move that ends in a hex without combat units: no stacking (6.21, 6.22, 7.13) and
    no facing to share (6.11), so only the facing itself is judged (6.12)."""
    if facing is None or plan.leader:
        return []
    fe = facing_error(plan.board, facing)
    return [fe] if fe else []


def _end_errors(plan: _Plan, end: str | None, facing: int | None) -> list[Error]:
    """6.21 / 6.22 / 7.13 / 6.11 / 6.14 at the end of the move."""
    board, unit = plan.board, plan.unit
    errors: list[Error] = []
    if end is None:
        return errors
    if not plan.leader and end != plan.start:
        errors += stacking_errors_entering(board, unit, end)
        if plan.extended and unit.kind != "artillery" and plan.friends(end):
            errors.append(_err("7.13", "extended_ends_stacked", "a unit using extended movement may not end stacked"))
    if facing is not None and not plan.leader:
        fe = facing_error(board, facing)
        if fe:
            errors.append(fe)
        else:
            need = required_facing(board, unit, end)
            if need is not None and need != facing:
                errors.append(_err("6.11", "stack_facing_differs",
                                   f"{unit.defn.name} must share the facing {need} of the units in {end} (6.14: "
                                   f"artillery excepted)", (need,)))
    return errors


def apply_move(board: Board, result: MoveResult) -> Board:
    """The Board after a legal move: the unit at the bottom of its new stack (6.24), facing set, moved,
    mode and MP recorded, Disordered if the terrain said so (7.21)."""
    if not result.legal:
        raise ValueError("apply_move needs a legal MoveResult")
    unit = board.units[result.unit]
    facing = result.facing
    if facing is None and result.end:
        facing = (required_facing(board, unit, result.end) if board._stacks.get(result.end) else None) \
            or unit.facing
    mp_spent = unit.mp_spent + result.mp_spent
    status = "disordered" if result.effects and any(e.effect == "disordered" for e in result.effects) \
        else unit.status
    if result.end == unit.hex or result.end is None:
        return board.update(result.unit, facing=facing, moved=bool(result.steps) or unit.moved, mode=result.mode,
                            mp_spent=mp_spent, status=status)
    return board.relocate(unit.after_move(result.end, facing, result.mode, mp_spent, status))


# ------------------------------------------------------------------------------------------- search

@record
class Search:
    """What ``search`` found: the least MP to every hex the unit may enter, the hex it entered each from (None:
    from off the map), and the hexes it may end its move in."""
    cost: dict[str, int] = field(default_factory=dict)
    prev: dict[str, str | None] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)        # legal destinations -> cost


_Row = tuple[int, tuple[tuple[str, int | None, int | None, bool], ...]]
_STEP_TABLES_KEPT = 4        # marker states (Rubble, destroyed bridges) whose step tables a map keeps


def _step_rows(board: Board, column: str) -> dict[str, _Row]:
    """The step table of one column for the markers now on the map (``_step_row``'s rows, by hex), built lazily
    and kept on the static map for the last few marker states: Rubble and destroyed bridges change the price of
    the steps into and across them (BOR-5), so a table holds for one set of markers only."""
    tables = board.static.memo.get(("step_tables",))
    if tables is None:
        tables = board.static.memo[("step_tables",)] = {}
    key = (column, board.rubble, board.bridges_destroyed)
    rows = tables.get(key)
    if rows is None:
        if len(tables) >= _STEP_TABLES_KEPT * 4:
            del tables[next(iter(tables))]          # the oldest
        rows = tables[key] = {}
    return rows


def _step_row(board: Board, column: str, a: str) -> _Row:
    """The steps out of ``a`` for one table column: the least MP any of them costs, and each step in neighbour
    order, ``(b, mp off-road, mp at the road or path rate, linked)`` — ``_edge``'s answers for the markers now
    on the map, reduced to what a search reads.  ``linked``: a road or path joins a and b, and its rate applies
    unless 7.37 forbids it.  An mp of None is a step the terrain refuses (7.23).  The least MP lets a search
    skip the whole row of a hex from which not even the cheapest step fits in the MP left; it is taken from
    the row itself, so it holds whatever the movement table says (0 if every step is refused)."""
    rows = _step_rows(board, column)
    row = rows.get(a)
    if row is None:
        out: list[tuple[str, int | None, int | None, bool]] = []
        for b in board.static.adjacent[a]:
            e = _edge(board, column, a, b)
            out.append((b, e.plain.mp, None, False) if e.linked is None else (b, e.plain.mp, e.linked.mp, True))
        least = min((m for _, mp, linked, _ in out for m in (mp, linked) if m is not None), default=0)
        row = rows[a] = (least, tuple(out))
    return row


def search(board: Board, unit_id: str, mode: str | None, ctx: MoveContext) -> Search:
    """Dijkstra from the unit's hex (a reinforcement: its entry hexes) with the step rules of ``check_move``;
    then the hexes the move may end in.

    The first step is ``_step`` itself.  Of every later step the search splits what ``_step`` asks into what
    depends on the hex entered alone (``_entries``: may it be entered at all, does the move stop there, the MP a
    ZOC adds) — asked once per hex — and the terrain price of the step (``_step_row``: a table per map and
    column), so a step costs a few dict and set look-ups."""
    unit = board.units[unit_id]
    mode = mode or _default_mode(unit, ctx)
    out = Search()
    if mode not in MODES or _mode_errors(board, unit, mode, ctx):
        return out
    plan = _Plan(board, unit, mode, ctx, enemy_facts(board, unit.side))
    if plan.start_in_zoc and (unit.moved or not plan.started_in_zoc or unit.square):    # 9.85: a square in an
        return out                                                                       # enemy ZOC stays
    if plan.extended and (unit.hex and plan.near_enemy(unit.hex)
                          or any(plan.near_enemy(h) for h in ctx.og_hexes if h)):
        return out
    done: set[str] = {plan.start} if plan.start is not None else set()
    entry, enter = _entries(plan, done)
    _go_on(plan, out, _first_steps(plan, out, entry, enter), done, entry, enter)
    _keep_ends(plan, out)
    return out


def _first_steps(plan: _Plan, out: Search, entry: dict[str, _Entry],
                 enter: Callable[[str], _Entry | None]) -> list[tuple[int, int, str]]:
    """The first hexes entered — 6.34 +1 to leave an enemy ZOC, 7.41 a reinforcement through its entry hexes
    (``_step`` itself) — with the 7.35 minimum move: the search's heap of (MP, order pushed, hex)."""
    unit, board, budget = plan.unit, plan.board, plan.allowance - plan.spent_before
    cost, prev = out.cost, out.prev
    heap: list[tuple[int, int, str]] = []

    def reach(a: str | None, b: str, mp: int, in_zoc: bool) -> None:
        if (mp <= budget or (a is not None and may_minimum and not in_zoc)) and mp < cost.get(b, _UNREACHED):
            cost[b], prev[b] = mp, a
            heapq.heappush(heap, (mp, len(heap) + 1, b))

    may_minimum = plan.spent_before == 0 and not unit.moved and not unit.square and not plan.leader     # 7.35
    if plan.entering:
        for b in plan.entry_hexes:
            st = _step(plan, None, b, first=True) if board.on_map(b) else None
            if type(st) is tuple:
                reach(None, b, st[0], st[3])
        return heap
    start = plan.start
    near = plan.enemies[1]                             # type: ignore[index]
    leave = 1 if plan.start_in_zoc else 0              # 6.34: +1 on the first hex out of an enemy ZOC
    by_road = plan.mode == "reinforcement"
    for b, mp, linked_mp, linked in _step_row(board, plan.column, start)[1]:       # type: ignore[arg-type]
        z = entry.get(b) or enter(b)
        if z is None or (by_road and board.static.link(start, b) != "road"):        # 7.42
            continue
        if linked and b not in near:                   # 7.37
            mp = linked_mp
        if mp is not None:                             # 7.23
            reach(start, b, mp + leave + z[1], z[0])
    return heap


def _go_on(plan: _Plan, out: Search, heap: list[tuple[int, int, str]], done: set[str],
           entry: dict[str, _Entry], enter: Callable[[str], _Entry | None]) -> None:
    """Dijkstra on from the first hexes: 7.34 within the MP left, 6.33 no further than an enemy ZOC, 9.85 a
    square no further than one hex, 7.13 an extended move never through friends, 7.38 +1 to go on from friends,
    7.37 no road rate next to an enemy, 7.23 no prohibited step, 7.42 a reinforcement's extended move by road."""
    board, budget = plan.board, plan.allowance - plan.spent_before
    cost, prev = out.cost, out.prev
    cost_of = cost.get
    push, pop = heapq.heappush, heapq.heappop
    counter = len(heap)
    square = plan.unit.square
    near = plan.enemies[1]                             # type: ignore[index]
    column = plan.column
    rows = _step_rows(board, column)
    stacks = board._stacks                             # noqa: SLF001 — see Board._stacks
    extended, reinforcement = plan.extended, plan.mode == "reinforcement"
    link = board.static.link
    entered = entry.get
    while heap:
        g, _, x = pop(heap)
        if x in done or g != cost[x]:
            continue
        done.add(x)
        if g > budget or square:                       # 7.35 min move; 9.85 one hex only
            continue
        z = entered(x) or enter(x)
        if z[0]:                                       # type: ignore[index]  # 6.33 stop in an enemy ZOC
            continue
        if extended and plan.friends(x):
            continue                                   # 7.13 never through friends
        base = g + 1 if x in stacks and plan.pass_through(x) else g      # 7.38
        least, steps = rows.get(x) or _step_row(board, column, x)
        if base + least > budget:
            continue                                   # not even the cheapest step out of x fits (7.34)
        for y, mp, linked_mp, linked in steps:
            if y in done:
                continue
            z = entered(y) or enter(y)
            if z is None:
                continue
            if linked and y not in near:               # 7.37
                mp = linked_mp
            if mp is None:
                continue                               # 7.23
            if reinforcement and link(x, y) != "road":
                continue                               # 7.42
            ng = base + mp + z[1]
            if ng <= budget and ng < cost_of(y, _UNREACHED):
                cost[y], prev[y] = ng, x
                counter += 1
                push(heap, (ng, counter, y))


def _keep_ends(plan: _Plan, out: Search) -> None:
    """The hexes reached that the move may end in: 9.85 a square within cost 2 and out of an enemy ZOC; 6.21 and
    7.13 with the friends there."""
    stacks, square, leader, ends = plan.board._stacks, plan.unit.square, plan.leader, out.ends  # noqa: SLF001
    for h, g in out.cost.items():
        if square and (g > SQUARE_MAX_COST or plan.zoc(h)):
            continue                                   # 9.85
        if leader or not stacks.get(h) or _may_end_with_friends(plan, h):   # alone: nothing to judge
            ends[h] = g


_UNREACHED = 1 << 30
_Entry = tuple[bool, int]


def _entries(plan: _Plan, done: set[str]) -> tuple[dict[str, _Entry], Callable[[str], _Entry | None]]:
    """What entering a hex means for the mover, whatever hex it comes from: the answers so far (hex -> (does
    the move stop there, 6.33; the MP entering adds)) and the function that answers a new hex, or puts it in
    ``done`` and answers None when the mover may not enter it (``_entry_refusal``, ``_zoc_entry``).

    For most movers those are facts of the whole map (``zoc.enemy_facts``): a hex is closed when an enemy
    stands there (6.22), it burns (BOR-5), it is forbidden (7.44) or — artillery that fired — an enemy stands
    next to it (7.36); entering an enemy ZOC stops the move (6.33) and costs a Disordered unit +1; CinCs ignore
    ZOC.  A mover whose entry rules read more of a hex (extended and reinforcement moves, 7.13/7.42; a unit
    that left an enemy ZOC, 6.34) asks the rules themselves."""
    entry: dict[str, _Entry] = {}
    if plan.extended or plan.restricted or plan.entering:
        def enter(y: str) -> _Entry | None:
            z = None if _entry_refusal(plan, y) is not None else _zoc_entry(plan, y)
            if type(z) is not tuple:
                done.add(y)
                return None
            entry[y] = z                               # type: ignore[assignment]
            return z                                   # type: ignore[return-value]
        return entry, enter
    board, ctx = plan.board, plan.ctx
    zoc, near, occupied = plan.enemies                 # type: ignore[misc]
    closed = set(occupied)
    closed.update(board.on_fire)
    closed.update(ctx.forbidden_hexes)
    if plan.fired_art:
        closed.update(near)
    if plan.leader:
        zoc = frozenset()                              # CinCs ignore ZOC (gaps §4)
    into_zoc = _IN_ZOC_DISORDERED if plan.unit.disordered else _IN_ZOC

    def enter_plain(y: str) -> _Entry | None:
        if y in closed:
            done.add(y)
            return None
        z = entry[y] = into_zoc if y in zoc else _OUT_OF_ZOC
        return z
    return entry, enter_plain


def _may_end_with_friends(plan: _Plan, h: str) -> bool:
    """``not _end_errors(plan, h, None)`` (6.21, 6.22, 7.13 at the end of a move into a hex holding friends),
    memoised on the map by every fact it reads: the mover's and each occupant's id (its printed counter:
    side, kind, flags, brigade, AG), status (the face whose fire counts) and reserve-battery allowance, and
    whether the move is extended.  A search asks it for every reachable hex with friends; the stacks met
    repeat all game long.  A miss asks ``stacking.may_end_entering``, the yes/no of
    ``stacking_errors_entering`` without its messages.  Bounded (``_END_ANSWERS_KEPT``): the map outlives its
    games in a service, and the stacks a game meets are not."""
    board, unit = plan.board, plan.unit
    units = board._units                                    # noqa: SLF001 — see Board._units
    key = (plan.extended, unit.id, unit.status, unit.overstack,
           *[(units[i].id, units[i].status, units[i].overstack) for i in board._stacks[h]])   # noqa: SLF001
    memo = board.static.memo.get(("may_end",))
    if memo is None:
        memo = board.static.memo[("may_end",)] = {}
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= _END_ANSWERS_KEPT:
            memo.clear()
        if plan.leader or h == plan.start:
            hit = True
        elif plan.extended and unit.kind != "artillery" and plan.friends(h):
            hit = False                                     # 7.13: extended movement never ends stacked
        else:
            hit = may_end_entering(board, unit, h)
        memo[key] = hit
    return hit


_END_ANSWERS_KEPT = 50_000


def reachable(board: Board, unit_id: str, mode: str | None = None,
              context: MoveContext = MoveContext()) -> dict[str, int]:
    """Every hex ``unit_id`` may legally end its move in now, with the least MP to get there (start excluded)."""
    return dict(search(board, unit_id, mode, context).ends)


def cheapest_path(board: Board, unit_id: str, dest: str, mode: str | None = None,
                  context: MoveContext = MoveContext()) -> list[str] | None:
    """The cheapest legal path to ``dest`` (hexes entered, in order), or None if it cannot end there."""
    s = search(board, unit_id, mode, context)
    if dest not in s.ends:
        return None
    path = [dest]
    while (p := s.prev[path[-1]]) is not None and p != board.units[unit_id].hex:
        path.append(p)
    return path[::-1]


def legal_moves(board: Board, unit_id: str, context: MoveContext = MoveContext()) -> list[tuple[str, str, int]]:
    """Every (mode, destination, MP) open to ``unit_id`` now — for a random-legal-play driver."""
    unit = board.units[unit_id]
    modes = ("normal",) if unit.is_leader else (
        ("reinforcement", "normal", "limited") if unit.box == "reinforcement" else ("normal", "limited", "extended"))
    return [(m, h, c) for m in modes for h, c in sorted(reachable(board, unit_id, m, context).items())]
