"""Hosted games: the rules of submission, on top of the engine and referee.storage (no HTTP here).

A submission is ruled on against the game's state at ``expected_index`` and stored, events and rulings
together, by one ``append_events`` transaction that only succeeds if nobody stored anything in between
(storage's guarantee).  Replaying a whole game for every submission would cost seconds at Borodino scale, so
each process keeps the engine state of recently played games keyed by (game, index); a state that is behind
(another process took submissions) catches up by replaying only the events stored since.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from referee.engine import actors, registry
from referee.engine.replay import ROLL, Game, new_game
from referee.logs.jsonlog import DICE_MODES, check_events
from referee.service import scenarios
from referee.service.commits import Committer
from referee.service.dice import game_seed
from referee.service.errors import ApiError, bad_input
from referee.storage import NewEvent, NewGame, StaleIndex, Storage
from referee.storage.model import Game as StoredGame

MAX_EVENTS_PER_SUBMISSION = 500
MAX_SEED_LENGTH = 256
ROLL_FIELDS = ("roll", "rolls")


@dataclass(frozen=True)
class Played:
    """The engine state of a hosted game after ``index`` events."""
    index: int
    game: Game[Any]


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


class Host:
    def __init__(self, storage: Storage, cache_size: int) -> None:
        self.storage = storage
        self.cache = StateCache(cache_size)
        self.committer = Committer(storage)
        # Who a token is never changes, nor a game's set-up: a submission then needs no database read.
        self._sides: dict[tuple[str, str], tuple[StoredGame, str]] = {}
        self._sides_lock = threading.Lock()
        self._sides_size = cache_size * 4
        # A game's scenario and ruleset, resolved once: resolving an inline scenario document means keying
        # the scenario cache on its canonical JSON, which profiling showed as ~6 % of a submission's CPU.
        self._setups: dict[str, tuple[Any, Any]] = {}

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
        GameNotFound for an unknown game; 401 for a token of no side."""
        key = (game_id, hashlib.sha256(token.encode("utf-8")).hexdigest())
        with self._sides_lock:
            hit = self._sides.get(key)
        if hit is not None:
            return hit
        stored = self.storage.get_game(game_id)
        side = self.storage.authenticate(game_id, token)
        if side is None:
            raise ApiError(401, "invalid_token", "this token belongs to no side of this game")
        with self._sides_lock:
            if len(self._sides) >= self._sides_size:
                self._sides.pop(next(iter(self._sides)))
            self._sides[key] = (stored, side)
        return stored, side

    # ------------------------------------------------------------------ creation

    def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, Mapping):
            raise bad_input(["body: expected an object with scenario, dice and seeds"])
        problems = [f"{key}: unexpected field" for key in body if key not in ("scenario", "dice", "seeds")]
        dice = body.get("dice", "referee")
        if dice not in DICE_MODES:
            problems.append(f"dice: must be 'players' or 'referee', not {dice!r}")
        if "scenario" not in body:
            problems.append("scenario: missing (a scenario id or a resolved scenario)")
        if problems:
            raise bad_input(problems)
        scenario = scenarios.resolve(body["scenario"])
        ruleset = registry.get(scenario.ruleset)
        if not actors.hostable(ruleset):
            raise bad_input([f"scenario: ruleset '{ruleset.id}' does not say whose act "
                             "an event is (no actor hook), so its games cannot be hosted; POST /check still "
                             "rules its logs"])
        sides = scenarios.side_names(scenario)
        seeds = self._side_seeds(body.get("seeds"), sides, dice)
        created = self.storage.create_game(NewGame(scenario=body["scenario"], ruleset=ruleset.id, sides=sides,
                                                   dice_mode=dice, side_seeds=seeds))
        return {"id": created.game_id, "tokens": created.tokens, "dice_commitment": created.dice_commitment,
                "dice": dice, "seeds": seeds, "sides": list(sides), "ruleset": ruleset.id, "next_index": 0}

    @staticmethod
    def _side_seeds(raw: Any, sides: Sequence[str], dice: str) -> dict[str, str]:
        if raw is None:
            return {}
        if dice != "referee":
            raise bad_input(["seeds: side seeds only mix into referee dice (dice: referee)"])
        if not isinstance(raw, Mapping):
            raise bad_input(["seeds: expected an object {side: seed}"])
        problems = []
        for side, value in raw.items():
            if side not in sides:
                problems.append(f"seeds.{side}: not a side of this scenario ({', '.join(sides)})")
            elif not isinstance(value, str) or not 0 < len(value) <= MAX_SEED_LENGTH:
                problems.append(f"seeds.{side}: expected a string of 1–{MAX_SEED_LENGTH} characters")
        if problems:
            raise bad_input(problems)
        return {str(k): str(v) for k, v in raw.items()}

    # ------------------------------------------------------------------ submissions

    def submit(self, stored: StoredGame, side: str, body: Any) -> dict[str, Any]:
        """Rule on and store a submission.  ``stored`` may be out of date (count, status): storage's
        append has the last word on both."""
        expected, events = self._submission(body)
        game_id = stored.id
        scenario, ruleset = self.setup(stored)
        problems = check_events(ruleset, scenario, events)
        if problems:
            raise bad_input(problems)
        self._check_sides(events, side, stored)
        played = self.state_at(stored, expected)
        game, rulings, new_events = played.game, [], []
        for i, event in enumerate(events):
            if event.get("type") == ROLL and "side" not in event:
                event = {**event, "side": side}      # the record says whose roll it was (the engine's choice)
            # The submitter's act, judged by the engine: another side's act is an illegal ruling (actors).
            ruling, game, _ = actors.step(game, expected + i, event, side)
            rulings.append(ruling.to_dict())
            new_events.append(NewEvent(event, rulings[-1]))
        # Raises StaleIndex when someone stored events first: nothing of this submission is written then.
        next_index = self.committer.append(game_id, side, expected, new_events)
        self.cache.put(game_id, Played(next_index, game))
        out: dict[str, Any] = {"next_index": next_index, "rulings": rulings, "status": "active"}
        if ruleset.is_over(game.state):
            # The scenario has ended: reveal the seed now, so both sides can verify every roll.
            ended = self.storage.end_game(game_id)
            out.update(status="ended", dice_seed=ended.dice_seed)
        return out

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
            raise StaleIndex(stored.id, index, stored.event_count)
        if cached is None or cached.index > index:
            played = Played(0, self._new_game(stored))
        else:
            played = cached
        game = played.game
        at = played.index
        for e in self.storage.list_events(stored.id, since=at):
            _, game, _ = actors.step(game, e.index, e.event, e.side)
            at = e.index + 1
        played = Played(at, game)
        self.cache.put(stored.id, played)
        if at != index:
            raise StaleIndex(stored.id, index, at)
        return played

    def current(self, stored: StoredGame) -> Played:
        """The state after every stored event (retrying if events arrive while catching up)."""
        for _ in range(5):
            try:
                return self.state_at(stored, stored.event_count)
            except StaleIndex:
                stored = self.storage.get_game(stored.id)
        return self.state_at(stored, stored.event_count)

    def _new_game(self, stored: StoredGame) -> Game[Any]:
        scenario, ruleset = self.setup(stored)
        seed = None
        if stored.dice_mode == "referee":
            seed = game_seed(self.storage.dice_seed(stored.id), stored.side_seeds)
        return new_game(ruleset, scenario, stored.dice_mode, seed)

    # ------------------------------------------------------------------ reading

    def view(self, stored: StoredGame, side: str) -> dict[str, Any]:
        played = self.current(stored)
        ruleset = registry.get(stored.ruleset)
        log = []
        for e in self.storage.list_events(stored.id):
            if e.index >= played.index:
                break
            if e.side == side:
                log.append({"index": e.index, "side": e.side, "event": e.event, "ruling": e.ruling})
            else:
                # The other side's events may carry what 5.23 hides (its orders): only what was done, and
                # whether it was legal; the consequences show in the state view.
                log.append({"index": e.index, "side": e.side, "type": e.event.get("type"),
                            "verdict": e.ruling.get("verdict")})
        turn, phase = ruleset.progress(played.game.state)
        return {"id": stored.id, "ruleset": stored.ruleset, "scenario": scenario_label(stored.scenario),
                "sides": list(stored.sides), "side": side, "status": stored.status,
                "next_index": played.index, "progress": {"turn": turn, "phase": phase},
                "dice": public_dice(stored), "state": ruleset.view(played.game.state, side), "log": log}

    def units(self, stored: StoredGame, side: str) -> tuple[Any, list[Mapping[str, Any]]]:
        played = self.current(stored)
        ruleset = registry.get(stored.ruleset)
        return scenarios.resolve(stored.scenario), ruleset.view(played.game.state, side).get("units", [])

    def export(self, stored: StoredGame) -> dict[str, Any]:
        if stored.status != "ended":
            raise ApiError(409, "game_active", "the export shows both sides' orders and the dice seed, so it is "
                                               "available once the game has ended (POST /games/<id>/end)")
        events = [{"index": e.index, "side": e.side, "event": e.event, "ruling": e.ruling}
                  for e in self.storage.list_events(stored.id)]
        dice = public_dice(stored)
        out: dict[str, Any] = {"format": "referee-game-export/1", "id": stored.id, "ruleset": stored.ruleset,
                               "scenario": stored.scenario, "sides": list(stored.sides), "dice": dice,
                               "events": events}
        # The same game as a DESIGN §5 log: `referee check` on it reproduces every ruling.
        log: dict[str, Any] = {"scenario": stored.scenario, "dice": stored.dice_mode,
                               "events": [e["event"] for e in events]}
        if stored.dice_mode == "referee" and stored.dice_seed is not None:
            log["seed"] = game_seed(stored.dice_seed, stored.side_seeds)
        out["log"] = log
        return out


def public_dice(stored: StoredGame) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": stored.dice_mode, "commitment": stored.dice_commitment,
                           "side_seeds": stored.side_seeds}
    if stored.dice_seed is not None:
        out["seed"] = stored.dice_seed
    return out


def scenario_label(ref: Any) -> str:
    return ref if isinstance(ref, str) else str(ref.get("name") or ref.get("id") or "inline") \
        if isinstance(ref, Mapping) else "inline"
