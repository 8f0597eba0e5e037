"""The registry of Triumph & Glory's verbs (``referee.engine.verbs``): one function per event type, declared
beside the rules it applies in the module of its rules chapter (``orders``, ``initiative``, ``activation``,
``reserve``, ``cinc``, ``moves``, ``fire_events``, ``shock_events``, ``charge_events``, ``secondary_events``,
``owed``, ``morale_events``, ``destruction``, ``phase_events``).

The steps of the procedure are the phases of 3.0 (``state``'s phase names; ``procedure.step`` says which one is
pending).  A verb declares the steps it is allowed in where the phase alone decides it; the verbs of an
activation (move, fire, shock, charge...) are declared for every step, because what refuses them outside an
activation depends on more than the phase (the unit named, the activation in progress), and they check it
themselves with the shared guards of ``timing``.

``accepted`` rules candidate events with the verbs themselves (no dice, no automatic transitions): the legal
listing keeps a candidate only if the verb that would rule on it accepts it.
"""
from __future__ import annotations

from typing import Any, Iterable

from referee.engine.dice import EventDice
from referee.engine.procedure import RollOwed
from referee.engine.verbs import Illegal, Verbs

from .state import ACTIVATION, CINC, COMMAND, INITIATIVE, MORALE, ORDERS, RESERVE, SIDE_TURN

VERBS = Verbs()

#: the steps an activation's acts happen in: an Activation Phase draw, a reserve activation, a Schevardino turn
ACTING = (ACTIVATION, RESERVE, SIDE_TURN)
__all__ = ["VERBS", "ACTING", "NO_DICE", "accepted", "ACTIVATION", "CINC", "COMMAND", "INITIATIVE", "MORALE",
           "ORDERS", "RESERVE", "SIDE_TURN"]

NO_DICE = EventDice({})          # rolls come back owed: the verb validates without rolling


def accepted(state: Any, events: Iterable[dict[str, Any]], rule: Any = None) -> list[dict[str, Any]]:
    """The events among ``events`` that their verbs (or ``rule``, one verb's own rule function) rule legal in
    ``state`` (rolls left owed: a verb that stops for its roll, ``RollOwed``, has accepted the event; one that
    refuses, ``Illegal``, has not)."""
    out = []
    for e in events:
        try:
            handler = rule if rule is not None else VERBS.get(e["type"]).handler      # type: ignore[union-attr]
            ok = handler(state, e, NO_DICE)[0].legal
        except Illegal:
            ok = False
        except RollOwed:
            ok = True
        if ok:
            out.append(e)
    return out
