"""Activation by wing (G-M1 engine defaults) and MP-RALLY at its start: the ``draw``, ``pass``,
``end_activation`` and ``order_change`` verbs.

The excerpt says only that activations are by wing and that a player may normally pass.  Engine defaults:
each turn every wing is activated once, in the order the log's ``draw`` events give (the log records
whatever the missing 4.x decides); a turn ends when every wing has been activated; the game ends after the
scenario's last turn.  Only units of the activated wing act, and only their side sends their events (the
dispatcher checks the side against the step, ``procedure``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.ruling import Error, Ruling, legal, result
from referee.engine.verbs import refuse

from .rally import rally_forced
from .state import RALLY, Activation, MPState
from .verbs import ACTIVATION, DRAW, VERBS


def roster(state: MPState, wing: str):
    return [(state.profile(uid), state.unit(uid)) for uid in state.static.wing_units.get(wing, ())]


def drawn_wing(event: Mapping[str, Any]) -> str:
    """DESIGN §5 names the drawn marker ``marker``; ``wing`` is this ruleset's older name, kept as an alias."""
    marker, wing = event.get("marker"), event.get("wing")
    if marker is not None and wing is not None and marker != wing:
        refuse("G-M1", "marker_and_wing_differ", f"marker '{marker}' and wing '{wing}' name different wings")
    return marker if marker is not None else wing


@VERBS.verb("draw", steps=(DRAW,), rules=("G-M1",), refs={"marker": "wing", "wing": "wing"})
def draw(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    wing = drawn_wing(event)
    if wing in state.activated:
        refuse("G-M1", "already_activated", f"{wing} has already been activated this turn", _undrawn(state))
    side = state.static.wings[wing]
    if event.get("side", side) != side:
        refuse("G-M1", "wrong_side", f"{wing} belongs to {side}")
    forced = rally_forced(roster(state, wing), state.static.options)
    units = dict(state.units)
    for uid in state.static.wing_units.get(wing, ()):
        # A new activation: movement points and reform actions are counted afresh.
        units[uid] = replace(units[uid], mp_spent=0, reforms=0)
    new = replace(state, units=units, active=Activation(wing=wing, side=side, rally_forced=forced))
    results = []
    rules = ["G-M1"]
    if forced:
        new = replace(new, orders={**state.orders, wing: RALLY})
        results.append(result("rally_orders", "MP-RALLY", wing=wing, order=RALLY, may_pass=False,
                              may_change_orders=False))
        rules.append("MP-RALLY")
    return legal("draw", rules, results=results), new


@VERBS.candidates("draw")
def _draws(state: MPState):
    return [{"type": "draw", "side": state.static.wings[w], "marker": w} for w in _undrawn(state)]


def _undrawn(state: MPState) -> list[str]:
    return [w for w in state.static.wings if w not in state.activated]


@VERBS.verb("pass", steps=(ACTIVATION,), rules=("G-M1",))
def pass_activation(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    if state.active.rally_forced:
        refuse("MP-RALLY", "may_not_pass", "the wing was put under Rally orders at the start of this activation: "
               "the player may not pass")
    if state.active.acted:
        refuse("G-M1", "already_acted", "the wing has already acted; end the activation instead")
    return legal("pass", ["G-M1"], results=[result("passed", "G-M1", wing=state.active.wing)]), finish(state)


@VERBS.verb("end_activation", steps=(ACTIVATION,), rules=("G-M1",))
def end_activation(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    return legal("end_activation", ["G-M1"]), finish(state)


@VERBS.candidates("end_activation")
def _ends(state: MPState):
    return [{"type": "end_activation", "side": state.active.side}]


@VERBS.candidates("pass")
def _passes(state: MPState):
    return [{"type": "pass", "side": state.active.side}]


@VERBS.verb("order_change", steps=(ACTIVATION,), rules=("G-M2",))
def order_change(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    """A Wing Commander's order change, before the wing acts.  How success is decided is in the missing 5.x
    (G-M2); the engine records the change as declared.  MP-RALLY forbids the attempt."""
    if state.active.rally_forced:
        refuse("MP-RALLY", "no_order_change", "a wing forced under Rally may not attempt an order change "
               "in this activation")
    if state.active.acted:
        refuse("G-M2", "already_acted", "orders change at the start of the activation")
    wing = state.active.wing
    new = replace(state, orders={**state.orders, wing: event["to"]},
                  active=replace(state.active, acted=True))
    return legal("order_change", ["G-M2"], results=[result("orders", "G-M2", wing=wing, order=event["to"])]), new


def finish(state: MPState) -> MPState:
    """Close the activation; a turn ends when every wing has been activated, the game after the last turn."""
    activated = state.activated | {state.active.wing}
    if activated < set(state.static.wings):
        return replace(state, active=None, activated=activated)
    if state.turn >= state.static.last_turn:
        return replace(state, active=None, activated=activated, over=True)
    return replace(state, active=None, activated=frozenset(), turn=state.turn + 1)


def require_actor(state: MPState, uid: str) -> None:
    """A unit acts only in its own wing's activation (the side was checked by the dispatcher), on the map."""
    if uid not in state.static.profiles:
        refuse("G-M1", "not_a_unit", f"{uid} is a leader: no facing and no formation")
    p = state.profile(uid)
    if p.wing != state.active.wing:
        refuse("G-M1", "not_in_active_wing", f"{uid} belongs to {p.wing}, not to the activated {state.active.wing}")
    if not state.unit(uid).on_map:
        refuse("G-M1", "not_on_map", f"{uid} is not on the map")


def active_side_error(state: MPState, event: Mapping[str, Any]) -> Error | None:
    """For verbs the dispatcher does not side-check (a unit of either side may be named): the active side."""
    if event.get("side", state.active.side) != state.active.side:
        return Error("G-M1", "not_your_activation", f"{state.active.wing} of {state.active.side} is being activated")
    return None


def acted(state: MPState) -> MPState:
    return replace(state, active=replace(state.active, acted=True))
