"""The legal listing of Triumph & Glory: each verb's candidates, declared with the verb
(``VERBS.candidates``), which the engine's listing (``referee.engine.procedure.legal_actions``) asks in
declaration order; and every legal act of one unit (``unit_actions``, the page's "What if").

Each candidate function keeps only the events its verb accepts (it asks the verb itself, ``verbs.accepted``, or
the predicate the verb refuses by, or a search whose answers are legal by construction), so the verbs are
declared ``ruled`` and the engine takes their lists as they are.  Which acts are open now — owed cohesion
checks before anything else, then what fire and shock owe (3.0, 9.4–9.8), else the acts of the activation —
is one function, ``_open``, that every candidate function of an activation asks.

Decisions with few choices are listed exhaustively.  Orders, whose choices are combinatorial, are listed as a
representative family — no orders, each single group, and runs of consecutive groups up to the limit (with and
without the barrage) — each one checked by the orders rule itself.  Moves come from the movement search
(``movement.search``: legal by construction), in the unit's own mode (normal Under Orders, limited otherwise;
extended is never listed) with the facing the movement rules choose, and only for the first
``MAX_UNITS_LISTED`` units that have not acted — each search costs milliseconds, and a unit that is not listed
now is listed once those before it have moved (or the activation ends).  ``unit_actions`` lists one unit's
acts with no such bound.
"""
from __future__ import annotations

import itertools
from operator import attrgetter
from typing import Any, Callable

from modulebuilder.records import fields
from referee.engine.procedure import accepts, legal_actions as engine_legal_actions

from . import movement, orders, reserve
from .candidates import SideRegion, kept
from .cinc import fixed_allowance
from .orders import acting_status, individual_order_error
from .activation import DESTRUCTION
from .destruction import destruction_actions
from .fire_events import counter_battery_actions, fire_actions
from .morale_events import rally_actions
from .owed import advance_choices
from .procedure import GUARDS, step
from .retreat import legal_retreats, options_of, retreat_steps
from .shock import frontal_enemy_hexes
from .shock_events import declaration_errors, declared_assaults, reaction_fire_actions
from .charge_events import charge_declarations, leave_square_actions, optional_charge_actions, owed_charge_actions
from .secondary_events import secondary_actions, shock_actions
from .activation import cga_pending, command_choices, cup_markers, marker_side
from .moves import may_act_error, move_context, orders_error
from .state import ACTIVATION, CINC, COMMAND, INITIATIVE, MORALE, ORDERS, RESERVE, SIDE_TURN, TGState
from .timing import two_sided_turn
from .zoc import enemy_facts
from .verbs import VERBS, accepted

Events = list[dict[str, Any]]


def legal_actions(state: TGState) -> Events:
    """The engine's listing with these verbs and this procedure (the ruleset's ``legal_actions``)."""
    return engine_legal_actions(VERBS, step, state)


# ------------------------------------------------------------------------------------------- what is open now

_LAST_OPEN: tuple[Any, str] = (None, "")


def _open(state: TGState) -> str:
    """Which acts of an activation are open now: ``checks`` (cohesion checks owed, 8.5/9.62: nothing else),
    ``combat:<stage>`` (after the declaration, 9.44, or while fire or shock owes acts; ``_combat_stage``),
    ``destruction`` (BOR-5), ``acts`` (fire, rally, declarations, orders, moves), or ``""`` (no activation is
    acting).  Kept for the last state asked: every candidate function of a listing asks it of the same state."""
    last = _LAST_OPEN
    if last[0] is state:
        return last[1]
    act = _acting(state)
    if act is None:
        open_ = ""
    elif act.checks_owed:
        open_ = "checks"
    elif act.combat.declared or act.combat.owes:
        open_ = "combat:" + _combat_stage(state)
    elif act.marker == DESTRUCTION:
        open_ = "destruction"
    else:
        open_ = "acts"
    globals()["_LAST_OPEN"] = (state, open_)
    return open_


def _acting(state: TGState) -> Any:
    """The activation whose acts may be listed: the Activation Phase's after a draw, a Schevardino side turn's,
    the reserve activation of the side whose turn it is (5.51); else None."""
    p = state.phase
    if p == ACTIVATION or p == SIDE_TURN:
        return state.activation
    if p == RESERVE and two_sided_turn(state.two_sided) is not None:
        return state.activation
    return None


