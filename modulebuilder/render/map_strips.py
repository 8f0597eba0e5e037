"""Drawing a large picture one horizontal strip at a time, so a supersampled map needs the memory of one
strip, not of the whole canvas (Borodino's module map: a 6256 x 5286 canvas, 132 MB in Pillow's four bytes
a pixel, before this module).

The painter draws once, onto a :class:`Recording`: an ``ImageDraw`` whose C drawing object (Pillow's
``ImageDraw.draw``, the layer below the Python methods) is replaced by one that keeps every call.  The
Python layer therefore does all the geometry -- line joints, text layout, glyph masks rendered at their
sub-pixel starts -- once, in the whole picture's coordinates, and every strip is drawn from exactly the
calls the whole canvas would have received.  :meth:`Recording.render` replays, strip after strip, the calls
that reach the strip onto a strip-sized canvas, reduces it and pastes it into the result.

Why the strips are byte-identical to the whole canvas:

* Every drawing call Pillow's ImageDraw makes casts each coordinate to an integer first (``(int)x``, in
  ``_imaging.c``, in every Pillow from 10.2, the oldest this project accepts) and then rasterises from
  those integers, row by row, each row clipped on its own: polygons and wide lines in ``polygon_generic``,
  ellipses and pie slices in their generators, glyph masks and rectangles as integer boxes.  So the
  recording truncates each coordinate exactly as Pillow would have on the whole canvas, and a strip then
  receives those integers moved up by the strip's first row -- whole numbers, which the cast leaves
  alone, negative or not -- and draws the same pixels, moved by exactly those rows.
* A wide polyline is split into its segments: Pillow draws each segment of one call on its own, so this
  is the same drawing, and a road across the map reaches only the strips its segments cross.
* ``polygon(..., width > 1)`` is the one ImageDraw method that allocates a canvas-sized image (a mask of
  the polygon's own fill, so the outline does not grow outwards); it is recorded as one call and the mask
  is made at the strip's size on replay.  Every other C call is one of :data:`KNOWN_CALLS`; any other
  raises, so a Pillow that draws differently is noticed, not mis-drawn.
* Strips start on multiples of the supersampling factor, and ``Image.reduce`` averages disjoint k x k
  boxes, so reducing strip by strip is reducing the whole.

This is hand-written because nothing in Pillow draws into a window of a larger image, and the counter
faces' vector :class:`~modulebuilder.render.drawing.Recorder` records a handful of ImageDraw shapes, not
the text, pie slices and masked outlines the map uses.  ``tests/test_render_map_strips.py`` compares the
strips with the whole canvas byte for byte, over maps, sizes and strip heights.
"""
from __future__ import annotations

import math
from array import array
from typing import Any, Callable, Protocol, Sequence

from PIL import Image, ImageDraw

from modulebuilder.render.drawing import flat_points

RGB = tuple[int, int, int]

# A strip holds about this many pixels (4 bytes each in Pillow's RGB).  Smaller strips draw the calls
# that cross their edges more often; this keeps that under half the drawing.
STRIP_PIXELS = 500_000
# Pillow's C drawing calls ImageDraw makes for the map, each with the position of its line width among the
# arguments after the coordinates (None: it has none), to pad the call's extent.
KNOWN_CALLS: dict[str, int | None] = {"draw_lines": 1, "draw_polygon": 2, "draw_ellipse": 2, "draw_pieslice": 4,
                                      "draw_rectangle": 2, "draw_points": None, "draw_bitmap": None}


class Surface(Protocol):
    """Where a painter draws: an ``ImageDraw`` and a way to paste author art."""
    draw: ImageDraw.ImageDraw

    def paste(self, art: Image.Image, xy: tuple[int, int]) -> None: ...


