"""Bleed: a counter image extended outward by repeating its edge pixels.

Cutting is never exact; with the art's edge colours continued past the cut line a slightly-off cut still
shows colour, not a white sliver."""
from __future__ import annotations

from PIL import Image


def with_bleed(img: Image.Image, bleed_px: int) -> Image.Image:
    """``img`` with ``bleed_px`` extra pixels on every side, copied from the nearest edge pixel."""
    if bleed_px <= 0:
        return img
    w, h = img.size
    b = bleed_px
    out = Image.new(img.mode, (w + 2 * b, h + 2 * b))
    out.paste(img, (b, b))
    # Each edge: a 1-pixel strip stretched outward; each corner: the corner pixel as a square.
    out.paste(img.crop((0, 0, w, 1)).resize((w, b)), (b, 0))
    out.paste(img.crop((0, h - 1, w, h)).resize((w, b)), (b, h + b))
    out.paste(img.crop((0, 0, 1, h)).resize((b, h)), (0, b))
    out.paste(img.crop((w - 1, 0, w, h)).resize((b, h)), (w + b, b))
    for (sx, sy), (dx, dy) in (((0, 0), (0, 0)), ((w - 1, 0), (w + b, 0)),
                               ((0, h - 1), (0, h + b)), ((w - 1, h - 1), (w + b, h + b))):
        out.paste(img.getpixel((sx, sy)), (dx, dy, dx + b, dy + b))
    return out
