"""The procedure the engine owns: the pending decision, the dispatcher and its common guards, legal actions.

A ruleset built on the framework says, for any state, which decision is pending — a :class:`Step`, like a
Rally the Troops state with its ``prompt()``: the step's name, who must act, what to tell them, and the errors for
an act out of turn.  The verbs (:mod:`referee.engine.verbs`) say in which steps they are allowed.  Everything
common is then done here, once, for every ruleset:

1. the game is over → ``game_over``;
2. the event's type has no verb → ``unknown_event`` (the log reader's schema normally refuses it first);
3. the ruleset's own guards, which hold for every verb (``guards``: each ``(state, event) -> Error | None``,
   e.g. an unknown side);
4. the step refuses the act outright (its ``refusals``: acts that must wait until the owed ones are done) →
   that error; the verb is not allowed in the current step → the verb's ``not_now`` error, else the step's
   ``refusal``;
5. the event's ``side`` may not act now → the step's ``wrong_side`` error;
6. the verb rules; a refusal (:class:`~referee.engine.verbs.Illegal`, or an illegal ruling it returns) leaves
   the state as it was; a roll it cannot do without (:class:`RollOwed`, or a ruling that owes one) is listed
   as owed and nothing changes — the replay engine then waits for ``{"type": "roll"}`` events and rules on
   the completed event again;
7. after a legal, complete ruling, the ruleset's ``after`` hook runs what follows by itself (phases that end
   when nothing is left to do), its results joining the ruling; every ruling of a verb then passes through
   the ruleset's ``finish`` hook (e.g. citing every rule that decided it).

Legal actions are generic: the candidates every allowed verb lists, kept when the dispatcher rules them legal,
so the list can never disagree with the rulings (a verb whose candidates are declared ``ruled`` has kept only
those its own rules accept: they are listed as they are).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Sequence

from referee.engine.dice import EventDice
from referee.engine.references import check as check_names
from referee.engine.ruling import Error, Roll, Ruling, illegal, legal
from referee.engine.verbs import Illegal, Verbs

OVER = "over"


def _package_file(package: str, name: str) -> str:
    """The text of a file shipped in ``package``: read from its folder, or through importlib.resources for a
    package that is not on the file system (importlib.resources, slow to import, only then)."""
    where = getattr(sys.modules.get(package), "__file__", None)
    if where:
        try:
            with open(os.path.join(os.path.dirname(where), name), encoding="utf-8") as f:
                return f.read()
        except OSError:
            pass
    from importlib import resources
    return resources.files(package).joinpath(name).read_text("utf-8")


class Step(NamedTuple):
    """The decision pending in a game: the current step, who must act, and what may be done.

    ``actors`` are the sides that may send an event now (empty when the game is over).  ``refusal`` is the
    error an event gets whose verb is not allowed in this step; ``wrong_side`` the error for a side that may
    not act (``{side}`` in its message is filled with the sender).  ``rule`` is the rule that says who acts.
    ``refusals``: acts this step refuses whatever steps their verbs allow, by event type — an owed act holds
    up these (a retreat owed: no unit moves until it is done), each refused with the rule that makes it wait.

    A named tuple rather than a frozen dataclass: the dispatcher asks for the step at every event, and the
    dataclass's ``__init__`` (one ``object.__setattr__`` per field) costs many times as much.
    """
    name: str
    prompt: str
    actors: tuple[str, ...] = ()
    rule: str = ""
    refusal: Error | None = None
    wrong_side: Error | None = None
    refusals: Mapping[str, Error] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.name, "prompt": self.prompt, "actors": list(self.actors), "rule": self.rule}


class RollOwed(Exception):
    """A verb cannot go on without a roll the players have not sent yet (``dice: players``)."""

    def __init__(self, roll: Roll, rules: tuple[str, ...] = ()) -> None:
        super().__init__(roll.purpose)
        self.roll = roll
        self.rules = rules


def need(dice: EventDice, slot: str, owed: Roll, rules: Iterable[str] = (), die: str | None = None,
         purpose: str | None = None) -> int:
    """The natural roll in ``slot`` (the event's, or the referee's), or stop the verb with the roll owed.

    ``owed`` is the roll as the ruling lists it while its ``natural`` is unknown (target, modifiers...), and
    its ``die`` is the die rolled unless ``die`` names another; ``purpose`` names the roll in the owed list when
    it is not ``owed.purpose``."""
    value = dice.roll(slot, owed.purpose if purpose is None else purpose, die=die or owed.die)
    if value is None:
        raise RollOwed(owed, tuple(rules))
    return value


StepOf = Callable[[Any], Step]
#: A check that holds for every verb of a ruleset: the error that refuses the event, or None.
Guard = Callable[[Any, Mapping[str, Any]], "Error | None"]
#: What follows a legal, complete ruling by itself: (ruling, new state) -> (ruling with its results, state).
After = Callable[[Ruling, Any], tuple[Ruling, Any]]
#: The last touch on every ruling a verb made (legal, illegal or owing a roll).
Finish = Callable[[Ruling], Ruling]


def dispatch(verbs: Verbs, step_of: StepOf, state: Any, event: Mapping[str, Any], dice: EventDice, *,
             guards: Sequence[Guard] = (), after: After | None = None,
             finish: Finish | None = None) -> tuple[Ruling, Any]:
    """Rule on one event with the common guards; illegal or owing a roll → the same state back."""
    type_ = event.get("type", "?")
    step = step_of(state)
    if step.name == OVER:
        return illegal(type_, [Error(step.rule or "end", "game_over", "the game is over")]), state
    verb = verbs.get(type_)
    if verb is None:
        return illegal(type_, [Error(step.rule or "events", "unknown_event",
                                     f"no event '{type_}' in these rules")]), state
    for guard in guards:
        bad = guard(state, event)
        if bad is not None:
            return illegal(type_, [bad]), state
    if step.refusals is not None and type_ in step.refusals:
        return illegal(type_, [step.refusals[type_]]), state
    if verb.steps is not None and step.name not in verb.steps:        # Verb.allowed_in, inlined: every event
        why = verb.not_now or step.refusal or Error(step.rule, "not_now", f"{type_} is not allowed now: {step.prompt}")
        return illegal(type_, [why]), state
    side = event.get("side")
    if verb.actor and side is not None and step.actors and side not in step.actors:
        bad = step.wrong_side or Error(step.rule, "wrong_side", "{side} may not act now")
        return illegal(type_, [Error(bad.rule, bad.code, bad.message.replace("{side}", str(side)),
                                     bad.alternatives)]), state
    try:
        ruling, new = verb.handler(state, event, dice)
    except Illegal as refused:
        ruling, new = illegal(type_, refused.errors, refused.rules), state
    except RollOwed as owed:
        ruling, new = legal(type_, owed.rules or verb.rules, rolls=[owed.roll]), state
    else:
        if not ruling.legal or ruling.owes_roll:
            new = state                              # nothing changes until the act is legal and complete
        elif after is not None:
            ruling, new = after(ruling, new)
    return (ruling if finish is None else finish(ruling)), new


class _ProbeDice(EventDice):
    """Dice for trying a candidate: every roll is owed, so nothing is rolled and nothing is consumed."""

    def __init__(self, event: Mapping[str, Any]) -> None:
        super().__init__(event, None, 0)


def legal_actions(verbs: Verbs, step_of: StepOf, state: Any, guards: Sequence[Guard] = ()) -> list[dict[str, Any]]:
    """Every candidate of every verb allowed now that the dispatcher rules legal (rolls left to the dice), in
    the verbs' declaration order; the candidates of a verb declared ``ruled`` as its function lists them, unless
    the step holds the verb up (its ``refusals``)."""
    step = step_of(state)
    if step.name == OVER:
        return []
    held = step.refusals or ()
    out: list[dict[str, Any]] = []
    for verb in verbs.allowed(step.name):
        if verb.candidates is None:
            continue
        if verb.ruled:
            if verb.type in held:
                continue
            out += verb.candidates(state)
            continue
        out += [event for event in verb.candidates(state) if accepts(verbs, step_of, state, event, guards)]
    return out


def accepts(verbs: Verbs, step_of: StepOf, state: Any, event: Mapping[str, Any], guards: Sequence[Guard] = ()) -> bool:
    """Whether the dispatcher rules ``event`` legal now, its rolls left owed (nothing is rolled)."""
    return dispatch(verbs, step_of, state, event, _ProbeDice(event), guards=guards)[0].legal


class ProcedureRuleset:
    """The :class:`referee.engine.ruleset.Ruleset` protocol, implemented once from a ruleset's parts.

    A ruleset on the framework gives its id and name, its verbs, its ``step`` function (the pending decision),
    its names (:class:`referee.engine.references.Names` per scenario), its event schema, initial state, view
    and progress label.  The engine's replay calls only the protocol, so rulesets that implement it directly
    (Triumph & Glory today) and rulesets built here run side by side.
    """
    id: str = ""
    name: str = ""
    verbs: Verbs
    #: the dispatcher's hooks (see :func:`dispatch`): checks for every verb, what follows a complete ruling,
    #: the last touch on every ruling.  Give functions as ``staticmethod``\ s.
    guards: Sequence[Guard] = ()
    after: After | None = None
    finish: Finish | None = None
    #: the dice the rules roll (referee.engine.dice names: "d10" reads 0–9, "d6", "2d6", "d10:1-10", "d100"):
    #: the ``roll`` event a log may carry takes every total they show
    dice: tuple[str, ...] = ("d10",)

    # --- what a ruleset on the framework supplies -------------------------------------------------------
    def step(self, state: Any) -> Step:
        raise NotImplementedError

    def build_names(self, scenario: Any) -> Any:
        """The names an event may use in ``scenario`` (:class:`referee.engine.references.Names`)."""
        raise NotImplementedError

    # --- given by the framework ------------------------------------------------------------------------
    def names(self, scenario: Any) -> Any:
        """:meth:`build_names`, once per scenario (kept for the last 32; keyed by identity, checked by it)."""
        cache = self.__dict__.get("_names_cache")
        if cache is None:
            cache = self.__dict__["_names_cache"] = {}
        hit = cache.get(id(scenario))
        if hit is not None and hit[0] is scenario:
            return hit[1]
        names = self.build_names(scenario)
        if len(cache) > 32:
            cache.clear()
        cache[id(scenario)] = (scenario, names)
        return names

    def event_schema(self) -> Mapping[str, Any]:
        """The ``events.schema.json`` shipped beside the ruleset's package, read once."""
        schema = self.__dict__.get("_event_schema")
        if schema is None:
            package = sys.modules[type(self).__module__].__package__      # the ruleset's own package
            schema = self.__dict__["_event_schema"] = json.loads(_package_file(package, "events.schema.json"))
        return schema

    # --- the protocol ----------------------------------------------------------------------------------
    def rule(self, state: Any, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, Any]:
        return dispatch(self.verbs, self.step, state, event, dice, guards=self.guards, after=self.after,
                        finish=self.finish)

    def legal_actions(self, state: Any) -> list[dict[str, Any]]:
        return legal_actions(self.verbs, self.step, state, self.guards)

    def is_over(self, state: Any) -> bool:
        return self.step(state).name == OVER

    def decision(self, state: Any) -> dict[str, Any]:
        """The pending decision as data: the step, who must act, the prompt, and the verbs it offers."""
        step = self.step(state)
        if step.name == OVER:
            return {**step.to_dict(), "verbs": []}
        held = step.refusals or {}
        return {**step.to_dict(), "verbs": [v.type for v in self.verbs.allowed(step.name) if v.type not in held]}

    def check_references(self, scenario: Any, event: Mapping[str, Any]) -> list[tuple[str, str]]:
        verb = self.verbs.get(event.get("type"))
        return check_names(self.names(scenario), event, verb.refs if verb else {})

    def references_of(self, scenario: Any) -> Callable[[Mapping[str, Any]], list[tuple[str, str]]]:
        """``check_references`` bound to ``scenario``, its names looked up once (the log reader's loop over a
        log's events, referee.engine.ruleset)."""
        names, verb_of = self.names(scenario), self.verbs.get

        def references(event: Mapping[str, Any]) -> list[tuple[str, str]]:
            verb = verb_of(event.get("type"))                        # type: ignore[arg-type]
            return check_names(names, event, verb.refs if verb else {})
        return references