def _combat_stage(state: TGState) -> str:
    """What fire and shock owe first (9.4–9.8, in the rules' order): ``checks``, ``retreat``, ``advance``,
    ``charge`` (9.81 charge moves, 9.87 pursuit), ``commit`` (APCs, with the fall-backs and advances allowed
    before the first, 9.31/9.72), else ``open`` (the shocks and what may come with them)."""
    c = state.activation.combat           # type: ignore[union-attr]
    if c.checks:
        return "checks"
    if c.retreats:
        return "retreat"
    if c.advances:
        return "advance"
    if owed_charge_actions(state):
        return "charge"
    return "commit" if c.commit_owed else "open"


def _in_combat(state: TGState, *stages: str) -> bool:
    """Whether fire and shock owe one of ``stages`` first (``_combat_stage``)."""
    open_ = _open(state)
    return open_.startswith("combat:") and open_[7:] in stages


def _candidates(type_: str) -> Callable[[Callable[[TGState], Events]], Callable[[TGState], Events]]:
    """Declare the function below as the candidates of verb ``type_``, ruled by the verb's own rules."""
    return VERBS.candidates(type_, ruled=True)


def _typed(events: Events, type_: str) -> Events:
    return [e for e in events if e["type"] == type_]


# ------------------------------------------------------------------------------------- the sequence of play

@_candidates("orders_delay")
def _orders_delay(state: TGState) -> Events:
    if state.phase != ORDERS:
        return []
    return [{"type": "orders_delay", "side": s} for s in state.static.sides
            if not state.orders[s].given and state.orders[s].delay == "owed"]


@_candidates("orders")
def _orders(state: TGState) -> Events:
    if state.phase != ORDERS:
        return []
    return [a for s in state.static.sides if not state.orders[s].given and state.orders[s].delay != "owed"
            for a in _orders_actions(state, s)]


@_candidates("initiative")
def _initiative(state: TGState) -> Events:
    return [{"type": "initiative"}] if state.phase == INITIATIVE and not state.initiative_decided else []


@_candidates("cga")
def _cga(state: TGState) -> Events:
    side = _cga_side(state)
    if side is None:
        return []
    ags = sorted({m for m in cup_markers(state) if m in state.static.ags and state.static.ags[m].side == side})
    return [{"type": "cga", "side": side, "ags": [a, b]} for i, a in enumerate(ags) for b in ags[i + 1:]]


def _cga_side(state: TGState) -> str | None:
    """The side that may declare a CGA now (5.35), or None."""
    if state.phase != INITIATIVE or not state.initiative_decided:
        return None
    pending = cga_pending(state)
    return pending[0] if pending else None


@_candidates("first_marker")
def _first_marker(state: TGState) -> Events:
    if state.phase != INITIATIVE or not state.initiative_decided or cga_pending(state):
        return []
    side = state.initiative
    return [{"type": "first_marker", "side": side, "marker": m}
            for m in sorted(set(cup_markers(state))) if marker_side(state, m) == side]


@_candidates("draw")
def _draw(state: TGState) -> Events:
    if state.phase != ACTIVATION or state.activation is not None:
        return []
    return [{"type": "draw", "marker": m} for m in sorted(set(state.cup))]


@_candidates("end_activation")
def _end_activation(state: TGState) -> Events:
    if state.phase != ACTIVATION or state.activation is None:
        return []
    return _end(state, {"type": "end_activation", "side": state.activation.side})


@_candidates("end_phase")
def _end_phase(state: TGState) -> Events:
    """3.0: the end of a step of the sequence of play, where a side ends it."""
    p = state.phase
    if p == INITIATIVE:
        side = _cga_side(state)
        return [] if side is None else [{"type": "end_phase", "side": side}]
    if p == SIDE_TURN:
        return _end(state, {"type": "end_phase", "side": state.side_turn})
    if p == COMMAND:
        cmd = state.rules.command_activation
        return [{"type": "end_phase", "side": cmd.chooser if cmd else state.static.sides[0]}]
    if p not in (RESERVE, CINC) or state.two_sided is None or state.two_sided.order is None:
        return []
    side = two_sided_turn(state.two_sided)
    if side is None:
        return []
    end = {"type": "end_phase", "side": side}
    if p == RESERVE and state.activation is not None:
        return [] if state.activation.checks_owed else _end(state, end)
    if p == CINC and _cinc_roll_first(state, side):
        return []
    return [end]


