"""[6.4] reform actions and 6.3.2b Hedgehog as events: ``reform`` (one formation step, with the Make Ready
leader condition) and ``change_formation`` (Hedgehog in its own activation or as a reaction move)."""
from __future__ import annotations

from typing import Any, Mapping

from modulebuilder.hexgrid import add_hours

from referee.engine.ruling import Error, Ruling, illegal, legal, result

from . import facing_changes as fc
from .activation import acted, actor_error
from .allowance import mp_error
from .facing import footprint
from .formations import HEDGEHOG_MP, hedgehog_entry_error
from .recovery import near_leader, reform_targets
from .state import COLUMN, HEDGEHOG, MAKE_READY, MPState


def reform(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = actor_error(state, event, "reform")
    if bad:
        return bad, state
    uid, to = event["unit"], event["to"]
    p, u = state.profile(uid), state.unit(uid)
    st = state.static
    if not p.has_formation:
        return illegal("reform", [Error("6.3.1", "no_formation",
                                        "artillery and wagons have no formation states")]), state
    if u.morale_broken:
        return illegal("reform", [Error("12.4.3", "morale_broken",
                                        "a morale-broken unit has no formation to reform")]), state
    targets = reform_targets(p, u.formation)
    if to not in targets:
        return illegal("reform", [Error("6.4", "not_one_step",
                                        f"one reform action takes a {u.formation} unit only to "
                                        f"{' or '.join(targets) or 'nothing'}", alternatives=targets)]), state
    limit = int(st.option("reform_actions_per_activation", 1))
    if u.reforms >= limit:
        return illegal("reform", [Error("13.2.3", "reform_limit",
                                        f"{limit} reform action(s) per unit per activation (engine default)")]), state
    if state.orders.get(p.wing) == MAKE_READY:
        leaders = [h for lid, h in st.leader_hexes.items() if st.leader_sides.get(lid) == p.side]
        if not near_leader(st.grid, footprint(st.grid, p, u), leaders):
            return illegal("reform", [Error("6.3.1", "make_ready_needs_leader",
                                            "under Make Ready a unit reforms only when stacked with or adjacent "
                                            "to a leader")]), state
    changes: dict[str, Any] = {"formation": to, "reforms": u.reforms + 1}
    rules = ["6.4"]
    if u.formation == HEDGEHOG:
        changes.update(facing=u.pre_hedgehog_facing or u.facing, pre_hedgehog_facing=None)
        rules.append("6.3.2")
    elif u.formation == COLUMN:
        rules.append("6.3.4")
        flip = event.get("facing")
        if flip is not None and p.size == 2:
            both = (u.facing, add_hours(u.facing, 6))
            if flip not in both:
                return illegal("reform", [Error("6.3.4", "bad_line_facing",
                                                "a two-hex column forms line facing as it did or turned 180°",
                                                alternatives=both)]), state
            if flip != u.facing:
                hex_, f = fc.counter_march(st.grid, p, u)
                changes.update(hex=hex_, facing=f)
    elif u.formation in ("normal", "open_order") and to in ("open_order", "normal"):
        rules.append("6.3.3")
    new = acted(state.with_unit(uid, **changes))
    return legal("reform", rules, results=[result(to, rules[-1], uid, formation_from=u.formation)]), new


def change_formation(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    """6.3.2b: forming Hedgehog (4 MP in its own activation, or as a reaction move at no MP cost)."""
    uid, to, reaction = event["unit"], event["to"], bool(event.get("reaction", False))
    p = state.static.profiles.get(uid)
    if p is None:
        return illegal("change_formation", [Error("6.3.1", "not_a_unit", f"{uid} is a leader")]), state
    u = state.unit(uid)
    if not p.has_formation:
        return illegal("change_formation", [Error("6.3.1", "no_formation",
                                                  "artillery and wagons take no formation marker")]), state
    if to == COLUMN:
        return illegal("change_formation", [Error("6.3.4", "no_column_in_play",
                                                  "only set-up or reinforcement units are in Column; "
                                                  "nobody forms Column during play")]), state
    if to != HEDGEHOG:
        return illegal("change_formation", [Error("6.4", "use_reform",
                                                  f"{to} is reached by reform actions (reform event)")]), state
    if reaction:
        bad = _reaction_error(state, event)
    else:
        bad = actor_error(state, event, "change_formation")
    if bad:
        return bad, state
    why = hedgehog_entry_error(p, u, reaction)
    if why:
        return illegal("change_formation", [Error("6.3.2", *why)]), state
    cost = 0 if reaction else HEDGEHOG_MP
    if not reaction:
        err = mp_error(state, uid, cost, "6.3.2")
        if err:
            return illegal("change_formation", [err]), state
    new = state.with_unit(uid, formation=HEDGEHOG, pre_hedgehog_facing=u.facing, mp_spent=u.mp_spent + cost)
    rules = ["6.3.2"] + (["9.2.3"] if reaction else [])
    res = [result(HEDGEHOG, "6.3.2", uid, formation_from=u.formation, mp=cost)]
    if reaction and u.formation == "shaken":
        res.append(result("front_face", "6.3.2", uid))     # 6.3.2b: flipped to its front face as well
    return legal("change_formation", rules, results=res), (new if reaction else acted(new))


def _reaction_error(state: MPState, event: Mapping[str, Any]) -> Ruling | None:
    """A reaction move is made in the enemy's activation, by the other side (9.2.3, success test missing)."""
    if state.active is None:
        return illegal("change_formation", [Error("9.2.3", "no_activation", "reaction moves answer an activation")])
    p = state.profile(event["unit"])
    if p.side == state.active.side:
        return illegal("change_formation", [Error("9.2.3", "own_activation",
                                                  "a reaction move is made during the enemy's activation")])
    if event.get("side", p.side) != p.side:
        return illegal("change_formation", [Error("9.2.3", "wrong_side", f"{event['unit']} belongs to {p.side}")])
    return None
