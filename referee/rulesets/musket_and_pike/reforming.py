"""[6.4] reform actions and 6.3.2b Hedgehog as events: ``reform`` (one formation step, with the Make Ready
leader condition) and ``change_formation`` (Hedgehog in its own activation or as a reaction move)."""
from __future__ import annotations

from typing import Any, Mapping

from modulebuilder.hexgrid import add_hours

from referee.engine.ruling import Ruling, legal, result
from referee.engine.verbs import check, refuse

from . import facing_changes as fc
from .activation import acted, active_side_error, require_actor
from .allowance import mp_error
from .facing import footprint
from .formations import HEDGEHOG_MP, hedgehog_entry_error
from .recovery import near_leader, reform_targets
from .state import COLUMN, HEDGEHOG, MAKE_READY, MPState
from .verbs import ACTIVATION, VERBS


@VERBS.verb("reform", steps=(ACTIVATION,), rules=("6.4",), refs={"unit": "unit"})
def reform(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    require_actor(state, event["unit"])
    uid, to = event["unit"], event["to"]
    p, u = state.profile(uid), state.unit(uid)
    st = state.static
    if not p.has_formation:
        refuse("6.3.1", "no_formation", "artillery and wagons have no formation states")
    if u.morale_broken:
        refuse("12.4.3", "morale_broken", "a morale-broken unit has no formation to reform")
    targets = reform_targets(p, u.formation)
    if to not in targets:
        refuse("6.4", "not_one_step",
                                        f"one reform action takes a {u.formation} unit only to "
                                        f"{' or '.join(targets) or 'nothing'}", targets)
    limit = int(st.option("reform_actions_per_activation", 1))
    if u.reforms >= limit:
        refuse("13.2.3", "reform_limit",
                                        f"{limit} reform action(s) per unit per activation (engine default)")
    if state.orders.get(p.wing) == MAKE_READY:
        leaders = [h for lid, h in st.leader_hexes.items() if st.leader_sides.get(lid) == p.side]
        if not near_leader(st.grid, footprint(st.grid, p, u), leaders):
            refuse("6.3.1", "make_ready_needs_leader",
                                            "under Make Ready a unit reforms only when stacked with or adjacent "
                                            "to a leader")
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
                refuse("6.3.4", "bad_line_facing",
                                                "a two-hex column forms line facing as it did or turned 180°",
                                                both)
            if flip != u.facing:
                hex_, f = fc.counter_march(st.grid, p, u)
                changes.update(hex=hex_, facing=f)
    elif u.formation in ("normal", "open_order") and to in ("open_order", "normal"):
        rules.append("6.3.3")
    new = acted(state.with_unit(uid, **changes))
    return legal("reform", rules, results=[result(to, rules[-1], uid, formation_from=u.formation)]), new


@VERBS.verb("change_formation", steps=(ACTIVATION,), rules=("6.3.2",), refs={"unit": "unit"}, actor=False)
def change_formation(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    """6.3.2b: forming Hedgehog (4 MP in its own activation, or as a reaction move at no MP cost).  The
    dispatcher does not check the side: a reaction move is the other side's."""
    uid, to, reaction = event["unit"], event["to"], bool(event.get("reaction", False))
    p = state.static.profiles.get(uid)
    if p is None:
        refuse("6.3.1", "not_a_unit", f"{uid} is a leader")
    u = state.unit(uid)
    if not p.has_formation:
        refuse("6.3.1", "no_formation", "artillery and wagons take no formation marker")
    if to == COLUMN:
        refuse("6.3.4", "no_column_in_play",
                                                  "only set-up or reinforcement units are in Column; "
                                                  "nobody forms Column during play")
    if to != HEDGEHOG:
        refuse("6.4", "use_reform", f"{to} is reached by reform actions (reform event)")
    if reaction:
        require_reaction(state, event)
    else:
        check(active_side_error(state, event))
        require_actor(state, uid)
    why = hedgehog_entry_error(p, u, reaction)
    if why:
        refuse("6.3.2", *why)
    cost = 0 if reaction else HEDGEHOG_MP
    if not reaction:
        check(mp_error(state, uid, cost, "6.3.2"))
    new = state.with_unit(uid, formation=HEDGEHOG, pre_hedgehog_facing=u.facing, mp_spent=u.mp_spent + cost)
    rules = ["6.3.2"] + (["9.2.3"] if reaction else [])
    res = [result(HEDGEHOG, "6.3.2", uid, formation_from=u.formation, mp=cost)]
    if reaction and u.formation == "shaken":
        res.append(result("front_face", "6.3.2", uid))     # 6.3.2b: flipped to its front face as well
    return legal("change_formation", rules, results=res), (new if reaction else acted(new))


def require_reaction(state: MPState, event: Mapping[str, Any]) -> None:
    """A reaction move is made in the enemy's activation, by the other side (9.2.3, success test missing)."""
    p = state.profile(event["unit"])
    if p.side == state.active.side:
        refuse("9.2.3", "own_activation", "a reaction move is made during the enemy's activation")
    if event.get("side", p.side) != p.side:
        refuse("9.2.3", "wrong_side", f"{event['unit']} belongs to {p.side}")


@VERBS.candidates("reform")
def _reforms(state: MPState):
    st, side = state.static, state.active.side
    return [{"type": "reform", "side": side, "unit": uid, "to": t}
            for uid in st.wing_units.get(state.active.wing, ()) if state.unit(uid).on_map
            for t in reform_targets(state.profile(uid), state.unit(uid).formation)]


@VERBS.candidates("change_formation")
def _hedgehogs(state: MPState):
    st, side = state.static, state.active.side
    return [{"type": "change_formation", "side": side, "unit": uid, "to": "hedgehog"}
            for uid in st.wing_units.get(state.active.wing, ()) if state.unit(uid).on_map]