def _cinc_roll_first(state: TGState, side: str) -> bool:
    """5.62: the d10 of the CinC's allowance comes before anything else of its phase."""
    leader = state.cinc_of(side)
    return leader is not None and leader.hex is not None and _known_allowance(state, side) is None


def _known_allowance(state: TGState, side: str) -> int | None:
    """5.62: the CinC's allowance this turn when known — rolled already or fixed — else None (the d10 is owed)."""
    ma = state.two_sided.ma.get(side)                       # type: ignore[union-attr]
    return fixed_allowance(state, side) if ma is None else ma


@_candidates("go_first")
def _go_first(state: TGState) -> Events:
    if state.phase not in (RESERVE, CINC) or state.two_sided is None or state.two_sided.order is not None:
        return []
    if state.initiative is not None:
        return [{"type": "go_first", "side": state.initiative, "first": s} for s in state.static.sides]
    return [{"type": "go_first"}]


@_candidates("reserve")
def _reserve(state: TGState) -> Events:
    if state.phase != RESERVE or state.activation is not None:
        return []
    ts = state.two_sided
    side = two_sided_turn(ts)
    if side is None or side in ts.reserve_used:            # type: ignore[union-attr]
        return []
    o = state.orders[side]
    return [{"type": "reserve", "side": side, "unit": o.groups[g][0]} for g in reserve.candidate_groups(state, side)]


@_candidates("cinc_move")
def _cinc_move(state: TGState) -> Events:
    """5.62: the CinC's every destination with its cheapest path, or the d10 for its allowance first."""
    ts = state.two_sided
    side = two_sided_turn(ts) if state.phase == CINC else None
    leader = state.cinc_of(side) if side is not None else None
    if leader is None or leader.hex is None:
        return []
    ma = _known_allowance(state, side)                      # type: ignore[arg-type]
    if ma is None:
        return [{"type": "cinc_move", "side": side, "path": []}]          # roll the d10 first
    if ma - ts.mp_spent.get(side, 0) <= 0:                 # type: ignore[union-attr]
        return []
    ctx = movement.MoveContext(allowance=ma)
    return [{"type": "cinc_move", "side": side, "path": path}
            for path in paths_to_all(state.board, leader.id, "normal", ctx).values()]


@_candidates("recovery")
def _recovery(state: TGState) -> Events:
    if state.phase != MORALE:
        return []
    return [{"type": "recovery", "side": state.unit(u).side, "unit": u} for u in state.recovery_owed[:1]]


@_candidates("activate_command")
def _activate_command(state: TGState) -> Events:
    if state.phase != COMMAND:
        return []
    cmd = state.rules.command_activation
    chooser = cmd.chooser if cmd else state.static.sides[0]
    return [{"type": "activate_command", "side": chooser, "command": a} for a in command_choices(state)]


def _orders_actions(state: TGState, side: str) -> list[dict[str, Any]]:
    o = state.orders[side]
    if o.delay == "failed":
        # 5.29/5.24: each of last turn's Under-Orders groups keeps one piece; try the combinations of pieces.
        pieces = [[g for g, members in enumerate(o.groups) if set(members) & prev] for prev in o.previous_uo]
        choices = {tuple(sorted(set(combo))) for combo in itertools.product(*[p for p in pieces if p])}
        return accepted(state, [{"type": "orders", "side": side, "under_orders": [o.groups[g][0] for g in c]}
                                 for c in sorted(choices)][:16])
    army_rule = state.rules.army_orders if state.rules.army_orders and state.rules.army_orders.side == side else None
    candidates: list[dict[str, Any]] = [{"type": "orders", "side": side, "under_orders": []}]
    options = list(army_rule.options.items()) if army_rule else [(None, orders.orders_limit(state, side, None)[0])]
    for army, limit in options:
        groups = [g[0] for g in o.groups
                  if army is None or state.static.ags[state.unit(g[0]).ag].army == army]
        extra = {"army": army} if army else {}
        for k in range(1, limit + 1):
            for i in range(0, max(len(groups) - k + 1, 0), k):
                candidates.append({"type": "orders", "side": side, "under_orders": groups[i:i + k], **extra})
                candidates.append({"type": "orders", "side": side, "under_orders": groups[i:i + k - 1],
                                   "barrage": True, **extra})
    return accepted(state, candidates)


