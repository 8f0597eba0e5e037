"""Small parts: bleed extends edge colours, symbols carry the right marks, physical sizes parse exactly."""
from __future__ import annotations

from fractions import Fraction

import pytest
from PIL import Image, ImageDraw

from modulebuilder.render.bleed import with_bleed
from modulebuilder.render.physical import paper_points, parse_inches, px
from modulebuilder.render.symbols import symbol_image


def test_bleed_repeats_each_edge_outward() -> None:
    img = Image.new("RGB", (10, 10), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 9, 0), fill=(255, 0, 0))        # top row red
    d.rectangle((0, 9, 9, 9), fill=(0, 0, 255))        # bottom row blue
    d.rectangle((0, 1, 0, 8), fill=(0, 255, 0))        # left column green
    out = with_bleed(img, 4)
    assert out.size == (18, 18)
    assert out.crop((4, 4, 14, 14)).tobytes() == img.tobytes()
    assert out.getpixel((8, 0)) == (255, 0, 0) and out.getpixel((8, 17)) == (0, 0, 255)
    assert out.getpixel((0, 8)) == (0, 255, 0) and out.getpixel((17, 8)) == (255, 255, 255)
    assert out.getpixel((0, 0)) == (255, 0, 0)           # corner: the corner pixel
    assert with_bleed(img, 0) is img


def _dark(img: Image.Image, fx: float, fy: float) -> bool:
    r, g, b, a = img.getpixel((round(fx * (img.width - 1)), round(fy * (img.height - 1))))
    return a > 128 and r + g + b < 200


@pytest.mark.parametrize("key,centre,upper_left_diagonal", [
    ("infantry", True, True),           # X: both diagonals
    ("light_cavalry", True, False),     # one slash, lower left to upper right
    ("artillery", True, False),         # a dot in the middle, no lines
    ("horse_artillery", True, False),
])
def test_symbol_marks(key: str, centre: bool, upper_left_diagonal: bool) -> None:
    img = symbol_image(key, 120, 80)  # type: ignore[arg-type]
    assert img.size == (120, 80)
    assert _dark(img, 0.5, 0.5) == centre
    assert _dark(img, 0.25, 0.27) == upper_left_diagonal
    assert _dark(img, 0.5, 0.01) and _dark(img, 0.01, 0.5)           # frame


def test_militia_frame_is_broken() -> None:
    img = symbol_image("militia", 140, 100)
    top = [_dark(img, x / 100, 0.01) for x in range(2, 99)]
    assert any(top) and not all(top)


@pytest.mark.parametrize("text,inches", [("5/8", Fraction(5, 8)), ("0.625", Fraction(5, 8)), ("1", Fraction(1)),
                                         ('9/16"', Fraction(9, 16)), ("1/16in", Fraction(1, 16))])
def test_parse_inches(text: str, inches: Fraction) -> None:
    assert parse_inches(text) == inches


def test_bad_lengths_and_papers_are_refused() -> None:
    with pytest.raises(ValueError):
        parse_inches("five eighths")
    with pytest.raises(ValueError):
        parse_inches("-1/8")
    with pytest.raises(ValueError, match="letter"):
        paper_points("legal")


def test_pixel_size_rounds_the_exact_product() -> None:
    assert px(Fraction(9, 16), 300) == 169 and px(Fraction(9, 16), 600) == 338 and px(Fraction(5, 8), 300) == 188
