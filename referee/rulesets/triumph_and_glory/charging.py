"""The record of one activation's charges (9.81–9.87), kept in ``Combat.charging``, and the questions about it
that the acts of fire and shock ask (``owed``, ``shock_events``) besides the charge verbs (``charge_events``):
which group an assault shocks with (9.23), whether a hex holds open chargers, what reaction fire does to them
(8.6, 9.24)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from modulebuilder.records import field, record
from referee.engine.ruling import Awaiting

from .board import Board
from .combat import Assault, Combat


@record(frozen=True)
class Charging:
    """The charges of one activation (kept in ``Combat.charging``).

    ``moves_owed``: chargers whose stack passed its Commitment roll and have not charged yet (9.81 step 3);
    ``may_square``: target hexes whose stack passed the 9.85 test when the charge was declared (ZOC then);
    ``may_counter``: defending cavalry not in an enemy frontal ZOC when the charge was declared (9.86);
    ``squared`` / ``counter_tried`` / ``recall_tried``: one attempt each; ``countered``: charge assault ->
    cavalry that counter-charged it successfully, ``countered_at``: the chargers' hex it was aimed at (9.86);
    ``vs_infantry``: infantry assault -> the cavalry that
    counter-charges it without a roll; ``rf_disordered``: chargers Disordered by reaction fire (9.24);
    ``recalled``: 9.82; ``ends``: open charge (or pursuit chain) -> the units 9.84 Disorders when it ends;
    ``pursuit_owed``: (assault, vacated hex, defender ids) whose pursuit (9.87) is owed."""
    moves_owed: tuple[str, ...] = ()
    may_square: frozenset[str] = frozenset()
    may_counter: frozenset[str] = frozenset()
    squared: frozenset[str] = frozenset()
    counter_tried: frozenset[int] = frozenset()
    countered: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    countered_at: Mapping[int, str] = field(default_factory=dict)
    vs_infantry: Mapping[int, str] = field(default_factory=dict)
    rf_disordered: frozenset[str] = frozenset()
    recall_tried: frozenset[str] = frozenset()
    recalled: frozenset[str] = frozenset()
    ends: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    pursuit_owed: tuple[tuple[int, str, tuple[str, ...]], ...] = ()
    side: str | None = None                            # the charging side

    @property
    def owes(self) -> bool:
        """Charge moves or a pursuit still to make: nothing else may happen first."""
        return bool(self.moves_owed or self.pursuit_owed)

    def awaiting(self, defender_first: bool) -> list[Awaiting]:
        """The charge moves owed, then the pursuit (once the defender's checks and retreat are done)."""
        out = [Awaiting("charge", self.side, "9.81", u) for u in self.moves_owed]
        if self.pursuit_owed and not defender_first:
            out.append(Awaiting("pursuit", self.side, "9.87"))
        return out


NONE = Charging()


def charging(c: Combat) -> Charging:
    return c.charging if c.charging is not None else NONE


def with_charging(c: Combat, **changes: Any) -> Combat:
    return replace(c, charging=replace(charging(c), **changes))


def assault_group(a: Assault, board: Board) -> str:
    """9.23: ``charge`` | ``cavalry`` | ``infantry`` — the group an assault shocks with."""
    if a.charge:
        return "charge"
    kinds = [board.units[u].kind for u in a.attackers if board.units[u].kind != "artillery"]
    return "cavalry" if kinds and all(k == "cavalry" for k in kinds) else "infantry"


def is_charging_hex(c: Combat, hex_: str, board: Board) -> bool:
    """Does ``hex_`` hold chargers of an open charge (reaction fire there does not cancel, 9.24)?"""
    return any(a.charge and i not in c.resolved and any(board.units[u].hex == hex_ for u in a.attackers)
               for i, a in enumerate(c.assaults))


def reaction_fire_hit(board: Board, c: Combat, hex_: str, hit: Sequence[str]) -> Combat:
    """8.6 / 9.24: chargers Disordered by reaction fire carry on without the charge DRM, or may recall."""
    now = frozenset(u for u in hit if board.units[u].hex == hex_ and board.units[u].disordered
                    and board.units[u].kind == "cavalry")
    if not now:
        return c
    return with_charging(c, rf_disordered=charging(c).rf_disordered | now)
