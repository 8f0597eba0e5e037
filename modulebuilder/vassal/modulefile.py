"""Reading a .vmod back: its name, maps (hex grid, edge, holding-box zones) and set-ups.

One reader serves both halves of the project: the writer's tests read back what it built, and the referee
(``referee check LOG --module M.vmod``) names the hexes and boxes of a log's pixel positions exactly as the
engine does (``gridmap.location_name``).  A module is untrusted input like any upload: the buildFile's size is
capped, and it is parsed by :mod:`xmlread` (lxml without entities, DTD loading or network access, its markup
bounded); any problem is a :class:`VassalFileError` sentence.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from .errors import VassalFileError
from .gridmap import VassalHexGrid
from .xmlread import parse_xml
from .zipio import read_entries

__all__ = ["ModuleInfo", "MapGeometry", "ModuleData", "Zone", "read_module", "read_moduledata", "parse_build_file",
           "module_build_file"]

B = "VASSAL.build.module.map.boardPicker.board."
GRID_TAG = f"{B}HexGrid"
NUMBERING_TAG = f"{B}mapgrid.HexGridNumbering"
ZONE_TAG = f"{B}mapgrid.Zone"
MAP_TAGS = ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap")
SETUP_TAG = "VASSAL.build.module.PredefinedSetup"
MAX_MODULE_ENTRIES = 100_000       # big modules hold tens of thousands of images; the zip is read as a stream


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[tuple[float, float], ...]

    def contains(self, x: float, y: float) -> bool:
        """Even-odd ray casting; the writer's boxes are rectangles, but any simple polygon works."""
        inside = False
        pts = self.polygon
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


@dataclass(frozen=True)
class MapGeometry:
    name: str                              # mapName: the map id in piece states
    edge: tuple[int, int] = (0, 0)         # edgeWidth, edgeHeight: board pixels = map pixels - edge
    grid: VassalHexGrid | None = None      # the hex grid of its (first) board, if it has one
    zones: tuple[Zone, ...] = ()           # holding boxes


@dataclass(frozen=True)
class ModuleInfo:
    name: str
    version: str
    maps: dict[str, MapGeometry]             # map name -> geometry
    setups: dict[str, str]                   # set-up name -> .vsav entry

    @property
    def grids(self) -> dict[str, VassalHexGrid]:
        """map name -> hex grid, for the maps that have one."""
        return {n: m.grid for n, m in self.maps.items() if m.grid is not None}

    @property
    def zones(self) -> dict[str, tuple[str, ...]]:
        """map name -> its zone (holding box) names."""
        return {n: tuple(z.name for z in m.zones) for n, m in self.maps.items()}


def read_module(source: bytes | str | os.PathLike[str]) -> ModuleInfo:
    """The module in a .vmod file (a path, read as a stream) or its bytes."""
    what = "the module" if isinstance(source, bytes) else Path(source).name
    return parse_build_file(module_build_file(source, what), what)


@dataclass(frozen=True)
class ModuleData:
    """A ``moduledata`` entry (vassal.md 1.1): the module's name and version, as a module or a save carries it."""
    name: str
    version: str

    def __str__(self) -> str:
        return f"{self.name} {self.version}".strip() if self.name else f"an unnamed module {self.version}".strip()


MAX_METADATA_BYTES = 1024 * 1024


def read_moduledata(source: bytes | str | os.PathLike[str], what: str) -> ModuleData | None:
    """The ``moduledata`` of a module, save or log, or None when it has none (or it is not XML: the engine
    then shows no name either)."""
    entries = read_entries(source, ["moduledata"], what=what, max_bytes=MAX_METADATA_BYTES,
                           max_entries=MAX_MODULE_ENTRIES)
    if "moduledata" not in entries:
        return None
    try:
        root = parse_xml(entries["moduledata"], f"{what}'s moduledata")
    except etree.XMLSyntaxError:
        return None
    return ModuleData((root.findtext("name") or "").strip(), (root.findtext("version") or "").strip())


def module_build_file(module: bytes | str | os.PathLike[str], what: str = "the module") -> bytes:
    """The ``buildFile.xml`` of a module's bytes or file (size-capped: a zip bomb is refused, not inflated;
    a file is read as a stream, so a module of any size loads)."""
    entries = read_entries(module, ["buildFile.xml", "buildFile"], what=what, max_entries=MAX_MODULE_ENTRIES)
    data = entries.get("buildFile.xml") or entries.get("buildFile")
    if data is None:
        raise VassalFileError(f"{what} has no buildFile.xml, so it is not a VASSAL module.")
    return data


def parse_build_file(xml: bytes, what: str = "the module") -> ModuleInfo:
    """Name, version, maps and set-ups of a ``buildFile.xml``."""
    try:
        root = parse_xml(xml, f"{what}'s buildFile.xml")
    except etree.XMLSyntaxError as e:
        raise VassalFileError(f"{what}: buildFile.xml is not well-formed XML ({e}).") from None
    maps: dict[str, MapGeometry] = {}
    for m in root.iter(*MAP_TAGS):
        name = m.get("mapName") or ""
        try:
            maps[name] = _map_geometry(m, name)
        except (TypeError, ValueError) as e:
            raise VassalFileError(f"{what}: map {name!r} has a malformed hex grid ({e}).") from None
    setups = {s.get("name", ""): s.get("file", "") for s in root.iter(SETUP_TAG)}
    return ModuleInfo(root.get("name", ""), root.get("version", ""), maps, setups)


def _map_geometry(m: Any, name: str) -> MapGeometry:
    edge = (int(m.get("edgeWidth", "0") or 0), int(m.get("edgeHeight", "0") or 0))
    grid_el = next(m.iter(GRID_TAG), None)
    grid = None
    if grid_el is not None:
        num = next(grid_el.iter(NUMBERING_TAG), None)
        if num is None:
            raise ValueError("a HexGrid without HexGridNumbering cannot name hexes")
        grid = _hex_grid(grid_el, num)
    zones = tuple(Zone(z.get("name", ""), _polygon(z.get("path", ""))) for z in m.iter(ZONE_TAG))
    return MapGeometry(name, edge, grid, zones)


def _hex_grid(g: Any, n: Any) -> VassalHexGrid:
    # VASSAL staggers the numbering unless told not to, so a missing ``stagger`` means staggered.
    if n.get("stagger", "true") != "false" or "true" in (n.get("hDescend"), n.get("vDescend")) \
            or n.get("sep", "") != "" or n.get("hLeading", "1") != n.get("vLeading", "1"):
        # Our writer never makes these; another module's numbering would need the general formula.
        raise ValueError("the numbering is not the CCRR scheme this project's modules use")
    return VassalHexGrid(dx=float(g.get("dx")), dy=float(g.get("dy")), x0=int(g.get("x0")), y0=int(g.get("y0")),
                         sideways=g.get("sideways") == "true", h_off=int(n.get("hOff", "0")),
                         v_off=int(n.get("vOff", "0")), first=n.get("first", "H"),
                         leading=int(n.get("hLeading", "1")))


def _polygon(path: str) -> tuple[tuple[float, float], ...]:
    pts = []
    for pair in path.split(";"):
        if pair.strip():
            x, y = pair.split(",")
            pts.append((float(x), float(y)))
    if len(pts) < 3:
        raise ValueError(f"zone path {path!r} is not a polygon")
    return tuple(pts)
