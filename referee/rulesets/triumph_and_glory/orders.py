"""Orders: order groups (5.11–5.12), orders delay (5.29), giving orders (5.21–5.24, 5.33), individual orders
(5.28) and the order-status modifiers other rules read (5.27, 9.42).

Each rule is a small pure function next to its number; the event handlers at the bottom validate an event
against the state, then build the new state.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from referee.engine.dice import EventDice
from referee.engine.verbs import Illegal, check, refuse
from referee.engine.ruling import (Awaiting, Error, Modifier, Roll, Ruling, legal, pass_fail_roll, 
                                   result)

from . import scenario_rules as sr
from .activation import marker_io_rating
from .board import Board, UnitState
from .state import ORDERS, SideOrders, TGState
from .verbs import VERBS

# --------------------------------------------------------------------------------------------- 5.12 order groups


def linked(board: Board, a: UnitState, b: UnitState) -> bool:
    """5.12 chain link (A-24): same AG, both on the map, and adjacent — or two hexes apart with at least one
    common neighbour free of enemy combat units (enemy units break the chain; enemy ZOC does not)."""
    if a.ag != b.ag or a.hex is None or b.hex is None:
        return False
    d = board.grid.distance(a.hex, b.hex)
    if d <= 1:
        return True
    if d > 2:
        return False
    common = set(board.neighbours(a.hex)) & set(board.neighbours(b.hex))
    return any(not board.has_enemy(h, a.side) for h in common)


def order_groups(board: Board, side: str) -> tuple[tuple[str, ...], ...]:
    """5.12: the order groups of ``side`` — connected components of ``linked`` inside each AG, in set-up order.
    Only combat units on the map form groups.  (Same test as :func:`linked`, written over hexes with the
    board's adjacency index instead of over pairs of units with distances: it runs for every unit of both
    sides at every Orders Phase.)  Units of one AG in one hex are always linked, so the search links hexes:
    distance 1, or distance 2 through a common neighbour free of enemy combat units."""
    order = _setup_order(board)
    units = board._units                      # noqa: SLF001 — the dict behind Board.units, read ~500 times here
    # The groups are the components of the link, each sorted and then ordered by set-up order at the end, so the
    # order in which units, hexes and AGs are visited here changes nothing: the stacks are read as they come.
    by_ag_hex: dict[str, dict[str, list[str]]] = {}             # AG -> hex -> unit ids
    for h, ids in board._stacks.items():      # noqa: SLF001 — (see Board._stacks)
        for uid in ids:
            u = units[uid]                    # stacks hold combat units only: u.defn is a Unit with an AG
            if u.defn.side == side:
                by_ag_hex.setdefault(u.defn.ag, {}).setdefault(u.hex, []).append(uid)  # type: ignore[arg-type]
    static = board.static
    adjacent, around = static.adjacent, static.around
    enemy_free: dict[str, bool] = {}

    def free(n: str) -> bool:
        hit = enemy_free.get(n)
        if hit is None:
            hit = enemy_free[n] = not board.has_enemy(n, side)
        return hit

    groups: list[list[str]] = []
    for hexes in by_ag_hex.values():
        # The candidates of a hex are the AG's hexes not yet in a group, or the 18 hexes around it when the AG has
        # more hexes than that; one links if adjacent, or in the second ring with a common neighbour free of enemies.
        unseen = set(hexes)
        few = len(hexes) <= 18
        for first in hexes:
            if first not in unseen:
                continue
            unseen.discard(first)
            todo, members = [first], []
            while todo:
                h = todo.pop()
                members.extend(hexes[h])
                ring1 = adjacent[h]
                ring2 = static.ring2(h)
                for h2 in list(unseen) if few else [x for x in (*ring1, *ring2) if x in unseen]:
                    if h2 in ring1 or (h2 in ring2 and any(free(n) for n in ring1 if n in around(h2))):
                        unseen.discard(h2)
                        todo.append(h2)
            groups.append(sorted(members, key=order.__getitem__))
    return tuple(tuple(g) for g in sorted(groups, key=lambda g: order[g[0]]))


def _setup_order(board: Board) -> dict[str, int]:
    """Unit id -> its rank in the set-up (the order of ``board.units``, which no change reorders), built once
    per scenario map rather than at each of the 24 Orders Phases a Borodino game has."""
    key = ("setup_order", len(board.units))
    hit = board.static.memo.get(key)
    if hit is None or hit.keys() != board.units.keys():
        hit = board.static.memo[key] = {uid: i for i, uid in enumerate(board.units)}
    return hit


def group_index(groups: Sequence[Sequence[str]]) -> dict[str, int]:
    return {uid: i for i, g in enumerate(groups) for uid in g}


# --------------------------------------------------------------------------------------------- 5.29 orders delay


def delay_required(state: TGState, side: str) -> bool:
    """5.29: every Orders Phase except the first turn's, for a side whose CinC has a delay rating
    (Napoleon has none: the French never roll)."""
    cinc = state.static.cinc.get(side)
    return (state.turn > state.static.scenario.turns.first and cinc is not None
            and cinc.delay_rating is not None)


def delay_modifiers(failures: int) -> tuple[Modifier, ...]:
    """5.29: −1 for each earlier failed turn (the "Orders Delay DRM" marker), cumulative."""
    if failures <= 0:
        return ()
    return (Modifier(-failures, "5.29", f"{failures} earlier failed orders-delay roll"
                     + ("s" if failures > 1 else "")),)


def delay_roll(natural: int | None, rating: int, failures: int, cinc_name: str, side: str) -> Roll:
    """5.29: pass iff natural + DRM ≤ the CinC's delay rating."""
    return pass_fail_roll("orders_delay", natural, rating, base_label=f"delay rating of {cinc_name}",
                          base_rule="5.29", modifiers=delay_modifiers(failures), side=side)


