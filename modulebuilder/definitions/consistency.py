"""Checks across a scenario's parts that the schema cannot express: the turn range, turns that fall outside
it (reinforcements, the start), and set-ups that contradict themselves.  Each would otherwise validate and
fail later with a message about something else ("VASSAL cannot encode an empty sequence" for a game whose
last turn is before its first).

Both notations use them: the authored scenario (set-up lines) and the resolved one (units with a hex).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable, Mapping, Sequence

from ..hexgrid import HexGrid, add_hours
from .entries import Entry
from .placements import Placed
from .problems import Path, Problem
from .yamlpos import Located


def turn_range(doc: Located, path: Path = ("turns",)) -> tuple[tuple[int, int] | None, list[Problem]]:
    """(first, last) of the scenario's turns, and the problem if last comes before first."""
    turns = doc.get(path)
    if isinstance(turns, int) and not isinstance(turns, bool):
        return ((1, turns) if turns >= 1 else None), []
    if not isinstance(turns, dict):
        return (1, 1) if turns is None else None, []
    first, last = turns.get("first"), turns.get("last")
    if not (_is_int(first) and _is_int(last)):
        return None, []                     # the schema reports it
    if last < first:
        return None, [doc.problem(path + ("last",), f"the last turn ({last}) comes before the first ({first})")]
    return (first, last), []


def turns_in_range(doc: Located, span: tuple[int, int] | None, reinforcements: Iterable[Entry],
                   start: Path = ("start",)) -> list[Problem]:
    """Reinforcements and the start must fall on a turn of the game."""
    if span is None:
        return []
    first, last = span
    out: list[Problem] = []
    for r in reinforcements:
        turn = r.data.get("turn")
        if _is_int(turn) and not first <= turn <= last:
            out.append(r.problem("turn", f"turn {turn} is not a turn of this game (turns {first}-{last}); these "
                                         "units would never arrive"))
    begin = doc.get(start + ("turn",))
    if _is_int(begin) and not first <= begin <= last:
        out.append(doc.problem(start + ("turn",), f"turn {begin} is not a turn of this game (turns {first}-{last})"))
    return out


def setup_contradictions(placed: Sequence[Placed], reinforcements: Sequence[Entry], pieces: Mapping[str, Entry],
                         grid: HexGrid | None) -> list[Problem]:
    """Pieces of both sides in one hex; a two-hex unit's half on an enemy; a unit waiting in the
    reinforcement box that no reinforcement brings; a reinforcement whose units are of another group."""
    out: list[Problem] = []
    holders: dict[str, list[tuple[Placed, str]]] = defaultdict(list)   # hex -> (placement, side)
    for p in placed:
        piece = pieces.get(p.piece or "")
        if piece is None or piece.side is None:
            continue
        for hex_id in _hexes_held(p, piece, grid):
            holders[hex_id].append((p, piece.side))
    for hex_id, here in holders.items():
        first_side = here[0][1]
        for p, side in here[1:]:
            if side != first_side:
                other = here[0][0]
                out.append(p.entry.problem(p.id_field, f"{p.piece!r} ({side}) starts in hex {hex_id!r} with "
                                                       f"{other.piece!r} ({first_side}): enemies never share a hex"))
                break
    arriving = {u for r in reinforcements for u in _strings(r.data.get("units"))}
    for p in placed:
        if p.entry.data.get("box") == "reinforcement" and p.piece not in arriving:
            out.append(p.entry.problem("box", f"{p.piece!r} waits in the reinforcement box, but no entry of "
                                              "reinforcements brings it on"))
    for r in reinforcements:
        ag = r.text("ag")
        for j, uid in enumerate(_strings(r.data.get("units"))):
            piece = pieces.get(uid)
            theirs = piece.data.get("ag") if piece is not None and piece.section == "units" else None
            if ag is not None and isinstance(theirs, str) and theirs != ag:
                out.append(r.doc.problem(r.path + ("units", j), f"{uid!r} belongs to activation group {theirs!r}, "
                                                               f"not the reinforcement's {ag!r}"))
    return out


def _hexes_held(p: Placed, piece: Entry, grid: HexGrid | None) -> list[str]:
    hex_id = p.entry.text("hex")
    if hex_id is None or "box" in p.entry.data:
        return []
    held = [hex_id]
    facing = p.entry.integer("facing")
    if piece.data.get("size") == 2 and grid is not None and facing is not None and grid.contains(hex_id):
        right = grid.neighbour(hex_id, add_hours(facing, 3))     # M&P [6.1], as placements checks it
        if right is not None:
            held.append(right)
    return held


def _strings(value: object) -> list[str]:
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
