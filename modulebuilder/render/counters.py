"""Counter faces: unit fronts and Disordered backs, commanders and markers, in the Triumph & Glory layout.

A unit face (after the counter diagrams of the series, rules digest §2.1)::

    +---------------------------+
    |  designation (AG colour)  |   band: the activation group's colour
    | DFE   [NATO box]   corps  |   DFE / cavalry type / artillery range  -  symbol  -  corps id
    |                  brigade  |   brigade mark on infantry of a multi-counter brigade
    |  assault  cohesion   MA   |   artillery: fire  cohesion  MA
    +---------------------------+

The Disordered back keeps the layout with its own values on a washed-out fill under a broad red diagonal
stripe, so a flipped counter is recognised across the table.  Musket & Pike backs are the *Shaken* side
(rules digest musket-and-pike §2.1: the reverse face with no marker is Shaken): the same washed-out fill
with an amber frame and the word "Shaken" instead of the red stripe, so the two series never look alike.
The back treatment is a parameter (:data:`BackTreatment`); callers pick it from the scenario's ruleset with
:func:`back_treatment`.

Two-hex units (``Unit.size == 2``, Musket & Pike lines) are one continuous face two counter sides wide:
the band and the designation run across the whole width, the symbol sits in the middle, and the values
that hug an edge on a single counter hug the same edge of the wide one.

All geometry is in fractions of the counter side, so every size and resolution is the same design."""
from __future__ import annotations

from functools import lru_cache
from typing import Literal

from PIL import Image

from modulebuilder.model import ActivationGroup, Face, Leader, Marker, Unit
from modulebuilder.render import text as T
from modulebuilder.render.colours import RGB, ink_on, mix, rgb
from modulebuilder.render.drawing import Drawing, Item, Layer, Recorder
from modulebuilder.render.raster import to_image
from modulebuilder.render.symbols import SymbolKey, symbol_layer, unit_symbol_key

FaceName = Literal["front", "back"]
BackTreatment = Literal["disordered", "shaken"]
MUSKET_AND_PIKE = "musket-and-pike"

# Layout, as fractions of the counter side.
BAND_BOTTOM = 0.26
NAME_MAX = 0.19            # designation text size (px / side) before shrinking
MID_Y = 0.45               # centre line of the middle row
SIDE_VALUE_MAX = 0.22      # DFE / type / range text size
SYMBOL_W, SYMBOL_H = 0.40, 0.27
VALUE_Y = 0.80             # centre line of the bottom row
VALUE_MAX = 0.30           # bottom-row numbers
VALUE_COLUMNS = (0.19, 0.50, 0.81)
VALUE_COLUMN_W = 0.29
INSET = 0.05

WHITE: RGB = (255, 255, 255)
DISORDER_RED: RGB = (200, 16, 16)
SHAKEN_AMBER: RGB = (222, 142, 0)
SHAKEN_FRAME = 0.06        # amber frame width (fraction of the side)
SHAKEN_Y = 0.635           # the word "Shaken": between the symbol row and the values
SHAKEN_MAX = 0.10
LEADER_BAND: RGB = (38, 38, 38)
LEADER_BODY: RGB = (236, 224, 186)


# ----------------------------------------------------------------------------------------- choices

def back_treatment(ruleset: str | None) -> BackTreatment:
    """The look of a unit's back for a scenario's ruleset: Musket & Pike backs are Shaken, everything else
    (Triumph & Glory, or no scenario at all) keeps the Disordered look."""
    return "shaken" if ruleset == MUSKET_AND_PIKE else "disordered"


def face_size(unit: Unit, size_px: int) -> tuple[int, int]:
    """(width, height) of a unit's face: ``size`` counter sides wide, one side high."""
    return size_px * unit.size, size_px


def _x(fx: float, s: int, w: int) -> float:
    """Horizontal position for a single-counter fraction ``fx`` on a face ``w`` wide: left-hand items keep
    their distance from the left edge, right-hand ones from the right edge, centred ones stay centred.
    On a single counter (``w == s``) this is exactly ``s * fx`` (the offset is 0), so T&G art is unchanged."""
    shift = 0.0 if fx < 0.5 else (0.5 if fx == 0.5 else 1.0)
    return s * fx + (w - s) * shift


# ----------------------------------------------------------------------------------------- colours

def body_colour(ag: ActivationGroup) -> RGB:
    """Counter body: a pale tint of the AG colour, so a corps reads as one family on the map."""
    return mix(ag.colour, WHITE, 0.72)


def washed(colour: RGB) -> RGB:
    """Disordered backs are faded towards a pale grey: visibly 'less' than the front."""
    return mix(colour, (235, 235, 235), 0.55)


