"""Replaying a log: one ruling per event, in order, and the state at the end.

The engine's own concern is the roll protocol (DESIGN §5): an event whose roll is missing is ruled with the
roll owed; it waits (``Pending``) until ``{"type": "roll", "roll": N}`` events pay every owed roll, and is then
ruled on again, complete — that ruling is the one the ``roll`` event gets.  Everything game-specific is the
ruleset's.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
import gc
import _thread
from contextlib import contextmanager
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, TypeVar

from referee.engine.dice import EventDice, commitment, die, set_slot
from referee.engine.ruleset import Ruleset
from referee.engine.ruling import Awaiting, Error, Ruling, illegal, legal

S = TypeVar("S")

ROLL = "roll"          # the engine's event type that pays an owed roll
UNREADABLE = "unreadable"   # a line a log reader could not read (step, line, why): ruled, changes nothing
GC_THRESHOLD = 50_000  # allocations between young-generation collections during a replay (default 700)


@dataclass(frozen=True)
class Pending:
    """An event waiting for rolls: its log index, the event with the rolls paid so far, the owed slots."""
    index: int
    event: Mapping[str, Any]
    owed: tuple[tuple[str, str], ...]          # (slot, purpose)
    awaiting: Mapping[str, Awaiting] = field(default_factory=dict)   # slot -> what the ruling said it awaits
    dies: Mapping[str, str] = field(default_factory=dict)           # slot -> die, where it is not a d10


@dataclass(frozen=True)
class Game(Generic[S]):
    """The engine's state: the ruleset's state plus what the roll protocol needs."""
    ruleset: Ruleset[S]
    state: S
    dice: str = "players"                       # "players" | "referee"
    seed: str | None = None
    rolls_used: int = 0                         # referee rolls consumed so far (the next roll's index)
    pending: Pending | None = None
    last: Ruling | None = None                  # the last legal, complete ruling (why a roll sent now is not owed)

    @property
    def commitment(self) -> str | None:
        return commitment(self.seed) if self.seed is not None else None


def new_game(ruleset: Ruleset[S], scenario: Any, dice: str = "players", seed: str | None = None) -> Game[S]:
    if dice == "referee" and seed is None:
        import secrets                          # only here: it imports hmac, hashlib and OpenSSL
        seed = secrets.token_hex(16)            # a fresh secret; revealed in the final state
    return Game(ruleset=ruleset, state=ruleset.initial_state(scenario), dice=dice,
                seed=seed if dice == "referee" else None)


# --------------------------------------------------------------------------------- whose act an event is
# In a hosted game the service knows who submitted each event (the token's side, never a field of the event).
# For every event so submitted, before the ruleset sees it (docs/architecture.md, referee.engine.actors):
# ``side``, when the event has one, must be the submitter; every side named in ``rolls`` must be the
# submitter; and the act must be the submitter's to make now, as the ruleset's ``actor(state, event)`` hook
# says (a ``roll`` belongs to whoever owes the roll it pays).  An act that is the other side's is an illegal
# ruling that changes nothing (``not_your_act``).  The check is here, in the one function every event of every
# ruleset goes through, so no ruleset can skip it for one event type.

#: what a ruleset's hook returns for an act whose named units belong to both sides: nobody's alone
BOTH_SIDES = "(both sides)"
#: the rule cited by these errors: a hosted game's token plays one side (docs/service.md)
RULE = "token"

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


def step(game: Game[S], index: int, event: Mapping[str, Any],
         submitter: str | None = None) -> tuple[Ruling, Game[S], dict[str, Any]]:
    """Rule on one event.  Returns the ruling, the new game and the event as played (referee rolls filled).

    ``submitter``: the side whose token sent the event in a hosted game; its act is checked first (above).
    None: a log checked as a whole (``referee check``), where nobody submitted anything."""
    type_ = event.get("type", "?")
    if submitter is not None:
        bad = refusal(game, event, submitter)
        if bad is not None:
            return illegal(str(type_), [bad]).with_index(index), game, dict(event)
        if type_ == ROLL and "side" not in event:
            # The engine pays the submitter's own owed roll first (it would pay the first owed otherwise).
            event = {**event, "side": submitter}
    if type_ == ROLL:
        return _pay_roll(game, index, event)
    if type_ == UNREADABLE:
        where = f"step {event['step']}: " if "step" in event else ""
        return (illegal(UNREADABLE, [Error("log", UNREADABLE, f"{where}cannot read {event.get('line', '')!r}: "
                                           f"{event.get('why', '')}")]).with_index(index), game, dict(event))
    if game.pending is not None:
        p = game.pending
        owed = ", ".join(purpose for _, purpose in p.owed)
        return (illegal(type_, [Error(
            "roll", "roll_owed", f"event {p.index} ({p.event.get('type')}) still owes a roll ({owed}); "
            "send {\"type\": \"roll\", \"roll\": N} first")]).with_index(index), game, dict(event))
    return _rule(game, index, event, type_)


def _rule(game: Game[S], index: int, event: Mapping[str, Any], type_: str,
          pending_index: int | None = None) -> tuple[Ruling, Game[S], dict[str, Any]]:
    dice = EventDice(event, game.seed if game.dice == "referee" else None, game.rolls_used)
    ruling, new_state = game.ruleset.rule(game.state, event, dice)
    if getattr(game.ruleset, "rulings_are_new", False):    # a new ruling nobody else holds (engine.ruleset)
        d = ruling.__dict__                                 # given the index in place: one Ruling per event
        d["index"] = index
        if type_:
            d["type"] = type_
    else:
        ruling = ruling.with_index(index, type_)            # a ruling the ruleset may share: copied
    if not ruling.legal:
        return ruling, game, dict(event)
    if dice.owed:
        # The rule validated the event but cannot finish without the roll: nothing changes yet.
        awaits = _awaiting_rolls(game, event, ruling, dice.owed)
        waiting = Pending(index=index if pending_index is None else pending_index, event=event,
                          owed=tuple(dice.owed), awaiting=dict(zip((s for s, _ in dice.owed), awaits)),
                          dies=dict(dice.dies))
        ruling = replace(ruling, awaiting=ruling.awaiting + awaits)
        return ruling, replace(game, pending=waiting), dict(event)
    # Built field-wise rather than by the frozen __init__ (six object.__setattr__ calls): once per event.
    new_game = object.__new__(Game)
    object.__setattr__(new_game, "__dict__", {
        "ruleset": game.ruleset, "state": new_state, "dice": game.dice, "seed": game.seed,
        "rolls_used": game.rolls_used + len(dice.drawn), "pending": None, "last": ruling})
    return ruling, new_game, dice.filled_event() if dice.drawn else dict(event)


def _pay_roll(game: Game[S], index: int, event: Mapping[str, Any]) -> tuple[Ruling, Game[S], dict[str, Any]]:
    p = game.pending
    if p is None:
        return (illegal(ROLL, [Error("roll", "no_roll_owed", "no roll is owed now" + _settled_without(game))]
                        ).with_index(index), game, dict(event))
    side = event.get("side")
    slot, purpose = next(((s, pu) for s, pu in p.owed if side is not None and s.endswith("." + side)), p.owed[0])
    d = die(p.dies.get(slot, "d10"))
    if int(event["roll"]) not in d.faces:
        return (illegal(ROLL, [Error("roll", "not_on_the_die", f"the {purpose} roll is a {d.label}: "
                                     f"{d.lowest}–{d.highest}, not {event['roll']}")]).with_index(index),
                game, dict(event))
    completed = set_slot(p.event, slot, int(event["roll"]))
    rest = tuple(o for o in p.owed if o[0] != slot)
    if rest:
        waiting = replace(p, event=completed, owed=rest)
        ruling = legal(ROLL, rules=(), awaiting=tuple(p.awaiting[s] for s, _ in rest)).with_index(index)
        return ruling, replace(game, pending=waiting), dict(event)
    ruling, new_game, _ = _rule(replace(game, pending=None), index, completed, ROLL, pending_index=p.index)
    if not ruling.legal:
        # The completed event turned out illegal (e.g. a path longer than the rolled allowance): the event
        # and its rolls are void, nothing changes, and nothing is owed any more.
        return ruling, replace(game, pending=None), dict(event)
    return ruling, new_game, dict(event)


def _settled_without(game: Game[Any]) -> str:
    """Why nothing is owed when the act just ruled needed no die: the ruleset's ``why_no_roll(ruling)`` hook
    says what its rules did instead (T&G: an artillery stack shocked alone is eliminated, 9.25), so a die
    clicked for it is explained, not just refused.  Empty without the hook or an answer."""
    hook = getattr(game.ruleset, "why_no_roll", None)
    said = hook(game.last) if callable(hook) and game.last is not None else None
    return f": {said}" if said else ""


def _awaiting_rolls(game: Game[Any], event: Mapping[str, Any], ruling: Ruling | None,
                    owed: Iterable[tuple[str, str]]) -> tuple[Awaiting, ...]:
    """What an event that owes rolls awaits: one roll per owed slot, each naming the side that rolls it — the
    slot's (``rolls.French``), else the event's ``side``, else the roll's own, else whose act the event is (the
    ruleset's ``actor`` hook): a hosted event needs no ``side``, the token says it, and the owed roll must still
    say who pays it."""
    out = []
    for slot, purpose in owed:
        roll = next((r for r in (ruling.rolls if ruling else ()) if r.purpose == purpose), None)
        if slot.startswith("rolls."):
            side = slot.split(".", 1)[1]
        else:
            side = event.get("side") or (roll.side if roll is not None else None) or _actor_side(game, event)
        rule = next((r.base_rule for r in (ruling.rolls if ruling else ()) if r.purpose == purpose and r.base_rule),
                    None) or (ruling.rules[0] if ruling and ruling.rules else purpose)
        out.append(Awaiting(type=ROLL, side=side, rule=rule, unit=event.get("unit")))
    return tuple(out)


def _actor_side(game: Game[Any], event: Mapping[str, Any]) -> str | None:
    """The one side whose act ``event`` is, by the ruleset's ``actor`` hook; None without a hook or an answer."""
    actor = getattr(game.ruleset, "actor", None)
    side = actor(game.state, event) if callable(actor) else None
    return side if isinstance(side, str) and side != BOTH_SIDES else None


