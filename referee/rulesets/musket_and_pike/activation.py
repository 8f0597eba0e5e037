"""Activation by wing (G-M1 engine defaults) and MP-RALLY at its start.

The excerpt says only that activations are by wing and that a player may normally pass.  Engine defaults:
each turn every wing is activated once, in the order the log's ``draw`` events give (the log records
whatever the missing 4.x decides); a turn ends when every wing has been activated; the game ends after the
scenario's last turn.  Only units of the activated wing act, and only their side sends their events.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.ruling import Error, Ruling, illegal, legal, result

from .rally import rally_forced
from .state import RALLY, Activation, MPState


def roster(state: MPState, wing: str):
    return [(state.profile(uid), state.unit(uid)) for uid in state.static.wing_units.get(wing, ())]


def draw(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    wing = event["wing"]
    if state.open_order_choices is not None:
        return illegal("draw", [Error("6.3.3", "open_order_pending",
                                      "both sides choose their Open Order units before play")]), state
    if state.active is not None:
        return illegal("draw", [Error("G-M1", "activation_in_progress",
                                      f"{state.active.wing} is still being activated; end it first")]), state
    if wing in state.activated:
        return illegal("draw", [Error("G-M1", "already_activated",
                                      f"{wing} has already been activated this turn",
                                      alternatives=tuple(_undrawn(state)))]), state
    side = state.static.wings[wing]
    if event.get("side", side) != side:
        return illegal("draw", [Error("G-M1", "wrong_side", f"{wing} belongs to {side}")]), state
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


def _undrawn(state: MPState) -> list[str]:
    return [w for w in state.static.wings if w not in state.activated]


def _side_error(state: MPState, event: Mapping[str, Any], type_: str) -> Ruling | None:
    if state.active is None:
        return illegal(type_, [Error("G-M1", "no_activation", "no wing is being activated")])
    if event.get("side", state.active.side) != state.active.side:
        return illegal(type_, [Error("G-M1", "not_your_activation",
                                     f"{state.active.wing} of {state.active.side} is being activated")])
    return None


def pass_activation(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = _side_error(state, event, "pass")
    if bad:
        return bad, state
    if state.active.rally_forced:
        return illegal("pass", [Error("MP-RALLY", "may_not_pass",
                                      "the wing was put under Rally orders at the start of this activation: "
                                      "the player may not pass")]), state
    if state.active.acted:
        return illegal("pass", [Error("G-M1", "already_acted",
                                      "the wing has already acted; end the activation instead")]), state
    return legal("pass", ["G-M1"], results=[result("passed", "G-M1", wing=state.active.wing)]), finish(state)


def end_activation(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = _side_error(state, event, "end_activation")
    if bad:
        return bad, state
    return legal("end_activation", ["G-M1"]), finish(state)


def order_change(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    """A Wing Commander's order change, before the wing acts.  How success is decided is in the missing 5.x
    (G-M2); the engine records the change as declared.  MP-RALLY forbids the attempt."""
    bad = _side_error(state, event, "order_change")
    if bad:
        return bad, state
    if state.active.rally_forced:
        return illegal("order_change", [Error("MP-RALLY", "no_order_change",
                                              "a wing forced under Rally may not attempt an order change "
                                              "in this activation")]), state
    if state.active.acted:
        return illegal("order_change", [Error("G-M2", "already_acted",
                                              "orders change at the start of the activation")]), state
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


def actor_error(state: MPState, event: Mapping[str, Any], type_: str) -> Ruling | None:
    """A unit acts only in its own wing's activation, sent by its own side."""
    bad = _side_error(state, event, type_)
    if bad:
        return bad
    uid = event["unit"]
    if uid not in state.static.profiles:
        return illegal(type_, [Error("G-M1", "not_a_unit", f"{uid} is a leader: no facing and no formation")])
    p = state.profile(uid)
    if p.wing != state.active.wing:
        return illegal(type_, [Error("G-M1", "not_in_active_wing",
                                     f"{uid} belongs to {p.wing}, not to the activated {state.active.wing}")])
    if not state.unit(uid).on_map:
        return illegal(type_, [Error("G-M1", "not_on_map", f"{uid} is not on the map")])
    return None


def acted(state: MPState) -> MPState:
    return replace(state, active=replace(state.active, acted=True))