# ------------------------------------------------------------------------------------------ an activation

@_candidates("cohesion_check")
def _cohesion_check(state: TGState) -> Events:
    """The cohesion checks owed (8.5, 9.62, 5.54): before anything else."""
    open_ = _open(state)
    act = state.activation
    if open_ == "checks":
        return [{"type": "cohesion_check", "side": act.side, "unit": u} for u in act.checks_owed]  # type: ignore
    if open_ == "combat:checks":
        return [{"type": "cohesion_check", "side": k.side, "unit": k.unit} for k in act.combat.checks]  # type: ignore
    return []


@_candidates("retreat")
def _retreat(state: TGState) -> Events:
    """9.62–9.64: every legal destination of the first retreat owed."""
    if not _in_combat(state, "retreat"):
        return []
    board = state.board
    r = state.activation.combat.retreats[0]                 # type: ignore[union-attr]
    uid = board.stacks[r.hex][0]
    return [{"type": "retreat", "side": r.side, "unit": uid, "to": list(s.path)}
            for s in legal_retreats(retreat_steps(board, r.hex, r.sources), options_of(board)) if s.path]


@_candidates("advance")
def _advance(state: TGState) -> Events:
    """9.71: every stack that may advance after the first combat that owes one; 9.72 the optional advances."""
    if _in_combat(state, "advance"):
        a = state.activation.combat.advances[0]             # type: ignore[union-attr]
        return [{"type": "advance", "side": a.side, "units": units, "to": a.into}
                for units in advance_choices(state.board, a)]
    return _typed(secondary_actions(state), "advance") if _in_combat(state, "commit", "open") else []


def _owed_charges(type_: str) -> Callable[[TGState], Events]:
    def listed(state: TGState) -> Events:
        return _typed(owed_charge_actions(state), type_) if _in_combat(state, "charge") else []
    return listed


_candidates("charge")(_owed_charges("charge"))             # 9.81 the charge moves of stacks that passed
_candidates("pursuit")(_owed_charges("pursuit"))           # 9.87


@_candidates("commitment")
def _commitment(state: TGState) -> Events:
    """9.41–9.43: the APCs owed."""
    if not _in_combat(state, "commit"):
        return []
    act = state.activation
    return [{"type": "commitment", "side": act.side, "unit": u} for u in act.combat.commit_owed]  # type: ignore


def _secondary(type_: str) -> Callable[[TGState], Events]:
    def listed(state: TGState) -> Events:
        return _typed(secondary_actions(state), type_) if _in_combat(state, "commit", "open") else []
    return listed


_candidates("fall_back")(_secondary("fall_back"))           # 9.31
_candidates("breakthrough")(_secondary("breakthrough"))     # 9.73
_candidates("counter_shock")(_secondary("counter_shock"))   # 9.73


@_candidates("reaction_fire")
def _reaction_fire(state: TGState) -> Events:
    return reaction_fire_actions(state) if _in_combat(state, "open") else []


@_candidates("shock")
def _shock(state: TGState) -> Events:
    return shock_actions(state) if _in_combat(state, "open") else []


def _optional_charges(type_: str) -> Callable[[TGState], Events]:
    def listed(state: TGState) -> Events:
        return _typed(optional_charge_actions(state), type_) if _in_combat(state, "open") else []
    return listed


_candidates("square")(_optional_charges("square"))                  # 9.85
_candidates("counter_charge")(_optional_charges("counter_charge"))  # 9.86
_candidates("recall")(_optional_charges("recall"))                  # 9.82


def _destruction(type_: str) -> Callable[[TGState], Events]:
    def listed(state: TGState) -> Events:
        return _typed(destruction_actions(state), type_) if _open(state) == "destruction" else []
    return listed


_candidates("fire_out")(_destruction("fire_out"))                   # BOR-5
_candidates("burn_village")(_destruction("burn_village"))
_candidates("destroy_bridge")(_destruction("destroy_bridge"))


@_candidates("fire")
def _fire(state: TGState) -> Events:
    return fire_actions(state) if _open(state) == "acts" else []


@_candidates("counter_battery")
def _counter_battery(state: TGState) -> Events:
    return counter_battery_actions(state) if _open(state) == "acts" else []


@_candidates("rally")
def _rally(state: TGState) -> Events:
    return rally_actions(state) if _open(state) == "acts" else []


