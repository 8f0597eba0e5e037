"""The actions that are legal now (``legal_actions``): the random-legal-play driver chooses among them, and the
ruleset promises the referee accepts each one.

Decisions with few choices are listed exhaustively.  Orders, whose choices are combinatorial, are listed as a
representative family — no orders, each single group, and runs of consecutive groups up to the limit (with and
without the barrage) — each one checked by the orders rule itself.  Moves come from the movement search behind
``movement.reachable`` / ``cheapest_path`` (legal by construction), in the unit's own mode (normal Under
Orders, limited otherwise; extended is never listed) with the facing the movement rules choose, and only for
the first ``MAX_UNITS_LISTED`` units that have not acted — each search costs milliseconds, and a unit that is
not listed now is listed once those before it have moved (or the activation ends).
"""
from __future__ import annotations

import itertools
from operator import attrgetter
from typing import Any

from modulebuilder.records import fields

from . import movement, orders, reserve
from .candidates import SideRegion, kept
from .cinc import fixed_allowance
from .orders import acting_status, individual_order_error
from .activation import DESTRUCTION
from .destruction import destruction_actions
from .fire_events import counter_battery_actions, fire_actions
from .morale_events import rally_actions
from .owed import advance_choices
from .retreat import legal_retreats, options_of, retreat_steps
from .shock import frontal_enemy_hexes
from .shock_events import declaration_errors, declared_assaults, reaction_fire_actions
from .charge_events import charge_declarations, leave_square_actions, optional_charge_actions, owed_charge_actions
from .secondary_events import secondary_actions, shock_actions
from .activation import cga_pending, command_choices, cup_markers, marker_side
from .moves import may_act_error, move_context, orders_error
from .state import ACTIVATION, CINC, COMMAND, INITIATIVE, MORALE, ORDERS, OVER, RESERVE, SIDE_TURN, TGState
from .timing import two_sided_turn
from .zoc import enemy_facts
from .verbs import accepted

def legal_actions(state: TGState) -> list[dict[str, Any]]:
    p = state.phase
    if p == OVER:
        return []
    if p == ORDERS:
        return [a for s in state.static.sides if not state.orders[s].given for a in _orders_actions(state, s)]
    if p == INITIATIVE:
        if not state.initiative_decided:
            return [{"type": "initiative"}]
        pending = cga_pending(state)
        if pending:
            side = pending[0]
            ags = sorted({m for m in cup_markers(state) if m in state.static.ags and state.static.ags[m].side == side})
            return [{"type": "end_phase", "side": side}] + [
                {"type": "cga", "side": side, "ags": [a, b]} for i, a in enumerate(ags) for b in ags[i + 1:]]
        side = state.initiative
        return [{"type": "first_marker", "side": side, "marker": m}
                for m in sorted(set(cup_markers(state))) if marker_side(state, m) == side]
    if p == ACTIVATION:
        if state.activation is None:
            return [{"type": "draw", "marker": m} for m in sorted(set(state.cup))]
        return _activation_actions(state) + _end(state, {"type": "end_activation", "side": state.activation.side})
    if p in (RESERVE, CINC):
        return _two_sided_actions(state)
    if p == MORALE:
        return [{"type": "recovery", "side": state.unit(u).side, "unit": u} for u in state.recovery_owed[:1]]
    if p == COMMAND:
        cmd = state.rules.command_activation
        chooser = cmd.chooser if cmd else state.static.sides[0]
        return ([{"type": "activate_command", "side": chooser, "command": a} for a in command_choices(state)]
                + [{"type": "end_phase", "side": chooser}])
    if p == SIDE_TURN:
        return _activation_actions(state) + _end(state, {"type": "end_phase", "side": state.side_turn})
    return []


def _orders_actions(state: TGState, side: str) -> list[dict[str, Any]]:
    o = state.orders[side]
    if o.delay == "owed":
        return [{"type": "orders_delay", "side": side}]
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


def _activation_actions(state: TGState) -> list[dict[str, Any]]:
    act = state.activation
    assert act is not None
    side = act.side
    out: list[dict[str, Any]] = []
    if act.checks_owed:
        return [{"type": "cohesion_check", "side": side, "unit": u} for u in act.checks_owed]
    if act.combat.declared or act.combat.owes:
        return combat_actions(state)
    if act.marker == DESTRUCTION:
        return destruction_actions(state)
    out += fire_actions(state) + counter_battery_actions(state) + rally_actions(state) + assault_actions(state)
    o = state.orders.get(side) if side else None
    if o is not None and not act.reserve:
        # a group already Under Orders or that tried its IO is refused (5.28): not asked
        skip = set(act.io) | o.under_orders
        for uid in sorted(act.units):
            g = o.group_of.get(uid)
            if g is None or g in skip:
                continue
            skip.add(g)
            first = o.groups[g][0]
            if individual_order_error(state, side, first) is None:      # the verb's own refusals (5.28)
                out.append({"type": "individual_order", "side": side, "unit": first})
    listed = 0
    for uid in sorted(act.units):
        if listed >= MAX_UNITS_LISTED:
            break
        if uid in act.acted or may_act_error(state, side, uid) or orders_error(state, uid):  # type: ignore[arg-type]
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


