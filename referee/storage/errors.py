"""The storage layer's exceptions.

Callers (the HTTP service above all) handle these and nothing else: driver exceptions (sqlite3,
psycopg) never escape the storage package, so no database detail ends up in a response body.
"""

from __future__ import annotations


class StorageError(Exception):
    """The database could not do what was asked (bad configuration, broken connection, a failed
    statement).  The message is safe to log; it never carries a driver traceback."""


class StorageBusy(StorageError):
    """The database stayed locked or the connection pool stayed empty for longer than the timeout.

    Worth retrying later (HTTP 503), unlike most other storage errors."""


class GameNotFound(StorageError):
    """No game has this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GameEnded(StorageError):
    """The game has ended (its dice seed is public), so it accepts no more events."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} has ended")
        self.game_id = game_id


class StaleIndex(StorageError):
    """The caller's ``expected_index`` is not the game's current event count: somebody else
    appended first, or the caller is replaying an old submission.  Nothing was written.

    ``current`` is the index the next event would get, so the HTTP layer can answer 409 with it and
    the client can fetch ``list_events(game_id, since=expected_index)`` and try again."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        super().__init__(f"game {game_id!r}: expected index {expected}, but the game is at {current}")
        self.game_id = game_id
        self.expected = expected
        self.current = current


class StaleHead(StaleIndex):
    """The game holds ``expected_index`` events, but not the ones the caller's state was ruled from: events were
    taken back and played again since (a VASSAL Undo through another process).  Nothing was written; the caller
    rules again from the stored events."""

    def __init__(self, game_id: str, index: int) -> None:
        super().__init__(game_id, index, index)
        self.args = (f"game {game_id!r}: the events before index {index} were taken back and played again since "
                     "this submission's state was ruled",)


class TakeBackRefused(StorageError):
    """A take-back (a VASSAL Undo of acts already ruled) that would remove what it may not: nothing was deleted."""

    def __init__(self, game_id: str, why: str) -> None:
        super().__init__(why)
        self.game_id = game_id


class LiveChanged(StorageError):
    """A live commit worked out on what another commit has changed since (a process with its own reading of the
    game stored steps or events first): nothing was written; read again and work it out again."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r}: its live steps or events changed while the answer was worked out")
        self.game_id = game_id
