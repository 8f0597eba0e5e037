"""Where a scenario puts its units and leaders: the checks on set-up lines and reinforcements, and the
:class:`~modulebuilder.model.Placement` / :class:`~modulebuilder.model.Reinforcement` models.

The authored scenario writes ``setup: [{unit: dumon-a, hex: ..}]``; the resolved scenario writes the hex on
the unit itself (``units: [{id: dumon-a, hex: ..}]``).  Both become :class:`Placed` entries here.
"""
from __future__ import annotations

from dataclasses import dataclass
import difflib
from typing import Iterable, Iterator, Mapping, Sequence

from ..hexgrid import HexGrid, add_hours
from ..model import Placement, Reinforcement
from .entries import Entry
from .geometry import HexRef, bad_facing, off_map
from .problems import Path, Problem, format_path
from .rulesets import SetupRules


@dataclass(frozen=True)
class Placed:
    """One placement: ``entry`` is the set-up line (or the resolved unit), ``id_field`` names the piece."""
    entry: Entry
    id_field: str = "unit"

    @property
    def piece(self) -> str | None:
        return self.entry.text(self.id_field)


def check_placements(placed: Sequence[Placed], reinforcements: Sequence[Entry], pieces: Mapping[str, Entry],
                     grid: HexGrid | None, sides: Sequence[str] | None,
                     rules: SetupRules = SetupRules()) -> list[Problem]:
    """Unknown pieces, pieces placed twice, hexes off the map, facings at hexsides, sides not in play;
    ``rules`` are the ruleset's (whether a unit on the map needs a facing)."""
    out = _known_and_once(_references(placed, reinforcements), pieces)
    for p in placed:
        piece = pieces.get(p.piece or "")
        if piece is not None:
            out += _side_in_play(p.entry, p.id_field, piece, sides)
            out += _on_map(p.entry, piece, grid, rules)
    if grid is not None:
        for r in reinforcements:
            out += off_map(r.doc, grid, (HexRef(r.path + ("entry", k), h)
                                         for k, h in enumerate(_strings(r.data.get("entry")))))
    return out


def _references(placed: Sequence[Placed], reinforcements: Sequence[Entry]) -> Iterator[tuple[Entry, Path, str]]:
    """Every mention of a piece that puts it in the scenario: (entry, field within it, piece id)."""
    for p in placed:
        if p.piece is not None:
            yield p.entry, (p.id_field,), p.piece
    for r in reinforcements:
        units = r.data.get("units")
        for j, uid in enumerate(units if isinstance(units, list) else []):
            if isinstance(uid, str):
                yield r, ("units", j), uid


def _known_and_once(refs: Iterable[tuple[Entry, Path, str]], pieces: Mapping[str, Entry]) -> list[Problem]:
    out: list[Problem] = []
    first: dict[str, Path] = {}
    for entry, field, uid in refs:
        path = entry.path + field
        if uid not in pieces:
            out.append(entry.doc.problem(path, f"no unit or leader {uid!r} in the counters files"
                                               f"{_suggest(uid, pieces)}"))
        elif uid in first:
            out.append(entry.doc.problem(path, f"{uid!r} is already placed at {format_path(first[uid])}"))
        else:
            first[uid] = entry.path
    return out


def _strings(value: object) -> list[str]:
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def _on_map(e: Entry, piece: Entry, grid: HexGrid | None, rules: SetupRules) -> list[Problem]:
    """The hex is on the map, and the piece's facing and status suit what it is."""
    hex_id = e.text("hex")
    out: list[Problem] = []
    if grid is not None and hex_id is not None:
        out += off_map(e.doc, grid, [HexRef(e.path + ("hex",), hex_id)])
    if piece.section == "leaders":
        out += [e.problem(f, f"leaders have no {f}", at_key=True) for f in ("facing", "status") if f in e.data]
        return out
    flags = piece.data.get("flags")
    flag_set = set(flags) if isinstance(flags, list) else set()
    faceless = not rules.facing_required or bool(flag_set & rules.faceless_flags)
    if hex_id is not None and "facing" not in e.data and "box" not in e.data and not faceless:
        out.append(e.missing("facing", "a unit on the map needs a facing"))
    facing = e.integer("facing")
    if grid is not None and facing is not None and 1 <= facing <= 12:
        why = bad_facing(grid, facing)
        if why:
            out.append(e.problem("facing", why))
        elif piece.data.get("size") == 2 and hex_id is not None and grid.contains(hex_id):
            # A two-hex unit stands on its hex (the left half) and the neighbour at facing+3 hours
            # (M&P [6.1]); both halves must be on the map.
            right = grid.neighbour(hex_id, add_hours(facing, 3))
            if right is None:
                out.append(e.problem("hex", f"the right half of this two-hex unit (the neighbour of {hex_id} "
                                            f"at {add_hours(facing, 3)} o'clock) is off the map"))
    if e.data.get("status") == "disordered" and isinstance(flags, list) and "no_back" in flags:
        # A counter without a Disordered side cannot start Disordered (cossacks go to the Withdrawn box).
        out.append(e.problem("status", f"{piece.data.get('id')!r} has no Disordered side (flag no_back)"))
    return out


def _side_in_play(e: Entry, id_field: str, piece: Entry, sides: Sequence[str] | None) -> list[Problem]:
    if sides is None or piece.side is None or piece.side in sides:
        return []
    return [e.problem(id_field, f"{piece.data.get('id')!r} is on side {piece.side}, which is not one of the "
                                f"scenario's sides ({', '.join(sides)})")]


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# --------------------------------------------------------------------------------------------- model

def build_placements(placed: Sequence[Placed], pieces: Mapping[str, Entry]) -> tuple[Placement, ...]:
    """Unit placements in list order (that order is the stacking order), then leader placements.

    Leaders do not stack with units in any rule, so keeping them apart loses nothing and lets the
    resolved form (which lists units and leaders separately) come back to an equal model.
    """
    def placement(p: Placed) -> Placement:
        d = p.entry.data
        return Placement(unit=d[p.id_field], hex=d.get("hex"), box=d.get("box"), facing=d.get("facing"),
                         status=d.get("status", "good"), formation=d.get("formation"))

    def is_leader(p: Placed) -> bool:
        return pieces[p.piece].section == "leaders"

    return tuple(placement(p) for p in placed if not is_leader(p)) + \
        tuple(placement(p) for p in placed if is_leader(p))


def build_reinforcement(e: Entry) -> Reinforcement:
    d = e.data
    return Reinforcement(units=tuple(d["units"]), entry=tuple(d["entry"]), turn=d.get("turn"),
                         condition=d.get("condition"), ag=d.get("ag"))
