"""Unit actions in its wing's activation: move, face, wheel, counter_march (6.2.x), reform ([6.4]) and
change_formation (6.3.2b Hedgehog; 6.3.4 no Column in play)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from modulebuilder.hexgrid import add_hours

from referee.engine.ruling import Awaiting, Error, Ruling, illegal, legal, result

from . import facing_changes as fc
from .activation import acted, actor_error
from .facing import adjacent_hexes, footprint, has_facing, left_half
from .formations import HEDGEHOG_MP, hedgehog_entry_error, movement_allowance
from .movement import enemy_hexes, walk
from .profile import Arm
from .recovery import near_leader, reform_targets
from .state import COLUMN, HEDGEHOG, MAKE_READY, MPState


def _mp_left(state: MPState, uid: str) -> int:
    return movement_allowance(state.profile(uid), state.unit(uid), state.static.options) - state.unit(uid).mp_spent


def _mp_error(state: MPState, uid: str, cost: int, rule: str) -> Error | None:
    left = _mp_left(state, uid)
    if cost > left:
        return Error(rule, "not_enough_mp", f"costs {cost} MP; {max(0, left)} left")
    return None


def reaction_fire(state: MPState, uid: str, before: tuple[str, ...]) -> tuple[Awaiting, ...]:
    """6.2.4: a facing change next to an enemy unit provokes reaction fire (9.4, missing): every adjacent
    enemy unit is offered it.  Adjacency counts before and after the change (a wheel moves a half)."""
    st = state.static
    mine = set(before) | set(footprint(st.grid, state.profile(uid), state.unit(uid)))
    around = adjacent_hexes(st.grid, tuple(mine))
    side = state.profile(uid).side
    out = []
    for eid, e in state.units.items():
        ep = state.profile(eid)
        if ep.side != side and e.on_map and around & set(footprint(st.grid, ep, e)):
            out.append(Awaiting(type="reaction_fire", side=ep.side, unit=eid, rule="6.2.4"))
    return tuple(out)


def _turned(state: MPState, uid: str, type_: str, rules: list[str], cost: int, **changes: Any) -> tuple[Ruling, MPState]:
    before = footprint(state.static.grid, state.profile(uid), state.unit(uid))
    u = state.unit(uid)
    new = acted(state.with_unit(uid, mp_spent=u.mp_spent + cost, **changes))
    nu = new.unit(uid)
    res = [result("faced", rules[0], uid, facing=nu.facing, hex=nu.hex, mp=cost)]
    return legal(type_, rules, results=res, awaiting=reaction_fire(new, uid, before)), new


def face(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    uid, new_facing = event["unit"], event["facing"]
    if uid in state.static.leader_sides:
        # [6.1] §3.4: leaders have no facing; turning one is meaningless and free.
        return legal("face", ["6.1"], results=[result("no_facing", "6.1", uid)]), state
    bad = actor_error(state, event, "face")
    if bad:
        return bad, state
    p, u = state.profile(uid), state.unit(uid)
    if not state.static.grid.is_vertex(new_facing):
        return illegal("face", [Error("6.1", "not_a_vertex", f"{new_facing} is not a vertex hour",
                                      alternatives=state.static.grid.vertex_hours)]), state
    if not has_facing(p, u):
        # 6.2.3 / §3.4: limbered guns, wagons and morale-broken units have no facing: free, nothing changes.
        return legal("face", ["6.2.3" if p.arm is Arm.ARTILLERY else "6.1"],
                     results=[result("no_facing", "6.1", uid, mp=0)]), acted(state)
    if p.arm is Arm.ARTILLERY:
        err = fc.artillery_face_error(u)
        if err:
            return illegal("face", [err]), state
        return _turned(state, uid, "face", ["6.2.3"], 0, facing=new_facing, fired=True)
    if u.formation == HEDGEHOG:
        return illegal("face", [Error("6.3.2", "hedgehog_faces_all_round",
                                      "a Hedgehog has no flanks and no rear: it does not change facing")]), state
    cost = fc.face_cost(p, u, new_facing)
    if cost is None:
        return illegal("face", [Error("6.2.1", "must_wheel",
                                      "a two-hex unit in line changes facing only by wheeling forward "
                                      "(or counter-marching)")]), state
    err = _mp_error(state, uid, cost, "6.2.1")
    if err:
        return illegal("face", [err]), state
    if p.size == 2 and fc.vertex_steps(u.facing, new_facing) == 3 and u.formation != COLUMN:
        hex_, f = fc.counter_march(state.static.grid, p, u)
        return _turned(state, uid, "face", ["6.2.2"], cost, hex=hex_, facing=f)
    stepping = fc.vertex_steps(u.facing, new_facing) * (fc.step_cost(p, u) or 0)
    # The rule that priced it: 6.2.2 when a counter-march is part of the cheapest way round.
    rules = ["6.2.2"] if cost < stepping else ["6.2.1"]
    if p.size == 2:
        # A-M4: a two-hex column turns its head; the tail swings round behind it for free (6.3.4).
        head = footprint(state.static.grid, p, u)[-1]
        return _turned(state, uid, "face", rules + ["6.3.4"], cost, hex=left_half(state.static.grid, head, new_facing),
                       facing=new_facing)
    return _turned(state, uid, "face", rules, cost, facing=new_facing)


def wheel(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = actor_error(state, event, "wheel")
    if bad:
        return bad, state
    uid = event["unit"]
    p, u = state.profile(uid), state.unit(uid)
    if p.size != 2 or u.formation in (COLUMN, HEDGEHOG) or not has_facing(p, u):
        return illegal("wheel", [Error("6.2.1", "not_a_two_hex_line",
                                       "only a two-hex unit in line wheels; other units use face")]), state
    w = fc.wheel(state.static.grid, u.hex, u.facing, event["facing"])
    if isinstance(w, Error):
        return illegal("wheel", [w]), state
    if w.entered in enemy_hexes(state, p.side):
        return illegal("wheel", [Error("6.2.1", "enemy_occupied", f"{w.entered} holds an enemy unit")]), state
    cost = fc.wheel_cost(state.static.terrain, w, p.arm.value)
    if cost is None:
        return illegal("wheel", [Error("6.2.1", "prohibited_terrain", f"{w.entered} is prohibited terrain")]), state
    err = _mp_error(state, uid, cost, "6.2.1")
    if err:
        return illegal("wheel", [err]), state
    ruling, new = _turned(state, uid, "wheel", ["6.2.1"], cost, hex=w.left, facing=w.facing)
    extra = result("wheeled", "6.2.1", uid, pivot=w.pivot, entered=w.entered)
    return replace(ruling, results=ruling.results + (extra,)), new


def counter_march(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = actor_error(state, event, "counter_march")
    if bad:
        return bad, state
    uid = event["unit"]
    p, u = state.profile(uid), state.unit(uid)
    if not has_facing(p, u) or p.arm is Arm.ARTILLERY:
        return illegal("counter_march", [Error("6.2.2", "no_facing",
                                               "only units with a facing counter-march (artillery turns by 6.2.3)")]), state
    if u.formation == HEDGEHOG:
        return illegal("counter_march", [Error("6.3.2", "hedgehog_faces_all_round",
                                               "a Hedgehog has no flanks and no rear")]), state
    err = _mp_error(state, uid, fc.COUNTER_MARCH_MP, "6.2.2")
    if err:
        return illegal("counter_march", [err]), state
    hex_, f = fc.counter_march(state.static.grid, p, u)
    return _turned(state, uid, "counter_march", ["6.2.2"], fc.COUNTER_MARCH_MP, hex=hex_, facing=f)


def move(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = actor_error(state, event, "move")
    if bad:
        return bad, state
    uid = event["unit"]
    p, u = state.profile(uid), state.unit(uid)
    if u.morale_broken:
        return illegal("move", [Error("12.4.3", "morale_broken",
                                      "a morale-broken unit moves only as 12.4.3 (not in the excerpt) says")]), state
    if u.formation == HEDGEHOG:
        return illegal("move", [Error("6.3.2", "hedgehog_no_move", "a Hedgehog may not move voluntarily")]), state
    if p.arm is Arm.ARTILLERY and not u.limbered:
        return illegal("move", [Error("G-M10", "unlimbered", "unlimbered artillery does not move")]), state
    out = walk(state, uid, event["path"])
    if isinstance(out, tuple):
        code, msg, alts = out
        return illegal("move", [Error("6.3.1" if code == "not_enough_mp" else "G-M3", code, msg,
                                      alternatives=tuple(alts) if alts else None)]), state
    new = acted(replace(state, units={**state.units, uid: out.unit}))
    results = [result("moved", "G-M3", uid, to=out.unit.hex, hexes=list(footprint(state.static.grid, p, out.unit)),
                      mp=out.cost)]
    results += [result(effect, "6.3.1", uid, hex=h, cause="movement") for h, effect in out.hits]
    ruling = legal("move", ["G-M3", "6.3.1"] if out.hits else ["G-M3"], results=results)
    if "facing" in event and event["facing"] != out.unit.facing and has_facing(p, out.unit):
        # DESIGN §5: a move may end with a facing change, ruled exactly as a face event after the path.
        fr, new2 = face(new, {"type": "face", "side": event.get("side"), "unit": uid, "facing": event["facing"]})
        if not fr.legal:
            return illegal("move", fr.errors), state
        return replace(ruling, rules=ruling.rules + fr.rules, results=ruling.results + fr.results,
                       awaiting=fr.awaiting), new2
    return ruling, new


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
        err = _mp_error(state, uid, cost, "6.3.2")
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
