"""6.2.1-6.2.4 as events: ``face``, ``wheel`` and ``counter_march``, priced by ``facing_changes`` and paid from
the unit's movement points, each awaiting the reaction fire it provokes next to the enemy."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from modulebuilder.hexgrid import add_hours

from referee.engine.ruling import Awaiting, Ruling, legal, result
from referee.engine.verbs import check, refuse

from . import facing_changes as fc
from .activation import acted, require_actor
from .allowance import mp_error
from .facing import adjacent_hexes, footprint, has_facing, left_half
from .movement import enemy_hexes
from .profile import Arm
from .state import COLUMN, HEDGEHOG, MPState
from .verbs import ACTIVATION, VERBS


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
        if ep.side != side and e.on_map and around & set(footprint(st.grid, ep, e)) and may_fire(state, eid):
            out.append(Awaiting(type="reaction_fire", side=ep.side, unit=eid, rule="6.2.4"))
    return tuple(out)


def may_fire(state: MPState, uid: str) -> bool:
    """Whether a unit could take the reaction fire 6.2.4 offers, as far as this excerpt says: not a wagon or
    limbered gun, not morale-broken, not in Column (6.3.4) or Hedgehog (6.3.2a), not artillery stacked with
    a Hedgehog (6.3.2a) or already on its Fired side (6.2.3)."""
    p, u = state.profile(uid), state.unit(uid)
    if p.arm is Arm.WAGON or u.morale_broken or u.formation in (COLUMN, HEDGEHOG):
        return False
    if p.arm is Arm.ARTILLERY:
        if u.limbered or u.fired:
            return False
        return not any(o.formation == HEDGEHOG and o.hex == u.hex for oid, o in state.units.items() if oid != uid)
    return True


def _turned(state: MPState, uid: str, type_: str, rules: list[str], cost: int, **changes: Any) -> tuple[Ruling, MPState]:
    before = footprint(state.static.grid, state.profile(uid), state.unit(uid))
    u = state.unit(uid)
    new = acted(state.with_unit(uid, mp_spent=u.mp_spent + cost, **changes))
    nu = new.unit(uid)
    res = [result("faced", rules[0], uid, facing=nu.facing, hex=nu.hex, mp=cost)]
    return legal(type_, rules, results=res, awaiting=reaction_fire(new, uid, before)), new


@VERBS.verb("face", steps=(ACTIVATION,), rules=("6.2.1",), refs={"unit": "unit"})
def face(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    uid, new_facing = event["unit"], event["facing"]
    if uid in state.static.leader_sides:
        # [6.1] §3.4: leaders have no facing; turning one is meaningless and free.
        return legal("face", ["6.1"], results=[result("no_facing", "6.1", uid)]), state
    require_actor(state, event["unit"])
    p, u = state.profile(uid), state.unit(uid)
    if not state.static.grid.is_vertex(new_facing):
        refuse("6.1", "not_a_vertex", f"{new_facing} is not a vertex hour", state.static.grid.vertex_hours)
    if not has_facing(p, u):
        # 6.2.3 / §3.4: limbered guns, wagons and morale-broken units have no facing: free, nothing changes.
        return legal("face", ["6.2.3" if p.arm is Arm.ARTILLERY else "6.1"],
                     results=[result("no_facing", "6.1", uid, mp=0)]), acted(state)
    if p.arm is Arm.ARTILLERY:
        check(fc.artillery_face_error(u))
        return _turned(state, uid, "face", ["6.2.3"], 0, facing=new_facing, fired=True)
    if u.formation == HEDGEHOG:
        refuse("6.3.2", "hedgehog_faces_all_round",
                                      "a Hedgehog has no flanks and no rear: it does not change facing")
    cost = fc.face_cost(p, u, new_facing)
    if cost is None:
        refuse("6.2.1", "must_wheel",
                                      "a two-hex unit in line changes facing only by wheeling forward "
                                      "(or counter-marching)")
    check(mp_error(state, uid, cost, "6.2.1"))
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


@VERBS.verb("wheel", steps=(ACTIVATION,), rules=("6.2.1",), refs={"unit": "unit"})
def wheel(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    require_actor(state, event["unit"])
    uid = event["unit"]
    p, u = state.profile(uid), state.unit(uid)
    if p.size != 2 or u.formation in (COLUMN, HEDGEHOG) or not has_facing(p, u):
        refuse("6.2.1", "not_a_two_hex_line", "only a two-hex unit in line wheels; other units use face")
    w = fc.wheel(state.static.grid, u.hex, u.facing, event["facing"])
    if not isinstance(w, fc.Wheel):
        check(w)
    if w.entered in enemy_hexes(state, p.side):
        refuse("6.2.1", "enemy_occupied", f"{w.entered} holds an enemy unit")
    cost = fc.wheel_cost(state.static.terrain, w, p.arm.value)
    if cost is None:
        refuse("6.2.1", "prohibited_terrain", f"{w.entered} is prohibited terrain")
    check(mp_error(state, uid, cost, "6.2.1"))
    ruling, new = _turned(state, uid, "wheel", ["6.2.1"], cost, hex=w.left, facing=w.facing)
    extra = result("wheeled", "6.2.1", uid, pivot=w.pivot, entered=w.entered)
    return replace(ruling, results=ruling.results + (extra,)), new


@VERBS.verb("counter_march", steps=(ACTIVATION,), rules=("6.2.2",), refs={"unit": "unit"})
def counter_march(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    require_actor(state, event["unit"])
    uid = event["unit"]
    p, u = state.profile(uid), state.unit(uid)
    if not has_facing(p, u):
        # As for face: turning a piece without facing is free and changes nothing ([6.1], 6.2.3).
        return legal("counter_march", ["6.1"], results=[result("no_facing", "6.1", uid, mp=0)]), acted(state)
    if p.arm is Arm.ARTILLERY:
        refuse("6.2.3", "artillery_turns_instead_of_firing",
                                               "unlimbered artillery changes facing only instead of firing "
                                               "(a face event)")
    if u.formation == HEDGEHOG:
        refuse("6.3.2", "hedgehog_faces_all_round", "a Hedgehog has no flanks and no rear")
    check(mp_error(state, uid, fc.COUNTER_MARCH_MP, "6.2.2"))
    hex_, f = fc.counter_march(state.static.grid, p, u)
    return _turned(state, uid, "counter_march", ["6.2.2"], fc.COUNTER_MARCH_MP, hex=hex_, facing=f)


def _turners(state: MPState):
    st = state.static
    for uid in st.wing_units.get(state.active.wing, ()):
        u, p = state.unit(uid), state.profile(uid)
        if u.on_map and has_facing(p, u):
            yield uid, u


@VERBS.candidates("face")
def _faces(state: MPState):
    side, hours = state.active.side, state.static.grid.vertex_hours
    return [{"type": "face", "side": side, "unit": uid, "facing": f}
            for uid, u in _turners(state) for f in hours if f != u.facing]


@VERBS.candidates("wheel")
def _wheels(state: MPState):
    return [{"type": "wheel", "side": state.active.side, "unit": uid, "facing": add_hours(u.facing, d)}
            for uid, u in _turners(state) for d in (-2, 2)]


@VERBS.candidates("counter_march")
def _counter_marches(state: MPState):
    return [{"type": "counter_march", "side": state.active.side, "unit": uid} for uid, _ in _turners(state)]
