"""Where a VASSAL piece is, in the game's own terms: a hex of the main map, or a holding box.

Pieces in saves and logs sit at map pixels (vassal.md §5).  Two sources give the geometry, and they agree
because the module writer derives its grid from the rendered map (``modulebuilder.vassal.gridmap``):

* the module's ``buildFile.xml`` (``--module``): each Map's ``mapName``, edge, its Board's ``HexGrid`` +
  ``HexGridNumbering`` attributes, and the holding boxes' ``Zone`` polygons -- this follows the module
  exactly, even one built with another hex size;
* the scenario's map (no module): the same grid recomputed from the map layout, as the module writer does.
  Holding boxes then cannot be placed by pixel, and a piece off the main map is named by the engine's own
  move report instead (see ``vassal_steps``).

The module is read by the module writer's own reader (``modulebuilder.vassal.modulefile``), which parses the XML
without entities or network access: a module is untrusted input like any upload.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.gridmap import location_name, vassal_grid
from modulebuilder.vassal.modulefile import MapGeometry, Zone, module_build_file, parse_build_file

__all__ = ["BoardGeometry", "Location", "MapGeometry", "Zone", "box_key", "from_build_file", "from_scenario",
           "module_build_file"]

MAIN_MAP = "Main Map"          # the writer's map id when a module has one game map (assemble.map_name)


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

def from_build_file(xml: bytes, what: str = "the module") -> BoardGeometry:
    """Maps, grids, boxes and set-ups of a ``buildFile.xml`` (the module reader's, modulefile.py)."""
    info = parse_build_file(xml, what)
    if not info.maps:
        raise VassalFileError(f"{what}: buildFile.xml has no map.")
    return BoardGeometry(info.maps, {name: file for name, file in info.setups.items() if file})


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
