"""The legal listing's per-unit candidates, kept from one position to the next.

``legal_actions`` is asked at every position of a game (random play, the service's legal-action lists, the page's
"what if"), and most of its work is per unit: a unit's movement search, its fire target, its charge target.  One
event changes one or two hexes, so almost all of those answers are the same at the next position.  Each answer is
kept as an *entry* beside the Board — in ``Board.cache``, the per-position memo, under a key of its own — together
with the *region* of hexes it read and a *stamp* (the unit's own ``UnitState``).  A later position takes the entry
from the chain of earlier positions that ``Board.inherited`` links (the one ZOC and enemy adjacency already use:
each link holds the previous position's memo and the hexes the change touched) when

* no hex the change touched since then lies in the entry's region, and
* the stamp is the very object the entry was computed for (``is``: the unit itself did not change — also off the
  map, where a change touches no hex),

and otherwise computes it afresh.  Everything else an entry depends on (the movement mode, the ``MoveContext``,
the activation's barrage marker ...) is part of its key, so a new activation or a new order status looks up other
entries instead of invalidating these.

What this is not: a cache of whole answers.  The list is assembled at every call from the entries, in the same
order as from scratch (``tests/tg/test_legal_incremental.py`` compares the two at every position of sample games
and of random play).  And it changes nothing a state means: the memo is not part of a Board's value (``Board`` is
compared by identity, its ``cache`` is not compared at all), an entry is only ever the answer the computation
would give, and the chain is bounded (``board.MEMO_CHAIN`` positions), so memory per game is bounded and nothing
is shared between games (every game's Boards descend from its own set-up Board).

Why hand-written: the entries must follow the engine's own chain of immutable positions and its record of changed
hexes; a general-purpose memo library knows neither.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Container, Hashable, Iterator, TypeVar

__all__ = ["SideRegion", "EnemyRegion", "enemy_changed", "kept", "from_scratch", "hits"]

T = TypeVar("T")

# set by ``from_scratch``: every entry computed, none read or stored (a context variable: the service's threads
# never see a test's setting)
_SCRATCH: ContextVar[bool] = ContextVar("listing_from_scratch", default=False)
hits = [0, 0]              # [kept, computed]: for the benchmark's and the tests' report only


def kept(board: Any, key: Hashable, stamp: object, compute: Callable[[], tuple[T, Any]]) -> T:
    """``compute()``'s value for ``key`` at ``board``'s position: kept from an earlier position when no hex
    changed since inside its region and ``stamp`` is the object it was computed with; else computed (it
    returns the value and the region it read: a frozenset of hexes, any change there being stale, or a
    :class:`SideRegion`) and kept.  The value must be immutable."""
    if _SCRATCH.get():
        return compute()[0]
    cache = board.cache
    entry = cache.get(key)
    if entry is None:
        inh = board.inherited
        changed: list[str] = []
        while inh is not None:
            changed.extend(inh[1])
            e = inh[0].get(key)
            if e is not None:
                if e[2] is stamp and not _stale(e[1], board, changed):
                    entry = cache[key] = e            # carried forward, so the next position finds it close by
                break                                 # an older entry is at least as stale
            inh = inh[2]
    if entry is not None and entry[2] is stamp:
        hits[0] += 1
        return entry[0]
    hits[1] += 1
    value, region = compute()
    cache[key] = (value, region, stamp)
    return value


class SideRegion:
    """The region of a computation that reads, of most hexes, only whether a unit of another side than ``side``
    stands there and what that unit is (its ZOC, its front): the movement search, of every hex it tries to enter.

    ``read``: hexes whose every occupant was read (a friend there counts too: pass-through, stacking and facing
    at the end of a move), so any change there is stale.  Watched: the hexes within ``radius`` of one of
    ``centres``, read for enemies only; a change there is stale when an enemy stood there when the entry was
    computed or stands there now — with no enemy at either position, what was read there (no enemy) is the
    same.  The watched disc is tested only for a change that involves an enemy (most changes in an activation
    are the active side's own), and the position then is kept as its two index dicts (never changed once a
    Board is built), not as the Board, whose memo would chain every earlier position's."""

    __slots__ = ("read", "centres", "radius", "side", "stacks", "units")

    def __init__(self, board: Any, side: str, read: Container[str], centres: Container[str], radius: int) -> None:
        self.read, self.centres, self.radius, self.side = read, centres, radius, side
        self.stacks, self.units = board._stacks, board._units     # noqa: SLF001 — the dicts behind the views

    def stale(self, board: Any, changed: list[str]) -> bool:
        side = self.side
        for h in changed:
            if h in self.read:
                return True
            ids = self.stacks.get(h)
            if not (ids and self.units[ids[0]].defn.side != side) and not board.has_enemy(h, side):
                continue                            # no enemy there, then or now
            centres = self.centres
            for c in board.static.disc(h, self.radius):
                if c in centres:
                    return True
        return False


class EnemyRegion:
    """The region of a computation that reads, of every hex of the map, only whether units of another side than
    ``side`` stand there and what they are (the whole map's enemy ZOC and enemy adjacency): stale when a changed
    hex held such a unit at the position it was computed at or holds one now.  Most changes in an activation are
    the active side's own, so for that side the entry lives the whole activation.  The position then is kept as
    its two index dicts (see ``SideRegion``)."""

    __slots__ = ("side", "stacks", "units")

    def __init__(self, board: Any, side: str) -> None:
        self.side = side
        self.stacks, self.units = board._stacks, board._units     # noqa: SLF001 — the dicts behind the views

    def stale(self, board: Any, changed: list[str]) -> bool:
        return enemy_changed(self, board, changed)


def enemy_changed(region: SideRegion | EnemyRegion, board: Any, changed: list[str]) -> bool:
    """Whether a unit of another side than ``region.side`` stood in one of the ``changed`` hexes at the region's
    position, or stands in one at ``board``'s."""
    side, stacks, units = region.side, region.stacks, region.units
    for h in changed:
        ids = stacks.get(h)
        if (ids and units[ids[0]].defn.side != side) or board.has_enemy(h, side):
            return True
    return False


def _stale(region: Any, board: Any, changed: list[str]) -> bool:
    if type(region) is frozenset:
        for h in changed:
            if h in region:
                return True
        return False
    return region.stale(board, changed)


@contextmanager
def from_scratch() -> Iterator[None]:
    """Within this block every entry is computed, none taken or kept: the reference the tests compare with."""
    token = _SCRATCH.set(True)
    try:
        yield
    finally:
        _SCRATCH.reset(token)
