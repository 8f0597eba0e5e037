"""The author's map art as the module's map and the print map, and the grid drawn over it for checking.

The art replaces the rendered picture only: the terrain data still serves the rules and the VASSAL grid,
whose hexes are placed where the art's are (modulebuilder.mapart fits them from two hex centres).  The
module shows the art at its own pixels (or at ``--hex-size``); the print PDFs resample it so a hex is
``--hex-inches`` across the flats at ``--dpi`` — a 50 MB scan is brought down to what the printer can use,
with a note saying so, and a small image is brought up with a note that it will print soft.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from modulebuilder.hexgrid import HexGrid, HexLayout, across_flats, size_across_flats
from modulebuilder.mapart import fit_layout, scaled
from modulebuilder.model import MapDef
from modulebuilder.render import text as T

# Pillow refuses images above ~89 M pixels as a possible decompression bomb; an author's own map art is
# trusted input, and a 300 dpi scan of a large map is that big.
MAX_ART_PIXELS = 400_000_000


def art_layout(mapdef: MapDef) -> HexLayout:
    """Where the grid lies on the art, in the art's own pixels."""
    assert mapdef.art is not None, "art_layout of a map without art"
    return fit_layout(HexGrid.from_model(mapdef.grid), mapdef.art.hexes)


def load_art(mapdef: MapDef) -> Image.Image:
    """The art's pixels as RGB (a JPEG's or a palette PNG's alike)."""
    assert mapdef.art is not None, "load_art of a map without art"
    limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_ART_PIXELS
    try:
        with Image.open(mapdef.art.image) as src:
            img = src.convert("RGB")
    finally:
        Image.MAX_IMAGE_PIXELS = limit
    return img


def resized_layout(layout: HexLayout, hex_size: float) -> HexLayout:
    """The layout on the art resized to hexes of ``hex_size`` (centre to corner) pixels."""
    factor = hex_size / layout.size
    return layout if abs(factor - 1) < 1e-9 else scaled(layout, factor)


def screen_layout(mapdef: MapDef, hex_size: float | None = None) -> HexLayout:
    """Where the grid lies on the module's map (:func:`screen_art`), without loading the art."""
    layout = art_layout(mapdef)
    return resized_layout(layout, hex_size) if hex_size else layout


def resized(img: Image.Image, layout: HexLayout, hex_size: float) -> tuple[Image.Image, HexLayout]:
    """The art and its layout with hexes of ``hex_size`` (centre to corner) pixels."""
    out = resized_layout(layout, hex_size)
    if out is layout:
        return img, layout
    # Rounding the image's size to whole pixels moves its far edge by under half a pixel: the layout keeps
    # the exact factor.
    factor = hex_size / layout.size
    w, h = max(1, round(img.width * factor)), max(1, round(img.height * factor))
    return img.resize((w, h), Image.Resampling.LANCZOS), out


def screen_art(mapdef: MapDef, hex_size: float | None = None) -> tuple[Image.Image, HexLayout]:
    """The module's (and ``modulebuilder map``'s PNG) map: the art at its own pixels, or at ``hex_size``."""
    img, layout = load_art(mapdef), art_layout(mapdef)
    return resized(img, layout, hex_size) if hex_size else (img, layout)


def print_art(mapdef: MapDef, hex_inches: float, dpi: float) -> tuple[Image.Image, HexLayout, str]:
    """The art resampled for print (a hex ``hex_inches`` across the flats at ``dpi``) and a note saying
    what was done to it."""
    img, layout = load_art(mapdef), art_layout(mapdef)
    target = size_across_flats(hex_inches * dpi)
    art_dpi = across_flats(layout.size) / hex_inches
    out, lay = resized(img, layout, target)
    if out.size == img.size:
        note = f"map art {mapdef.art.image}: {img.width} x {img.height} px, printed as it is at {dpi:g} dpi"
    elif out.width < img.width:
        note = (f"map art {mapdef.art.image}: {img.width} x {img.height} px is {art_dpi:.0f} dpi at "
                f"{hex_inches:g} in hexes; downsampled to {out.width} x {out.height} px for {dpi:g} dpi print")
    else:
        note = (f"map art {mapdef.art.image}: {img.width} x {img.height} px is only {art_dpi:.0f} dpi at "
                f"{hex_inches:g} in hexes; upsampled to {out.width} x {out.height} px for {dpi:g} dpi print, "
                "so it will print soft (a larger scan prints sharper)")
    return out, lay, note


def grid_check(mapdef: MapDef) -> Image.Image:
    """The art with the grid and every hex number drawn over it, for the author to see them fit."""
    img, layout = load_art(mapdef), art_layout(mapdef)
    over = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(over)
    s = layout.size
    width = max(1, round(s * 0.04))
    num = max(6, round(s * 0.28))
    for h in layout.grid.hexes():
        pts = layout.corners(h)
        d.line(pts + [pts[0]], fill=(220, 0, 0, 230), width=width)
        cx, cy = layout.center(h)
        r = max(1.5, s * 0.06)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(220, 0, 0, 230))
        d.text((cx, cy - s * 0.3), h, font=T.font(num), fill=(220, 0, 0, 255), anchor="mm",
               stroke_width=max(1, round(num * 0.12)), stroke_fill=(255, 255, 255, 230))
    return Image.alpha_composite(img.convert("RGBA"), over).convert("RGB")
