"""Line of sight and the firing arc, 8.4 (gaps digest §5).

The line is traced centre to centre with ``HexGrid.line`` (exact geometry; a 2-tuple where it runs along a
hexside) and ``HexGrid.hexsides_crossed``.  LOS is needed only at range 2 or more.

* An intervening hex **higher than both** firer and target blocks.
* Intervening **woods** (``LosOptions.blocking_terrain``): blocks when neither end is higher than the woods hex;
  never when both are; when only the firer is higher it blocks if the woods lie at the midpoint or nearer the
  target; when only the target is higher, at the midpoint or nearer the firer.
* Units and villages never block.  A **steep slope** hexside crossed by the line blocks (``blocking_hexsides``;
  the figure's dirt wall does not).
* Along a hexside the hexside's terrain counts as an intervening hex.  Engine default (``along_hexside``):
  a blocking hexside feature blocks; the two hexes either side block only if **both** would ("either" is the
  switch).
* The firing arc: LOS may leave the firer's hex only through its two frontal hexsides; a line through one of
  the two outer corners of those hexsides is inside the arc [inferred].  So the first hex(es) the line enters
  must include a front hex of the firer.

Every rule here is symmetric when firer and target stand at the same height.
"""
from __future__ import annotations

from typing import Literal

from modulebuilder.records import record
from .board import Board, UnitState
from .facing import front_hexes

__all__ = ["LosOptions", "Sight", "line_of_sight", "in_fire_arc", "hex_blocks"]


@record(frozen=True, slots=True)
class LosOptions:
    blocking_terrain: frozenset[str] = frozenset({"woods"})
    blocking_hexsides: frozenset[str] = frozenset({"steep", "steep_slope"})
    along_hexside: Literal["both", "either"] = "both"


DEFAULT_OPTIONS = LosOptions()


@record(frozen=True, slots=True)
class Sight:
    """The answer: ``clear``; when blocked, what blocks (a hex, or a hexside ``"a|b"``) and why."""
    clear: bool
    blocked_by: str | None = None
    reason: str = ""


CLEAR = Sight(True)


def hex_blocks(board: Board, h: str, a: str, b: str, options: LosOptions = DEFAULT_OPTIONS) -> str | None:
    """8.4: why the intervening hex ``h`` blocks the line ``a``–``b``, or None."""
    if not board.on_map(h):
        return None
    el = board.static.elevation
    eh, ea, eb = el(h), el(a), el(b)
    if eh > ea and eh > eb:
        return f"{h} is higher than both ends"
    if board.static.terrain(h) not in options.blocking_terrain:
        return None
    firer_higher, target_higher = ea > eh, eb > eh
    if firer_higher and target_higher:
        return None
    d = board.grid.distance
    if not firer_higher and not target_higher:
        return f"{board.static.terrain(h)} in {h}, neither end higher"
    if firer_higher and d(h, b) <= d(h, a):
        return f"{board.static.terrain(h)} in {h} at the midpoint or nearer the lower end"
    if target_higher and d(h, a) <= d(h, b):
        return f"{board.static.terrain(h)} in {h} at the midpoint or nearer the lower end"
    return None


def line_of_sight(board: Board, a: str, b: str, options: LosOptions = DEFAULT_OPTIONS) -> Sight:
    """8.4: can a unit in ``a`` see ``b``?"""
    grid = board.grid
    if grid.distance(a, b) <= 1:
        return CLEAR
    for x, y in grid.hexsides_crossed(a, b):
        if set(board.static.features(x, y)) & options.blocking_hexsides:
            return Sight(False, f"{x}|{y}", "steep slope hexside crossed")
    for step in grid.line(a, b)[1:-1]:
        if len(step) == 1:
            why = hex_blocks(board, step[0], a, b, options)
            if why:
                return Sight(False, step[0], why)
            continue
        x, y = step
        if set(board.static.features(x, y)) & options.blocking_hexsides:
            return Sight(False, f"{x}|{y}", "the line runs along a steep slope hexside")
        whys = [hex_blocks(board, h, a, b, options) for h in step]
        if all(whys) or (options.along_hexside == "either" and any(whys)):
            return Sight(False, f"{x}|{y}", "; ".join(w for w in whys if w))
    return CLEAR


def in_fire_arc(board: Board, firer: UnitState, target: str) -> bool:
    """8.4 / 6.13: the line from ``firer`` to ``target`` leaves through a frontal hexside (or its outer
    corner).  Artillery always uses its standard facing (6.11: the all-round front is infantry's only)."""
    if firer.hex is None or firer.hex == target:
        return False
    front = set(front_hexes(board, firer, "firer"))
    first = board.grid.line(firer.hex, target)[1]
    return any(h in front for h in first)
