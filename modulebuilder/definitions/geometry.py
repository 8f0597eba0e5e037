"""Checks that need the map's hex grid: hexes on the map, hexside pairs and road steps adjacent, facings
at vertices.  Each check takes the references already pulled out of a document, so the authored map, the
resolved scenario and a scenario's set-up share them.
"""
from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Any, Iterable, Sequence

from ..hexgrid import HexGrid
from ..model import Grid
from .problems import Path, Problem
from .yamlpos import Located

_HEX_NAME = re.compile(r"[0-9]{4}([0-9]{2})?")     # as the schemas' hex pattern
GRID_FIELDS = ("orientation", "shifted", "first_column", "first_row", "columns", "rows", "digits")


@dataclass(frozen=True)
class HexRef:
    """A hex named at ``path``; ``at_key`` when the hex is a mapping key (``names: {"0304": ...}``)."""
    path: Path
    hex: str
    at_key: bool = False


def grid_of(data: Any) -> Grid | None:
    """The grid model of a ``grid`` mapping, or None when it breaks the schema (which then says how)."""
    if not (isinstance(data, dict) and data.get("orientation") in ("pointy", "flat")
            and data.get("shifted") in ("even", "odd") and data.get("digits", 2) in (2, 3)
            and all(_small_int(data.get(k)) for k in GRID_FIELDS[2:6])):
        return None
    return Grid(**{k: data[k] for k in GRID_FIELDS if k in data})


def _small_int(value: Any) -> bool:
    # The geometry builds a table of every hex, so a grid of a million columns must not reach it.
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 999


def hex_grid(doc: Located, path: Path, grid: Grid | None) -> tuple[HexGrid | None, list[Problem]]:
    """The geometry of ``grid``; a grid the geometry refuses (numbers too wide for its digits) is a problem."""
    if grid is None:
        return None, []
    try:
        return HexGrid.from_model(grid), []
    except (ValueError, TypeError) as exc:
        return None, [doc.problem(path, str(exc))]


def describe_extent(grid: HexGrid) -> str:
    return (f"columns {grid.first_column}-{grid.last_column}, rows {grid.first_row}-{grid.last_row}")


def off_map(doc: Located, grid: HexGrid, refs: Iterable[HexRef]) -> list[Problem]:
    """Hexes that are well-formed numbers but not on this map (the schema reports malformed ones)."""
    return [doc.problem(r.path, f"hex {r.hex!r} is not on the map ({describe_extent(grid)})", at_key=r.at_key)
            for r in refs if _HEX_NAME.fullmatch(r.hex) and not grid.contains(r.hex)]


def non_adjacent_pairs(doc: Located, grid: HexGrid, pairs: Iterable[tuple[Path, str, str]]) -> list[Problem]:
    """Hexside features sit between two neighbouring hexes; anything else is a typo in a hex number."""
    return [doc.problem(path, f"hexes {a!r} and {b!r} are not adjacent, so they share no hexside")
            for path, a, b in pairs
            if grid.contains(a) and grid.contains(b) and not grid.adjacent(a, b)]


def broken_paths(doc: Located, grid: HexGrid, paths: Iterable[tuple[Path, Sequence[str]]]) -> list[Problem]:
    """Every step of a road or path must go to an adjacent hex; the problem points at the hex that jumps."""
    out = []
    for path, hexes in paths:
        for i in range(1, len(hexes)):
            a, b = hexes[i - 1], hexes[i]
            if grid.contains(a) and grid.contains(b) and not grid.adjacent(a, b):
                out.append(doc.problem(path + (i,), f"hex {b!r} is not adjacent to {a!r} before it"))
    return out


def bad_facing(grid: HexGrid, facing: int) -> str | None:
    """Why ``facing`` is not a legal facing on ``grid``, or None if it is."""
    if grid.is_vertex(facing):
        return None
    hours = ", ".join(str(h) for h in sorted(grid.vertex_hours))
    return (f"facing {facing} points at a hexside; on a {grid.orientation} map a unit faces a vertex "
            f"({hours})")