# ----------------------------------------------------------------------------------------- static parts

def _stripe(size_px: int, width_px: int) -> Layer:
    """A translucent red band from lower left to upper right, below the band: the Disordered mark."""
    ss = 2
    s, w = size_px * ss, width_px * ss
    half = s * 0.17                    # half the stripe's width, measured along an edge
    poly = [(-half, s), (half, s), (w + half, 0), (w - half, 0)]
    rec = Recorder()
    rec.polygon(poly, fill=DISORDER_RED + (120,))
    # keep_from_row: the band stays clean so the designation stays crisp
    return Layer(rec.take(), width_px, size_px, ss, "box", keep_from_row=int(round(size_px * BAND_BOTTOM)),
                 blend="composite")


@lru_cache(maxsize=512)
def _base(band: RGB, body: RGB, size_px: int, back: BackTreatment | None,
          width_px: int | None = None) -> tuple[Item, ...]:
    """Band (+ the back's mark) over the body colour, for one colour scheme: shared by every face that
    uses it.  ``back`` is None for a front; ``width_px`` (default: square) widens two-hex faces."""
    w = size_px if width_px is None else width_px
    band_h = int(round(size_px * BAND_BOTTOM))
    rec = Recorder()
    rec.rectangle((0, 0, w - 1, band_h - 1), fill=band)
    # A darker rule under the band keeps it distinct even when the AG colour is as pale as the body.
    rule = max(1, round(size_px * 0.012))
    rec.rectangle((0, band_h - rule, w - 1, band_h - 1), fill=mix(band, (0, 0, 0), 0.4))
    items: list[Item] = list(rec.take())
    if back == "disordered":
        items.append(_stripe(size_px, w))
    elif back == "shaken":
        # A frame, not a stripe: it marks the whole outline (both halves of a two-hex counter) and leaves
        # the values unobscured.
        frame = max(1, round(size_px * SHAKEN_FRAME))
        rec.rectangle((0, 0, w - 1, size_px - 1), outline=SHAKEN_AMBER, width=frame)
        items += rec.take()
    return tuple(items)


class _Face:
    """A drawing being assembled: the base, then items in order (the order the raster backend paints)."""

    def __init__(self, w: int, h: int, background: RGB, base: tuple[Item, ...] = ()):
        self.w, self.h, self.background, self.base = w, h, background, base
        self.items: list[Item] = []

    @property
    def width(self) -> int:
        return self.w

    def add(self, item: Item | None) -> None:
        if item is not None:
            self.items.append(item)

    def drawing(self) -> Drawing:
        return Drawing(self.w, self.h, self.background, self.base, tuple(self.items))


# ----------------------------------------------------------------------------------------- text helpers

def _value_text(v: int | None) -> str | None:
    return None if v is None else str(v)


def _put(img: _Face, text: str | None, centre: tuple[float, float], width: float, max_px: float,
         min_px: float, ink: RGB, owner: str, field: str) -> None:
    if not text:
        return
    size, bold = T.fit(text, width, int(max_px), min_px, owner=owner, field=field)
    img.add(T.centred(text, centre, size, ink, bold))


def _designation(img: _Face, name: str, s: int, min_px: float, ink: RGB, owner: str,
                 short_name: str | None = None) -> None:
    """The name across the top band; the author's ``short_name`` when the name cannot be printed legibly."""
    w = img.width                      # two-hex faces: the designation may use the whole band
    box = ((w / 2, s * BAND_BOTTOM / 2), w * (1 - 2 * INSET), s * NAME_MAX)
    try:
        _put(img, name, *box, min_px, ink, owner, "name")
    except T.TextDoesNotFit:
        if not short_name:
            raise
        _put(img, short_name, *box, min_px, ink, owner, "short_name")


def _bottom_row(img: _Face, values: tuple[tuple[str, str | None], ...], s: int, min_px: float,
                ink: RGB, owner: str) -> None:
    for (field, value), cx in zip(values, VALUE_COLUMNS):
        _put(img, value, (_x(cx, s, img.width), s * VALUE_Y), s * VALUE_COLUMN_W, s * VALUE_MAX, min_px, ink,
             owner, field)


def _paste_symbol(img: _Face, key: SymbolKey, s: int) -> None:
    w, h = int(round(s * SYMBOL_W)), int(round(s * SYMBOL_H))
    img.add(symbol_layer(key, w, h, (int(round((img.width - w) / 2)), int(round(s * MID_Y - h / 2)))))


