"""The state as one side may know it (the ruleset's ``conceal`` hook, referee.engine.hidden).  The only hidden
information in these rules is the Open Order choice (6.3.3: each side picks its Open Order units secretly; all
are revealed at once when the last side has chosen): another side's pending choice is sealed, so a question
asked from ``viewer``'s seat that would read it (the last choice, which reveals them all) is refused.  Whether a
side has chosen is public (``views``: "hidden")."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.hidden import Sealed

from .state import MPState


def conceal(state: MPState, viewer: str) -> MPState:
    choices = state.open_order_choices
    if not choices:
        return state
    return replace(state, open_order_choices={
        s: (c if s == viewer else Sealed(f"{s}'s Open Order choice (6.3.3)")) for s, c in choices.items()})


def hidden_act(state: MPState, event: Mapping[str, Any]) -> str | None:
    """What another side may not see of a recorded act, now (``state``): an Open Order choice while any side has
    still to choose (6.3.3 reveals them all at once when the last side has chosen).  The rule, or None."""
    if event.get("type") == "open_order_setup" and state.open_order_choices is not None:
        return "6.3.3"
    return None
