"""Facings: clock hours (DESIGN §3) <-> the state of the piece's FreeRotator.

A FreeRotator with six fixed angles draws state ``i`` turned ``60*i`` degrees clockwise, and counter art
points its top edge at 12 o'clock.  The rules only allow facing a hex *vertex*:

* pointy grid: vertices at 12, 2, 4, 6, 8, 10 o'clock, so state ``i`` <-> hour ``2i`` (0 -> 12);
* flat grid: vertices at 1, 3, 5, 7, 9, 11 o'clock, 30 degrees off the art.  The engine has no angle
  offset field, so the piece gets a second, silent 12-facing rotator fixed at state 1 (30 degrees);
  rotations compose, and state ``i`` of the "Facing" rotator <-> hour ``2i + 1``.

Either way the six rotator states are exactly the six legal facings, the counter's top edge points at
the facing vertex, and the property ``Facing_Facing`` (state + 1) identifies the hour.
"""
from __future__ import annotations

from ..model import Orientation
from .traits import CTRL_CLOSE_BRACKET, CTRL_OPEN_BRACKET, Trait, rotator

FACING_ROTATOR = "Facing"          # exposes Facing_Facing (1..6) and Facing_Degrees
OFFSET_ROTATOR = "FacingOffset"    # flat grids only: the fixed 30-degree turn


def vertex_hours(orientation: Orientation) -> tuple[int, ...]:
    """The six legal facings, in rotator-state order (clockwise)."""
    return (12, 2, 4, 6, 8, 10) if orientation == "pointy" else (1, 3, 5, 7, 9, 11)


def rotator_state(orientation: Orientation, hour: int) -> int:
    hours = vertex_hours(orientation)
    if hour not in hours:
        raise ValueError(f"facing {hour} o'clock is not a hex vertex on a {orientation} grid "
                         f"(allowed: {', '.join(map(str, hours))})")
    return hours.index(hour)


def facing_hour(orientation: Orientation, state: int) -> int:
    """The clock hour a rotator state means (the inverse of :func:`rotator_state`)."""
    return vertex_hours(orientation)[state % 6]


def facing_traits(orientation: Orientation, hour: int | None) -> tuple[Trait, ...]:
    """The rotator trait(s) of a unit facing ``hour`` (``None``: the first vertex), outermost first."""
    state = 0 if hour is None else rotator_state(orientation, hour)
    facing = rotator(FACING_ROTATOR, 6, state, cw=("Rotate CW", CTRL_CLOSE_BRACKET),
                     ccw=("Rotate CCW", CTRL_OPEN_BRACKET))
    if orientation == "pointy":
        return (facing,)
    return (facing, rotator(OFFSET_ROTATOR, 12, 1))
