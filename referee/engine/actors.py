"""Whose act an event is: the engine's check that a side, named by its token, acts only for itself.

In a hosted game the service knows who submitted each event (the token's side, never a field of the event)
and rules on it with :func:`step`.  For every event, before the ruleset sees it:

1. ``side``, when the event has one, must be the submitter (the service answers 403 before ruling; the
   engine refuses it too, so no caller can skip it);
2. every side named in ``rolls`` must be the submitter (a side rolls its own dice);
3. the act must be the submitter's to make now.  The engine asks the ruleset's hook
   ``actor(state, event) -> side | None``: the owner of the units named, the side whose activation, phase
   or owed act it is; ``None`` for an act either side may make (the draw from the cup).  A ``roll`` event,
   the engine's own, belongs to whoever owes the roll it pays.

An act that is the other side's is an **illegal ruling that changes nothing** (code ``not_your_act``), stored
like every other ruling: the record shows the attempt and the game goes on.  A ruleset without the hook
cannot say whose act anything is, so the engine treats every event of it as nobody's (``no_actor_hook``) and
the service refuses to host its games; ``referee check`` of a log, which has no submitters, is unaffected.

The check is the engine's, not each verb's: a ruleset cannot forget it for one event type.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from referee.engine.replay import ROLL, Game, step as rule_step
from referee.engine.ruling import Error, Ruling, illegal

#: what a ruleset's hook returns for an act whose named units belong to both sides: nobody's alone
BOTH_SIDES = "(both sides)"
#: the rule cited by the errors of this module: a hosted game's token plays one side (docs/service.md)
RULE = "token"

S_ = TypeVar("S_")

Actor = Callable[[Any, Mapping[str, Any]], "str | None"]


class NoActorHook(LookupError):
    """The ruleset does not say whose act an event is, so its games cannot be hosted."""


def hook(ruleset: Any) -> Actor:
    """The ruleset's ``actor`` hook; :class:`NoActorHook` when it has none."""
    actor = getattr(ruleset, "actor", None)
    if not callable(actor):
        raise NoActorHook(f"ruleset '{getattr(ruleset, 'id', '?')}' has no actor hook (referee.engine.actors): "
                          "it cannot say whose act an event is, so its games cannot be hosted")
    return actor


def hostable(ruleset: Any) -> bool:
    return callable(getattr(ruleset, "actor", None))


def owner(game: Game[Any], event: Mapping[str, Any], submitter: str | None = None) -> str | None:
    """Whose act ``event`` is in ``game``: the ruleset's answer, or, for a ``roll``, the side that owes the
    roll it pays (a side pays its own roll first when it owes one).  Raises :class:`NoActorHook`."""
    actor = hook(game.ruleset)
    if event.get("type") != ROLL:
        return actor(game.state, event)
    pending = game.pending
    if pending is None:
        return None                                  # nothing is owed: the engine rules it illegal itself
    named = event.get("side") or submitter
    slot = next((s for s, _ in pending.owed if named is not None and s.endswith("." + named)), pending.owed[0][0])
    if slot.startswith("rolls."):
        return slot.split(".", 1)[1]
    return actor(game.state, pending.event) or pending.event.get("side")


def refusal(game: Game[Any], event: Mapping[str, Any], submitter: str) -> Error | None:
    """Why ``submitter`` may not make this act now, or None when it may."""
    named = event.get("side")
    if named is not None and named != submitter:
        return Error(RULE, "wrong_side", f"this token plays {submitter}, not {named}")
    rolls = event.get("rolls")
    if isinstance(rolls, Mapping):
        other = next((s for s in rolls if s != submitter), None)
        if other is not None:
            return Error(RULE, "not_your_roll", f"{submitter} cannot roll {other}'s die")
    try:
        side = owner(game, event, submitter)
    except NoActorHook as exc:
        return Error(RULE, "no_actor_hook", str(exc))
    if side is not None and side != submitter:
        what = "a roll" if event.get("type") == ROLL else "an act"
        who = "units of both sides" if side == BOTH_SIDES else side
        return Error(RULE, "not_your_act", f"this is {what} of {who}, and this token plays {submitter}")
    return None


def step(game: Game[S_], index: int, event: Mapping[str, Any],
         submitter: str | None) -> tuple[Ruling, Game[S_], dict[str, Any]]:
    """:func:`referee.engine.replay.step`, as the act of ``submitter``.  ``submitter`` None: a log checked as
    a whole (``referee check``), where nobody submitted anything and nothing is checked here."""
    if submitter is not None:
        bad = refusal(game, event, submitter)
        if bad is not None:
            return illegal(str(event.get("type", "?")), [bad]).with_index(index), game, dict(event)
        if event.get("type") == ROLL and "side" not in event:
            # The engine pays the submitter's own owed roll first (it would pay the first owed otherwise).
            event = {**event, "side": submitter}
    return rule_step(game, index, event)

