"""Map definitions: the references a map makes (hexes, hexsides, roads, terrain), their checks, and the
:class:`~modulebuilder.model.MapDef` they become.

A map is written two ways: the authored file lists hexes per terrain type and per elevation level (short
to write: ``woods: [...]``), the resolved scenario lists a type per hex (quick to look up).  Both are read
into the same :class:`MapRefs`, so one set of checks and one builder serve both.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..hexgrid import HexGrid
from ..model import Grid, Hexside, MapDef, MapMarker, MapStyle, Road, frozen_mapping
from .geometry import HexRef, broken_paths, non_adjacent_pairs, off_map
from .problems import Path, Problem
from .yamlpos import Located


@dataclass(frozen=True)
class HexsideRef:
    path: Path                      # the second hex of the pair, where a wrong number usually is
    a: str
    b: str
    feature: str


@dataclass(frozen=True)
class RoadRef:
    path: Path                      # the list of hexes
    hexes: tuple[str, ...]
    kind: str = "road"
    name: str = ""


@dataclass(frozen=True)
class TerrainRef:
    path: Path
    hex: str
    value: Any                      # terrain id, or elevation level
    at_key: bool = False            # the hex is a mapping key (resolved notation)


@dataclass
class MapRefs:
    """Everything a map says about hexes, with where it says it."""
    default_terrain: str = "clear"
    default_path: Path = ("terrain", "default")
    terrain: list[TerrainRef] = field(default_factory=list)
    elevation: list[TerrainRef] = field(default_factory=list)
    hexsides: list[HexsideRef] = field(default_factory=list)
    roads: list[RoadRef] = field(default_factory=list)
    others: list[HexRef] = field(default_factory=list)        # names, markers
    problems: list[Problem] = field(default_factory=list)     # found while reading (odd pair lists)

    def hex_refs(self) -> list[HexRef]:
        refs = [HexRef(t.path, t.hex, t.at_key) for t in self.terrain + self.elevation]
        for s in self.hexsides:
            refs += [HexRef(s.path[:-1] + (s.path[-1] - 1,), s.a), HexRef(s.path, s.b)]
        for r in self.roads:
            refs += [HexRef(r.path + (i,), h) for i, h in enumerate(r.hexes)]
        return refs + self.others


def _strings(value: Any) -> list[str]:
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def _hex_list(doc: Located, path: Path) -> list[tuple[Path, str]]:
    items = doc.get(path)
    if not isinstance(items, list):
        return []
    return [(path + (i,), h) for i, h in enumerate(items) if isinstance(h, str)]


def _road_ref(path: Path, item: Any) -> RoadRef | None:
    if isinstance(item, list):
        return RoadRef(path, tuple(_strings(item)))
    if isinstance(item, dict) and isinstance(item.get("hexes"), list):
        return RoadRef(path + ("hexes",), tuple(_strings(item["hexes"])),
                       str(item.get("kind", "road")), str(item.get("name", "")))
    return None


def _common_refs(doc: Located, base: Path, refs: MapRefs) -> None:
    """Roads, names and markers: written the same way in both notations."""
    roads = doc.get(base + ("roads",))
    for i, item in enumerate(roads if isinstance(roads, list) else []):
        road = _road_ref(base + ("roads", i), item)
        if road is not None:
            refs.roads.append(road)
    names = doc.get(base + ("names",))
    for hex_id in names if isinstance(names, dict) else {}:
        refs.others.append(HexRef(base + ("names", hex_id), hex_id, at_key=True))
    markers = doc.get(base + ("markers",))
    for i, m in enumerate(markers if isinstance(markers, list) else []):
        if isinstance(m, dict) and isinstance(m.get("hex"), str):
            refs.others.append(HexRef(base + ("markers", i, "hex"), m["hex"]))
        refs.others += [HexRef(p, h) for p, h in _hex_list(doc, base + ("markers", i, "hexes"))]


def authored_refs(doc: Located) -> MapRefs:
    """References of a map file (terrain and elevation listed per type / level)."""
    refs = MapRefs(default_terrain=str(doc.get(("terrain", "default"), "clear")))
    by_type = doc.get(("terrain", "hexes"))
    for terrain in by_type if isinstance(by_type, dict) else {}:
        refs.terrain += [TerrainRef(p, h, terrain) for p, h in _hex_list(doc, ("terrain", "hexes", terrain))]
    by_level = doc.get(("elevation",))
    for level in by_level if isinstance(by_level, dict) else {}:
        try:
            value = int(level)
        except ValueError:         # the schema reports a level that is not a number
            continue
        refs.elevation += [TerrainRef(p, h, value) for p, h in _hex_list(doc, ("elevation", level))]
    sides = doc.get(("hexsides",))
    for i, side in enumerate(sides if isinstance(sides, list) else []):
        if not isinstance(side, dict) or not isinstance(side.get("feature"), str):
            continue
        hexes = _hex_list(doc, ("hexsides", i, "hexes"))
        if side.get("pairs") is True and len(hexes) % 2:
            refs.problems.append(doc.problem(("hexsides", i, "hexes"),
                                             f"pairs: true needs an even number of hexes (got {len(hexes)})"))
        for (_, a), (path_b, b) in zip(hexes[::2], hexes[1::2]):
            refs.hexsides.append(HexsideRef(path_b, a, b, side["feature"]))
    _common_refs(doc, (), refs)
    return refs


def resolved_refs(doc: Located, base: Path = ("map",)) -> MapRefs:
    """References of the map of a resolved scenario (terrain and elevation given per hex)."""
    refs = MapRefs(default_terrain=str(doc.get(base + ("terrain", "default"), "clear")),
                   default_path=base + ("terrain", "default"))
    for key, target in (("terrain", refs.terrain), ("elevation", refs.elevation)):
        path = base + (key, "hexes") if key == "terrain" else base + (key,)
        table = doc.get(path)
        for hex_id, value in (table.items() if isinstance(table, dict) else ()):
            target.append(TerrainRef(path + (hex_id,), hex_id, value, at_key=True))
    sides = doc.get(base + ("hexsides",))
    for i, side in enumerate(sides if isinstance(sides, list) else []):
        hexes = _hex_list(doc, base + ("hexsides", i, "hexes"))
        if isinstance(side, dict) and isinstance(side.get("feature"), str) and len(hexes) == 2:
            refs.hexsides.append(HexsideRef(hexes[1][0], hexes[0][1], hexes[1][1], side["feature"]))
    _common_refs(doc, base, refs)
    return refs


# --------------------------------------------------------------------------------------------- checks

def check_map_refs(doc: Located, grid: HexGrid, refs: MapRefs) -> list[Problem]:
    return [
        *refs.problems,
        *off_map(doc, grid, refs.hex_refs()),
        *non_adjacent_pairs(doc, grid, ((s.path, s.a, s.b) for s in refs.hexsides)),
        *broken_paths(doc, grid, ((r.path, r.hexes) for r in refs.roads)),
        *_listed_twice(doc, refs.terrain, "terrain"),
        *_listed_twice(doc, refs.elevation, "elevation"),
        *_hexsides_twice(doc, refs.hexsides),
    ]


def _hexsides_twice(doc: Located, sides: Iterable[HexsideRef]) -> Iterable[Problem]:
    seen: set[tuple[frozenset[str], str]] = set()
    for s in sides:
        key = (frozenset((s.a, s.b)), s.feature)
        if key in seen:
            yield doc.problem(s.path, f"the {s.feature} between {s.a!r} and {s.b!r} is already listed")
        seen.add(key)


def _listed_twice(doc: Located, refs: Iterable[TerrainRef], what: str) -> Iterable[Problem]:
    seen: dict[str, TerrainRef] = {}
    for r in refs:
        if r.hex in seen:
            first = seen[r.hex]
            yield doc.problem(r.path, f"hex {r.hex!r} already has {what} {first.value!r}")
        else:
            seen[r.hex] = r


def missing_table_rows(doc: Located, refs: MapRefs, tables: Mapping[str, Any], tables_file: str) -> list[Problem]:
    """Terrain and hexside features the map uses but the movement-cost table does not price."""
    costs = tables.get("movement_costs")
    if not isinstance(costs, Mapping):
        return []          # no movement table: the ruleset's defaults apply
    terrain = [(refs.default_path, refs.default_terrain)] + [(t.path, t.value) for t in refs.terrain]
    features = [(s.path[:-2] + ("feature",), s.feature) for s in refs.hexsides]
    return [*_unpriced(doc, terrain, costs.get("rows"), "terrain", f"movement_costs.rows of {tables_file}"),
            *_unpriced(doc, features, costs.get("hexsides"), "hexside feature",
                       f"movement_costs.hexsides of {tables_file}")]


def _unpriced(doc: Located, uses: Iterable[tuple[Path, str]], priced: Any, what: str, table: str) -> list[Problem]:
    """One problem per id without a row, at its first use in the map, since that is where the author looks."""
    rows = priced if isinstance(priced, Mapping) else {}
    out: list[Problem] = []
    reported: set[str] = set()
    for path, used in uses:
        if used not in rows and used not in reported:
            reported.add(used)
            out.append(doc.problem(path, f"{what} {used!r} has no row in {table}"))
    return out


# --------------------------------------------------------------------------------------------- model

def build_map(doc: Located, base: Path, grid: Grid, refs: MapRefs) -> MapDef:
    """The model of a checked map (either notation; ``base`` is where the map mapping sits)."""
    data = doc.get(base)
    style = data.get("style", {})
    line, _ = doc.position(base)
    return MapDef(
        id=data.get("id", "map"),
        title=data.get("title", ""),
        grid=grid,
        default_terrain=refs.default_terrain,
        terrain=frozen_mapping({t.hex: t.value for t in refs.terrain}),
        hexsides=tuple(Hexside((s.a, s.b), s.feature) for s in refs.hexsides),
        roads=tuple(Road(r.hexes, r.kind, r.name) for r in refs.roads),
        elevation=frozen_mapping({t.hex: t.value for t in refs.elevation}),
        names=frozen_mapping(data.get("names")),
        markers=tuple(_marker(m) for m in data.get("markers", ())),
        boxes=frozen_mapping(data.get("boxes")),
        style=MapStyle(hex_size=float(style.get("hex_size", MapStyle.hex_size)),
                       colours=frozen_mapping(style.get("colours")),
                       margin=float(style.get("margin", MapStyle.margin)),
                       symbols=frozen_mapping(style.get("symbols"))),
        source=f"{doc.file}:{line}",
    )


def _marker(m: Mapping[str, Any]) -> MapMarker:
    hexes = (m["hex"],) if "hex" in m else tuple(m["hexes"])
    return MapMarker(m["type"], hexes)