class Canvas:
    """Drawing straight onto one whole image (what the map did before strips; the strips' reference)."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)

    def paste(self, art: Image.Image, xy: tuple[int, int]) -> None:
        self.img.paste(art, xy, art)


def _shifted(flat: list[int], off: int) -> list[int]:
    if not off:
        return flat
    return [v - off if i % 2 else v for i, v in enumerate(flat)]


# What a recorded call is: a C drawing call with coordinates, a glyph mask, a masked wide outline, a paste.
CALL, BITMAP, OUTLINE, PASTE = range(4)


class _Ops:
    """The recorded calls, compactly (the map has tens of thousands): kinds, extents and coordinates in
    arrays, the rest of each call (method and ink, glyph mask, art) in one list, repeated tuples shared."""

    def __init__(self) -> None:
        self.kind = array("b")
        self.top = array("i")             # rows the call's pixels may reach (padded by its line width)
        self.bottom = array("i")
        self.start = array("l")           # where its coordinates begin in ``xy``
        self.xy = array("i")              # truncated as Pillow truncates them
        self.extra: list[Any] = []
        self._shared: dict[Any, Any] = {}

    def add(self, kind: int, extra: Any, top: int, bottom: int, coords: Sequence[int] = ()) -> None:
        self.kind.append(kind)
        self.top.append(top)
        self.bottom.append(bottom)
        self.start.append(len(self.xy))
        self.xy.extend(coords)
        self.extra.append(self._shared.setdefault(extra, extra) if kind == CALL else extra)

    def add_drawn(self, kind: int, extra: Any, xy: Any, pad: float) -> None:
        """A call with coordinates, truncated as Pillow's ``(int)`` cast truncates them (towards zero);
        its pixels may reach ``pad`` beyond them (half its line width and more)."""
        coords = [int(v) for v in flat_points(xy)]
        ys = coords[1::2]
        self.add(kind, extra, min(ys) - math.ceil(pad), max(ys) + math.ceil(pad), coords)

    def __len__(self) -> int:
        return len(self.kind)

    def coords(self, i: int) -> list[int]:
        end = self.start[i + 1] if i + 1 < len(self.start) else len(self.xy)
        return self.xy[self.start[i]:end].tolist()


class _CoreRecorder:
    """Stands in for Pillow's C drawing object: ``draw_ink`` is answered, every drawing call is kept."""

    def __init__(self, core: Any, ops: _Ops) -> None:
        self._core, self._ops = core, ops

    def draw_ink(self, ink: Any) -> int:
        return self._core.draw_ink(ink)

    def __getattr__(self, name: str) -> Callable[..., None]:
        if not name.startswith("draw_"):
            raise AttributeError(name)
        if name not in KNOWN_CALLS:
            raise NotImplementedError(f"strip drawing does not know Pillow's drawing call {name!r}")
        width_at = KNOWN_CALLS[name]

        def record(xy: Any, *rest: Any) -> None:
            if name == "draw_bitmap":
                (x, y), (mask, ink) = xy, rest                  # integers already, as Pillow passes them
                self._ops.add(BITMAP, (x, y, mask, ink), y, y + mask.size[1])
                return
            flat = list(flat_points(xy))
            pad = 2 + (rest[width_at] if width_at is not None and len(rest) > width_at else 1)
            if name == "draw_lines" and len(flat) > 4 and rest[1] > 1:
                segments = [flat[i:i + 4] for i in range(0, len(flat) - 2, 2)]   # wide: each drawn on its own
            else:
                segments = [flat]
            for seg in segments:
                self._ops.add_drawn(CALL, (name, rest), seg, pad)
        return record


class _RecordingDraw(ImageDraw.ImageDraw):
    """An ImageDraw that records.  Its image is a 1 x 1 stand-in (for the mode, the font mode and the
    ink lookup): nothing is drawn until :meth:`Recording.render`."""

    def __init__(self, mode: str, ops: _Ops) -> None:
        super().__init__(Image.new(mode, (1, 1)))
        self._ops = ops
        self.draw = _CoreRecorder(self.draw, ops)  # type: ignore[assignment]

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        if width <= 1:
            return super().polygon(xy, fill, outline, width)
        # ImageDraw.polygon for a wide outline: the fill, then the outline at twice the width, masked by a
        # canvas-sized image of the fill so it does not grow outwards.  The mask is made at replay, per strip.
        ink, fill_ink = self._getink(outline, fill)
        if fill_ink is not None:
            self.draw.draw_polygon(xy, fill_ink, 1)
        if ink is None or ink == fill_ink or width == 0:
            return
        self._ops.add_drawn(OUTLINE, (ink, width), xy, 2 * width + 2)


