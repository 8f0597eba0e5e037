"""The storage operations, written once for both backends over a ``Session``.

Everything that decides what is stored — the SQL, the index check, the token check — lives here,
so SQLite and PostgreSQL cannot drift apart; a backend only decides how a transaction begins and
which locks it takes.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Sequence

import orjson

from . import crypto
from .errors import GameEnded, GameNotFound, LiveChanged, StaleHead, StaleIndex, TakeBackRefused
from .model import (Contribution, CreatedGame, Game, JSONValue, LiveCommit, LiveHead, LiveRead, LiveStep, NewEvent,
                    NewGame, StoredEvent)
from .session import Session


def _utc(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(timezone.utc)
    if now.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return now.astimezone(timezone.utc)


_STRICT = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS


def _dump(value: JSONValue, what: str) -> str:
    # orjson first (several times faster: two documents per submission); it writes NaN and infinities as null,
    # so a text with a null in it is made again by the standard library, which refuses them (allow_nan); and
    # what orjson would take that the standard library does not (datetimes, dataclasses, subclasses) goes
    # there too, to be refused the same way.
    try:
        text = orjson.dumps(value, option=_STRICT)
        if b"null" not in text:
            return text.decode("utf-8")
    except TypeError:                 # a non-string key, an integer beyond 64 bits, a value that is not JSON
        pass
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not JSON: {exc}") from None


_GAME_COLUMNS = (
    "id, created_at, scenario, ruleset, dice_mode, dice_commitment, dice_seed, side_seeds, status, ended_at, "
    "strict_dice"
)


class Transaction:
    """The storage operations, all inside one transaction (see ``Storage.transaction``)."""

    def __init__(self, session: Session) -> None:
        self._s = session

    def create_game(self, new: NewGame, *, now: datetime | None = None) -> CreatedGame:
        sides = tuple(new.sides)
        if not sides or len(set(sides)) != len(sides):
            raise ValueError(f"a game needs distinct sides, got {sides!r}")
        if new.dice_mode not in ("players", "referee"):
            raise ValueError(f"unknown dice mode {new.dice_mode!r}")
        unknown = set(new.side_seeds) - set(sides)
        if unknown:
            raise ValueError(f"side seeds for unknown sides: {sorted(unknown)}")
        seed = new.dice_seed if new.dice_seed is not None else crypto.new_dice_seed()
        commitment = crypto.seed_commitment(seed)
        game_id = crypto.new_game_id()
        self._s.execute(
            f"INSERT INTO games ({_GAME_COLUMNS}, creator) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', NULL, ?, ?)",
            (game_id, self._s.time_in(_utc(now)), _dump(new.scenario, "the scenario"), new.ruleset,
             new.dice_mode, commitment, seed, _dump(dict(new.side_seeds), "the side seeds"),
             1 if new.strict_dice else 0, new.creator),
        )
        tokens = {side: crypto.new_token() for side in sides}
        self._s.execute_many(
            "INSERT INTO sides (game_id, position, name, token_hash) VALUES (?, ?, ?, ?)",
            [(game_id, pos, side, crypto.hash_token(tokens[side])) for pos, side in enumerate(sides)],
        )
        return CreatedGame(game_id=game_id, tokens=tokens, dice_commitment=commitment)

    def authenticate(self, game_id: str, token: str) -> str | None:
        """The side this bearer token belongs to, or None (also for an unknown game: the caller
        cannot tell a wrong game id from a wrong token)."""
        hashes = self._s.all("SELECT name, token_hash FROM sides WHERE game_id = ?", (game_id,))
        return crypto.side_for_token(token, [(str(n), str(h)) for n, h in hashes])

    def count_created(self, creator: str, since: datetime) -> int:
        """How many games ``creator`` has created since ``since`` (that have not expired)."""
        row = self._s.one("SELECT COUNT(*) FROM games WHERE creator = ? AND created_at >= ?",
                          (creator, self._s.time_in(_utc(since))))
        return int(row[0]) if row is not None else 0

    def expire_unplayed(self, before: datetime, limit: int = 1000) -> int:
        """Delete up to ``limit`` games created before ``before`` that never took an event (a game ended or
        played is never deleted); how many.  The games are locked first (PostgreSQL: FOR UPDATE), so a first
        submission racing this either lands before (the game stays) or finds no game."""
        rows = self._s.all("SELECT id FROM games WHERE status = 'active' AND created_at < ? AND NOT EXISTS "
                           "(SELECT 1 FROM events WHERE events.game_id = games.id) LIMIT ?"
                           + self._s.lock_game_suffix, (self._s.time_in(_utc(before)), limit))
        ids = [str(r[0]) for r in rows]
        for table, column in (("live_reads", "game_id"), ("live_steps", "game_id"), ("live_games", "game_id"),
                              ("dice_contributions", "game_id"), ("sides", "game_id"), ("games", "id")):
            self._s.execute_many(f"DELETE FROM {table} WHERE {column} = ?", [(i,) for i in ids])
        return len(ids)

    def get_game(self, game_id: str) -> Game:
        row = self._s.one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        sides = self._s.all("SELECT name FROM sides WHERE game_id = ? ORDER BY position", (game_id,))
        (gid, created_at, scenario, ruleset, dice_mode, commitment, seed, side_seeds, status,
         ended_at, strict_dice) = row
        return Game(
            id=gid,
            created_at=self._s.time_out(created_at),
            scenario=json.loads(scenario),
            ruleset=ruleset,
            sides=tuple(name for (name,) in sides),
            dice_mode=dice_mode,
            dice_commitment=commitment,
            side_seeds=json.loads(side_seeds),
            status=status,
            ended_at=None if ended_at is None else self._s.time_out(ended_at),
            event_count=self._event_count(game_id),
            dice_seed=seed if status == "ended" else None,
            strict_dice=bool(strict_dice),
        )

    def dice_seed(self, game_id: str) -> str:
        """The secret seed, for the referee's own rolls.  Never show it to players before the
        game ends (``Game.dice_seed`` is the public view)."""
        row = self._s.one("SELECT dice_seed FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return str(row[0])

    def list_events(self, game_id: str, since: int = 0) -> list[StoredEvent]:
        if since < 0:
            raise ValueError("since must be >= 0")
        self._game_status(game_id, lock=False)
        rows = self._s.all(
            "SELECT event_index, side, event, ruling, created_at, chain FROM events"
            " WHERE game_id = ? AND event_index >= ? ORDER BY event_index",
            (game_id, since),
        )
        return [
            StoredEvent(game_id=game_id, index=index, side=side, event=json.loads(event),
                        ruling=json.loads(ruling), created_at=self._s.time_out(created_at), chain=chain)
            for index, side, event, ruling, created_at, chain in rows
        ]

    def list_contributions(self, game_id: str) -> list[Contribution]:
        """The sides' dice contributions, in the order they were fixed."""
        self._game_status(game_id, lock=False)
        rows = self._s.all("SELECT seq, side, kind, value, created_at FROM dice_contributions"
                           " WHERE game_id = ? ORDER BY seq", (game_id,))
        return [Contribution(seq=int(q), side=str(sd), kind=k, value=str(v), created_at=self._s.time_out(t))
                for q, sd, k, v, t in rows]

    def add_contribution(self, game_id: str, side: str, kind: str, value: str, *,
                         now: datetime | None = None) -> Contribution:
        """Record a side's commitment or seed as the next contribution (the game row locked, so the
        order is the order of the transactions).  A second contribution of the same kind by the same
        side is refused (ValueError) by the table's UNIQUE constraint, checked here first."""
        if self._game_status(game_id, lock=True) != "active":
            raise GameEnded(game_id)
        if kind not in ("commitment", "seed"):
            raise ValueError(f"unknown contribution kind {kind!r}")
        known = self.list_contributions(game_id)
        if any(c.side == side and c.kind == kind for c in known):
            raise ValueError(f"{side} has already sent its {kind}")
        stamp = _utc(now)
        seq = len(known)
        self._s.execute("INSERT INTO dice_contributions (game_id, seq, side, kind, value, created_at)"
                        " VALUES (?, ?, ?, ?, ?, ?)", (game_id, seq, side, kind, value, self._s.time_in(stamp)))
        return Contribution(seq=seq, side=side, kind=kind, value=value,  # type: ignore[arg-type]
                            created_at=stamp)

    def append_events(self, game_id: str, side: str, expected_index: int,
                      events: Sequence[NewEvent | tuple[JSONValue, JSONValue]], *,
                      now: datetime | None = None, after: str | None = None) -> int:
        """Append ``events`` as indexes ``expected_index``, ``expected_index + 1``, … and return
        the new event count.  Raises StaleIndex (writing nothing) unless the game has exactly
        ``expected_index`` events, and GameEnded once the game is over.  ``after``, the chain head the events
        were ruled after, must be the stored chain of the event before them (StaleHead otherwise): a count alone
        does not tell that events were taken back and others stored in their place."""
        # Encode first: a document that is not JSON fails before any lock is taken.
        encoded = [(_dump(e[0], f"event {i}"), _dump(e[1], f"ruling {i}"), str(e[2]) if len(e) > 2 else "")
                   for i, e in enumerate(events)]
        # Lock the game row first (PostgreSQL: FOR UPDATE), so that the count below and the
        # inserts happen with no other appender of this game in between.
        if self._game_status(game_id, lock=True) != "active":
            raise GameEnded(game_id)
        current = self._event_count(game_id)
        if current != expected_index:
            raise StaleIndex(game_id, expected_index, current)
        if after and expected_index > 0:
            row = self._s.one("SELECT chain FROM events WHERE game_id = ? AND event_index = ?",
                              (game_id, expected_index - 1))
            if row is not None and row[0] and row[0] != after:
                raise StaleHead(game_id, expected_index)
        stamp = self._s.time_in(_utc(now))
        self._s.execute_many(
            "INSERT INTO events (game_id, event_index, side, event, ruling, created_at, chain)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, expected_index + i, side, event, ruling, stamp, chain)
             for i, (event, ruling, chain) in enumerate(encoded)],
        )
        return expected_index + len(encoded)

    def take_back_events(self, game_id: str, side: str, from_index: int) -> int:
        """Delete the game's events from ``from_index`` on (a VASSAL Undo of acts already ruled) and return the
        new event count.  Only the latest events, and only the same side's: anything another side stored after
        them stays, and the whole take-back is refused (``TakenBackRefused``) instead."""
        if self._game_status(game_id, lock=True) != "active":
            raise GameEnded(game_id)
        current = self._event_count(game_id)
        if not 0 <= from_index < current:
            raise TakeBackRefused(game_id, f"there is no event {from_index} to take back (the game holds {current})")
        others = self._s.one("SELECT COUNT(*) FROM events WHERE game_id = ? AND event_index >= ? AND side <> ?",
                             (game_id, from_index, side))
        if others is not None and int(others[0]):
            raise TakeBackRefused(game_id, "another side has acted since: the referee keeps what was ruled")
        self._s.execute("DELETE FROM events WHERE game_id = ? AND event_index >= ?", (game_id, from_index))
        return from_index

    def end_game(self, game_id: str, *, now: datetime | None = None) -> Game:
        """End the game, which reveals its dice seed.  Ending an ended game changes nothing."""
        if self._game_status(game_id, lock=True) == "active":
            self._s.execute("UPDATE games SET status = 'ended', ended_at = ? WHERE id = ?",
                            (self._s.time_in(_utc(now)), game_id))
        return self.get_game(game_id)

    # ------------------------------------------------------------------ a game played live (service/live.py)

    def live_head(self, game_id: str) -> LiveHead:
        """The game's live record without its steps, with the game's status and event count (GameNotFound)."""
        status = self._game_status(game_id, lock=False)
        row = self._s.one("SELECT version, reads, said FROM live_games WHERE game_id = ?", (game_id,))
        steps = self._s.one("SELECT COALESCE(MAX(seq) + 1, 0) FROM live_steps WHERE game_id = ?", (game_id,))
        assert steps is not None
        return LiveHead(version=None if row is None else int(row[0]), steps=int(steps[0]),
                        reads=0 if row is None else int(row[1]), said={} if row is None else json.loads(row[2]),
                        status=status, event_count=self._event_count(game_id))  # type: ignore[arg-type]

    def live_start(self, game_id: str) -> str | None:
        row = self._s.one("SELECT start FROM live_games WHERE game_id = ?", (game_id,))
        return None if row is None else str(row[0])

    def live_steps(self, game_id: str, since: int = 0) -> list[LiveStep]:
        """The live steps from ``seq`` ``since`` on, in order."""
        rows = self._s.all("SELECT seq, side, link, link_index, commands FROM live_steps WHERE game_id = ? AND seq >= ?"
                           " ORDER BY seq", (game_id, since))
        return [LiveStep(int(q), str(sd), str(lk), int(i), tuple(json.loads(c))) for q, sd, lk, i, c in rows]

    def live_reads(self, game_id: str, after_version: int = -1) -> list[LiveRead]:
        """The read events written by a live commit after ``after_version`` (all of them by default), by position."""
        rows = self._s.all("SELECT position, event, stored_index FROM live_reads WHERE game_id = ? AND written > ?"
                           " ORDER BY position", (game_id, after_version))
        return [LiveRead(int(p), json.loads(e), None if i is None else int(i)) for p, e, i in rows]

    def live_counts(self, game_id: str) -> dict[tuple[str, str], int]:
        """(side, link) -> how many steps of that link are stored."""
        rows = self._s.all("SELECT side, link, COUNT(*) FROM live_steps WHERE game_id = ? GROUP BY side, link",
                           (game_id,))
        return {(str(sd), str(lk)): int(n) for sd, lk, n in rows}

    def commit_live(self, game_id: str, c: LiveCommit, *, now: datetime | None = None) -> int:
        """Store one answer of the live route whole (see ``LiveCommit``) and return the game's new live version.
        The game row is locked first, as an append locks it; LiveChanged (nothing written) when the live version
        or the event count is no longer the one the answer was worked out on, GameEnded once the game is over,
        TakeBackRefused when the take-back may not be made."""
        steps = [_dump(list(commands), f"step {i}") for i, commands in enumerate(c.steps)]
        reads = [(_dump(event, f"read event {i}"), index) for i, (event, index) in enumerate(c.reads)]
        said = _dump(dict(c.said), "the board differences")
        if self._game_status(game_id, lock=True) != "active":
            raise GameEnded(game_id)
        row = self._s.one("SELECT version FROM live_games WHERE game_id = ?", (game_id,))
        version = None if row is None else int(row[0])
        if version != c.version or self._event_count(game_id) != c.event_count:
            raise LiveChanged(game_id)
        held = self._s.one("SELECT COUNT(*) FROM live_steps WHERE game_id = ? AND side = ? AND link = ?",
                           (game_id, c.side, c.link))
        if held is None or int(held[0]) != c.link_index:
            raise LiveChanged(game_id)
        if version is None:
            if c.start is None:
                raise ValueError("the first live commit of a game needs its starting position")
            self._s.execute("INSERT INTO live_games (game_id, start, version, reads, said) VALUES (?, ?, 0, 0, '{}')",
                            (game_id, c.start))
        at = c.event_count
        if c.take_back is not None:
            at = self.take_back_events(game_id, c.side, c.take_back)
        if c.events:
            self.append_events(game_id, c.side, at, c.events, now=now)
        first = self._s.one("SELECT COALESCE(MAX(seq) + 1, 0) FROM live_steps WHERE game_id = ?", (game_id,))
        assert first is not None
        self._s.execute_many(
            "INSERT INTO live_steps (game_id, seq, side, link, link_index, commands) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, int(first[0]) + i, c.side, c.link, c.link_index + i, text) for i, text in enumerate(steps)])
        new_version = (version or 0) + 1
        self._s.execute("DELETE FROM live_reads WHERE game_id = ? AND position >= ?", (game_id, c.reads_from))
        self._s.execute_many(
            "INSERT INTO live_reads (game_id, position, event, stored_index, written) VALUES (?, ?, ?, ?, ?)",
            [(game_id, c.reads_from + i, text, index, new_version) for i, (text, index) in enumerate(reads)])
        self._s.execute("UPDATE live_games SET version = ?, reads = ?, said = ? WHERE game_id = ?",
                        (new_version, c.reads_from + len(reads), said, game_id))
        if c.end:
            self.end_game(game_id, now=now)
        return new_version

    def _game_status(self, game_id: str, *, lock: bool) -> str:
        suffix = self._s.lock_game_suffix if lock else ""
        row = self._s.one("SELECT status FROM games WHERE id = ?" + suffix, (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return str(row[0])

    def _event_count(self, game_id: str) -> int:
        # Indexes are contiguous from 0, so max + 1 is the count; it is one lookup at the end of
        # the primary-key index where COUNT(*) would scan the game's events.
        row = self._s.one(
            "SELECT COALESCE(MAX(event_index) + 1, 0) FROM events WHERE game_id = ?", (game_id,))
        assert row is not None
        return int(row[0])
