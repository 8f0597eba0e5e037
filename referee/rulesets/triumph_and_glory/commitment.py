"""The Assault Probability (Commitment) Check, 9.41–9.46 with 5.27 (main digest §8.1, gaps §7).

* 9.41 / 9.46 one roll for the **top unit** of each declared attacking hex, after every declaration (9.44) and
  before any resolution — sequencing is the engine's; this module builds the roll.
* [9.43] base = the top unit's **cohesion** on the face now up; pass iff natural + ΣDRM ≤ cohesion.
* 9.42 modifiers:
  - **CinC DRM** (negative; Napoleon −2) when the order group is Under Orders (an Individual Order counts)
    and at least one unit of the group is within the CinC's command range.  Optional (A-16: the player may
    decline — ``use_cinc=False``).
  - **+1** when the group is No Orders (Reserve Activation included, 5.53) and the rolling unit is *not*
    within the CinC's range (5.27; A-3 tests the rolling unit's hex).  A NO unit in range gets neither term.
  - **+DFE** of the top unit of each target hex whose top unit is infantry, when the rolling unit stands in
    that defender's front (infantry in a village/chateau/redoubt, or a square, is all front).  Summed over the
    target hexes (A-18).  **Never for a cavalry charge** (9.42, gaps §7).
  - No CinC (Schevardino, gaps §13.1: everyone Under Orders): only the DFE term.
* 9.45 if the top unit passes, every declared non-artillery unit of its hex must assault; if it fails (or is
  Disordered) none may.  Artillery never assaults (9.25).
"""
from __future__ import annotations

from typing import Iterable, Literal, Sequence

from .board import Board, UnitState
from referee.engine.ruling import Error
from .facing import is_front
from .rolls import Modifier, PassRoll, nonzero

__all__ = ["OrderStatus", "commitment_roll", "cinc_in_range", "cinc_modifier", "no_orders_modifier",
           "dfe_modifiers", "committed_units", "defender_front", "commitment_order_errors",
           "resolution_order_errors"]

OrderStatus = Literal["UO", "NO"]


def cinc_in_range(cinc: UnitState | None, unit: UnitState, board: Board) -> bool:
    """5.61: ``unit`` is within the CinC's command range (ordinary hex distance; CinC hex not counted)."""
    if cinc is None or cinc.hex is None or unit.hex is None:
        return False
    return board.grid.distance(cinc.hex, unit.hex) <= cinc.defn.command_range  # type: ignore[union-attr]


def cinc_modifier(board: Board, cinc: UnitState | None, order_status: OrderStatus,
                  group: Iterable[UnitState], use_cinc: bool = True) -> Modifier | None:
    """9.42: the CinC DRM for an Under-Orders group with a member in command range (optional, A-16)."""
    if cinc is None or order_status != "UO" or not use_cinc:
        return None
    if not any(cinc_in_range(cinc, u, board) for u in group):
        return None
    drm = cinc.defn.drm  # type: ignore[union-attr]
    rng = cinc.defn.command_range  # type: ignore[union-attr]
    return Modifier(drm, "9.42", f"under orders, {cinc.defn.name} within {rng} hexes")


def no_orders_modifier(board: Board, cinc: UnitState | None, order_status: OrderStatus,
                       unit: UnitState) -> Modifier | None:
    """9.42 / 5.27: +1 for a No-Orders unit outside its CinC's range (A-3)."""
    if order_status != "NO" or cinc_in_range(cinc, unit, board):
        return None
    return Modifier(1, "5.27", "no orders, not within the CinC's command range")


def defender_front(board: Board, defender: UnitState, attacker_hex: str) -> bool:
    """Does ``attacker_hex`` lie in ``defender``'s front as a defender?  6.11 (all-round village infantry,
    cavalry defensive facing), 9.85 (a square is all front: facing.front_hours)."""
    return is_front(board, defender, attacker_hex, "defender")


def dfe_modifiers(board: Board, attacker: UnitState, target_hexes: Sequence[str],
                  charge: bool) -> tuple[Modifier, ...]:
    """9.42: +DFE of each target hex's top infantry unit attacked through its front; none for a charge."""
    if charge or attacker.hex is None:
        return ()
    out = []
    for h in target_hexes:
        top = board.top(h)
        if top is None or top.kind != "infantry" or not defender_front(board, top, attacker.hex):
            continue
        dfe = top.value("dfe") or 0
        if dfe:
            out.append(Modifier(dfe, "9.42", f"DFE of {top.defn.name} (front)"))
    return tuple(out)


def commitment_roll(board: Board, attacker: UnitState, target_hexes: Sequence[str], *, order_status: OrderStatus,
                    cinc: UnitState | None, group: Iterable[UnitState] = (), charge: bool = False,
                    use_cinc: bool = True) -> PassRoll:
    """The APC of ``attacker`` (the top unit of its hex) against ``target_hexes`` (9.41–9.43).

    ``group`` is the attacker's order group (for the CinC range test; defaults to the attacker alone);
    ``cinc`` the side's CinC on the board, None in Schevardino."""
    members = tuple(group) or (attacker,)
    mods = nonzero((cinc_modifier(board, cinc, order_status, members, use_cinc),
                    no_orders_modifier(board, cinc, order_status, attacker),
                    *dfe_modifiers(board, attacker, target_hexes, charge)))
    return PassRoll("commitment", attacker.value("cohesion") or 0, "9.43", f"cohesion of {attacker.defn.name}",
                    mods, attacker.id)


def committed_units(board: Board, hex_id: str, declared: Iterable[str], passed: bool) -> tuple[str, ...]:
    """9.45: the declared units of ``hex_id`` that must assault: every declared non-artillery unit if its top
    unit passed (and is not Disordered), none otherwise."""
    top = board.top(hex_id)
    if not passed or top is None or top.disordered:
        return ()
    want = set(declared)
    return tuple(u.id for u in board.stack(hex_id) if u.id in want and u.kind != "artillery")


def commitment_order_errors(declarations_closed: bool) -> list[Error]:
    """9.44: every assault and charge is declared before the first Commitment roll."""
    if declarations_closed:
        return []
    return [Error("9.44", "commitment_before_declaration",
                      "declare every assault and charge before rolling any Assault Probability Check")]


def resolution_order_errors(unrolled: Iterable[str]) -> list[Error]:
    """9.46: no assault is resolved while a declared hex's Commitment roll is still owed (``unrolled``: the top
    units still to roll)."""
    owed = tuple(unrolled)
    if not owed:
        return []
    return [Error("9.46", "commitment_pending",
                      f"roll every Assault Probability Check before resolving an assault: {', '.join(owed)} still to roll",
                      owed)]
