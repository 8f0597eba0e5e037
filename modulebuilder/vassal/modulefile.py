"""Reading a .vmod back: its name, maps, hex grids and set-ups, so a log can be read in hex names.

The referee gets a log of pixel positions; with the module (``referee check LOG --module M.vmod``) it can
name hexes exactly as the engine does (``gridmap.location_name``).  The buildFile is parsed with lxml
without entity resolution or network access, and any problem is a VassalFileError.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from .errors import VassalFileError
from .gridmap import VassalHexGrid
from .zipio import read_entries

B = "VASSAL.build.module.map.boardPicker.board."


@dataclass(frozen=True)
class ModuleInfo:
    name: str
    version: str
    grids: dict[str, VassalHexGrid]          # map name -> hex grid of its (first) board
    zones: dict[str, tuple[str, ...]]        # map name -> zone names (holding boxes)
    setups: dict[str, str]                   # set-up name -> .vsav entry


def read_module(source: bytes | str | os.PathLike[str]) -> ModuleInfo:
    data = source if isinstance(source, bytes) else _read(Path(source))
    what = "the module" if isinstance(source, bytes) else Path(source).name
    entries = read_entries(data, ["buildFile.xml", "buildFile"], what=what)
    xml = entries.get("buildFile.xml") or entries.get("buildFile")
    if xml is None:
        raise VassalFileError(f"{what} has no buildFile.xml, so it is not a VASSAL module.")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(xml, parser)
    except etree.XMLSyntaxError as e:
        raise VassalFileError(f"{what}: buildFile.xml is not well-formed XML ({e}).") from None
    grids, zones = {}, {}
    try:
        for m in root.iter("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap"):
            name = m.get("mapName", "")
            grid = m.find(f".//{B}HexGrid")
            if grid is not None:
                grids[name] = _grid(grid)
            zones[name] = tuple(z.get("name", "") for z in m.iter(f"{B}mapgrid.Zone"))
    except (TypeError, ValueError) as e:
        raise VassalFileError(f"{what}: a HexGrid has attributes this reader cannot use ({e}).") from None
    setups = {s.get("name", ""): s.get("file", "") for s in root.iter("VASSAL.build.module.PredefinedSetup")}
    return ModuleInfo(root.get("name", ""), root.get("version", ""), grids, zones, setups)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        raise VassalFileError(f"cannot read {path.name}: {e.strerror}.") from None


def _grid(el: etree._Element) -> VassalHexGrid:
    num = el.find(f"{B}mapgrid.HexGridNumbering")
    if num is None:
        raise ValueError("no HexGridNumbering")
    if num.get("stagger", "true") != "false" or "true" in (num.get("hDescend"), num.get("vDescend")):
        raise ValueError("only non-staggered, ascending numbering is supported")
    if num.get("hLeading", "1") != num.get("vLeading", "1"):
        raise ValueError("different column and row padding")
    return VassalHexGrid(dx=float(el.get("dx")), dy=float(el.get("dy")), x0=int(el.get("x0")),
                         y0=int(el.get("y0")), sideways=el.get("sideways") == "true",
                         h_off=int(num.get("hOff", "0")), v_off=int(num.get("vOff", "0")),
                         first=num.get("first", "H"), leading=int(num.get("hLeading", "1")))
