"""Synthetic counter sets and maps of realistic shape, for benchmarks, previews and tests that must not
depend on a particular game's data files."""
from __future__ import annotations

from types import MappingProxyType

from modulebuilder.model import (ActivationGroup, CounterSet, Face, Grid, Hexside, Leader, MapDef, MapMarker,
                                 Marker, Road, Unit)
from modulebuilder.hexgrid import HexGrid

_AG_COLOURS = ("#2b4c9b", "#3c7a3a", "#b03030", "#e0c040", "#7a4a9b", "#d07a20", "#3a8a8a", "#707070")


def _unit(i: int, ag: ActivationGroup) -> Unit:
    """The i-th unit: a mix of kinds close to a Napoleonic order of battle (2/3 infantry)."""
    kind = ("infantry", "infantry", "cavalry", "infantry", "artillery", "infantry")[i % 6]
    letter = "ab"[i % 2]
    name = f"Brig{i // 2:03d} {letter}"
    flags = frozenset({"jaeger"} if i % 11 == 0 else {"militia"} if i % 13 == 0 else ())
    if kind == "infantry":
        return Unit(f"u{i:03d}", name, kind, ag.side, ag.id, Face(4, 5, 4, 1), Face(3, 4, 4, 0),
                    corps=ag.label, brigade=name[:-2], flags=flags)
    if kind == "cavalry":
        cav = "LHC"[i % 3]
        back = None if cav == "C" else Face(3, 4, 6)
        return Unit(f"u{i:03d}", f"{i} Cav", kind, ag.side, ag.id, Face(5, 6, 6), back, cav_type=cav,  # type: ignore[arg-type]
                    corps=ag.label)
    ma = 8 if i % 4 == 0 else 4
    return Unit(f"u{i:03d}", f"{ag.label}/{i}", kind, ag.side, ag.id,
                Face(cohesion=5, ma=ma, fire=3, eff_range=2, max_range=4),
                Face(cohesion=4, ma=ma, fire=2, eff_range=2, max_range=4), corps=ag.label)


def sample_counters(units: int = 300) -> CounterSet:
    """``units`` combat units in eight activation groups, two commanders and the usual markers."""
    ags = tuple(ActivationGroup(f"ag{k}", f"Corps {k}", "French" if k < 4 else "Russian", colour, 5,
                                label=["I", "II", "III", "IV", "V", "VI", "VII", "VIII"][k],
                                text_colour="#ffffff" if k not in (3,) else "#000000")
                for k, colour in enumerate(_AG_COLOURS))
    us = tuple(_unit(i, ags[i % len(ags)]) for i in range(units))
    leaders = (Leader("napoleon", "Napoleon", "French", 3, None, -2, 3, None),
               Leader("kutuzov", "Kutuzov", "Russian", None, 2, -1, 2, 6))
    markers = (Marker("orders", "Under Orders", "UO", 20, "#f4e04d", back_text="NO"),
               Marker("charge", "Charge", "Charge", 6, "#e06020", "#ffffff"),
               Marker("fire", "On Fire", "On Fire", 4, "#c03010", "#ffffff"),
               Marker("turn", "Game Turn", "Turn", 1, "#ffffff"))
    return CounterSet(ags, us, leaders, markers)


def sample_map(orientation: str = "flat", shifted: str = "odd", columns: int = 40, rows: int = 27,
               first_column: int = 13, first_row: int = 0) -> MapDef:
    """A Borodino-sized map with every terrain, hexside feature, road kind, elevation and marker."""
    g = Grid(orientation, shifted, first_column, first_row, columns, rows)  # type: ignore[arg-type]
    hg = HexGrid.from_model(g)
    names = hg.hexes()
    kinds = ("woods", "village", "cultivated", "marsh", "rough", "redoubt")
    terrain = {h: kinds[i % len(kinds)] for i, h in enumerate(names) if i % 5 == 0}
    hexsides = []
    for i, h in enumerate(names[:: max(1, len(names) // 60)]):
        nbrs = list(hg.neighbours(h).values())
        if nbrs:
            hexsides.append(Hexside((h, nbrs[0]), ("stream", "river", "minor_stream", "ford", "bridge", "steep")[i % 6]))
    col = [n for n in names if n.endswith(f"{first_row + rows // 2:02d}")]
    elevation = {h: (1 if i % 7 == 0 else -1 if i % 9 == 0 else 0) for i, h in enumerate(names)}
    return MapDef("sample", "Sample Battlefield", g, "clear", MappingProxyType(terrain), tuple(hexsides),
                  (Road(tuple(col), "road", "Main Road"),), MappingProxyType({k: v for k, v in elevation.items() if v}),
                  MappingProxyType({names[len(names) // 2]: "Village"}),
                  (MapMarker("rubble", (names[3],)), MapMarker("on_fire", (names[8],))))
