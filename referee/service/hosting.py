"""Hosted games: the rules of submission, on top of the engine and referee.storage (no HTTP here).

A submission is ruled on against the game's state at ``expected_index`` and stored, events and rulings
together, by one ``append_events`` transaction that only succeeds if nobody stored anything in between
(storage's guarantee).  Replaying a whole game for every submission would cost seconds at Borodino scale, so
each process keeps the engine state of recently played games keyed by (game, index); a state that is behind
(another process took submissions) catches up by replaying only the events stored since.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from referee.engine import actors, registry
from referee.engine.replay import ROLL, Game, new_game
from referee.logs.jsonlog import DICE_MODES, check_events
from referee.report import ruling_from_dict, ruling_lines, words_for
from referee.service import chain, dice, scenarios
from referee.service.commits import Committer
from referee.service.dice import game_seed
from referee.service.errors import ApiError, bad_input
from referee.storage import GameEnded, GameNotFound, NewEvent, NewGame, StaleHead, StaleIndex, Storage
from referee.storage.model import Game as StoredGame

MAX_EVENTS_PER_SUBMISSION = 500
ROLL_FIELDS = ("roll", "rolls")


@dataclass(frozen=True)
class Played:
    """The engine state of a hosted game after ``index`` events, and the head of its hash chain then."""
    index: int
    game: Game[Any]
    head: str


class StateCache:
    """An LRU of engine states, one per game; states are immutable, so sharing them between threads is safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[str, Played] = OrderedDict()

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)

    def get(self, game_id: str) -> Played | None:
        with self._lock:
            hit = self._items.get(game_id)
            if hit is not None:
                self._items.move_to_end(game_id)
            return hit

    def put(self, game_id: str, played: Played) -> None:
        with self._lock:
            old = self._items.get(game_id)
            if old is None or old.index <= played.index:      # never go back to an older state
                self._items[game_id] = played
                self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


InlineSetup = Callable[[Any], "tuple[str, tuple[str, ...], bool]"]


