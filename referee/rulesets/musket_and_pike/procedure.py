"""The decision pending in a game of Musket & Pike, as a step: the secret Open Order choice before play
(6.3.3), drawing the next wing (G-M1), or the activation of one wing by its side (G-M1), until the last turn
is over.  The dispatcher (``referee.engine.procedure``) refuses an event whose verb is not allowed in the step,
or whose side may not act in it, with the errors given here."""
from __future__ import annotations

from referee.engine.procedure import OVER, Step
from referee.engine.ruling import Error

from .state import MPState
from .verbs import ACTIVATION, DRAW, OPEN_ORDER


def step(state: MPState) -> Step:
    st = state.static
    if state.over:
        return Step(OVER, "the game is over", rule="G-M1")
    if state.open_order_choices is not None:
        waiting = tuple(s for s in st.sides if s not in state.open_order_choices)
        return Step(OPEN_ORDER, "both sides choose their Open Order units, secretly", waiting, "6.3.3",
                    refusal=Error("6.3.3", "open_order_pending", "both sides choose their Open Order units before play"),
                    wrong_side=Error("6.3.3", "already_chosen", "{side} has already chosen"))
    if state.active is None:
        return Step(DRAW, "draw the next wing to activate", st.sides, "G-M1",
                    refusal=Error("G-M1", "no_activation", "no wing is being activated"))
    a = state.active
    return Step(ACTIVATION, f"{a.side}: act with {a.wing}, or end its activation", (a.side,), "G-M1",
                refusal=Error("G-M1", "activation_in_progress", f"{a.wing} is still being activated; end it first"),
                wrong_side=Error("G-M1", "not_your_activation", f"{a.wing} of {a.side} is being activated"))
