"""Facing (6.11–6.14) and the facing of retreating units (9.62, 9.64).  Main digest §3.

Facings are vertex clock hours (DESIGN §3): for facing ``f`` the front hexes lie at ``f±1``, the flank hexes at
``f±3`` and the rear hexes at ``f±5``.  (The digest's vertex ``k`` with front ``{k, k+1}``: its ``k−1`` is
``f−3``, ``k+2`` is ``f+3``, ``k+3`` / ``k+4`` are ``f+5`` / ``f−5``.)

Which hexes count as front depends on the unit and its role (``attacker`` | ``defender`` | ``firer`` |
``zoc``), main digest §3.2:

* 6.11 **standard**: front ``f±1``; the flank hexes count as rear.
* 6.11 **infantry in a village, chateau or redoubt** (switch ``all_round_terrain``): all six hexes are front,
  whatever the role.  Artillery there keeps the standard facing (catalogue 26).
* 9.85 **a stack in square**: all six hexes are front for combat and fire, its artillery included.
* 6.11 **defensive cavalry facing**: Good-Order cavalry *defending* counts its flank hexes as front; rear is
  ``f±5`` only.  When it attacks, or when Disordered, it uses the standard facing (catalogue 28, 29).
* gaps §2: a unit's **frontal ZOC hexes** (6.34) use the standard front — the defensive cavalry facing is
  not used for ZOC (role ``zoc``).

Legality: a facing must be a vertex (6.11); units in a hex share one facing except artillery stacked with
infantry or cavalry (6.14).  A retreating unit keeps its facing (9.62) unless it retreats into a hex of
friends, whose facing it takes (9.64).  When a facing may change (only in the unit's own movement step,
digest default A-12) is the state machine's business.
"""
from __future__ import annotations

from typing import Iterable, Literal

from modulebuilder.hexgrid import add_hours

from .board import Board, UnitState
from referee.engine.ruling import Error

__all__ = ["Role", "facing_error", "front_hours", "front_hexes", "rear_hexes", "flank_positions", "is_front",
           "all_round", "shared_facing_errors", "required_facing", "retreat_facing", "retreat_facing_errors"]

Role = Literal["attacker", "defender", "firer", "zoc"]


def facing_error(board: Board, facing: object) -> Error | None:
    """6.11: a facing must point at a vertex of the hex, never at a hexside."""
    grid = board.grid
    if isinstance(facing, bool) or not isinstance(facing, int) or not 1 <= facing <= 12:
        return Error("6.11", "facing_not_an_hour", f"facing {facing!r} is not a clock hour 1-12",
                         tuple(grid.vertex_hours))
    if not grid.is_vertex(facing):
        return Error("6.11", "facing_hexside",
                         f"facing {facing} points at a hexside; a unit faces a vertex", tuple(grid.vertex_hours))
    return None


def all_round(board: Board, unit: UnitState) -> bool:
    """6.11: infantry in a village/chateau/redoubt hex has all six hexes as front."""
    return (unit.kind == "infantry" and unit.hex is not None
            and board.static.terrain(unit.hex) in board.rules.all_round_terrain)


def front_hours(board: Board, unit: UnitState, role: Role) -> tuple[int, ...]:
    """Direction hours that count as *front* for ``unit`` in ``role`` (main digest §3.2 table).  A stack in
    square (9.85) is all front for combat and fire, artillery in it included [inferred, gaps §10]; it has no
    ZOC at all (zoc.py), so the role ``zoc`` never asks."""
    if unit.square or all_round(board, unit):
        return tuple(board.grid.direction_hours)
    f = unit.facing
    if f is None:
        return ()
    if unit.kind == "cavalry" and role == "defender" and not unit.disordered:
        return (add_hours(f, -1), add_hours(f, 1), add_hours(f, -3), add_hours(f, 3))   # defensive facing
    return (add_hours(f, -1), add_hours(f, 1))