@_candidates("assaults")
def _assaults(state: TGState) -> Events:
    return assault_actions(state) if _open(state) == "acts" else []


@_candidates("leave_square")
def _leave_square(state: TGState) -> Events:
    return leave_square_actions(state) if _open(state) == "acts" else []


@_candidates("individual_order")
def _individual_order(state: TGState) -> Events:
    """5.28: the first unit of each group of the activation that may still try its Individual Order (a group
    already Under Orders or that tried is refused: not asked)."""
    act = state.activation
    side = act.side if act is not None else None
    o = state.orders.get(side) if side else None
    if not _open(state) == "acts" or o is None or act.reserve:   # type: ignore[union-attr]
        return []
    out = []
    skip = set(act.io) | o.under_orders                     # type: ignore[union-attr]
    for uid in sorted(act.units):                            # type: ignore[union-attr]
        g = o.group_of.get(uid)
        if g is None or g in skip:
            continue
        skip.add(g)
        first = o.groups[g][0]
        if individual_order_error(state, side, first) is None:      # the verb's own refusals (5.28)
            out.append({"type": "individual_order", "side": side, "unit": first})
    return out


@_candidates("move")
def _moves(state: TGState) -> Events:
    """7.0: the moves of the first ``MAX_UNITS_LISTED`` units of the activation that may still move."""
    if not _open(state) == "acts":
        return []
    act = state.activation
    side = act.side                                          # type: ignore[union-attr]
    out: Events = []
    listed = 0
    for uid in sorted(act.units):                            # type: ignore[union-attr]
        if listed >= MAX_UNITS_LISTED:
            break
        if uid in act.acted or may_act_error(state, side, uid) or orders_error(state, uid):  # type: ignore
            continue
        moves = _unit_moves(state, uid)
        if moves:
            out += moves
            listed += 1
    return out


MAX_UNITS_LISTED = 3     # moves are listed for the first few units that have not acted (see module doc)


def paths_to_all(board: Any, uid: str, mode: str, ctx: movement.MoveContext) -> dict[str, list[str]]:
    """Every legal destination with its cheapest path, from one search (``cheapest_path`` per destination
    would repeat the search for each).  Uses the movement module's search, which ``reachable`` and
    ``cheapest_path`` share."""
    return {dest: list(path) for dest, path in _kept_paths(board, uid, mode, ctx)}


def _kept_paths(board: Any, uid: str, mode: str, ctx: movement.MoveContext) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``paths_to_all`` as an immutable entry of the candidate table (``candidates``), kept while no hex of the
    search's region changes and the unit itself does not."""
    return kept(board, ("moves", uid, mode, _CONTEXT_VALUES(ctx)), board.units[uid],
                lambda: _search_paths(board, uid, mode, ctx))


# The context's every field as a plain tuple, for the entry's key: a record's hash and equality are Python calls,
# and a key is hashed once per position of the chain it is looked up in.
_CONTEXT_VALUES = attrgetter(*(f.name for f in fields(movement.MoveContext)))


def _search_paths(board: Any, uid: str, mode: str,
                  ctx: movement.MoveContext) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], SideRegion]:
    """The search's destinations and paths, and the region it read (a ``SideRegion``).  Of every hex the search
    tries to enter (a neighbour of a hex it reached or of the start, or an entry hex) it asks whether an enemy
    stands there or next to it (6.22, ZOC 6.33/6.34, enemy adjacency 7.36/7.37); of the hexes it reached it also
    asks who else stands there (7.38 pass-through, 6.21 stacking and 6.11 facing at the end).  So the hexes
    given a cost are read whole, and the discs of radius 2 around them, the start and the entry hexes are
    watched for enemies."""
    s = movement.search(board, uid, mode, ctx)
    start = board.units[uid].hex
    centres = {start, *s.cost, *ctx.entry_hexes, *(board.static.entry_hexes if start is None else ())}
    return _paths(s, start), SideRegion(board, board.units[uid].side, s.cost, centres, 2)


