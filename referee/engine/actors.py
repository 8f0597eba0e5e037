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

The check is the engine's, not each verb's: a ruleset cannot forget it for one event type.  It runs inside
:func:`referee.engine.replay.step`, the one function every event of every ruleset goes through (``submitter``
given); this module keeps the names the service and the rulesets use.
"""
from __future__ import annotations

from typing import Any, Mapping, TypeVar

from referee.engine.replay import (BOTH_SIDES, RULE, Actor, Game, NoActorHook, hook, hostable, owner, refusal,
                                   step as _step)
from referee.engine.ruling import Ruling

__all__ = ["BOTH_SIDES", "RULE", "Actor", "NoActorHook", "hook", "hostable", "owner", "refusal", "step"]

S_ = TypeVar("S_")


def step(game: Game[S_], index: int, event: Mapping[str, Any],
         submitter: str | None) -> tuple[Ruling, Game[S_], dict[str, Any]]:
    """:func:`referee.engine.replay.step` as the act of ``submitter`` (None: a log checked as a whole)."""
    return _step(game, index, event, submitter)
