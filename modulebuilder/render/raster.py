"""Pillow backend of :mod:`modulebuilder.render.drawing`: a Drawing to an RGB image.

Bases (the colour scheme shared by many faces) and layers (symbols, stripes) are rasterised once per
value and reused; text is pasted from cached glyph masks (:func:`modulebuilder.render.text.stamp`).
The operations are exactly those the face renderers made directly before the drawing layer existed, in
the same order, so the module's PNGs are byte-identical."""
from __future__ import annotations

import os
from functools import lru_cache

from PIL import Image, ImageDraw

from modulebuilder.render.drawing import Drawing, Item, Layer, Picture, Shape, Text
from modulebuilder.render.text import stamp

_RESAMPLE = {"box": Image.Resampling.BOX, "lanczos": Image.Resampling.LANCZOS}


def _shape(d: ImageDraw.ImageDraw, s: Shape) -> None:
    if s.kind == "rectangle":
        d.rectangle(s.xy, fill=s.fill, outline=s.outline, width=int(s.width))
    elif s.kind == "polygon":
        d.polygon(list(zip(s.xy[0::2], s.xy[1::2])), fill=s.fill)
    elif s.kind == "line":
        d.line(s.xy, fill=s.fill, width=int(s.width))
    else:
        d.ellipse(s.xy, fill=s.fill, outline=s.outline, width=int(s.width))


@lru_cache(maxsize=1024)
def layer_image(layer: Layer) -> Image.Image:
    """The layer as an RGBA image ``width`` x ``height`` (cached; do not modify)."""
    w, h = layer.width * layer.scale, layer.height * layer.scale
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for s in layer.items:
        _shape(d, s)
    if layer.clip is not None:
        inside = Image.new("L", (w, h), 0)
        ImageDraw.Draw(inside).rectangle(layer.clip, fill=255)
        img.putalpha(Image.composite(img.getchannel("A"), Image.new("L", (w, h), 0), inside))
    if layer.over:
        d = ImageDraw.Draw(img)
        for s in layer.over:
            _shape(d, s)
    img = img.resize((layer.width, layer.height), _RESAMPLE[layer.resample])
    if layer.keep_from_row:
        alpha = img.getchannel("A")
        alpha.paste(Image.new("L", (layer.width, layer.keep_from_row), 0), (0, 0))
        img.putalpha(alpha)
    return img


def _picture(path: str, size: tuple[int, int]) -> Image.Image:
    # Keyed on the file's size and time too: an author who repaints a picture in a long-lived process (a
    # second build, the service) gets the new one.
    st = os.stat(path)
    return _picture_of(path, size, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=256)
def _picture_of(path: str, size: tuple[int, int], _mtime: int, _bytes: int) -> Image.Image:
    with Image.open(path) as src:
        return src.convert("RGBA").resize(size, Image.Resampling.LANCZOS)


def _draw_items(img: Image.Image, items: tuple[Item, ...]) -> Image.Image:
    d = ImageDraw.Draw(img)
    for it in items:
        if isinstance(it, Shape):
            _shape(d, it)
        elif isinstance(it, Text):
            mask, left, top = stamp(it.text, it.size, it.font)
            x, y = it.x + left, it.y + top
            img.paste(it.fill[:3], (x, y, x + mask.width, y + mask.height), mask)
        elif isinstance(it, Layer):
            lay = layer_image(it)
            if it.blend == "composite":
                rgba = img.convert("RGBA")
                rgba.alpha_composite(lay, it.at)
                img = rgba.convert("RGB")
                d = ImageDraw.Draw(img)
            else:
                img.paste(lay, it.at, lay)
        elif isinstance(it, Picture):
            x0, y0, x1, y1 = it.box
            pic = _picture(it.path, (x1 - x0 + 1, y1 - y0 + 1))
            img.paste(pic, (x0, y0), pic)
    return img


@lru_cache(maxsize=512)
def _base(width: int, height: int, background: tuple[int, ...], base: tuple[Item, ...]) -> Image.Image:
    return _draw_items(Image.new("RGB", (width, height), background[:3]), base)


def to_image(drawing: Drawing) -> Image.Image:
    """The drawing as a new RGB image ``drawing.width`` x ``drawing.height``."""
    img = _base(drawing.width, drawing.height, drawing.background, drawing.base).copy()
    return _draw_items(img, drawing.items)
