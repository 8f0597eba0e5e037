"""Where a VASSAL piece is, in the game's own terms: a hex of the main map, or a holding box.

Pieces in saves and logs sit at map pixels (vassal.md §5).  Two sources give the geometry, and they agree
because the module writer derives its grid from the rendered map (``modulebuilder.vassal.gridmap``):

* the module's ``buildFile.xml`` (``--module``): each Map's ``mapName``, edge, its Board's ``HexGrid`` +
  ``HexGridNumbering`` attributes, and the holding boxes' ``Zone`` polygons -- this follows the module
  exactly, even one built with another hex size;
* the scenario's map (no module): the same grid recomputed from the map layout, as the module writer does.
  Holding boxes then cannot be placed by pixel, and a piece off the main map is named by the engine's own
  move report instead (see ``vassal_steps``).

The XML is parsed without entities or network access: a module is untrusted input like any upload.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from lxml import etree

from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.gridmap import VassalHexGrid, location_name, vassal_grid
from modulebuilder.vassal.zipio import read_entries

BOARD_TAG = "VASSAL.build.module.map.boardPicker.Board"
GRID_TAG = "VASSAL.build.module.map.boardPicker.board.HexGrid"
NUMBERING_TAG = "VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering"
ZONE_TAG = "VASSAL.build.module.map.boardPicker.board.mapgrid.Zone"
MAP_TAG = "VASSAL.build.module.Map"
SETUP_TAG = "VASSAL.build.module.PredefinedSetup"
MAIN_MAP = "Main Map"          # the writer's map id when a module has one game map (assemble.map_name)
MAX_BUILDFILE_BYTES = 32 * 1024 * 1024


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
    grid: VassalHexGrid | None = None
    zones: tuple[Zone, ...] = ()


@dataclass(frozen=True)
class Location:
    """A hex of the game map, or a box (``withdrawn``, ``reinforcement``...), or neither (``where``)."""
    hex: str | None = None
    box: str | None = None
    where: str = ""                        # what to call it in a message


@dataclass(frozen=True)
class BoardGeometry:
    maps: Mapping[str, MapGeometry]
    setups: Mapping[str, str] = field(default_factory=dict)   # PredefinedSetup name -> file (module only)

    def game_maps(self) -> list[str]:
        return [m.name for m in self.maps.values() if m.grid is not None]

    def locate(self, map_id: str | None, x: int, y: int) -> Location:
        if map_id is None:
            return Location(where="off every map")
        m = self.maps.get(map_id)
        if m is None:
            return Location(where=f"map {map_id!r}, which the module does not have")
        bx, by = x - m.edge[0], y - m.edge[1]
        if m.grid is not None:
            return Location(hex=location_name(m.grid, bx, by), where=f"{map_id} {bx},{by}")
        zone = next((z for z in m.zones if z.contains(bx, by)), None)
        if zone is not None:
            return Location(box=box_key(zone.name), where=zone.name)
        return Location(where=f"{map_id} at {bx},{by}, outside every box")


def box_key(label: str) -> str:
    """The scenario's box (DESIGN §4: withdrawn | recovery | eliminated | reinforcement) of a zone label.

    The writer labels reinforcement boxes per turn ("Reinforcements, turn 2"); all of them mean the
    scenario's ``reinforcement`` box.
    """
    low = label.strip().lower()
    return "reinforcement" if low.startswith("reinforcement") else low.replace(" ", "-")


# --------------------------------------------------------------------------------------------- from a module

def module_build_file(module: bytes, what: str = "the module") -> bytes:
    entries = read_entries(module, ["buildFile.xml", "buildFile"], what=what, max_bytes=MAX_BUILDFILE_BYTES)
    data = entries.get("buildFile.xml") or entries.get("buildFile")
    if data is None:
        raise VassalFileError(f"{what} has no buildFile.xml, so it is not a VASSAL module.")
    return data


def from_build_file(xml: bytes, what: str = "the module") -> BoardGeometry:
    """Maps, grids, boxes and set-ups of a ``buildFile.xml``."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(xml, parser)
    except etree.XMLSyntaxError as e:
        raise VassalFileError(f"{what}: buildFile.xml is not well-formed XML ({e}).") from None
    maps: dict[str, MapGeometry] = {}
    for m in root.iter(MAP_TAG):
        name = m.get("mapName") or ""
        try:
            maps[name] = _map_geometry(m, name)
        except (TypeError, ValueError) as e:
            raise VassalFileError(f"{what}: map {name!r} has a malformed hex grid ({e}).") from None
    if not maps:
        raise VassalFileError(f"{what}: buildFile.xml has no map.")
    setups = {s.get("name", ""): s.get("file", "") for s in root.iter(SETUP_TAG) if s.get("file")}
    return BoardGeometry(maps, setups)


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
    if n.get("stagger", "false") == "true" or "true" in (n.get("hDescend"), n.get("vDescend")) \
            or n.get("sep", "") != "" or n.get("hLeading") != n.get("vLeading"):
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


# --------------------------------------------------------------------------------------------- from a scenario

def from_scenario(scenario: Any) -> BoardGeometry:
    """The scenario map's grid as the module writer derives it from the map (default hex size).

    The writer calls the map "Main Map" in a one-map module and by its title when a module holds several
    (``assemble.map_name``); a log from either kind of module is read, so the grid goes under both names.
    """
    from modulebuilder.render.map import map_layout
    layout, _ = map_layout(scenario.map, None)
    grid = vassal_grid(scenario.map.grid, layout.center)
    names = dict.fromkeys((MAIN_MAP, scenario.map.title or scenario.map.id))
    return BoardGeometry({n: MapGeometry(n, grid=grid) for n in names})
