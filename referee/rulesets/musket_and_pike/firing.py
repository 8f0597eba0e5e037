"""Fire (10.x and reaction fire 9.4 are missing chapters, G-M5/G-M6): the ``fire`` event, ruled as far as the
excerpt goes, with the fire's resolution listed as awaited.

What the excerpt says about who may fire, each beside its rule:

* 6.2.3: unlimbered artillery that changed facing instead of firing is on its Fired side and may not fire;
* 6.3.4: a unit in Column may not fire (and an attacked Column is Broken and checks morale first);
* 6.3.2a: a Hedgehog may not fire, nor artillery stacked with it;
* 12.4.3 (with 6.3.2e): a morale-broken unit has no formation; the excerpt lets it do nothing but what 12.4.3
  says, so it does not fire;
* wagons have no fire at all (§2.1 of the digest); limbered artillery fires only once unlimbered (G-M10).

``reaction: true`` is reaction fire (9.4), made in the enemy's activation by the other side, as 6.2.4 offers it.
Engine default: artillery that fires is flipped to its Fired side (6.2.3 reads "instead of firing" against
that flip).  Range, line of sight and the fire table are the missing chapter's: the ruling awaits them.
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.engine.ruling import Awaiting, Ruling, legal, result, table_roll
from referee.engine.verbs import check, refuse

from .activation import acted, active_side_error, require_actor
from .combat import columns_attacked, occupants
from .facing import footprint
from .profile import Arm
from .reforming import require_reaction
from .state import COLUMN, HEDGEHOG, MPState
from .verbs import ACTIVATION, VERBS


def fire_error_rule(state: MPState, uid: str) -> tuple[str, str, str] | None:
    """(rule, code, message) when the excerpt forbids ``uid`` to fire, else None."""
    p, u = state.profile(uid), state.unit(uid)
    if p.arm is Arm.WAGON:
        return ("6.1", "wagon_does_not_fire", f"{uid} is a wagon: it has no fire")
    if u.morale_broken:
        return ("12.4.3", "morale_broken", f"{uid} is morale-broken and may not fire")
    if u.formation == COLUMN:
        return ("6.3.4", "column_may_not_fire", f"{uid} is in Column: a unit in Column may not fire")
    if u.formation == HEDGEHOG:
        return ("6.3.2", "hedgehog_may_not_fire", f"{uid} is in Hedgehog: a Hedgehog may not fire")
    if p.arm is Arm.ARTILLERY:
        if u.limbered:
            return ("G-M10", "limbered", f"{uid} is limbered: it fires only when unlimbered")
        if u.fired:
            return ("6.2.3", "on_fired_side", f"{uid} is on its Fired side (it turned instead of firing, or has "
                    "fired): it may not fire")
        if any(o.formation == HEDGEHOG and o.hex == u.hex for oid, o in state.units.items() if oid != uid):
            return ("6.3.2", "stacked_with_hedgehog", f"{uid} is stacked with a Hedgehog and may not fire")
    return None


@VERBS.verb("fire", steps=(ACTIVATION,), rules=("10.x",), refs={"unit": "unit", "units": "units", "target": "hex"},
            actor=False)
def fire(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    """One unit (``unit``) or several (``units``, DESIGN §5's form) firing at ``target``; a ``roll`` given
    with it is shown, read on the fire table of the missing chapter (so still awaited)."""
    target = event["target"]
    firing = firing_units(event)
    if not firing:
        refuse("10.x", "no_firing_unit", "name the firing unit (unit) or units (units)")
    reaction = bool(event.get("reaction", False))
    for uid in firing:
        if uid not in state.static.profiles:
            refuse("6.1", "not_a_unit", f"{uid} is a leader")
        if reaction:
            require_reaction(state, event)
            if not state.unit(uid).on_map:
                refuse("G-M1", "not_on_map", f"{uid} is not on the map")
        else:
            check(active_side_error(state, event))
            require_actor(state, uid)
        why = fire_error_rule(state, uid)
        if why:
            refuse(*why)
    sides = {state.profile(uid).side for uid in firing}
    if len(sides) > 1:
        refuse("10.x", "mixed_sides", "the firing units belong to both sides")
    side = sides.pop()
    enemies = [o for o in occupants(state, target) if state.profile(o).side != side]
    if not enemies:
        refuse("10.x", "no_enemy_target", f"no enemy unit in {target}")
    rules = ["9.4"] if reaction else []
    new = state if reaction else acted(state)
    results = []
    for uid in firing:
        if state.profile(uid).arm is Arm.ARTILLERY:
            new = new.with_unit(uid, fired=True)
            results.append(result("fired", "6.2.3", uid))
            if "6.2.3" not in rules:
                rules.append("6.2.3")
    arms = {state.profile(uid).arm for uid in firing}
    by = "artillery" if Arm.ARTILLERY in arms else ("pistol" if arms == {Arm.CAVALRY} else "musket")
    new, broken, owed, hit = columns_attacked(new, [target], by)
    rules += ["6.3.4"] if hit else []
    awaiting = owed + [Awaiting(type="fire_resolution", side=None, unit=uid, rule="10.x") for uid in firing]
    rolls = [] if event.get("roll") is None else [
        table_roll("fire", int(event["roll"]), None, unit=firing[0], side=side)]   # its table: chapter 10
    return legal("fire", [*rules, "10.x"], rolls=rolls, results=results + broken, awaiting=awaiting), new


def firing_units(event: Mapping[str, Any]) -> list[str]:
    """The firing units named by ``unit`` and ``units`` (either form; both together name them all)."""
    named = ([event["unit"]] if isinstance(event.get("unit"), str) else []) + list(event.get("units") or ())
    return list(dict.fromkeys(named))


@VERBS.candidates("fire")
def _fires(state: MPState):
    """Fire at an adjacent enemy hex (range is the missing chapter's; adjacency is always within it)."""
    st, side = state.static, state.active.side
    out = []
    enemy_hexes = {h for oid, o in state.units.items() if o.on_map and state.profile(oid).side != side
                   for h in occupants_hexes(state, oid)}
    for uid in st.wing_units.get(state.active.wing, ()):
        u = state.unit(uid)
        if not u.on_map:
            continue
        for h in sorted(enemy_hexes):
            if any(st.grid.distance(h, mine) == 1 for mine in occupants_hexes(state, uid)):
                out.append({"type": "fire", "side": side, "unit": uid, "target": h})
    return out


def occupants_hexes(state: MPState, uid: str) -> tuple[str, ...]:
    return footprint(state.static.grid, state.profile(uid), state.unit(uid))