@VERBS.verb("orders_delay", steps=(ORDERS,), rules=("5.29",),
             refs={"side": "side"}, actor=False,
             not_now=Error("3.0", "wrong_phase", "the orders-delay roll is made in the Orders Phase"))
def orders_delay(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side = event["side"]
    o = state.orders[side]
    if state.phase != ORDERS:
        refuse("3.0", "wrong_phase", "the orders-delay roll is made in the Orders Phase")
    if o.delay == "none":
        why = ("no orders-delay roll on the first turn" if state.turn == state.static.scenario.turns.first
               else f"{side}'s commander-in-chief never rolls for orders delay")
        refuse("5.29", "no_delay_roll", why)
    if o.delay != "owed":
        refuse("5.29", "delay_already_rolled",
               f"{side} already rolled for orders delay this turn")
    cinc = state.static.cinc[side]
    natural = dice.roll("roll", "orders_delay")
    roll = delay_roll(natural, cinc.delay_rating, o.failures, cinc.name, side)  # type: ignore[union-attr,arg-type]
    awaiting = (Awaiting("orders", side, "5.21"),)
    if natural is None:
        return legal("orders_delay", ["5.29"], rolls=[roll]), state
    if roll.passed:
        new = replace(o, delay="passed", failures=0)
    else:
        new = replace(o, delay="failed", failures=o.failures + 1)
    return (legal("orders_delay", ["5.29"], rolls=[roll], awaiting=awaiting),
            replace(state, orders={**state.orders, side: new}))


# --------------------------------------------------------------------------------------------- 5.21–5.24 orders


def orders_limit(state: TGState, side: str, army: str | None) -> tuple[int, str]:
    """5.22 (and BOR-1): how many order groups may be Under Orders, and the rule that says so."""
    limit = sr.russian_orders_limit(state.rules, army) if _army_rule_applies(state, side) else None
    if limit is not None:
        return limit, "BOR-RUSSIAN-ORDERS"
    cinc = state.static.cinc.get(side)
    return (cinc.orders_rating or 0) if cinc else 0, "5.22"


def _army_rule_applies(state: TGState, side: str) -> bool:
    return state.rules.army_orders is not None and state.rules.army_orders.side == side


def orders_cost(state: TGState, side: str, uo_groups: Iterable[int], barrage: int) -> int:
    """Orders points spent: one per Under-Orders group (5.22), one for the barrage (5.33); the cavalry reserve's
    groups cost one order in all — Murat passes it on (BOR-MURAT)."""
    o = state.orders[side]
    cav = 0
    n = 0
    for g in uo_groups:
        ag = state.unit(o.groups[g][0]).ag
        if sr.in_cavalry_reserve(state.rules, ag):  # type: ignore[arg-type]
            cav += 1
        else:
            n += 1
    return n + (1 if cav else 0) + barrage


def resolve_groups(state: TGState, side: str, entries: Sequence[Any]) -> tuple[list[int], list[Error]]:
    """The order groups an ``under_orders`` list names: each entry a unit id (any member of the group) or a
    list of unit ids the player says form one group (5.12: one AG, linked)."""
    o = state.orders[side]
    errors: list[Error] = []
    chosen: list[int] = []
    for entry in entries:
        ids = [entry] if isinstance(entry, str) else list(entry)
        units = [state.unit(uid) for uid in ids]
        bad = [u for u in units if u.side != side or u.is_leader]
        if bad:
            errors.append(Error("5.21", "not_your_unit", f"{bad[0].id} is not a {side} combat unit"))
            continue
        off = [u for u in units if u.hex is None]
        if off:
            errors.append(Error("5.12", "not_on_map", f"{off[0].id} is not on the map and belongs to no order group"))
            continue
        if len({u.ag for u in units}) > 1:
            errors.append(Error("5.12", "og_mixed_ags", "an order group holds units of one activation group "
                                f"only: {', '.join(f'{u.id} ({u.ag})' for u in units)}"))
            continue
        gs = {o.group_of[u.id] for u in units}
        if len(gs) > 1:
            errors.append(Error("5.12", "og_not_linked", f"{', '.join(ids)} are not one order group (no chain "
                                "of units at most 2 hexes apart links them)",
                                alternatives=tuple(list(o.groups[g]) for g in sorted(gs))))
            continue
        g = gs.pop()
        if g in chosen:
            errors.append(Error("5.21", "duplicate_group", f"order group of {ids[0]} named twice"))
            continue
        chosen.append(g)
    return chosen, errors


def kept_orders_errors(state: TGState, side: str, chosen: Sequence[int], barrage: int) -> list[Error]:
    """5.29 failed roll: last turn's statuses stand.  Each of last turn's Under-Orders groups keeps exactly one
    piece Under Orders (5.24, A-25); nothing else may be Under Orders, and no barrage is inherited (A-13)."""
    o = state.orders[side]
    errors: list[Error] = []
    if barrage:
        errors.append(Error("5.29", "orders_kept", "after a failed orders-delay roll no new barrage may be ordered"))
    for g in chosen:
        members = set(o.groups[g])
        if not any(members & prev for prev in o.previous_uo):
            errors.append(Error("5.29", "orders_kept", f"the group of {o.groups[g][0]} was not Under Orders last "
                                "turn; after a failed orders-delay roll every status stays as it was"))
    for prev in o.previous_uo:
        pieces = [g for g in chosen if set(o.groups[g]) & prev]
        alive = [g for g, members in enumerate(o.groups) if set(members) & prev]
        if len(pieces) > 1:
            errors.append(Error("5.24", "one_piece_stays", "only one piece of a split Under-Orders group stays "
                                "Under Orders", alternatives=tuple(o.groups[g][0] for g in pieces)))
        elif alive and not pieces:
            errors.append(Error("5.29", "orders_kept", f"last turn's Under-Orders group of {sorted(prev)[0]} "
                                "keeps its orders: name one of its pieces",
                                alternatives=tuple(o.groups[g][0] for g in alive)))
    return errors


@VERBS.verb("orders", steps=(ORDERS,), rules=("5.21", "5.22"),
             refs={"side": "side", "under_orders": ["unit?"]}, actor=False,
             not_now=Error("3.0", "wrong_phase", "orders are given in the Orders Phase (3.0 A)"))
def orders(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """5.21–5.22: a side puts order groups Under Orders (and may order a barrage, 5.33), within its limit."""
    side = event["side"]
    if state.phase != ORDERS:
        refuse("3.0", "wrong_phase", "orders are given in the Orders Phase (3.0 A)")
    o = state.orders[side]
    if o.given:
        refuse("5.21", "already_given", f"{side} has already given orders this turn")
    if o.delay == "owed":
        refuse("5.29", "delay_roll_first", f"{side} must roll for orders delay before giving orders")
    barrage = int(event.get("barrage", 0))
    failed = o.delay == "failed"                     # 5.29: the orders delay failed, last turn's orders stand
    army = o.previous_army if failed else event.get("army")
    chosen, errors = resolve_groups(state, side, event.get("under_orders", []))
    rules_used = ["5.21", "5.22"] + (["5.29"] if failed else [])
    errors += order_errors(state, side, o, chosen, barrage, army, event)
    if errors:
        raise Illegal(*errors, rules=rules_used)
    new = replace(o, given=True, under_orders=frozenset(chosen), barrage=barrage >= 1, army=army)
    if barrage:
        rules_used.append("5.33")
    # Orders are secret until the group's AG is first drawn (5.23): the ruling shows only how many.
    res = [result("under_orders", "5.21", None, side=side, groups=len(chosen), barrage=barrage >= 1)]
    return legal("orders", rules_used, results=res), replace(state, orders={**state.orders, side: new})


def order_errors(state: TGState, side: str, o: SideOrders, chosen: Sequence[int], barrage: int, army: str | None,
                 event: Mapping[str, Any]) -> list[Error]:
    """5.21–5.33: what is wrong with orders for the groups ``chosen`` (and ``barrage`` markers) under ``army``'s
    command: one barrage (5.33), the orders a failed delay keeps (5.29), the army and cavalry reserve rules, the
    limit on orders (5.22, checked once the army that sets it is known)."""
    errors: list[Error] = []
    if barrage > 1:
        errors.append(Error("5.33", "one_barrage", "at most one Artillery Barrage marker per player per turn"))
    if o.delay == "failed":
        errors += kept_orders_errors(state, side, chosen, barrage)
    army_problems = army_errors(state, side, chosen, army, barrage, event)
    errors += army_problems + cavalry_reserve_errors(state, side, chosen)
    limit, limit_rule = orders_limit(state, side, army)
    cost = orders_cost(state, side, chosen, min(barrage, 1))
    no_limit_yet = any(e.code in ("army_required", "unknown_army") for e in army_problems)
    if cost > limit and o.delay != "failed" and not no_limit_yet:
        errors.append(Error(limit_rule, "too_many_orders",
                            f"{cost} orders given ({len(chosen)} group(s)"
                            + (", barrage" if barrage else "") + f"); the limit is {limit}"))
    return errors


def army_errors(state: TGState, side: str, chosen: Sequence[int], army: str | None, barrage: int,
                event: Mapping[str, Any]) -> list[Error]:
    """BOR-1: the Russian orders commands of exactly one army (3 of the 1st, 2 of the 2nd, 1 of the Reserve);
    a barrage only under the 1st/2nd Army options."""
    if not _army_rule_applies(state, side):
        if "army" in event:
            return [Error("5.21", "no_army_option", f"{side} has no orders options by army in this scenario")]
        return []
    options = state.rules.army_orders.options  # type: ignore[union-attr]
    if army is None:
        return ([Error("BOR-RUSSIAN-ORDERS", "army_required", "choose the army whose commands get orders",
                       alternatives=tuple(options))] if chosen or barrage else [])
    if army not in options:
        return [Error("BOR-RUSSIAN-ORDERS", "unknown_army", f"no army option '{army}'",
                      alternatives=tuple(options))]
    o = state.orders[side]
    errors = []
    for g in chosen:
        ag = state.static.ags[state.unit(o.groups[g][0]).ag]  # type: ignore[index]
        if ag.army != army:
            errors.append(Error("BOR-RUSSIAN-ORDERS", "wrong_army",
                                f"{o.groups[g][0]} ({ag.name}) is not of the {army} army"))
    if barrage and not sr.barrage_allowed_with_army(state.rules, army):
        errors.append(Error("BOR-RUSSIAN-ORDERS", "no_barrage_option",
                            f"the barrage may be ordered only under the 1st or 2nd Army option, not '{army}'"))
    return errors


def cavalry_reserve_errors(state: TGState, side: str, chosen: Sequence[int]) -> list[Error]:
    """BOR-MURAT: at most ``direct_orders`` (2) cavalry-reserve groups Under Orders."""
    cav = state.rules.cavalry_reserve
    if cav is None or cav.side != side:
        return []
    o = state.orders[side]
    n = sum(1 for g in chosen if state.unit(o.groups[g][0]).ag in cav.ags)
    if n > cav.direct_orders:
        return [Error("BOR-MURAT", "murat_direct_orders", f"Murat passes orders to {cav.direct_orders} "
                      f"cavalry-reserve groups at most, not {n}")]
    return []


# --------------------------------------------------------------------------------------------- 5.28 individual orders


def io_modifiers(state: TGState, members: Sequence[str], use_cinc: bool = True) -> tuple[Modifier, ...]:
    """5.28: the CinC's DRM if any unit of the group is within his command range (A-16: may be declined)."""
    if not use_cinc or not members:
        return ()
    side = state.unit(members[0]).side
    cinc = state.static.cinc.get(side)
    if cinc is None or not cinc.drm or not any(state.in_command_range(u) for u in members):
        return ()
    return (Modifier(cinc.drm, "5.28", f"{cinc.name} within {cinc.command_range} hexes of the group"),)


def io_roll(natural: int | None, io_rating: int, marker_name: str, modifiers: Sequence[Modifier],
            unit: str) -> Roll:
    """5.28: pass iff natural + DRM ≤ the IO rating printed on the AM just drawn."""
    return pass_fail_roll("individual_order", natural, io_rating, base_label=f"IO rating of the {marker_name} AM",
                          base_rule="5.28", modifiers=modifiers, unit=unit)


def individual_order_error(state: TGState, side: str, uid: str) -> Error | None:
    """5.28 / 5.53 / BOR-GUARD / BOR-RUSSIAN-ORDERS: why ``side`` may not try an individual order for the group
    of ``uid`` now, or None (then the verb rolls; the legal listing asks this alone)."""
    act = state.activation
    u = state.unit(uid)
    if act is None or u.is_leader or uid not in act.units or u.side != side:
        return Error("5.28", "not_activated",
                     f"{uid} is not activated now: an individual order is tried when its AM is drawn")
    if act.reserve:
        return Error("5.53", "reserve_no_io",
                     "reserve-activated units may not attempt an individual order")
    o = state.orders[side]
    g = o.group_of.get(uid)
    members = o.groups[g] if g is not None else (uid,)
    if g is not None and g in o.under_orders:
        return Error("5.28", "already_under_orders",
                     f"the group of {uid} is Under Orders")
    if g in act.io:
        return Error("5.28", "io_already_tried",
                     f"the group of {uid} already tried an individual order this activation")
    if any(m in act.acted for m in members):
        return Error("5.28", "group_has_acted",
                     "an individual order is tried before the group acts")
    ag = state.static.ags[u.ag]  # type: ignore[index]
    if ag.id in state.rules.guard_ags:
        return Error("BOR-GUARD", "guard_no_io",
                     "the Guard acts only under Napoleon's orders, never by an individual order")
    if sr.reserve_without_orders_frozen(state.rules, ag, False):
        return Error("BOR-RUSSIAN-ORDERS", "reserve_no_io",
                     "a Reserve-army command without orders may not try to change its orders")
    if marker_io_rating(state, act.marker, ag.id) is None:
        return Error("5.28", "no_io_rating",
                     f"the {act.marker} AM carries no IO rating")
    return None


@VERBS.verb("individual_order", rules=("5.28",),
             refs={"side": "side", "unit": "unit"}, actor=False)
def individual_order(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid = event["side"], event["unit"]
    check(individual_order_error(state, side, uid))
    act = state.activation
    assert act is not None
    u = state.unit(uid)
    o = state.orders[side]
    g = o.group_of.get(uid)
    members = o.groups[g] if g is not None else (uid,)
    ag = state.static.ags[u.ag]  # type: ignore[index]
    rating = marker_io_rating(state, act.marker, ag.id)
    assert rating is not None
    mods = io_modifiers(state, members, event.get("use_cinc", True) is not False)
    natural = dice.roll("roll", "individual_order")
    roll = io_roll(natural, rating, ag.name if act.marker == ag.id else act.marker, mods, uid)
    if natural is None:
        return legal("individual_order", ["5.28"], rolls=[roll]), state
    ok = bool(roll.passed)
    res = result("under_orders" if ok else "no_orders", "5.28", uid, units=list(members),
                 **({} if ok else {"only": "rally"}))
    new_act = replace(act, io={**act.io, g if g is not None else -1: "passed" if ok else "failed"})
    return legal("individual_order", ["5.28"], rolls=[roll], results=[res]), replace(state, activation=new_act)


# --------------------------------------------------------------------------------------------- status now


def acting_status(state: TGState, uid: str) -> str:
    """The unit's status for this activation: ``UO``, ``NO``, ``rally_only`` (failed IO, 5.28) — reserve
    activations act as No Orders (5.53); a successful IO is Under Orders for this activation only (5.28);
    in Schevardino every unit is Under Orders."""
    act = state.activation
    if act is not None and act.reserve:
        return "NO"
    if state.rules.command_activation is not None:
        return "UO"                        # Schevardino: no orders system, every unit is Under Orders
    o = state.orders.get(state.board.units[uid].defn.side)
    g = o.group_of.get(uid) if o else None
    if act is not None and g in act.io:
        return "UO" if act.io[g] == "passed" else "rally_only"
    # state.status(uid), from the group already found (asked at every move)
    return "UO" if g is not None and g in o.under_orders else "NO"  # type: ignore[union-attr]


def commitment_order_modifiers(state: TGState, uid: str, use_cinc: bool = True) -> tuple[Modifier, ...]:
    """The order-status part of the assault probability check (9.42 with 5.27 and 5.53), for the shock rules:
    Under Orders and a group member within the CinC's range → the CinC's DRM (optional, A-16); No Orders
    (reserve-activated included) and the unit itself out of range → +1 (A-3); otherwise nothing."""
    status = acting_status(state, uid)
    side = state.unit(uid).side
    cinc = state.static.cinc.get(side)
    if status == "UO":
        o = state.orders[side]
        g = o.group_of.get(uid)
        members = o.groups[g] if g is not None else (uid,)
        if use_cinc and cinc and cinc.drm and any(state.in_command_range(m) for m in members):
            return (Modifier(cinc.drm, "9.42", f"under orders, {cinc.name} within {cinc.command_range} hexes"),)
        return ()
    if not state.in_command_range(uid):
        rule = "5.53" if state.activation is not None and state.activation.reserve else "5.27"
        return (Modifier(1, rule, "no orders, out of the commander-in-chief's range"),)
    return ()
