"""Two-hex (Musket & Pike) pieces: one image that covers two hexes and turns about the set-up hex.

VASSAL places a piece by its image centre and a FreeRotator turns the image about that same point.  A
two-hex unit's set-up ``hex`` is its LEFT half L (as seen by the unit looking forward), and the right half R
is the neighbour of L at hour ``facing + 3`` (rules digest musket-and-pike §3.3; ``referee/rulesets/
musket_and_pike/facing.py`` ``right_half``).  So the piece's position must be L's centre, not the counter's
centre: the double-width face is pasted into a transparent canvas whose centre is L's centre.

Art at rotator state 0 faces 12 o'clock (pointy grids; flat grids add the fixed 30-degree offset rotator,
``facing.py``), with R at 3 o'clock, east of L -- exactly §3.3's "facing north, R is east of L".  Any
rotation turns the vector L->R with the art, so R stays at hour ``facing + 3`` for every facing.

The counter is two counter sides wide, but neighbouring hex centres are ``sqrt(3) * hex size`` apart
(more than a counter side: counters fit inside a hex).  The counter is therefore centred on the midpoint of
L and R, so both halves sit the same small distance inside their hexes, and the canvas is
``2 * side + spacing`` wide: the anchor (L's centre, the canvas centre) is ``spacing / 2`` left of the
counter's centre, and the canvas reaches exactly the counter's right edge.
"""
from __future__ import annotations

import math

from PIL import Image

from ..hexgrid import HexLayout


def pair_spacing(layout: HexLayout) -> int:
    """Pixels between the centres of neighbouring hexes, rounded to an even number: then the padded image
    has an even width and its centre -- the engine's position of the piece -- falls on a whole pixel."""
    return 2 * round(math.sqrt(3) * layout.size / 2)


def padded_size(side_px: int, spacing: int) -> tuple[int, int]:
    """(width, height) of a two-hex piece image for counters ``side_px`` on a side."""
    return 2 * side_px + spacing, side_px


def counter_box(side_px: int, spacing: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the visible counter inside the padded image."""
    return spacing, 0, spacing + 2 * side_px, side_px


def anchored_face(face: Image.Image, spacing: int) -> Image.Image:
    """``face`` (a two-hex face, twice as wide as high) on a transparent canvas centred on its left half's
    hex: the piece image whose centre is the set-up hex and about which the FreeRotator turns it."""
    side = face.height
    if face.width != 2 * side:
        raise ValueError(f"a two-hex face must be twice as wide as high, not {face.width}x{face.height}")
    canvas = Image.new("RGBA", padded_size(side, spacing), (0, 0, 0, 0))
    left, top, _, _ = counter_box(side, spacing)
    canvas.paste(face.convert("RGBA"), (left, top))
    return canvas


def second_half_offset(spacing: float, degrees_cw: float) -> tuple[float, float]:
    """Where R's centre lies relative to the piece position (L's centre) when the art is turned
    ``degrees_cw`` clockwise from 12 o'clock: the vector L->R (east at 0 degrees) turned with it.
    Screen y grows downward, so a clockwise turn by ``a`` maps east (1, 0) to (cos a, sin a)."""
    a = math.radians(degrees_cw)
    return spacing * math.cos(a), spacing * math.sin(a)
