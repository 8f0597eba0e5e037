"""The module's map image: the rendered map, with place names moved where counters do not cover them.

The printed map (render/map.py) puts a place name just below the hex centre, where a counter standing in
the hex hides it ("Schevardino Redoubt" under the Russian redoubt's defenders).  In the module a counter is
``counter_px`` square and centred, so the name goes in the strip between the counter's lower edge and the
hex's (flat-topped hexes: the lower side; pointy ones: down to the two lower sides' mid-height), in the same
colours and halo, as large as that strip and the neighbours' counters allow.  The printed map is unchanged: only the module's copy is
drawn without its names (``names={}``) and labelled here.
"""
from __future__ import annotations

import dataclasses
import io
import math

from PIL import ImageDraw

from ..model import MapDef
from ..render.map import map_layout, render_map
from ..render.map_style import Palette
from ..render.text import font, fitted_size

# At most 1.8 hex sizes wide: a neighbour's counter starts 0.9 s to the side of this hex's centre.
NAME_WIDTH = 1.8


def module_map_png(mapdef: MapDef, hex_size: float | None, counter_px: int) -> bytes:
    img, _ = render_map(dataclasses.replace(mapdef, names={}), hex_size)
    layout, _ = map_layout(mapdef, hex_size)
    s = layout.size
    pal = Palette(mapdef.style.colours)
    d = ImageDraw.Draw(img)
    pointy = mapdef.grid.orientation == "pointy"
    edge = s * (0.75 if pointy else math.sqrt(3) / 2)        # centre to the lower side (mid-height when pointy)
    top = counter_px / 2 + 1
    room = max(6.0, edge - top - 1)
    for h, name in sorted(mapdef.names.items()):
        cx, cy = layout.center(h)
        size = max(6, fitted_size(name, s * NAME_WIDTH, round(min(room, s * 0.26))))
        d.text((cx, cy + top), name, font=font(size), fill=pal["name"], anchor="mt",
               stroke_width=max(1, round(size * 0.12)), stroke_fill=(255, 250, 235))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()