def shaken_word_fits(width_px: int, s: int, min_px: float) -> tuple[bool, int]:
    """(fits, size): whether the word "Shaken" is legible on a Shaken back ``width_px`` wide, and its size."""
    size = T.fitted_size("Shaken", width_px * (1 - 2 * INSET) - 2 * s * SHAKEN_FRAME, int(s * SHAKEN_MAX), True)
    return size >= min_px and size > 0, size


def _shaken_word(img: _Face, s: int, min_px: float, ink: RGB) -> None:
    """'Shaken' between the symbol and the values, when it can be printed legibly; the amber frame alone
    marks the side on counters too small for it (:func:`shaken_word_fits` tells the sheets, which report it)."""
    fits, size = shaken_word_fits(img.width, s, min_px)
    if fits:
        img.add(T.centred("Shaken", (img.width / 2, s * SHAKEN_Y), size, ink))


def _brigade_mark(img: _Face, s: int, w: int, ink: RGB) -> None:
    """Small filled diamond: this infantry belongs to a multi-counter brigade (6.21)."""
    cx, cy, r = _x(0.85, s, w), s * 0.575, s * 0.035
    rec = Recorder()
    rec.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=ink)
    img.items += rec.take()


# ----------------------------------------------------------------------------------------- unit faces

def _side_value(unit: Unit, values: Face) -> tuple[str, str | None]:
    """Left of the symbol: infantry DFE, cavalry type letter, artillery 'effective-maximum' range."""
    if unit.kind == "infantry":
        return "dfe", _value_text(values.dfe)
    if unit.kind == "cavalry":
        return "cav_type", unit.cav_type
    if values.eff_range is None or values.max_range is None:
        return "range", None
    return "range", f"{values.eff_range}-{values.max_range}"


def _bottom_values(unit: Unit, values: Face) -> tuple[tuple[str, str | None], ...]:
    first = ("fire", values.fire) if unit.kind == "artillery" else ("assault", values.assault)
    return ((first[0], _value_text(first[1])), ("cohesion", _value_text(values.cohesion)),
            ("ma", _value_text(values.ma)))


def render_unit_face(unit: Unit, ag: ActivationGroup, face: FaceName, size_px: int, *,
                     dpi: float | None = None, back: BackTreatment = "disordered") -> Image.Image:
    """:func:`unit_drawing` rasterised."""
    return to_image(unit_drawing(unit, ag, face, size_px, dpi=dpi, back=back))


def unit_drawing(unit: Unit, ag: ActivationGroup, face: FaceName, size_px: int, *,
                 dpi: float | None = None, back: BackTreatment = "disordered") -> Drawing:
    """One face of a combat unit, ``size_px`` high and ``unit.size * size_px`` wide.

    ``face="back"`` is the unit's back (``ValueError`` if it has none), drawn with the ``back`` treatment:
    Disordered (T&G) or Shaken (M&P).  ``dpi`` gives the physical size for the 5 pt legibility limit;
    without it (screen images) the limit is 6 px."""
    treatment = back if face == "back" else None
    values = unit.back if treatment else unit.front
    if values is None:
        raise ValueError(f"unit {unit.id!r} has no back ({back}) face")
    s = size_px
    w, _ = face_size(unit, s)
    band, body = rgb(ag.colour), body_colour(ag)
    if treatment:
        band, body = washed(band), washed(body)
    img = _Face(w, s, body, _base(band, body, s, treatment, None if w == s else w))
    min_px = T.min_text_px(dpi)
    band_ink = rgb(ag.text_colour) if not treatment else ink_on(band)
    ink = ink_on(body)
    _designation(img, unit.name, s, min_px, band_ink, unit.id, unit.short_name)
    field, side_text = _side_value(unit, values)
    _put(img, side_text, (s * 0.155, s * MID_Y), s * 0.25, s * SIDE_VALUE_MAX, min_px, ink, unit.id, field)
    _paste_symbol(img, unit_symbol_key(unit), s)
    if unit.kind != "artillery":            # T&G artillery counters carry no corps id (rules digest 2.1)
        corps = unit.corps or ag.label
        _put(img, corps, (_x(0.85, s, w), s * (MID_Y - 0.035)), s * 0.27, s * 0.15, min_px, ink, unit.id, "corps")
    if unit.kind == "infantry" and unit.brigade:
        _brigade_mark(img, s, w, ink)
    if treatment == "shaken":
        _shaken_word(img, s, min_px, ink)
    _bottom_row(img, _bottom_values(unit, values), s, min_px, ink, unit.id)
    return img.drawing()


# ----------------------------------------------------------------------------------------- commanders

def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


def render_leader_face(leader: Leader, size_px: int, *, dpi: float | None = None) -> Image.Image:
    """:func:`leader_drawing` rasterised."""
    return to_image(leader_drawing(leader, size_px, dpi=dpi))