@dataclass
class Replay(Generic[S]):
    """The outcome of replaying a log."""
    rulings: list[Ruling] = field(default_factory=list)
    places: list[tuple[str, str]] = field(default_factory=list)   # (turn, phase) before each event
    played: list[dict[str, Any]] = field(default_factory=list)     # events with referee rolls written in
    game: Game[S] | None = None

    @property
    def any_illegal(self) -> bool:
        return any(not r.legal for r in self.rulings)


def replay(ruleset: Ruleset[S], scenario: Any, events: Iterable[Mapping[str, Any]], dice: str = "players",
           seed: str | None = None, places: bool = True) -> Replay[S]:
    """Rule on every event of a log, in order.  Illegal events are rulings; replay always goes on.
    ``places`` records the turn and phase before each event (the text report's headings)."""
    game = new_game(ruleset, scenario, dice, seed)
    out: Replay[S] = Replay()
    for ruling, after, played in rule_each(game, events):
        if places:
            out.places.append(ruleset.progress(game.state))     # the state before the event (states are immutable)
        out.rulings.append(ruling)
        out.played.append(played)
        game = after
    out.game = game
    return out


def rule_each(game: Game[S], events: Iterable[Mapping[str, Any]]) -> Iterator[tuple[Ruling, Game[S], dict[str, Any]]]:
    """The replay loop: each event's ruling in order, with the game after it and whether it was played, so that a
    caller may write each ruling as it is made (``referee check --format json``) rather than hold them all."""
    with fewer_collections():
        for i, event in enumerate(events):
            ruling, game, played = step(game, i, event)
            yield ruling, game, played


