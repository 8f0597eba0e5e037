"""Paths for moves read from VASSAL: the cheapest legal path, found against the live game state.

VASSAL records where a piece ended, not how it got there; the referee's ``move`` needs the hexes entered.
The path depends on the position *when the move is made* (other units, ZOC, what already moved), so the
events are replayed through the engine and each move's path is found from the state just before it is ruled:

1. the ruleset's cheapest legal path in the event's mode, or else the first of normal / limited / extended
   that reaches the hex (that mode is then written into the event);
2. if no mode can legally end there, the cheapest path with no movement-point limit, so that the ruling
   says why (too far, a prohibited hexside...) about the route the player most likely meant;
3. if the hex cannot be reached at all, the straight line on the map: the referee rules it illegal and
   lists the hexes the unit could reach instead.

Only Triumph & Glory knows paths today; another ruleset's moves get the straight line.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from referee.engine.replay import new_game, step

from .vassal_events import ReadEvent, unreadable

MODES = (None, "limited", "extended")   # None: the ruleset's default (normal) movement
REINFORCEMENT = "reinforcement"
UNLIMITED = 999                          # an allowance no map needs: "cheapest ignoring MP"


def resolve(ruleset: Any, scenario: Any, events: Sequence[ReadEvent], dice: str = "players") -> list[dict[str, Any]]:
    """The events with every destination turned into a ``path``, in order."""
    game = new_game(ruleset, scenario, dice)
    out: list[dict[str, Any]] = []
    for i, read in enumerate(events):
        event = read.event if read.destination is None else with_path(game.state, read)
        if read.markers:
            event = with_first_marker(game.state, read)
        _, game, _ = step(game, i, event)
        out.append(event)
    return out


def with_first_marker(state: Any, read: ReadEvent) -> dict[str, Any]:
    """``!first viii-corps`` with no side typed: the marker of that name of the side holding the initiative,
    who picks the first marker (4.0); unreadable when nobody holds it."""
    holder = getattr(state, "initiative", None)
    mine = [m for m, side in read.markers if side == holder]
    if holder is None or len(mine) != 1:
        names = ", ".join(m for m, _ in read.markers)
        return unreadable(read.step, read.line or "", f"activation marker {names} could be either side's, and no "
                          "side holds the initiative to pick it: type the side (e.g. '!first french ...')").event
    return {**read.event, "side": holder, "marker": mine[0]}


def with_path(state: Any, read: ReadEvent) -> dict[str, Any]:
    assert read.destination is not None and read.mover is not None
    path, mode = tg_path(state, read.mover, read.destination, read.event.get("mode"), read.event.get("facing"))
    event = {**read.event, "path": path}
    if mode is not None and "mode" not in event and read.event["type"] == "move":
        event["mode"] = mode
    return event


def tg_path(state: Any, uid: str, dest: str, mode: str | None, facing: int | None) -> tuple[list[str], str | None]:
    """(path, mode) for Triumph & Glory; the straight line for a state without a T&G board."""
    board = getattr(state, "board", None)
    unit = getattr(board, "units", {}).get(uid)
    if unit is None:
        return [dest], None
    from referee.rulesets.triumph_and_glory import movement
    ctx = _context(state, uid)
    for m in (mode,) if mode is not None else _modes(unit):
        path = movement.cheapest_path(board, uid, dest, m, ctx)
        if path and movement.check_move(board, uid, path, m, ctx, facing=facing, alternatives=False).legal:
            return path, m
    unlimited = movement.cheapest_path(board, uid, dest, mode, replace(ctx, allowance=UNLIMITED))
    if unlimited:
        return unlimited, None
    return straight_line(board, unit.hex, dest), None


def _modes(unit: Any) -> tuple[str | None, ...]:
    # A unit waiting in the reinforcement box enters the map in the reinforcement mode (7.4x).
    return (REINFORCEMENT,) + MODES if getattr(unit, "box", None) == REINFORCEMENT else MODES


def _context(state: Any, uid: str) -> Any:
    """The mover's activation context when it is activated now; the default context otherwise."""
    from referee.rulesets.triumph_and_glory import movement, moves
    act = getattr(state, "activation", None)
    if act is not None and uid in act.units:
        return moves.move_context(state, uid)
    return movement.MoveContext()


def straight_line(board: Any, start: str | None, dest: str) -> list[str]:
    """The hexes a straight line from ``start`` to ``dest`` enters (just ``dest`` when there is no start)."""
    grid = getattr(board, "grid", None)
    if start is None or grid is None or start == dest:
        return [dest]
    cells = [c[0] for c in grid.line(start, dest)]
    return [h for h in cells[1:] if grid.contains(h)] or [dest]
