"""When a side may act: the guards several verbs share, written once.

* :func:`two_sided_turn` — whose turn it is in a two-sided phase (Reserve Activation, CinC Movement: 4.0, 5.51),
  the one computation the pending step (``procedure.step``) and the verbs of those phases (``reserve``,
  ``cinc_move``, ``end_phase``) all use; :func:`turn_error` is their refusal, each verb naming its own rule.
* :func:`activation_error` — fire, shock, charges and rallies happen in the side's own activation (3.0 C, 5.53,
  Schevardino side turns).

* :func:`activation_of` — the activation in progress, for a verb whose checks have already found one (it
  refuses, 3.0, if there is none, rather than asserting).

Pure questions about the state; they import nothing but the records.
"""
from __future__ import annotations

from referee.engine.ruling import Error
from referee.engine.verbs import refuse

from .state import ACTIVATION, RESERVE, SIDE_TURN, Activation, TGState, TwoSided


def two_sided_turn(ts: TwoSided | None) -> str | None:
    """The side whose turn it is in a two-sided phase: the first in the go-first order not done yet (None
    before ``go_first`` and once both are done)."""
    if ts is None or ts.order is None:
        return None
    return ts.current


def turn_error(state: TGState, side: str, *, first: tuple[str, str], turn: tuple[str, str]) -> Error | None:
    """``side`` may act now in a two-sided phase, else why not: who goes first is not decided yet (``first``:
    its rule and message), or it is the other side's turn (``turn``: its rule and what the turn is of, e.g.
    "reserve activation")."""
    ts = state.two_sided
    if ts is None or ts.order is None:
        return Error(first[0], "go_first_first", first[1])
    current = two_sided_turn(ts)
    if current != side:
        return Error(turn[0], "not_your_turn", f"it is {current}'s {turn[1]}")
    return None


def activation_error(state: TGState, side: str, rule: str = "3.0") -> Error | None:
    """Fire and shock happen in the side's own activation (3.0 C, 5.53, Schevardino side turns)."""
    act = state.activation
    if state.phase not in (ACTIVATION, RESERVE, SIDE_TURN) or act is None:
        return Error(rule, "no_activation", "fire and shock happen during an activation")
    if act.side != side:
        return Error(rule, "not_your_activation", f"the activation is {act.side}'s")
    return None


def activation_of(state: TGState) -> Activation:
    """The activation in progress; the verb is refused (3.0) when there is none."""
    act = state.activation
    if act is None:
        refuse("3.0", "no_activation", "no activation is in progress")
    return act
