"""What the rules need to know about a counter that never changes during play (§2.1 of the digest).

The definitions model is shared with Triumph & Glory, so Musket & Pike reads its distinctions from data:
``kind`` (infantry | cavalry | artillery) plus the flags ``heavy`` / ``light`` (infantry), ``pikes``,
``wagon`` and ``limbered`` (artillery at set-up), and the unit field ``size`` (1 or 2 hexes).  A wagon is
defined under any kind with the flag ``wagon``: the shared schema has no wagon kind, and nothing in these
rules reads a wagon's values.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Arm(str, Enum):
    """The unit types the facing and formation rules distinguish."""
    CAVALRY = "cavalry"
    LIGHT = "light_infantry"
    HEAVY = "heavy_infantry"
    ARTILLERY = "artillery"
    WAGON = "wagon"


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    side: str
    wing: str
    arm: Arm
    size: int            # 1 or 2 hexes
    pikes: bool
    ma: int              # printed movement allowance

    @property
    def has_formation(self) -> bool:
        """6.3.1: wagons and artillery have no formation states."""
        return self.arm not in (Arm.ARTILLERY, Arm.WAGON)

    @property
    def counts_for_rally(self) -> bool:
        """MP-RALLY looks at cavalry and heavy infantry only."""
        return self.arm in (Arm.CAVALRY, Arm.HEAVY)


def arm_of(kind: str, flags: frozenset[str]) -> Arm:
    """The arm of a model unit.  Infantry is heavy unless flagged ``light`` (the line is the default)."""
    if "wagon" in flags:
        return Arm.WAGON
    if kind == "cavalry":
        return Arm.CAVALRY
    if kind == "artillery":
        return Arm.ARTILLERY
    return Arm.LIGHT if "light" in flags else Arm.HEAVY


def profile_of(unit: Any) -> Profile:
    flags = frozenset(unit.flags)
    arm = arm_of(unit.kind, flags)
    # The digest gives a two-hex counter to heavy infantry only (§2.1); a size on anything else is a data error
    # the definitions cannot see, so it is read as 1 rather than inventing rules for it.
    size = int(getattr(unit, "size", 1) or 1) if arm is Arm.HEAVY else 1
    return Profile(id=unit.id, name=unit.name, side=unit.side, wing=unit.ag, arm=arm, size=size,
                   pikes="pikes" in flags and arm is Arm.HEAVY, ma=unit.ma or 0)
