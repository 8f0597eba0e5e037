"""Colours and line weights of the rendered map.  A map's ``style.colours`` overrides any of these by id
(terrain ids, hexside feature ids, and the keys below such as ``road`` or ``background``)."""
from __future__ import annotations

from typing import Mapping

from modulebuilder.render.colours import RGB, mix, rgb

DEFAULT_COLOURS: dict[str, str] = {
    # terrain
    "clear": "#e9e2b9", "cultivated": "#dfd394", "woods": "#9fbe7a", "village": "#e3d6b5",
    "redoubt": "#e4d9ae", "marsh": "#bfd3b8", "rough": "#d3c49b", "town": "#d8c8a8",
    # hexside features and lines
    "stream": "#3d7fc1", "minor_stream": "#5b95cc", "river": "#2a64a8", "ford": "#cfe3f5",
    "bridge": "#6b4a2b", "steep": "#6b4a2b", "contour": "#8a6a3d",
    "road": "#7b4f2a", "path": "#8a6a45",
    "grid": "#7d7560", "hex_number": "#4a4536", "name": "#1d1a12",
    "tree": "#3f6b2a", "tree_dark": "#2c4f1d", "building": "#8c3b2e", "roof": "#b5533f",
    "earthwork": "#5a4428", "marsh_tuft": "#4e7a52", "rubble": "#6d6258", "fire": "#e0501c",
    "background": "#f4efdc", "title": "#1d1a12",
}

# Elevation: each level up lightens, each level down darkens, by this fraction (clamped).
ELEVATION_STEP = 0.22


class Palette:
    """Colour lookup with the map's overrides first."""

    def __init__(self, overrides: Mapping[str, str] | None = None):
        self._c = {**DEFAULT_COLOURS, **dict(overrides or {})}

    def __getitem__(self, key: str) -> RGB:
        return rgb(self._c.get(key, "#d0d0d0"))

    def __contains__(self, key: str) -> bool:
        return key in self._c


def shaded(colour: RGB, level: int) -> RGB:
    """Terrain colour at an elevation: +1 lighter, -1 darker (the eye reads light as high ground)."""
    if level == 0:
        return colour
    t = min(0.6, abs(level) * ELEVATION_STEP)
    return mix(colour, (255, 253, 240) if level > 0 else (60, 50, 30), t)