def leader_drawing(leader: Leader, size_px: int, *, dpi: float | None = None) -> Drawing:
    """A commander: orders rating ("?" when the scenario sets it) and delay rating beside a star;
    below, CinC DRM, command range and MA ("d10" when variable)."""
    s = size_px
    img = _Face(s, s, LEADER_BODY, _base(LEADER_BAND, LEADER_BODY, s, None))
    min_px = T.min_text_px(dpi)
    ink = ink_on(LEADER_BODY)
    _designation(img, leader.name, s, min_px, ink_on(LEADER_BAND), leader.id, leader.short_name)
    orders = "?" if leader.orders_rating is None else str(leader.orders_rating)
    delay = "–" if leader.delay_rating is None else str(leader.delay_rating)
    _put(img, orders, (s * 0.155, s * MID_Y), s * 0.25, s * SIDE_VALUE_MAX, min_px, ink, leader.id, "orders_rating")
    _put(img, delay, (s * 0.845, s * MID_Y), s * 0.25, s * SIDE_VALUE_MAX, min_px, ink, leader.id, "delay_rating")
    w = h = int(round(s * SYMBOL_H * 1.15))
    img.add(symbol_layer("commander", w, h, (int(round((s - w) / 2)), int(round(s * MID_Y - h / 2)))))
    ma = "d10" if leader.ma is None else str(leader.ma)
    values = (("drm", _signed(leader.drm)), ("command_range", str(leader.command_range)), ("ma", ma))
    _bottom_row(img, values, s, min_px, ink, leader.id)
    return img.drawing()


# ----------------------------------------------------------------------------------------- markers

def _splits(words: list[str], k: int) -> list[list[str]]:
    """Every way to break ``words`` into ``k`` non-empty lines (markers have few words: this is cheap)."""
    if k == 1:
        return [[" ".join(words)]]
    return [[" ".join(words[:i])] + rest for i in range(1, len(words) - k + 2) for rest in _splits(words[i:], k - 1)]


def _split_lines(text: str, lines: int) -> list[str]:
    """``text`` broken at spaces into ``lines`` lines, the longest line as short as possible."""
    words = text.split()
    lines = min(lines, len(words))
    if lines <= 1:
        return [text]
    return min(_splits(words, lines), key=lambda c: max(len(line) for line in c))


def marker_lines(text: str, s: int) -> tuple[list[str], int]:
    """(lines, text size) for a marker of side ``s``: one line as large as fits, wrapped onto two or three
    lines only when one line would have to shrink below a fifth of the marker."""
    width = s * (1 - 2 * INSET)
    lines, size = [text], T.fitted_size(text, width, int(s * 0.36))
    for n in (2, 3):
        if size >= s * 0.2 or len(text.split()) < n:
            break
        candidate = _split_lines(text, n)
        candidate_size = min(T.fitted_size(c, width, int(s * 0.78 / n / 1.25)) for c in candidate)
        if candidate_size > size:
            lines, size = candidate, candidate_size
    return lines, size


def render_marker_face(marker: Marker, face: FaceName, size_px: int, *, dpi: float | None = None) -> Image.Image:
    """:func:`marker_drawing` rasterised."""
    return to_image(marker_drawing(marker, face, size_px, dpi=dpi))


def marker_drawing(marker: Marker, face: FaceName, size_px: int, *, dpi: float | None = None) -> Drawing:
    """A game marker: its text (``back_text`` on the back), centred and as large as fits."""
    text = marker.text if face == "front" else marker.back_text
    if text is None:
        raise ValueError(f"marker {marker.id!r} has no back face")
    s = size_px
    img = _Face(s, s, rgb(marker.colour))
    lines, size = marker_lines(text, s)
    min_px = T.min_text_px(dpi)
    if size < min_px or size == 0:
        raise T.TextDoesNotFit(marker.id, "text" if face == "front" else "back_text", text, min_px, size,
                               T.print_dpi(min_px))
    pitch = size * 1.2
    top = s / 2 - pitch * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        img.add(T.centred(line, (s / 2, top + i * pitch), size, rgb(marker.text_colour)))
    return img.drawing()


def render_blank_back(colour: str | RGB, size_px: int) -> Image.Image:
    """:func:`blank_drawing` rasterised."""
    return to_image(blank_drawing(colour, size_px))


def blank_drawing(colour: str | RGB, size_px: int) -> Drawing:
    """The back of a one-sided counter on a duplex sheet: plain colour, so the cut counter looks finished."""
    return Drawing(size_px, size_px, rgb(colour))
