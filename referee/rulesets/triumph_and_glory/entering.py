"""Entering a hex: what the rules attach to a unit entering a hex, whichever way it enters.

A unit enters a hex by a ``move`` (7.x; also a reinforcement entering the map, 7.41, and the Borodino burning
unit's move, BOR-5), an ``advance`` after combat (9.71, 9.72, the breakthrough's advance 9.73), a ``pursuit``
(9.87), a ``charge`` move (9.81), a ``counter_shock`` move (9.73), a ``fall_back`` (9.31), a ``retreat``
(9.62–9.65) and a ``recovery`` placement (10.3).  Every one of them goes through this module:

* :func:`barrier` — what no way of entering may cross: a hex with an enemy combat unit (6.22), an On Fire
  hex (BOR-5: "no unit may enter"), a hex or hexside the movement table prohibits for the unit unless an
  intact bridge spans the hexside (7.23; Rubble is the terrain of a burnt village).  Each way answers a barrier
  its own way — a move or an advance is illegal, a retreat is destroyed (9.63) — so the caller names the code.
* ``stacking.stacking_errors_entering`` / ``stacking.stacking_errors`` — 6.21 and the scenario's stacking rules
  (BOR-STACK, BOR-MILITIA, BOR-ART-RESERVE) for the stack the unit ends in (units passing through are not
  checked, 6.21; a retreat that would break them goes on through the friends, 9.65).
* :func:`enter` — the consequences: the unit placed (at the bottom of the stack, 6.24), and 5.63: "if enemy
  units enter the hex of a commander-in-chief, whether by movement or by combat, the CinC is at once moved to
  the nearest of his own units" (seed: «вне зависимости в результате движения или боя … немедленно (!)»).

ZOC is not one consequence for all: entering an enemy ZOC ends a move (6.33) and limits a fall-back (9.31), but
a retreat, advance or pursuit is not stopped by it — those rules stay with their ways of entering.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from referee.engine.ruling import Result, result

from .board import Board, UnitState
from .terrain import column_of

__all__ = ["barrier", "enter", "entered", "displace_cincs", "nearest_friendly_hex"]


def barrier(board: Board, units: Sequence[UnitState], frm: str | None, to: str) -> str | None:
    """The rule that forbids ``units`` (one side) to enter ``to`` from ``frm`` whatever way they enter, or None:
    6.22 an enemy combat unit there, BOR-5 an On Fire hex, 7.23 a prohibited hex or (no intact bridge) hexside."""
    side = units[0].side
    if board.has_enemy(to, side):
        return "6.22"
    if to in board.on_fire:
        return "BOR-5"
    table, static = board.table, board.static
    terrain = "rubble" if to in board.rubble else static.terrain(to)
    features = static.features(frm, to) if frm is not None and not board.bridge_intact(frm, to) else ()
    for u in units:
        col = column_of(u.kind)
        if table.hex_cost(terrain, col).prohibited:
            return "7.23"
        if any(table.hexside_cost(f, col).prohibited for f in features):
            return "7.23"
    return None


def enter(board: Board, uid: str, to: str, facing: int | None = None, **changes: Any) -> tuple[Board, list[Result]]:
    """``uid`` enters ``to`` (validated by the caller): placed at the bottom of the stack (6.24), then 5.63."""
    side = board.units[uid].side
    board = board.place(uid, to, facing, **changes)
    return entered(board, (to,), side)


def entered(board: Board, hexes: Iterable[str], side: str) -> tuple[Board, list[Result]]:
    """The consequences of ``side``'s units having entered ``hexes`` (already placed): 5.63 CinC displacement."""
    return displace_cincs(board, hexes, side)


def nearest_friendly_hex(board: Board, leader_id: str) -> str | None:
    """5.63: the hex of the nearest friendly combat unit (A-22: equal distances → the first in set-up order)."""
    ldr = board.units[leader_id]
    best: tuple[int, str] | None = None
    for u in board.on_map_units():
        if u.side == ldr.side:
            d = board.grid.distance(ldr.hex, u.hex)  # type: ignore[arg-type]
            if best is None or d < best[0]:
                best = (d, u.hex)  # type: ignore[assignment]
    return best[1] if best else None


def displace_cincs(board: Board, entered: Iterable[str], mover_side: str) -> tuple[Board, list[Result]]:
    """5.63: every enemy CinC in a hex an enemy unit entered moves at once onto the nearest friendly unit."""
    results = []
    for h in entered:
        if h not in board.leaders_by_hex:          # the common case: no commander there
            continue
        for ldr in board.leaders_at(h):
            if ldr.side != mover_side:
                dest = nearest_friendly_hex(board, ldr.id)
                if dest is not None and dest != h:
                    board = board.place(ldr.id, dest)
                    results.append(result("moved", "5.63", ldr.id, to=dest))
    return board, results
