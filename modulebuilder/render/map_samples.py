"""Larger maps for measuring: a map file repeated side by side, ``times`` copies wide (the module builder's memory
and time must stay bounded as the map grows; ``bench/bench_build.py --map-scale`` and
``tests/test_render_map_strips.py`` use it).

Each copy is the original moved east by a whole number of map widths in columns, rounded up to an even
number so the shifted columns keep the original's odd/even offset and every hexside, road and bridge stays
between adjacent hexes.  Terrain, elevation, hexsides, roads, names and markers are repeated; the grid grows.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

_HEX = re.compile(r"^(\d+)(\d{2})$")


def _shift(h: str, cols: int, digits: int) -> str:
    m = _HEX.match(h)
    if not m:
        raise ValueError(f"hex id {h!r}: expected column and row digits")
    return f"{int(m.group(1)) + cols:0{digits}d}{m.group(2)}"


def _moved(value: Any, cols: int, digits: int) -> Any:
    """``value`` with every hex id in it moved ``cols`` columns east (lists, mappings, strings)."""
    if isinstance(value, str) and _HEX.match(value):
        return _shift(value, cols, digits)
    if isinstance(value, list):
        return [_moved(v, cols, digits) for v in value]
    if isinstance(value, dict):
        return {k: (v if k in ("feature", "kind", "type", "pairs") else _moved(v, cols, digits))
                for k, v in value.items()}
    return value


def widened_map(source: Path, times: int) -> dict[str, Any]:
    """The map file at ``source`` as a YAML document ``times`` copies wide."""
    doc = yaml.safe_load(source.read_text(encoding="utf-8"))
    grid = doc["grid"]
    digits = int(grid.get("digits", 2))
    step = grid["columns"] + grid["columns"] % 2
    out = dict(doc, id=f"{doc['id']}-x{times}", title=f"{doc.get('title', doc['id'])} (x{times})",
               grid=dict(grid, columns=step * (times - 1) + grid["columns"]))
    last = grid["first_column"] + step * (times - 1) + grid["columns"] - 1
    if len(str(last)) > digits:
        raise ValueError(f"{times} copies need column {last}: more than {digits} digits")
    shifts = [step * i for i in range(times)]
    terrain = doc.get("terrain", {})
    out["terrain"] = dict(terrain, hexes={t: [_moved(h, s, digits) for s in shifts for h in hexes]
                                          for t, hexes in terrain.get("hexes", {}).items()})
    for key in ("hexsides", "markers"):
        if key in doc:
            out[key] = [_moved(item, s, digits) for s in shifts for item in doc[key]]
    if "roads" in doc:
        out["roads"] = [dict(_moved(r, s, digits), name=f"{r.get('name', 'road')} {i + 1}") if i else r
                        for i, s in enumerate(shifts) for r in doc["roads"]]
    if "elevation" in doc:
        out["elevation"] = {lvl: [_moved(h, s, digits) for s in shifts for h in hexes]
                            for lvl, hexes in doc["elevation"].items()}
    if "names" in doc:
        out["names"] = {_shift(h, s, digits): (n if not i else f"{n} {i + 1}")
                        for i, s in enumerate(shifts) for h, n in doc["names"].items()}
    return out


def write_widened_map(source: Path, times: int, dest: Path) -> Path:
    """:func:`widened_map` written to ``dest`` (returned)."""
    dest.write_text(yaml.safe_dump(widened_map(source, times), sort_keys=False, allow_unicode=True), encoding="utf-8")
    return dest