_gc_lock = _thread.allocate_lock()         # threading.Lock, without importing threading
_gc_users = 0
_gc_saved: tuple[int, ...] = ()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Rarer young-generation collections while a log is replayed.  Each event allocates many short-lived
    objects (a Board, UnitStates, a ruling) and the default threshold (700) ran a collection every few events.  The threshold is process-wide, so replays running at once in a threaded server
    share one setting: the first to start raises it and the last to finish restores the caller's."""
    global _gc_users, _gc_saved
    with _gc_lock:
        if _gc_users == 0:
            _gc_saved = gc.get_threshold()
            gc.set_threshold(max(_gc_saved[0], GC_THRESHOLD), *_gc_saved[1:])
        _gc_users += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0:
                gc.set_threshold(*_gc_saved)


def final_state(game: Game[Any]) -> dict[str, Any]:
    """The ``state`` object of ``referee check --format json``: the ruleset's full view plus the dice."""
    body = dict(game.ruleset.view(game.state, None))
    body["dice"] = {"mode": game.dice, "rolls_used": game.rolls_used}
    if game.seed is not None:
        # The log is over: reveal the seed so anyone can re-derive every roll (DESIGN §6).
        body["dice"].update(commitment=game.commitment, seed=game.seed)
    if game.pending is not None:
        body["pending"] = {"index": game.pending.index, "type": game.pending.event.get("type"),
                           "owed": [purpose for _, purpose in game.pending.owed]}
    return body
