"""The protocol a ruleset plugin implements.  The engine calls nothing else.

A ruleset is found through the entry-point group ``referee.rulesets`` (see :mod:`referee.engine.registry`),
so a third party can ship one.  Its state type is opaque to the engine; it must be immutable, because the
engine keeps the state from before an event and relies on an illegal event changing nothing.

One optional attribute is not part of the checked protocol (a plugin without it meets the protocol as before):
``rulings_are_new = True`` says that every ruling ``rule`` returns was made by that call and is held by nothing
else, so the engine writes the event's log index and type into it instead of copying it — one Ruling object per
event, not two.  A ruleset that may return a ruling it keeps (a constant, a memo) leaves it out: the engine then
copies each ruling (``Ruling.with_index``), as it always has.

Another: ``references_of(scenario)`` returns a one-argument function ``event -> check_references(scenario,
event)`` (the same answers) with whatever the ruleset looks up per scenario looked up once; the log reader uses
it for its loop over a log's events when the ruleset has it, and ``check_references`` otherwise.

And ``dice``: the names of the dice the rules roll (``("d6",)``, ``("2d6",)``; referee.engine.dice), so that the
engine's ``roll`` event takes every total they show; without it a roll is a d10's, 0–9 (DESIGN §5).  Each
roll a ruling lists names its own die (``Roll.die``), which the chance, the text report and the page read.

And ``start_at(scenario, turn, phase)``: the scenario's ``start`` (DESIGN §4: ``{turn, phase, ...}``) for turn
number ``turn`` and the phase a turn track shows, named as ``progress`` names it, with one sentence saying what
beginning there takes as done that a track cannot show; None when the ruleset cannot begin at that phase.  The
VASSAL readers use it for the turn tracker a save holds (``referee check --from SAVE.vsav``); without it a game
from a save is ruled from the scenario's own start.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence, TypeVar, runtime_checkable

from referee.engine.dice import EventDice
from referee.engine.ruling import Ruling

S = TypeVar("S")


@runtime_checkable
class Ruleset(Protocol[S]):
    #: the plugin id scenarios name in ``ruleset:`` (e.g. ``triumph-and-glory``)
    id: str
    #: human name for reports
    name: str

    def event_schema(self) -> Mapping[str, Any]:
        """JSON Schema (draft 2020-12) of the events this ruleset accepts (without the engine's ``roll``)."""

    def check_references(self, scenario: Any, event: Mapping[str, Any]) -> Sequence[tuple[str, str]]:
        """Input problems of one schema-valid event against the scenario: ``(field, message)`` pairs for
        units, hexes, sides, markers that do not exist.  These make the log bad input, not illegal moves."""

    def check_scenario(self, scenario: Any) -> Sequence[str]:
        """Input problems of the scenario as this ruleset reads it (options with values it does not know), one
        sentence each; the log reader reports them with the events' problems.  Optional for a plugin: the
        reader treats a ruleset without it as finding none."""

    def initial_state(self, scenario: Any) -> S:
        """The state before the first event (turn and phase from the scenario's ``start``)."""

    def rule(self, state: S, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, S]:
        """Rule on one event.  Illegal → the same ``state`` back.  If a roll the event needs is owed
        (``dice.roll`` returned None) the ruling lists it with ``natural`` null and the state is unchanged:
        the engine completes the event when the roll arrives and rules on it again."""

    def view(self, state: S, side: str | None) -> dict[str, Any]:
        """What ``side`` may see (None = the referee's full view), JSON-able.  Hidden information stays
        hidden (T&G 5.23: the opponent's orders until the first activation of that group)."""

    def legal_actions(self, state: S) -> list[dict[str, Any]]:
        """Every event that is legal now, without rolls (the dice fill them).  Finite and exhaustive for the
        decisions it lists; an empty list means the game is over."""

    def progress(self, state: S) -> tuple[str, str]:
        """(turn label, phase label) for reports: where in the sequence of play the state is."""

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
