"""A die as players and rulesets name it: how many dice, their sides, their lowest face, and the exact chances.

One definition for the referee (the rolls a ruleset owes and reads) and the module builder (the dice button a
game's module carries): a ruleset names its dice "d10", "2d6", "d10:1-10"; a game file writes "d10 1-10".
"""
from __future__ import annotations

from dataclasses import dataclass
import re
from functools import lru_cache


#: The dice a ruleset may ask for, by name: how many dice, their sides, and the lowest face of one die.
#: A d10 reads 0-9 (DESIGN §5; "d10:1-10" for a d10 read 1-10), a d6 1-6, "2d6" the sum of two d6 (2-12),
#: a d100 1-100 ("d100:0-99" for 00-99).  Any "NdS" or "NdS:LOW-HIGH" is understood (:func:`die`), and so is a
#: game file's spelling with a space, "d10 1-10".
DIE_NAME = re.compile(r"^(?P<count>[1-9]\d?)?d(?P<sides>[1-9]\d{0,2})(?:[: ](?P<low>\d{1,3})-(?P<high>\d{1,4}))?$")


@dataclass(frozen=True)
class Die:
    """One kind of roll: ``count`` dice of ``sides`` faces each, the lowest face ``low``, summed.

    The d10 of DESIGN §5 is ``Die("d10", 1, 10, 0)`` (0-9); a d6 is ``Die("d6", 1, 6, 1)``; 2d6 is
    ``Die("2d6", 2, 6, 1)`` (2-12)."""
    name: str
    count: int
    sides: int
    low: int

    @property
    def label(self) -> str:
        """How a player names it: "d10", "2d6" (the faces are said apart, "pass on 1-3")."""
        return self.name.split(":", 1)[0]

    @property
    def text(self) -> str:
        """The die with its faces, as a dice button shows it: "d6 (1-6)", "d10 (0-9)"."""
        return f"{self.label} ({self.lowest}-{self.highest})"

    @property
    def lowest(self) -> int:
        return self.count * self.low

    @property
    def highest(self) -> int:
        return self.count * (self.low + self.sides - 1)

    @property
    def faces(self) -> range:
        """Every total the roll can show, e.g. ``range(2, 13)`` for 2d6."""
        return range(self.lowest, self.highest + 1)

    @property
    def mean(self) -> float:
        return self.count * (self.low + (self.sides - 1) / 2)

    @property
    def outcomes(self) -> int:
        """How many equally likely ways the dice can fall (36 for 2d6)."""
        return self.sides ** self.count

    def ways_at_most(self, total: int) -> int:
        """In how many of :attr:`outcomes` the roll shows ``total`` or less."""
        return sum(_ways(self.count, self.sides)[:max(0, total - self.lowest + 1)])

    def chance_at_most(self, total: int) -> float:
        """The chance that the roll shows ``total`` or less (exact, before rounding)."""
        return self.ways_at_most(total) / self.outcomes


MAX_DICE = 20                    # dice summed in one roll: their table of totals stays small


@lru_cache(maxsize=None)
def _ways(count: int, sides: int) -> tuple[int, ...]:
    """How many ways each total of ``count`` dice of ``sides`` faces falls, lowest total first."""
    ways = [1]
    for _ in range(count):
        nxt = [0] * (len(ways) + sides - 1)
        for i, w in enumerate(ways):
            for f in range(sides):
                nxt[i + f] += w
        ways = nxt
    return tuple(ways)


@lru_cache(maxsize=None)
def die(name: "str | Die") -> Die:
    """The die a name stands for ("d10", "d6", "2d6", "d10:1-10", "d100"); ValueError for a name it is not."""
    if isinstance(name, Die):
        return name
    m = DIE_NAME.match(name) if isinstance(name, str) else None
    if m is None:
        raise ValueError(f"{name!r} is not a die (d6, 2d6, d10, d10:1-10, d100, ...)")
    count, sides = int(m["count"] or 1), int(m["sides"])
    if sides < 2:
        raise ValueError(f"{name!r}: a die has two faces or more")
    if count > MAX_DICE:
        raise ValueError(f"{name!r}: at most {MAX_DICE} dice are rolled together")
    usual = 0 if sides == 10 and count == 1 else 1            # the d10 reads 0-9 (DESIGN §5)
    low = usual
    if m["low"] is not None:
        low, high = int(m["low"]), int(m["high"])
        if high - low + 1 != sides:
            raise ValueError(f"{name!r}: a d{sides} has {sides} faces, not {low}-{high}")
    # One name per die, whichever spelling asked for it ("d6", "d6:1-6", "d6 1-6"), so that equal dice are equal.
    label = f"{count if count > 1 else ''}d{sides}"
    return Die(label if low == usual else f"{label}:{low}-{low + sides - 1}", count, sides, low)


D10 = die("d10")
D6 = die("d6")


def faces(name: "str | Die") -> range:
    """The totals a die shows, e.g. ``range(1, 7)`` for a d6."""
    return die(name).faces
