"""Movement points in an activation: the allowance in force (6.3.x) less what the unit has spent."""
from __future__ import annotations

from referee.engine.ruling import Error

from .formations import movement_allowance
from .state import MPState


def mp_left(state: MPState, uid: str) -> int:
    return movement_allowance(state.profile(uid), state.unit(uid), state.static.options) - state.unit(uid).mp_spent


def mp_error(state: MPState, uid: str, cost: int, rule: str) -> Error | None:
    left = mp_left(state, uid)
    if cost > left:
        return Error(rule, "not_enough_mp", f"costs {cost} MP; {max(0, left)} left")
    return None