class Recording:
    """A :class:`Surface` that keeps the drawing, to be rendered strip by strip."""

    def __init__(self, mode: str = "RGB") -> None:
        self.mode = mode
        self._ops = _Ops()
        self.draw = _RecordingDraw(mode, self._ops)

    def paste(self, art: Image.Image, xy: tuple[int, int]) -> None:
        x, y = xy
        self._ops.add(PASTE, (x, y, art), y, y + art.height)

    def __len__(self) -> int:
        return len(self._ops)

    def render(self, size: tuple[int, int], background: RGB, k: int = 1,
               strip_rows: int | None = None) -> Image.Image:
        """The drawing on a ``size`` canvas of ``background``, reduced ``k`` times, drawn ``strip_rows``
        canvas rows at a time (default: :data:`STRIP_PIXELS` worth); the same image whatever the strips."""
        w, h = size
        strip = max(k, (strip_rows or STRIP_PIXELS // max(1, w)) // k * k)
        out = Image.new(self.mode, (math.ceil(w / k), math.ceil(h / k)), background)
        # One canvas for every strip (the last one's spare rows receive pixels that are thrown away):
        # reusing it keeps the allocator from scattering strip-sized holes.
        canvas = Image.new(self.mode, (w, min(h, strip)), background)
        core = ImageDraw.Draw(canvas).draw
        for y0, todo in zip(range(0, h, strip), self._by_strip(h, strip)):
            if y0:
                canvas.paste(background, (0, 0, w, canvas.height))
            for i in todo:
                self._replay(i, core, canvas, y0)
            box = (0, 0, w, min(h, y0 + strip) - y0)
            out.paste(canvas.reduce(k, box) if k > 1 else canvas.crop(box), (0, y0 // k))
        return out

    def _replay(self, i: int, core: Any, canvas: Image.Image, off: int) -> None:
        """Call ``i`` drawn ``off`` rows higher on ``canvas`` (whose C drawing object is ``core``)."""
        ops = self._ops
        kind, extra = ops.kind[i], ops.extra[i]
        if kind == BITMAP:
            x, y, mask, ink = extra
            core.draw_bitmap((x, y - off), mask, ink)
        elif kind == PASTE:
            x, y, art = extra
            canvas.paste(art, (x, y - off), art)
        elif kind == OUTLINE:
            ink, width = extra
            pts = _shifted(ops.coords(i), off)
            mask = Image.new("1", canvas.size)
            mask_draw = ImageDraw.Draw(mask)
            mask_draw.draw.draw_polygon(pts, mask_draw._getink(1)[0], 1)
            core.draw_polygon(pts, ink, 0, width * 2 - 1, mask.im)
        else:
            name, rest = extra
            getattr(core, name)(_shifted(ops.coords(i), off), *rest)

    def _by_strip(self, h: int, strip: int) -> list[array]:
        """The calls reaching each strip, in drawing order."""
        n = math.ceil(h / strip)
        per = [array("i") for _ in range(n)]
        ops = self._ops
        for i in range(len(ops)):
            first = max(0, ops.top[i] // strip)
            last = min(n - 1, ops.bottom[i] // strip)
            for j in range(first, last + 1):
                per[j].append(i)
        return per


def render_whole(paint: Callable[[Surface], None], size: tuple[int, int], background: RGB, k: int = 1,
                 mode: str = "RGB") -> Image.Image:
    """``paint`` drawn straight onto one canvas of ``size`` and reduced ``k`` times (the reference)."""
    img = Image.new(mode, size, background)
    paint(Canvas(img))
    return img.reduce(k) if k > 1 else img


def render_strips(paint: Callable[[Surface], None], size: tuple[int, int], background: RGB, k: int = 1,
                  mode: str = "RGB", strip_rows: int | None = None) -> Image.Image:
    """``paint`` recorded once, then drawn strip by strip: the same pixels as :func:`render_whole`."""
    rec = Recording(mode)
    paint(rec)
    return rec.render(size, background, k, strip_rows)


__all__: Sequence[str] = ("Surface", "Canvas", "Recording", "render_whole", "render_strips", "STRIP_PIXELS")
