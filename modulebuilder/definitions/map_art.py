"""A map's ``art:``: the image exists and is a PNG or JPEG, its two hexes are on the map, and they place
regular hexes with every hex centre on the image (modulebuilder.mapart)."""
from __future__ import annotations

import hashlib
import os
from typing import Any

from ..hexgrid import HexGrid
from ..mapart import ArtFitError, fit_layout, outside
from ..model import MapArt
from .files import relative_to
from .geometry import describe_extent
from .problems import Problem
from .yamlpos import Located

ART = ("art",)


def art_image(doc: Located) -> str | None:
    """The art's file as a path usable from here (relative to the map file), None without art."""
    image = doc.get(ART + ("image",))
    return relative_to(doc.file, image) if isinstance(image, str) and image else None


def _points(doc: Located) -> list[tuple[str, tuple[float, float]]]:
    hexes = doc.get(ART + ("hexes",))
    if not isinstance(hexes, dict):
        return []
    return [(h, (float(p[0]), float(p[1]))) for h, p in hexes.items()
            if isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p)]


def check_art(doc: Located, grid: HexGrid | None) -> list[Problem]:
    """Everything wrong with the map's art that the schema cannot see, each with its file:line."""
    path = art_image(doc)
    if path is None or os.path.splitext(path)[1].lower() not in (".png", ".jpg", ".jpeg"):
        return []                     # no art, or the schema says what kind of file it must be
    size = _image_size(path)
    if isinstance(size, str):
        return [doc.problem(ART + ("image",), size)]
    points = _points(doc)
    if grid is None or len(points) != 2:
        return []                     # the grid's or the schema's problem
    off = [doc.problem(ART + ("hexes", h), f"hex {h!r} is not on the map ({describe_extent(grid)})", at_key=True)
           for h, _ in points if not grid.contains(h)]
    if off:
        return off
    try:
        layout = fit_layout(grid, points)
    except ArtFitError as exc:
        return [doc.problem(ART + ("hexes",), str(exc))]
    beyond = outside(layout, *size)
    if beyond:
        x, y = layout.center(beyond[0])
        return [doc.problem(ART + ("hexes",), f"these centres put {len(beyond)} hex centre(s) outside the "
                                              f"{size[0]} x {size[1]} image (hex {beyond[0]!r} at ({x:.0f}, {y:.0f})): "
                                              "check the pixels, or the grid's columns and rows")]
    return []


def _image_size(path: str) -> tuple[int, int] | str:
    """The image's size, or why it cannot be the art (missing, not PNG or JPEG, unreadable)."""
    from PIL import Image, UnidentifiedImageError
    if not os.path.isfile(path):
        return f"no such file: {path}"
    try:
        with Image.open(path) as img:
            if img.format not in ("PNG", "JPEG"):
                return f"{path} is a {img.format} image; the art must be a PNG or JPEG"
            return img.size
    except (UnidentifiedImageError, OSError) as exc:
        return f"{path} is not an image Pillow can read ({exc})"


def build_art(doc: Located) -> MapArt | None:
    """The model of checked art (None when the map has none)."""
    path = art_image(doc)
    if path is None:
        return None
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    points: Any = tuple(_points(doc))
    return MapArt(image=path, hexes=points, digest=digest)