def _two_sided_actions(state: TGState) -> list[dict[str, Any]]:
    ts = state.two_sided
    assert ts is not None
    sides = state.static.sides
    if ts.order is None:
        if state.initiative is not None:
            return [{"type": "go_first", "side": state.initiative, "first": s} for s in sides]
        return [{"type": "go_first"}]
    side = two_sided_turn(ts)
    if side is None:
        return []
    end = [{"type": "end_phase", "side": side}]
    if state.phase == RESERVE:
        act = state.activation
        if act is not None:
            if act.checks_owed:
                return [{"type": "cohesion_check", "side": side, "unit": u} for u in act.checks_owed]
            return _activation_actions(state) + _end(state, end[0])
        if side not in ts.reserve_used:
            o = state.orders[side]
            return [{"type": "reserve", "side": side, "unit": o.groups[g][0]}
                    for g in reserve.candidate_groups(state, side)] + end
        return end
    # CinC Movement Phase
    leader = state.cinc_of(side)
    if leader is None or leader.hex is None:
        return end
    ma = ts.ma.get(side)
    if ma is None:
        ma = fixed_allowance(state, side)
        if ma is None:
            return [{"type": "cinc_move", "side": side, "path": []}]      # roll the d10 first
    left = ma - ts.mp_spent.get(side, 0)
    out = []
    if left > 0:
        ctx = movement.MoveContext(allowance=ma)
        for path in paths_to_all(state.board, leader.id, "normal", ctx).values():
            out.append({"type": "cinc_move", "side": side, "path": path})
    return out + end


# --------------------------------------------------------------------------------------------- fire and shock

def _end(state: TGState, event: dict[str, Any]) -> list[dict[str, Any]]:
    """The act that ends the activation, unless declared assaults or owed acts must come first (3.0)."""
    act = state.activation
    if act is not None and (act.fires_owed or act.combat.is_open(state.board, act.side)):
        return []
    return [event]


def combat_actions(state: TGState) -> list[dict[str, Any]]:
    """After the declaration (9.44) or while fire/shock owes acts: exactly those acts, in the rules' order —
    owed checks, retreats (every legal destination), advances (every stack that may advance), then the APCs,
    then the shocks not yet resolved."""
    act = state.activation
    assert act is not None
    c, board = act.combat, state.board
    if c.checks:
        return [{"type": "cohesion_check", "side": k.side, "unit": k.unit} for k in c.checks]
    if c.retreats:
        r = c.retreats[0]
        uid = board.stacks[r.hex][0]
        return [{"type": "retreat", "side": r.side, "unit": uid, "to": list(s.path)}
                for s in legal_retreats(retreat_steps(board, r.hex, r.sources), options_of(board)) if s.path]
    if c.advances:
        a = c.advances[0]
        return [{"type": "advance", "side": a.side, "units": units, "to": a.into} for units in advance_choices(board, a)]
    forced = owed_charge_actions(state)            # 9.81 charge moves of passed stacks, 9.87 pursuit
    if forced:
        return forced
    if c.commit_owed:
        return ([{"type": "commitment", "side": act.side, "unit": u} for u in c.commit_owed]
                + secondary_actions(state))               # 9.31 fall-backs and 9.72 advances before the first APC
    return (secondary_actions(state) + reaction_fire_actions(state) + shock_actions(state)   # 9.73 with the shocks
            + optional_charge_actions(state))         # 9.85 square, 9.86 counter-charge, 9.82 recall


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
    return out + _declarable(state, charge_declarations(state)) + leave_square_actions(state)   # 9.81, 9.85


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
    unit nothing is left out: every destination of each mode its orders allow (normal or limited, and
    extended, 7.13, where it may), each change of facing (6.12), each target it may fire at alone (8.1), and
    each enemy hex in its front its stack — or the unit alone — may be declared against (9.44).  Each act is
    kept only when the verb that would rule on it accepts it.  ``listed``: ``legal_actions(state)`` when the
    caller has it already (asked of many units at one position)."""
    if uid not in state.board.units:
        return []
    listed = [a for a in (legal_actions(state) if listed is None else listed) if uid in named_units(a)]
    act = state.activation
    if act is None or state.phase not in (ACTIVATION, RESERVE, SIDE_TURN) or act.checks_owed \
            or act.combat.declared or act.combat.owes or act.marker == DESTRUCTION \
            or uid not in act.units or state.unit(uid).side != act.side:
        return listed
    seen = {_key(a) for a in listed}
    extra = [a for a in (_all_moves(state, uid) + _faces(state, uid) + _all_fire(state, uid)
                         + _all_assaults(state, uid)) if _key(a) not in seen]
    out = listed + extra
    return sorted(out, key=lambda a: _ORDER.get(a.get("type", ""), 9))


_ORDER = {"individual_order": 0, "move": 1, "face": 2, "fire": 3, "assaults": 4, "charge": 5, "rally": 6}


def _key(a: dict[str, Any]) -> tuple[Any, ...]:
    if a.get("type") == "move":
        return ("move", a["path"][-1] if a.get("path") else None, a.get("mode"))
    return (a.get("type"), repr(sorted(a.items())))


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
