"""Plain values that go into and come out of storage.

JSON documents (scenario, events, rulings) are passed as Python objects and stored as JSON text:
storage never looks inside them, so it stays independent of the engine and the rulesets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Mapping, NamedTuple

JSONValue = Any
"""Anything ``json.dumps`` accepts."""

DiceMode = Literal["players", "referee"]
GameStatus = Literal["active", "ended"]


@dataclass(frozen=True)
class NewGame:
    """What the service knows when it creates a game."""

    scenario: JSONValue
    """The scenario id, or the resolved scenario document (DESIGN §4)."""
    ruleset: str
    sides: tuple[str, ...]
    dice_mode: DiceMode = "referee"
    dice_seed: str | None = None
    """The referee's secret seed; generated (256 random bits, hex) when None."""
    side_seeds: Mapping[str, str] = field(default_factory=dict)
    """Optional per-side contributions mixed into the dice (public from the start)."""
    strict_dice: bool = False
    """Rolls typed in a VASSAL log's chat are refused: every roll must come from VASSAL's die button."""
    creator: str = ""
    """Who created the game (the service stores a digest of the client's address, for its per-client quota)."""


@dataclass(frozen=True)
class CreatedGame:
    """The result of creating a game.  The tokens exist only here: storage keeps their hashes."""

    game_id: str
    tokens: dict[str, str]
    """side -> bearer token."""
    dice_commitment: str


@dataclass(frozen=True)
class Game:
    id: str
    created_at: datetime
    scenario: JSONValue
    ruleset: str
    sides: tuple[str, ...]
    dice_mode: DiceMode
    dice_commitment: str
    side_seeds: dict[str, str]
    status: GameStatus
    ended_at: datetime | None
    event_count: int
    """The index the next event will get (events are numbered 0..event_count-1)."""
    dice_seed: str | None
    """The secret seed, revealed (non-None) only once the game has ended."""
    strict_dice: bool = False
    """Rolls typed in a VASSAL log's chat are refused (``NewGame.strict_dice``)."""


class NewEvent(NamedTuple):
    """One event of a submission with the referee's ruling on it, and its link in the game's hash
    chain (computed by the service).  A plain ``(event, ruling)`` tuple works too."""

    event: JSONValue
    ruling: JSONValue
    chain: str = ""


@dataclass(frozen=True)
class Contribution:
    """A side's part of the referee dice: a commitment to a seed, or the seed itself; ``seq`` is the
    order in which contributions were fixed (0 first)."""

    seq: int
    side: str
    kind: Literal["commitment", "seed"]
    value: str
    created_at: datetime


@dataclass(frozen=True)
class StoredEvent:
    game_id: str
    index: int
    side: str
    """The side whose token submitted the event."""
    event: JSONValue
    ruling: JSONValue
    created_at: datetime
    chain: str = ""
    """This event's link in the game's hash chain ("" for events stored before the chain existed)."""


@dataclass(frozen=True)
class LiveStep:
    """One step a side's referee link sent (the commands a ``.vlog`` step holds), in the order the referee took
    the steps of both sides (``seq``); ``link_index`` counts the steps of that link (one VASSAL run)."""

    seq: int
    side: str
    link: str
    link_index: int
    commands: tuple[str, ...]


@dataclass(frozen=True)
class LiveRead:
    """An event read from the live steps, as read, and the hosted event it became (None: none, e.g. a line that
    could not be read or an act the hosted game refused)."""

    position: int
    event: JSONValue
    stored_index: int | None


@dataclass(frozen=True)
class LiveHead:
    """What storage holds of a game played live, without its steps: read in one snapshot with the game's status
    and event count."""

    version: int | None
    """How many live commits the game has had; None: no live step has been stored."""
    steps: int
    reads: int
    said: dict[str, str]
    """unit -> the last "on the board:" line said about it."""
    status: GameStatus
    event_count: int


@dataclass(frozen=True)
class LiveCommit:
    """One answer of the live route, stored whole in one transaction: the link's new steps, the events ruled
    from them (after a take-back, when an Undo took acts back), and what the events read now became.  Worked
    out on storage as of ``version`` and ``event_count``; refused (``LiveChanged``) when either moved since."""

    version: int | None
    side: str
    link: str
    link_index: int
    """How many steps of this link storage held when the request was read."""
    steps: tuple[tuple[str, ...], ...]
    event_count: int
    events: tuple[NewEvent, ...] = ()
    take_back: int | None = None
    """The game's events from this index on are deleted first (the same side's latest only)."""
    reads_from: int = 0
    reads: tuple[tuple[JSONValue, int | None], ...] = ()
    """The read events from ``reads_from`` on, replacing those stored there."""
    said: Mapping[str, str] = field(default_factory=dict)
    start: str | None = None
    """The position the game started from: required with the game's first live commit, ignored after."""
    end: bool = False
    """The events ended the game (its seed is revealed in the same transaction)."""
