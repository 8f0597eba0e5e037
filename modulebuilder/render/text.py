"""Bundled fonts and fitting text into boxes.

Text is shrunk until it fits its box; below a legible minimum the build fails with an error that names
the counter and the field, because an illegible counter is worse than a failed build."""
from __future__ import annotations

from functools import lru_cache
from typing import Union

from PIL import Image, ImageDraw, ImageFont

from modulebuilder.fonts import BOLD, REGULAR, FontFileError
from modulebuilder.render.drawing import Text
from modulebuilder.render.physical import pt_to_px

# The smallest text we print, in points at the counter's physical size.
MIN_TEXT_PT = 5.0
# The smallest text on screen images (no dpi given).  Screen counters are small in pixels (VASSAL uses
# 60-80 px) but players zoom, so the limit is what a font can still draw, not a physical size.
SCREEN_MIN_TEXT_PX = 6.0


class TextDoesNotFit(ValueError):
    """A piece of text cannot be printed legibly in the space the layout gives it.  With the print
    resolution (``dpi``) the message speaks in points: the size the text would need and the largest size
    at which it fits its box."""

    def __init__(self, owner: str, field: str, text: str, min_px: float, fit_px: float | None = None,
                 dpi: float | None = None):
        self.owner, self.field, self.text, self.min_px, self.fit_px, self.dpi = owner, field, text, min_px, fit_px, dpi
        if dpi:
            need = f"{min_px / dpi * 72:.1f} pt"
            got = f"; it fits its box only at {fit_px / dpi * 72:.1f} pt" if fit_px else ""
        else:
            need = f"{min_px:.1f} px"
            got = f"; it fits its box only at {fit_px:.0f} px" if fit_px else ""
        super().__init__(f"counter {owner!r}: {field} {text!r} does not fit at the minimum legible size "
                         f"({need}){got}; shorten it or use a larger counter")

    def __reduce__(self) -> tuple[type, tuple]:
        # Raised inside render workers: must survive pickling back to the parent process.
        return (type(self), (self.owner, self.field, self.text, self.min_px, self.fit_px, self.dpi))


class FacesDoNotFit(TextDoesNotFit):
    """Several faces of a counter set have text that cannot be printed legibly: all of them, so that the
    author shortens every name in one pass.  ``owner``/``field`` are the first problem's."""

    def __init__(self, problems: "list[TextDoesNotFit]"):
        first = problems[0]
        super().__init__(first.owner, first.field, first.text, first.min_px, first.fit_px, first.dpi)
        self.problems = list(problems)
        self.args = ("\n".join(str(p) for p in self.problems),)

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[type, tuple]:
        return (type(self), (self.problems,))


class MissingGlyph(ValueError):
    """Text a counter prints has characters none of its fonts can draw.  Every command says so the same way
    (the module's PNGs would show a box where the PDF cannot embed anything): name the counter, the field,
    the characters and the fonts tried."""

    def __init__(self, owner: str, field: str, text: str, missing: str, fonts: tuple[str, ...]):
        self.owner, self.field, self.text, self.missing, self.fonts = owner, field, text, missing, fonts
        chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
        names = ", ".join(fonts)
        super().__init__(f"counter {owner!r}: {field} {text!r}: no glyph for {chars} in {names}; "
                         "give the template a font that has it (a list of fonts is tried in turn)")

    def __reduce__(self) -> tuple[type, tuple]:
        return (type(self), (self.owner, self.field, self.text, self.missing, self.fonts))


@lru_cache(maxsize=64)
def _codepoints(path: str) -> frozenset[int]:
    from modulebuilder.render.pdf import _metrics     # the cmap, read once per font (and cached on disk)
    return frozenset(_metrics(path)[0])


def lacks(text: str, path: str) -> str:
    """The characters of ``text`` (spaces aside) the font file ``path`` has no glyph for, each once."""
    have = _codepoints(path)
    return "".join(dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in have))


FontSpec = Union[bool, str]      # True/False: the bundled bold/regular; a str: the path of a TTF/OTF file


def font_file(spec: FontSpec) -> str:
    """The font file of ``spec`` (bundled bold for True, regular for False, else the path itself)."""
    if spec is True:
        return str(BOLD)
    if spec is False:
        return str(REGULAR)
    return str(spec)


