"""A counter face described once, as vector primitives, for two backends.

A :class:`Drawing` is a background colour and a list of items in *face pixels* (y down, Pillow's
conventions: a rectangle ``(x0, y0, x1, y1)`` covers the pixels x0..x1 inclusive, a polygon's vertices sit
on pixel centres).  The same items are

* rasterised by :func:`modulebuilder.render.raster.to_image` (Pillow: the module's PNGs, byte-identical
  to the images drawn before this module existed), and
* written as PDF paths, fills and text in embedded fonts by :mod:`modulebuilder.render.vector` (the
  counter sheets), scaled from face pixels to points with one matrix.

Shapes are recorded from ordinary ``ImageDraw`` calls (:class:`Recorder` has ImageDraw's method names), so
symbol geometry is written once against that interface and both backends replay the record.  A
:class:`Layer` is a group drawn at a multiple of the face's resolution and reduced (Pillow has no
anti-aliasing for polygons and lines), optionally clipped; PDF draws it at full precision.

Everything here is frozen and hashable: the raster backend caches layers and bases by value."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Sequence, Union
from modulebuilder.render.colours import rgb

Colour = tuple[int, ...]          # (r, g, b) or (r, g, b, a)
Box = tuple[float, float, float, float]
Point = tuple[float, float]


@dataclass(frozen=True)
class Shape:
    """One ImageDraw call: ``kind`` is the method name; coordinates in the drawing's pixels."""
    kind: Literal["rectangle", "polygon", "line", "ellipse"]
    xy: tuple[float, ...]
    fill: Colour | None = None
    outline: Colour | None = None
    width: float = 1


@dataclass(frozen=True)
class Text:
    """``text`` horizontally centred on ``x`` with its baseline at ``y`` (integers: the raster backend
    pastes a cached glyph mask there), ``size`` pixels, in the TrueType/OpenType font at ``font``."""
    text: str
    x: int
    y: int
    size: int
    font: str
    fill: Colour


@dataclass(frozen=True)
class Picture:
    """Author-supplied raster art (a path to a PNG/JPEG) scaled into ``box`` (face pixels, inclusive)."""
    path: str
    box: tuple[int, int, int, int]


@dataclass(frozen=True)
class Layer:
    """Items drawn at ``scale`` times the face resolution (their coordinates are in that larger grid),
    reduced with ``resample`` to ``width`` x ``height`` and placed at ``at``.

    ``clip`` (large-grid pixels, inclusive) keeps only what is inside it, then ``over`` is drawn on top
    unclipped; ``keep_from_row`` clears everything above that row of the reduced layer.  ``blend`` is how
    the raster joins the face: ``composite`` (alpha compositing) or ``paste`` (the layer's alpha as mask)."""
    items: tuple[Shape, ...]
    width: int
    height: int
    scale: int
    resample: Literal["box", "lanczos"]
    at: tuple[int, int] = (0, 0)
    clip: tuple[float, float, float, float] | None = None
    over: tuple[Shape, ...] = ()
    keep_from_row: int | None = None
    blend: Literal["composite", "paste"] = "paste"


Item = Union[Shape, Text, Picture, Layer]


@dataclass(frozen=True)
class Drawing:
    """A face ``width`` x ``height`` pixels: ``background``, then the shared ``base`` (cached by value in
    the raster backend: many faces share one colour scheme), then ``items`` in order."""
    width: int
    height: int
    background: Colour
    base: tuple[Item, ...] = ()
    items: tuple[Item, ...] = field(default=())

    def plus(self, *items: Item) -> "Drawing":
        return Drawing(self.width, self.height, self.background, self.base, self.items + tuple(items))

    def texts(self) -> list[Text]:
        """Every text item, for font subsetting."""
        return [t for t in (*self.base, *self.items) if isinstance(t, Text)]


def _colour(c: Colour | str | None) -> Colour | None:
    if c is None or isinstance(c, tuple):
        return c
    return rgb(c)


def flat_points(xy: Sequence[float] | Sequence[Point]) -> tuple[float, ...]:
    """``[(x, y), ...]`` or ``[x, y, ...]`` as ``(x, y, ...)``, the two forms Pillow's drawing calls take."""
    out: list[float] = []
    for v in xy:
        if isinstance(v, (tuple, list)):
            out.extend(v)
        else:
            out.append(v)
    return tuple(out)


class Recorder:
    """Stands in for ``ImageDraw.Draw`` and records each call as a :class:`Shape`."""

    def __init__(self) -> None:
        self.shapes: list[Shape] = []

    def rectangle(self, xy: Sequence[float], fill: Colour | None = None, outline: Colour | None = None,
                  width: float = 1) -> None:
        self.shapes.append(Shape("rectangle", flat_points(xy), _colour(fill), _colour(outline), width))

    def polygon(self, xy: Sequence[Point], fill: Colour | None = None) -> None:
        self.shapes.append(Shape("polygon", flat_points(xy), _colour(fill)))

    def line(self, xy: Sequence[float], fill: Colour | None = None, width: float = 1) -> None:
        self.shapes.append(Shape("line", flat_points(xy), _colour(fill), None, width))

    def ellipse(self, xy: Sequence[float], fill: Colour | None = None, outline: Colour | None = None,
                width: float = 1) -> None:
        self.shapes.append(Shape("ellipse", flat_points(xy), _colour(fill), _colour(outline), width))

    def take(self) -> tuple[Shape, ...]:
        out, self.shapes = tuple(self.shapes), []
        return out


def font_path(font: str | Path) -> str:
    return str(font)