def _at(board: Board, hex_id: str, hours: Iterable[int]) -> tuple[str, ...]:
    grid = board.grid
    return tuple(n for n in (grid.neighbour(hex_id, h) for h in hours) if n is not None)


def front_hexes(board: Board, unit: UnitState, role: Role) -> tuple[str, ...]:
    """On-map hexes that count as ``unit``'s front in ``role`` (6.11, 6.13)."""
    return _at(board, unit.hex, front_hours(board, unit, role)) if unit.hex else ()


def rear_hexes(board: Board, unit: UnitState, role: Role) -> tuple[str, ...]:
    """Every adjacent hex that is not front (standard facing: flank counts as rear, 6.11)."""
    if unit.hex is None:
        return ()
    front = set(front_hours(board, unit, role))
    return _at(board, unit.hex, (h for h in board.grid.direction_hours if h not in front))


def is_front(board: Board, unit: UnitState, hex_id: str, role: Role) -> bool:
    """True if ``hex_id`` is adjacent to ``unit`` and counts as its front in ``role``."""
    if unit.hex is None:
        return False
    d = board.grid.direction(unit.hex, hex_id)
    return d is not None and d in front_hours(board, unit, role)


def flank_positions(board: Board, unit: UnitState) -> tuple[str, ...]:
    """The two hexes beside the front, ``f±3`` (digest ``{k−1, k+2}``), used by the 9.53 clear-terrain test.
    For infantry with an all-round front there are none.  A square keeps them: the gaps digest's worked charge
    example gives the clear-terrain +1 against a square."""
    if unit.hex is None or unit.facing is None or all_round(board, unit):
        return ()
    return board.grid.flank(unit.hex, unit.facing)


def shared_facing_errors(units: Iterable[UnitState], facings: dict[str, int] | None = None) -> list[Error]:
    """6.11 / 6.14: all infantry and cavalry in one hex share one facing; artillery may face its own way.
    ``facings`` overrides the facing of some units (to test a facing before applying it)."""
    facings = facings or {}
    line = [(u, facings.get(u.id, u.facing)) for u in units if u.kind in ("infantry", "cavalry")]
    distinct = {f for _, f in line}
    if len(distinct) <= 1:
        return []
    first = line[0][1]
    names = ", ".join(f"{u.defn.name} ({f})" for u, f in line)
    return [Error("6.11", "stack_facing_differs",
                      f"units in one hex must share a facing (artillery excepted, 6.14): {names}", (first,))]


def required_facing(board: Board, unit: UnitState, hex_id: str) -> int | None:
    """6.11 / 6.14: the facing ``unit`` must take to stand in ``hex_id``: that of the friendly infantry or
    cavalry already there; None when it is free (artillery, or no such unit there)."""
    if unit.kind not in ("infantry", "cavalry"):
        return None
    for other in board.stack(hex_id):
        if other.id != unit.id and other.side == unit.side and other.kind in ("infantry", "cavalry"):
            return other.facing
    return None


def retreat_facing(board: Board, unit: UnitState, dest: str) -> int | None:
    """The facing a retreating unit has in ``dest``: that of the friends there (9.64), else its own (9.62)."""
    need = required_facing(board, unit, dest)
    return unit.facing if need is None else need


def retreat_facing_errors(board: Board, unit: UnitState, dest: str, facing: int | None) -> list[Error]:
    """9.62 / 9.64: a retreating unit may not turn; entering friends it takes their facing."""
    want = retreat_facing(board, unit, dest)
    if facing is None or facing == want:
        return []
    if want != unit.facing:
        return [Error("9.64", "retreat_take_facing",
                          f"{unit.defn.name} retreats into {dest} and must take the facing {want} of the units "
                          f"there", (want,))]
    return [Error("9.62", "retreat_keeps_facing",
                      f"{unit.defn.name} may not change facing while retreating (keeps {want})", (want,))]
