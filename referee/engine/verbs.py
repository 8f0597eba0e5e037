"""Verbs: one function per event type, and the registry a ruleset declares them in.

A verb reads like the rule it applies: it takes the state and the event, checks, and returns the change::

    verbs = Verbs()

    @verbs.verb("move", steps=("movement",), rules=("5.1",), refs={"unit": "unit", "path": "hexes"})
    def move(state, event, dice):
        if event["unit"] in state.moved:
            refuse("5.1", "already_moved", "a unit moves once per Movement Phase")
        ...
        return legal("move", ["5.1", "5.2"], results=[...]), new_state

Declared with it: the steps of the procedure it is allowed in (``None``: any step), the rules it applies (cited
when the ruling has nothing more precise, e.g. while its roll is owed), the fields that name things in the
scenario (the reference checks, :mod:`referee.engine.references`), whether the dispatcher checks the sending side
(``actor``), and a ``candidates`` function that lists the events it might accept now (the generic legal-action
listing keeps those the verb itself rules legal — or takes them as listed when the function says it kept only
those, ``ruled``).

A verb refuses with :func:`refuse` (or by raising :class:`Illegal` with several errors) from wherever the check
is made, so helpers that check need no ``if bad: return bad, state`` preamble; it may also return an illegal
ruling itself.  One error type, :class:`referee.engine.ruling.Error`, is used throughout.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator, Mapping, NoReturn

from referee.engine.ruling import Error, Ruling

#: A verb's signature: (state, event, dice) -> (ruling, new state).
Handler = Callable[[Any, Mapping[str, Any], Any], tuple[Ruling, Any]]
#: Lists the events a verb might accept in a state (without rolls).
Candidates = Callable[[Any], Iterable[dict[str, Any]]]


class Illegal(Exception):
    """Raised by a verb (or a check it calls) to refuse the event: the state stays as it was.  ``rules``: rules
    the refusal cites before its errors' own (e.g. the rules a movement check applied before it failed)."""

    def __init__(self, *errors: Error, rules: Iterable[str] = ()) -> None:
        if not errors:
            raise ValueError("a refusal needs at least one error")
        super().__init__("; ".join(e.message for e in errors))
        self.errors = errors
        self.rules = tuple(rules)


def refuse(rule: str, code: str, message: str, alternatives: Iterable[Any] | None = None) -> NoReturn:
    """Refuse the event being ruled on, citing the rule that forbids it."""
    raise Illegal(Error(rule, code, message, None if alternatives is None else tuple(alternatives)))


def check(error: Error | Iterable[Error] | None) -> None:
    """Refuse with ``error`` if a pure rule function returned one: rule functions return ``Error | None``, or
    the list of every error they found (refused with all of them; an empty list refuses nothing)."""
    if error is None:
        return
    if isinstance(error, Error):
        raise Illegal(error)
    errors = tuple(error)
    if errors:
        raise Illegal(*errors)


@dataclass(frozen=True)
class Verb:
    type: str
    handler: Handler
    steps: frozenset[str] | None = None          # None: allowed in every step
    rules: tuple[str, ...] = ()
    refs: Mapping[str, Any] = field(default_factory=dict)
    actor: bool = True                           # the dispatcher checks the sending side against the step's
    candidates: Candidates | None = None
    #: the candidates function keeps only events the verb accepts (it asked the verb's own rules): listed as is
    ruled: bool = False
    #: the error when the verb is not allowed now, if more precise than the step's (e.g. "chosen before play")
    not_now: Error | None = None

    def allowed_in(self, step: str) -> bool:
        return self.steps is None or step in self.steps


class Verbs:
    """The registry of a ruleset's verbs, in declaration order."""

    def __init__(self) -> None:
        self._verbs: dict[str, Verb] = {}
        self._allowed: dict[str, tuple[Verb, ...]] = {}      # step -> its verbs, cleared when one is declared
        #: the verb for an event type, or None — the registry dict's own ``get``, bound here: the dispatcher asks
        #: it at every event, and a method around it was one Python call more each time
        self.get: Callable[[str], Verb | None] = self._verbs.get

    def verb(self, type_: str, *, steps: Iterable[str] | None = None, rules: Iterable[str] = (),
             refs: Mapping[str, Any] | None = None, actor: bool = True,
             not_now: Error | None = None) -> Callable[[Handler], Handler]:
        """Declare the function below as the verb for events of ``type_``."""
        def register(handler: Handler) -> Handler:
            if type_ in self._verbs:
                raise ValueError(f"verb '{type_}' declared twice")
            self._allowed.clear()
            self._verbs[type_] = Verb(type=type_, handler=handler,
                                      steps=None if steps is None else frozenset(steps), rules=tuple(rules),
                                      refs=dict(refs or {}), actor=actor, not_now=not_now)
            return handler
        return register

    def candidates(self, type_: str, *, ruled: bool = False) -> Callable[[Candidates], Candidates]:
        """Declare the function below as the candidate list of verb ``type_`` (declared before it, possibly in
        another module: the listing may live apart from the verbs).

        ``ruled``: the function lists only events the verb accepts now — it asked the verb's own rules, or the
        predicates the verb refuses by, or a search legal by construction — so the listing takes them as they
        are instead of ruling on each again (a verb with many candidates, such as a move to every reachable
        hex, would cost the listing one ruling each).  The ruleset's tests then hold the promise: every listed
        event is ruled legal."""
        def register(fn: Candidates) -> Candidates:
            v = self._verbs[type_]
            if v.candidates is not None:
                raise ValueError(f"candidates of verb '{type_}' declared twice")
            self._allowed.clear()
            self._verbs[type_] = replace(v, candidates=fn, ruled=ruled)
            return fn
        return register

    def __iter__(self) -> Iterator[Verb]:
        return iter(self._verbs.values())

    def __contains__(self, type_: object) -> bool:
        return type_ in self._verbs

    def types(self) -> list[str]:
        return list(self._verbs)

    def allowed(self, step: str) -> tuple[Verb, ...]:
        """The verbs the procedure allows in ``step``, in declaration order (kept per step: the listing asks at
        every position)."""
        hit = self._allowed.get(step)
        if hit is None:
            hit = self._allowed[step] = tuple(v for v in self._verbs.values() if v.allowed_in(step))
        return hit
