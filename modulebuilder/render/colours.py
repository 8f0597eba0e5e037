"""Colour arithmetic for counter and map art (RGB tuples, "#rrggbb" strings)."""
from __future__ import annotations

RGB = tuple[int, int, int]


def rgb(colour: str | RGB) -> RGB:
    """``"#rrggbb"`` (or ``"#rgb"``) -> (r, g, b)."""
    if isinstance(colour, tuple):
        return colour
    s = colour.strip().lstrip("#")
    if len(s) == 3:
        s = "".join(c * 2 for c in s)
    if len(s) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


def mix(a: str | RGB, b: str | RGB, t: float) -> RGB:
    """``a`` moved the fraction ``t`` of the way towards ``b``."""
    ra, rb = rgb(a), rgb(b)
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(ra, rb))  # type: ignore[return-value]


def luminance(colour: str | RGB) -> float:
    """Relative luminance 0..1 (Rec. 709 weights), to choose legible text on a fill."""
    r, g, b = rgb(colour)
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def ink_on(fill: str | RGB) -> RGB:
    """Black or white, whichever reads better on ``fill``."""
    return (0, 0, 0) if luminance(fill) > 0.5 else (255, 255, 255)