@lru_cache(maxsize=None)
def font_at(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    """The font file ``path`` at ``size_px`` (cached: loading a face costs far more than drawing with it)."""
    try:
        return ImageFont.truetype(path, max(1, size_px))
    except OSError as exc:
        raise FontFileError(path, exc.strerror or str(exc)) from None


def font(size_px: int, bold: FontSpec = True) -> ImageFont.FreeTypeFont:
    """The bundled font (or the font file ``bold`` names) at ``size_px``."""
    return font_at(font_file(bold), size_px)


@lru_cache(maxsize=None)
def cap_height(size_px: int, bold: FontSpec = True) -> int:
    """Height of a capital above the baseline, for centring digits and capitals optically."""
    return -font(size_px, bold).getbbox("H", anchor="ls")[1]


def min_text_px(dpi: float | None) -> float:
    """Smallest legible text size in pixels on a counter: 5 pt at the physical
    size when printing (``dpi`` given), else the screen minimum."""
    if not dpi:
        return SCREEN_MIN_TEXT_PX
    return pt_to_px(MIN_TEXT_PT, dpi)


@lru_cache(maxsize=65536)
def fitted_size(text: str, max_width: float, max_px: int, bold: FontSpec = True) -> int:
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
        dpi: float | None = None) -> tuple[int, bool]:
    """(size, bold) for ``text`` in a box ``max_width`` wide, shrinking from ``max_px``.

    Bold is preferred; when bold would fall below ``min_px`` the narrower regular weight is tried at the
    largest size that fits, because a legible light name beats an illegible bold one.  Raises
    :class:`TextDoesNotFit` when neither weight reaches ``min_px``."""
    size = fitted_size(text, float(max_width), int(max_px), True)
    if size >= min_px and size > 0:
        return size, True
    size = fitted_size(text, float(max_width), int(max_px), False)
    if size >= min_px and size > 0:
        return size, False
    raise TextDoesNotFit(owner, field, text, min_px, max(size, fitted_size(text, float(max_width), int(max_px), True)),
                         dpi or print_dpi(min_px))


def print_dpi(min_px: float) -> float | None:
    """The print resolution a legibility limit was computed for (None for screen images)."""
    return None if min_px == SCREEN_MIN_TEXT_PX else min_px * POINTS / MIN_TEXT_PT


POINTS = 72.0


def draw_centred(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size_px: int,
                 fill: str | tuple[int, ...], bold: bool = True) -> None:
    """Draw ``text`` with its capital height centred on ``centre`` (digits look centred, unlike anchor 'mm')."""
    cx, cy = centre
    draw.text((cx, cy + cap_height(size_px, bold) / 2), text, font=font(size_px, bold), fill=fill, anchor="ms")


def draw_left(draw: ImageDraw.ImageDraw, left_middle: tuple[float, float], text: str, size_px: int,
              fill: str | tuple[int, ...], bold: bool = True) -> None:
    x, cy = left_middle
    draw.text((x, cy + cap_height(size_px, bold) / 2), text, font=font(size_px, bold), fill=fill, anchor="ls")



@lru_cache(maxsize=8192)
def stamp(text: str, size_px: int, font_path: str) -> tuple[Image.Image, int, int]:
    """Anti-aliased coverage mask of ``text`` and its offset from the centred anchor point.

    Counter faces repeat the same few strings (digits, corps ids, type letters) hundreds of times;
    rasterising each once and pasting the mask is much faster than drawing text anew."""
    f = font_at(font_path, size_px)
    left, top, right, bottom = f.getbbox(text, anchor="ms")
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor="ms")
    return mask, left, top


def paste_centred(img: Image.Image, centre: tuple[float, float], text: str, size_px: int,
                  fill: tuple[int, int, int], bold: bool = True) -> None:
    """Same placement as :func:`draw_centred`, from a cached mask."""
    mask, left, top = stamp(text, size_px, font_file(bold))
    x = int(round(centre[0])) + left
    y = int(round(centre[1] + cap_height(size_px, bold) / 2)) + top
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


def centred(text: str, centre: tuple[float, float], size_px: int, fill: tuple[int, ...],
            bold: FontSpec = True) -> "Text":
    """A drawing item placed as :func:`paste_centred` places it (capital height centred on ``centre``)."""
    return Text(text, int(round(centre[0])), int(round(centre[1] + cap_height(size_px, bold) / 2)), size_px,
                font_file(bold), tuple(fill[:3]))