class Host:
    def __init__(self, storage: Storage, cache_size: int, *, inline_setup: InlineSetup | None = None,
                 max_inline_scenario: int = 256 * 1024) -> None:
        self.storage = storage
        # How an inline scenario sent to POST /games is resolved (the checking workers: heavy.inline_setup), and
        # its largest size: the stranger's document is read once more, in the first submission's process.
        self.inline_setup = inline_setup
        self.max_inline_scenario = max_inline_scenario
        self.cache = StateCache(cache_size)
        self.committer = Committer(storage)
        # Who a token is never changes, nor a game's set-up: a submission then needs no database read.
        self._sides: dict[tuple[str, str], tuple[StoredGame, str]] = {}
        self._sides_lock = threading.Lock()
        self._sides_size = cache_size * 4
        # A game's scenario and ruleset, resolved once: resolving an inline scenario document means keying
        # the scenario cache on its canonical JSON, a share of every submission's CPU otherwise.
        self._setups: dict[str, tuple[Any, Any]] = {}
        # Games whose referee dice have every side's seed: that never changes back, so it is read once.
        self._dice_ready: set[str] = set()

    def close(self) -> None:
        self.committer.close()

    def setup(self, stored: StoredGame) -> tuple[Any, Any]:
        """(scenario, ruleset) of a game: they never change, so each is resolved once per game."""
        with self._sides_lock:
            hit = self._setups.get(stored.id)
        if hit is not None:
            return hit
        hit = scenarios.resolve(stored.scenario), registry.get(stored.ruleset)
        with self._sides_lock:
            if len(self._setups) >= self._sides_size:
                self._setups.pop(next(iter(self._setups)))
            self._setups[stored.id] = hit
        return hit

    def caller(self, game_id: str, token: str) -> tuple[StoredGame, str]:
        """The game (as created: its set-up, not its current count or status) and the side of ``token``.
        401 for a token of no side, and the same 401 for an unknown game."""
        key = (game_id, hashlib.sha256(token.encode("utf-8")).hexdigest())
        with self._sides_lock:
            hit = self._sides.get(key)
        if hit is not None:
            return hit
        # The token first, with one small query on the sides: a wrong token costs the same few microseconds
        # whether or not the game exists and whatever its size (its scenario is read only for a side).
        side = self.storage.authenticate(game_id, token)
        try:
            stored = self.storage.get_game(game_id) if side is not None else None
        except GameNotFound:          # expired between the two reads
            stored = None
        if stored is None or side is None:
            # One answer for an unknown game and a wrong token: a stranger cannot probe which ids exist.
            raise ApiError(401, "invalid_token", "this token belongs to no side of this game")
        with self._sides_lock:
            if len(self._sides) >= self._sides_size:
                self._sides.pop(next(iter(self._sides)))
            self._sides[key] = (stored, side)
        return stored, side

    # ------------------------------------------------------------------ creation

    def create(self, body: Any, creator: str = "") -> dict[str, Any]:
        if not isinstance(body, Mapping):
            raise bad_input(["body: expected an object with scenario, dice and seeds"])
        problems = [f"{key}: unexpected field" for key in body
                    if key not in ("scenario", "dice", "seeds", "strict_dice")]
        if "seeds" in body:
            problems.append("seeds: each side sends its own seed (or a commitment to one) with its own token, "
                            "after the server has committed to its seed: POST /games/<id>/dice")
        dice = body.get("dice", "referee")
        if dice not in DICE_MODES:
            problems.append(f"dice: must be 'players' or 'referee', not {dice!r}")
        strict_dice = body.get("strict_dice", False)
        if not isinstance(strict_dice, bool):
            problems.append("strict_dice: true (refuse rolls typed in a VASSAL log's chat) or false")
        if "scenario" not in body:
            problems.append("scenario: missing (a scenario id or a resolved scenario)")
        if problems:
            raise bad_input(problems)
        ref = body["scenario"]
        if isinstance(ref, Mapping):
            size = len(json.dumps(ref, ensure_ascii=False, separators=(",", ":"), default=str).encode())
            if size > self.max_inline_scenario:
                raise ApiError(413, "payload_too_large",
                               f"scenario: an inline scenario may be at most {self.max_inline_scenario} bytes of JSON "
                               f"({size} sent; REFEREE_MAX_INLINE_SCENARIO): host a larger one by its id")
        if isinstance(ref, Mapping) and self.inline_setup is not None:
            ruleset_id, sides, hostable = self.inline_setup(ref)        # resolved in the checking workers
            ruleset = registry.get(ruleset_id)
            hostable = hostable and actors.hostable(ruleset)            # and hosted by this process's ruleset
        else:
            scenario = scenarios.resolve(ref)
            ruleset = registry.get(scenario.ruleset)
            sides, hostable = scenarios.side_names(scenario), actors.hostable(ruleset)
        if not hostable:
            raise bad_input([f"scenario: ruleset '{ruleset.id}' does not say whose act "
                             "an event is (no actor hook), so its games cannot be hosted; POST /check still "
                             "rules its logs"])
        created = self.storage.create_game(NewGame(scenario=body["scenario"], ruleset=ruleset.id, sides=sides,
                                                   dice_mode=dice, strict_dice=strict_dice, creator=creator))
        head = chain.genesis(created.game_id, ruleset.id, body["scenario"], sides, dice, created.dice_commitment)
        return {"id": created.game_id, "tokens": created.tokens, "dice_commitment": created.dice_commitment,
                "dice": dice, "sides": list(sides), "ruleset": ruleset.id, "next_index": 0, "chain": head,
                **({"strict_dice": True} if strict_dice else {})}

    # ------------------------------------------------------------------ dice contributions

    def contribute(self, stored: StoredGame, side: str, body: Any) -> dict[str, Any]:
        """A side's part of the referee dice (referee.service.dice): its seed, or a commitment to one."""
        if stored.dice_mode != "referee":
            raise ApiError(409, "players_dice", "the players roll in this game: there are no referee dice")
        if not isinstance(body, Mapping) or len(body) != 1 or not ({"seed", "commitment"} >= set(body)):
            raise bad_input(["body: expected {\"seed\": text} or {\"commitment\": SHA-256 hex of a seed}"])
        kind, value = next(iter(body.items()))
        if kind == "seed" and not (isinstance(value, str) and 0 < len(value) <= dice.MAX_SEED_LENGTH):
            raise bad_input([f"seed: expected a string of 1–{dice.MAX_SEED_LENGTH} characters"])
        if kind == "commitment" and not (isinstance(value, str) and dice.COMMITMENT.fullmatch(value)):
            raise bad_input(["commitment: expected the SHA-256 of the seed, 64 lower-case hex digits"])
        if self.storage.get_game(stored.id).event_count:
            raise ApiError(409, "dice_fixed", "the dice were fixed before the first event; nothing can be added now")
        known = self.storage.list_contributions(stored.id)
        mine = {c.kind: c for c in known if c.side == side}
        if "seed" in mine or (kind == "commitment" and "commitment" in mine):
            raise ApiError(409, "dice_fixed", f"{side} has already sent its {kind}")
        if kind == "seed" and "commitment" in mine:
            if dice.commitment_of(value) != mine["commitment"].value:
                raise bad_input(["seed: its SHA-256 is not the commitment you sent"], code="seed_mismatch")
            if dice.fixed_sides(known) < set(stored.sides):
                raise ApiError(409, "dice_open", "reveal your seed once every side has sent its seed or "
                                                 f"commitment (waiting for {', '.join(dice.missing(stored.sides, known))})")
        try:
            self.storage.add_contribution(stored.id, side, kind, value)
        except ValueError as exc:           # the same side twice at once: the second transaction loses
            raise ApiError(409, "dice_fixed", str(exc)) from None
        # A state cached before this seed (a view of the game) was made with the seed as it stood then.
        self.cache.drop(stored.id)
        known = self.storage.list_contributions(stored.id)
        return {"id": stored.id, "dice": self._public_dice(stored, known, side), "chain": chain.base(stored, known)}

    def _dice_complete(self, stored: StoredGame) -> None:
        """409 ``dice_open`` until every side's seed is in (referee dice only)."""
        if stored.dice_mode != "referee" or stored.id in self._dice_ready:
            return
        waiting = dice.missing(stored.sides, self.storage.list_contributions(stored.id))
        if waiting:
            raise ApiError(409, "dice_open", "the referee dice wait for " + ", ".join(waiting) +
                           " (POST /games/<id>/dice with each side's token) before the first event")
        with self._sides_lock:
            self._dice_ready.add(stored.id)

    def _public_dice(self, stored: StoredGame, known: list[Any], viewer: str | None) -> dict[str, Any]:
        out = public_dice(stored)
        out["contributions"] = dice.public(known, stored.sides, viewer)
        out["waiting_for"] = dice.missing(stored.sides, known) if stored.dice_mode == "referee" else []
        return out

    # ------------------------------------------------------------------ submissions

    def submit(self, stored: StoredGame, side: str, body: Any) -> dict[str, Any]:
        """Rule on and store a submission.  ``stored`` may be out of date (count, status): storage's
        append has the last word on both."""
        expected, events = self._submission(body)
        game_id = stored.id
        _, ruleset = self.setup(stored)
        self.check(stored, side, events)
        before = self.state_at(stored, expected)
        rulings, new_events, after = self.rule(side, before, events)
        # Raises StaleIndex when someone stored events first: nothing of this submission is written then.
        try:
            next_index = self.committer.append(game_id, side, expected, new_events, after=before.head)
        except StaleHead:
            self.cache.drop(game_id)      # another process took events back and stored others at the same count
            raise
        self.cache.put(game_id, after)
        out: dict[str, Any] = {"next_index": next_index, "rulings": rulings, "status": "active", "chain": after.head}
        if ruleset.is_over(after.game.state):
            # The scenario has ended: reveal the seed now, so both sides can verify every roll.
            ended = self.storage.end_game(game_id)
            out.update(status="ended", dice_seed=ended.dice_seed)
        return out

    def check(self, stored: StoredGame, side: str, events: list[Any]) -> None:
        """What a submission must pass before it is ruled on: the events' schema and references (422), the
        sides they name (403), the referee dice's seeds all in (409)."""
        scenario, ruleset = self.setup(stored)
        problems = check_events(ruleset, scenario, events)
        if problems:
            raise bad_input(problems)
        self._check_sides(events, side, stored)
        self._dice_complete(stored)

    @staticmethod
    def rule(side: str, played: Played, events: list[Any]) -> tuple[list[dict[str, Any]], list[NewEvent], Played]:
        """Rule on ``events`` (checked) as ``side``'s acts from ``played``, storing nothing: the rulings, the events
        to store with their links of the hash chain, and the state after them."""
        game, head, rulings, new_events = played.game, played.head, [], []
        for i, event in enumerate(events):
            if event.get("type") == ROLL and "side" not in event:
                event = {**event, "side": side}      # the record says whose roll it was (the engine's choice)
            # The submitter's act, judged by the engine: another side's act is an illegal ruling (actors).
            ruling, game, _ = actors.step(game, played.index + i, event, side)
            rulings.append(ruling.to_dict())
            head = chain.event_link(head, played.index + i, side, event, rulings[-1])
            new_events.append(NewEvent(event, rulings[-1], head))
        return rulings, new_events, Played(played.index + len(events), game, head)

    @staticmethod
    def _submission(body: Any) -> tuple[int, list[Any]]:
        if not isinstance(body, Mapping):
            raise bad_input(["body: expected an object with expected_index and events"])
        problems = [f"{key}: unexpected field" for key in body if key not in ("expected_index", "events")]
        expected = body.get("expected_index")
        if isinstance(expected, bool) or not isinstance(expected, int) or expected < 0:
            problems.append("expected_index: required, the number of events the game holds (an integer >= 0)")
        events = body.get("events")
        if not isinstance(events, list) or not events:
            problems.append("events: expected a non-empty list of events")
        elif len(events) > MAX_EVENTS_PER_SUBMISSION:
            problems.append(f"events: at most {MAX_EVENTS_PER_SUBMISSION} events per submission")
        else:
            # A type that is not a string (a list, an object) would reach the schema lookup unhashable.
            problems += [f"events[{i}].type: expected the event type, a string" for i, e in enumerate(events)
                         if isinstance(e, Mapping) and "type" in e and not isinstance(e["type"], str)]
        if problems:
            raise bad_input(problems)
        return expected, events

    @staticmethod
    def _check_sides(events: list[Mapping[str, Any]], side: str, stored: StoredGame) -> None:
        """A side speaks only for itself: an event naming the other side is refused whole (403).  Whether an
        event without a side is the submitter's act is the engine's question (referee.engine.actors), asked
        for every event as it is ruled on."""
        for i, event in enumerate(events):
            named = event.get("side")
            if named is not None and named != side:
                raise ApiError(403, "wrong_side", f"events[{i}].side: this token plays {side}, "
                                                  f"not {named}")
            if stored.dice_mode == "referee":
                given = next((f for f in ROLL_FIELDS if f in event), None)
                if given is not None or event.get("type") == "roll":
                    raise bad_input([f"events[{i}].{given or 'type'}: the referee rolls the dice in this game; "
                                     "send the event without its roll"])

    # ------------------------------------------------------------------ state

    def state_at(self, stored: StoredGame, index: int) -> Played:
        """The engine state after ``index`` events; 409 (``StaleIndex``) unless the game holds exactly that many."""
        cached = self.cache.get(stored.id)
        if cached is not None and cached.index == index:
            return cached
        stored = self.storage.get_game(stored.id)         # the current count (the argument may be old)
        if index != stored.event_count:
            if stored.status == "ended":                  # the truer answer: no index would do now
                raise GameEnded(stored.id)
            raise StaleIndex(stored.id, index, stored.event_count)
        if cached is None or cached.index > index:
            played = self.as_created(stored)
        else:
            played = cached
        game, head = played.game, played.head
        at = played.index
        for e in self.storage.list_events(stored.id, since=at):
            _, game, _ = actors.step(game, e.index, e.event, e.side)
            head = e.chain or chain.event_link(head, e.index, e.side, e.event, e.ruling)
            at = e.index + 1
        played = Played(at, game, head)
        self.cache.put(stored.id, played)
        if at != index:
            raise StaleIndex(stored.id, index, at)
        return played

    def state_after(self, stored: StoredGame, index: int) -> Played:
        """The engine state after the first ``index`` stored events, replayed from the game as created unless it is
        the state cached (the starting point of a take-back further back than the caller keeps)."""
        cached = self.cache.get(stored.id)
        if cached is not None and cached.index == index:
            return cached
        played = self.as_created(stored)
        game, head = played.game, played.head
        for e in self.storage.list_events(stored.id)[:index]:
            _, game, _ = actors.step(game, e.index, e.event, e.side)
            head = e.chain or chain.event_link(head, e.index, e.side, e.event, e.ruling)
        return Played(index, game, head)

    def current(self, stored: StoredGame) -> Played:
        """The state after every stored event (retrying if events arrive while catching up)."""
        for _ in range(5):
            try:
                return self.state_at(stored, stored.event_count)
            except StaleIndex:
                stored = self.storage.get_game(stored.id)
        return self.state_at(stored, stored.event_count)

    def as_created(self, stored: StoredGame) -> Played:
        """The game before its first event, with its referee seed, so that replaying the stored events rolls the
        stored rulings' dice again (the page's history starts here too)."""
        scenario, ruleset = self.setup(stored)
        known = self.storage.list_contributions(stored.id)
        seed = None
        if stored.dice_mode == "referee":
            seed = game_seed(self.storage.dice_seed(stored.id), dice.side_seeds(known))
        return Played(0, new_game(ruleset, scenario, stored.dice_mode, seed), chain.base(stored, known))

    # ------------------------------------------------------------------ reading

    def view(self, stored: StoredGame, side: str) -> dict[str, Any]:
        played = self.current(stored)
        ruleset = registry.get(stored.ruleset)
        log = []
        hidden = hidden_acts(ruleset, played.game.state, ended=stored.status == "ended")
        words = words_for(scenarios.resolve(stored.scenario), ruleset)
        for e in self.storage.list_events(stored.id):
            if e.index >= played.index:
                break
            rule = None if e.side == side else hidden(e.event)
            entry = {"index": e.index, "side": e.side, "type": e.event.get("type"), "verdict": e.ruling.get("verdict")}
            if rule is None:
                log.append({**entry, "event": e.event, "ruling": e.ruling,
                            "lines": ruling_lines(ruling_from_dict(e.ruling), e.event, words)})
            else:
                # What the rules keep from this side (T&G 5.23 orders, M&P 6.3.3 Open Order picks): only what
                # was done, whether it was legal and the rule that hides the rest; consequences show in the state.
                log.append({**entry, "hidden": rule})
        turn, phase = ruleset.progress(played.game.state)
        return {"id": stored.id, "ruleset": stored.ruleset, "scenario": scenario_label(stored.scenario),
                "sides": list(stored.sides), "side": side, "status": stored.status,
                "next_index": played.index, "progress": {"turn": turn, "phase": phase},
                "dice": self._public_dice(stored, self.storage.list_contributions(stored.id), side),
                "chain": played.head, "state": ruleset.view(played.game.state, side), "log": log,
                **({"strict_dice": True} if getattr(stored, "strict_dice", False) else {})}

    def units(self, stored: StoredGame, side: str) -> tuple[Any, list[Mapping[str, Any]]]:
        played = self.current(stored)
        ruleset = registry.get(stored.ruleset)
        return scenarios.resolve(stored.scenario), ruleset.view(played.game.state, side).get("units", [])

    def export(self, stored: StoredGame) -> dict[str, Any]:
        if stored.status != "ended":
            # The same 404 as for an unknown id: without a token, nobody learns that an active game exists.
            raise ApiError(404, "game_not_found", f"no ended game '{stored.id}': the export (both sides' orders, "
                                                  "the dice seed) is available once a game has ended")
        stored_events = self.storage.list_events(stored.id)
        known = self.storage.list_contributions(stored.id)
        head = chain.base(stored, known)
        events = []
        for e in stored_events:
            head = e.chain or chain.event_link(head, e.index, e.side, e.event, e.ruling)
            events.append({"index": e.index, "side": e.side, "event": e.event, "ruling": e.ruling, "chain": head})
        public = self._public_dice(stored, known, None)
        out: dict[str, Any] = {"format": "referee-game-export/2", "id": stored.id, "ruleset": stored.ruleset,
                               "scenario": stored.scenario, "sides": list(stored.sides), "status": stored.status,
                               "dice": public, "events": events,
                               "chain": {"head": head, "events": len(events), "end": chain.end_link(head, len(events))}}
        # The same game as a DESIGN §5 log: `referee check` on it reproduces every ruling.
        log: dict[str, Any] = {"scenario": stored.scenario, "dice": stored.dice_mode,
                               "events": [e["event"] for e in events]}
        if stored.dice_mode == "referee" and stored.dice_seed is not None:
            public["game_seed"] = log["seed"] = game_seed(stored.dice_seed, dice.side_seeds(known))
        out["log"] = log
        if isinstance(stored.scenario, str):
            # The scenario the game was played on, resolved: `referee verify` rules again on it wherever the
            # export is checked, with no scenarios/<id>.yaml at hand (the id alone names a file of the server's).
            out["scenario_resolved"] = resolved_scenario(scenarios.resolve(stored.scenario))
        return out


def hidden_acts(ruleset: Any, state: Any, ended: bool) -> Any:
    """``event -> rule | None``: what another side's recorded act keeps from the viewer, by the ruleset's
    ``hidden_act(state, event)`` hook (the rule that hides it).  Nothing once the game has ended; everything
    for a ruleset without the hook (it cannot say what its rules hide, so nothing of another side's is shown)."""
    if ended:
        return lambda event: None
    hook = getattr(ruleset, "hidden_act", None)
    if not callable(hook):
        return lambda event: "the ruleset does not say what its rules keep secret"
    return lambda event: hook(state, event)


def resolved_scenario(scenario: Any) -> dict[str, Any]:
    """The resolved document of a loaded scenario (DESIGN §4), as the definitions write it."""
    from modulebuilder.definitions import resolve
    return resolve(scenario)


def public_dice(stored: StoredGame) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": stored.dice_mode, "commitment": stored.dice_commitment}
    if stored.dice_seed is not None:
        out["seed"] = stored.dice_seed
    return out


def scenario_label(ref: Any) -> str:
    return ref if isinstance(ref, str) else str(ref.get("name") or ref.get("id") or "inline") \
        if isinstance(ref, Mapping) else "inline"