def _paths(s: Any, start: str | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each destination of the search ``s`` (in hex order) with its cheapest path, from the predecessors."""
    out = []
    prev = s.prev
    paths: dict[str | None, tuple[str, ...]] = {start: ()}     # each hex's path, shared by the paths through it
    for dest in sorted(s.ends):
        chain = []
        h: str | None = dest
        while h not in paths:
            chain.append(h)
            h = prev.get(h)             # type: ignore[arg-type]  # None: the first hex entered from off the map
            if h is None:
                paths[None] = ()
        path = paths[h]
        for x in reversed(chain):
            path = paths[x] = path + (x,)          # type: ignore[operator]
        out.append((dest, path))
    return tuple(out)


def _unit_moves(state: TGState, uid: str) -> list[dict[str, Any]]:
    act = state.activation
    assert act is not None
    u = state.unit(uid)
    status = acting_status(state, uid)
    mode = "normal" if status == "UO" and not act.reserve else "limited"
    ctx = move_context(state, uid, status, mode)       # the group's start hexes are read by extended moves only
    side = u.side
    return [{"type": "move", "side": side, "unit": uid, "path": list(path), "mode": mode}
            for dest, path in _kept_paths(state.board, uid, mode, ctx)]


# --------------------------------------------------------------------------------------------- fire and shock

def _end(state: TGState, event: dict[str, Any]) -> list[dict[str, Any]]:
    """The act that ends the activation, unless the burning villages must be rolled for first (BOR-5).  While
    declared assaults or owed acts must come first (3.0) the step holds the ending up (``procedure.combat_step``'s
    refusals), and the listing does not ask for it."""
    act = state.activation
    if act is not None and act.fires_owed:
        return []
    return [event]


MAX_ASSAULTS_LISTED = 4


def _frontal_enemies(board: Any, u: Any) -> tuple[tuple[str, ...], SideRegion]:
    """``frontal_enemy_hexes`` as an entry of the candidate table: it asks of the six hexes around ``u`` only
    whether an enemy stands there (the front and the hexsides are ``u``'s own and the map's)."""
    return frontal_enemy_hexes(board, u), SideRegion(board, u.side, (), (u.hex,), 1)


def assault_actions(state: TGState) -> list[dict[str, Any]]:
    """A representative set of declarations (9.44): single assaults by each active stack against each enemy hex
    in its front (the first few that the rules accept), and all of them together when they do not overlap."""
    act = state.activation
    assert act is not None
    side, board = act.side, state.board
    singles: list[dict[str, Any]] = []
    seen_hexes: set[str] = set()
    next_to_enemy = enemy_facts(board, side)[1]
    for uid in sorted(act.units):
        u = board.units[uid]
        if u.hex not in next_to_enemy:
            continue                   # no enemy next to it, so none in its front (9.22): most stacks
        if u.hex in seen_hexes or u.kind == "artillery" or u.disordered:
            continue
        seen_hexes.add(u.hex)
        fronts = kept(board, ("front", uid), u, lambda: _frontal_enemies(board, u))
        if not fronts:
            continue                   # most stacks have no enemy in front
        attackers = [x.id for x in board.stack(u.hex) if x.id in act.units and x.kind != "artillery"]
        for h in fronts:
            singles += _declarable(state, [{"type": "assaults", "side": side,
                                            "assaults": [{"attackers": attackers, "target": [h]}]}])
            if len(singles) >= MAX_ASSAULTS_LISTED:
                break
        if len(singles) >= MAX_ASSAULTS_LISTED:
            break
    out = list(singles)
    if len(singles) > 1:
        combined = {"type": "assaults", "side": side, "assaults": [e["assaults"][0] for e in singles]}
        out += _declarable(state, [combined])
    return out + _declarable(state, charge_declarations(state))          # 9.81


def _declarable(state: TGState, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``accepted(state, events)`` for ``assaults`` events, asked of the verb's own refusals
    (``shock_events.declaration_errors``, 9.44): the verb's tail records the declaration and refuses nothing
    (``tests/tg/test_legal_predicates.py`` compares the two)."""
    return [e for e in events if not declaration_errors(state, e["side"], declared_assaults(e))]


# ------------------------------------------------------------------------------------------------ one unit

def named_units(event: dict[str, Any]) -> list[str]:
    """The units an act names: its ``unit``, its ``units``, the attackers of its assaults."""
    out = [event["unit"]] if isinstance(event.get("unit"), str) else []
    out += [u for u in event.get("units") or () if isinstance(u, str)]
    for a in event.get("assaults") or ():
        out += [u for u in a.get("attackers", ()) or () if isinstance(u, str)]
    return out


def unit_actions(state: TGState, uid: str, listed: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every legal act of one unit now (the page's "What if → Legal actions").  ``legal_actions`` is bounded
    for random play (moves of the first ``MAX_UNITS_LISTED`` units, a few fire targets and assaults); for one
    unit nothing is left out: its group's Individual Order tried in its name (5.28; the listing names the
    group's first unit only), every destination of each mode its orders allow (normal or limited, and
    extended, 7.13, where it may), each change of facing (6.12), each target it may fire at alone (8.1), and
    each enemy hex in its front its stack — or the unit alone — may be declared against (9.44).  Each act is
    kept only when the verb that would rule on it accepts it.  ``listed``: ``legal_actions(state)`` when the
    caller has it already (asked of many units at one position)."""
    if uid not in state.board.units:
        return []
    listed = [a for a in (legal_actions(state) if listed is None else listed) if uid in named_units(a)]
    act = state.activation
    if _open(state) != "acts" or uid not in act.units or state.unit(uid).side != act.side:   # type: ignore
        return listed
    seen = {_key(a) for a in listed}
    extra = [a for a in (_own_order(state, uid) + _all_moves(state, uid) + _faces(state, uid)
                         + _all_fire(state, uid) + _all_assaults(state, uid)) if _key(a) not in seen]
    out = listed + extra
    return sorted(out, key=lambda a: _ORDER.get(a.get("type", ""), 9))


_ORDER = {"individual_order": 0, "move": 1, "face": 2, "fire": 3, "assaults": 4, "charge": 5, "rally": 6}


def _key(a: dict[str, Any]) -> tuple[Any, ...]:
    if a.get("type") == "move":
        return ("move", a["path"][-1] if a.get("path") else None, a.get("mode"))
    return (a.get("type"), repr(sorted(a.items())))


def _own_order(state: TGState, uid: str) -> list[dict[str, Any]]:
    """5.28: the Individual Order of the unit's group, tried in the unit's name, when the verb would accept it."""
    event = {"type": "individual_order", "side": state.activation.side, "unit": uid}   # type: ignore[union-attr]
    return [event] if accepts(VERBS, step, state, event, GUARDS) else []


def _all_moves(state: TGState, uid: str) -> list[dict[str, Any]]:
    act = state.activation
    assert act is not None
    side = act.side
    if uid in act.acted or may_act_error(state, side, uid) or orders_error(state, uid):  # type: ignore[arg-type]
        return []
    out = _unit_moves(state, uid)
    status = acting_status(state, uid)
    if status == "UO" and not act.reserve:
        ctx = move_context(state, uid, status, "extended")
        reached = {a["path"][-1] for a in out if a["path"]}
        u = state.unit(uid)
        far = [{"type": "move", "side": u.side, "unit": uid, "path": list(path), "mode": "extended"}
               for dest, path in _search_paths(state.board, uid, "extended", ctx)[0] if dest not in reached]
        if far and accepted(state, far[:1]):       # the verb's refusals of extended movement hold for them all
            out += far                             # the search's paths are legal by construction, as above
    return out


def _faces(state: TGState, uid: str) -> list[dict[str, Any]]:
    u = state.unit(uid)
    if u.hex is None:
        return []
    return accepted(state, [{"type": "face", "side": u.side, "unit": uid, "facing": f}
                            for f in (12, 2, 4, 6, 8, 10) if f != u.facing])


def _all_fire(state: TGState, uid: str) -> list[dict[str, Any]]:
    u = state.unit(uid)
    if u.kind != "artillery" or u.hex is None:
        return []
    reach = u.value("max_range") or 0
    enemies = enemy_facts(state.board, u.side)[2]
    hexes = [h for h in state.board.grid.within(u.hex, reach) if h in enemies]   # type: ignore[arg-type]
    return accepted(state, [{"type": "fire", "side": u.side, "units": [uid], "target": h} for h in hexes])


def _all_assaults(state: TGState, uid: str) -> list[dict[str, Any]]:
    act = state.activation
    assert act is not None
    board = state.board
    u = board.units[uid]
    if u.hex is None or u.kind == "artillery":
        return []
    stack = [x.id for x in board.stack(u.hex) if x.id in act.units and x.kind != "artillery"]
    groups = [stack] + ([[uid]] if stack != [uid] else [])
    return _declarable(state, [{"type": "assaults", "side": act.side, "assaults": [{"attackers": g, "target": [h]}]}
                               for h in frontal_enemy_hexes(board, u) for g in groups])
