"""Bundled fonts and fitting text into boxes.

Text is shrunk until it fits its box; below a legible minimum the build fails with an error that names
the counter and the field, because an illegible counter is worse than a failed build."""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

from modulebuilder.fonts import BOLD, REGULAR
from modulebuilder.render.physical import pt_to_px

# The smallest text we print, in points at the counter's physical size.
MIN_TEXT_PT = 5.0
# Counters rendered for the screen (no dpi given) are judged as if printed at this size (inches).
SCREEN_REFERENCE_INCHES = 0.625


class TextDoesNotFit(ValueError):
    """A piece of text cannot be printed legibly in the space the layout gives it."""

    def __init__(self, owner: str, field: str, text: str, min_px: float):
        self.owner, self.field, self.text = owner, field, text
        super().__init__(f"counter {owner!r}: {field} {text!r} does not fit even at the minimum "
                         f"legible size ({min_px:.1f} px); shorten it or use a larger counter")


@lru_cache(maxsize=None)
def font(size_px: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size_px`` (cached: loading a face costs far more than drawing with it)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(1, size_px))


@lru_cache(maxsize=None)
def cap_height(size_px: int, bold: bool = True) -> int:
    """Height of a capital above the baseline, for centring digits and capitals optically."""
    return -font(size_px, bold).getbbox("H", anchor="ls")[1]


def min_text_px(size_px: int, dpi: float | None) -> float:
    """Smallest legible text size in pixels on a counter of ``size_px`` pixels.

    With a dpi the counter's physical size is known; without one (screen images for VASSAL) the counter
    is judged as if printed at the reference size, so a name that fits on screen also fits on paper."""
    effective_dpi = dpi if dpi else size_px / SCREEN_REFERENCE_INCHES
    return pt_to_px(MIN_TEXT_PT, effective_dpi)


@lru_cache(maxsize=65536)
def fitted_size(text: str, max_width: float, max_px: int, bold: bool = True) -> int:
    """The largest integer pixel size <= ``max_px`` at which ``text`` is at most ``max_width`` wide (0 if none)."""
    lo, hi = 0, max_px
    while lo < hi:                                 # binary search: width grows monotonically with size
        mid = (lo + hi + 1) // 2
        if font(mid, bold).getlength(text) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return lo


def fit(text: str, max_width: float, max_px: int, min_px: float, *, owner: str, field: str,
        bold: bool = True) -> int:
    """Size for ``text`` in a box ``max_width`` wide, shrinking from ``max_px``; raises TextDoesNotFit."""
    size = fitted_size(text, float(max_width), int(max_px), bold)
    if size < min_px or size == 0:
        raise TextDoesNotFit(owner, field, text, min_px)
    return size


def draw_centred(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size_px: int,
                 fill: str | tuple[int, ...], bold: bool = True) -> None:
    """Draw ``text`` with its capital height centred on ``centre`` (digits look centred, unlike anchor 'mm')."""
    cx, cy = centre
    draw.text((cx, cy + cap_height(size_px, bold) / 2), text, font=font(size_px, bold), fill=fill, anchor="ms")


def draw_left(draw: ImageDraw.ImageDraw, left_middle: tuple[float, float], text: str, size_px: int,
              fill: str | tuple[int, ...], bold: bool = True) -> None:
    x, cy = left_middle
    draw.text((x, cy + cap_height(size_px, bold) / 2), text, font=font(size_px, bold), fill=fill, anchor="ls")


def draw_right(draw: ImageDraw.ImageDraw, right_middle: tuple[float, float], text: str, size_px: int,
               fill: str | tuple[int, ...], bold: bool = True) -> None:
    x, cy = right_middle
    draw.text((x, cy + cap_height(size_px, bold) / 2), text, font=font(size_px, bold), fill=fill, anchor="rs")
