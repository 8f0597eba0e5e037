"""Physical sizes: parsing "5/8" style lengths and converting inches, points and millimetres to pixels.

Every conversion to device units happens once, from an exact physical coordinate, so rounding never
accumulates along a row of counters or across a sheet."""
from __future__ import annotations

from fractions import Fraction

POINTS_PER_INCH = 72.0
MM_PER_INCH = 25.4

# Counter sizes the print sheets support (inches).  Wargame counters come in these die-cut sizes.
COUNTER_SIZES: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(9, 16), Fraction(5, 8), Fraction(3, 4), Fraction(1))

# Paper sizes in points (ISO A4 is defined in millimetres, hence the fractional points).
PAPER_POINTS: dict[str, tuple[float, float]] = {
    "letter": (612.0, 792.0),
    "a4": (210 / MM_PER_INCH * POINTS_PER_INCH, 297 / MM_PER_INCH * POINTS_PER_INCH),
}


def parse_inches(text: str | float | Fraction) -> Fraction:
    """``"5/8"``, ``"0.625"``, ``"1"`` or a number -> inches as an exact Fraction."""
    if isinstance(text, Fraction):
        return text
    if isinstance(text, (int, float)):
        return Fraction(text).limit_denominator(10_000)
    s = str(text).strip().removesuffix("in").removesuffix('"').strip()
    try:
        value = Fraction(s).limit_denominator(10_000)
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"not a length in inches: {text!r}") from exc
    if value < 0:
        raise ValueError(f"length must not be negative: {text!r}")
    return value


def px(inches: float | Fraction, dpi: float) -> int:
    """Pixels for a physical length: ``round(inches * dpi)`` (the exact-size rule for images)."""
    return int(round(float(inches) * dpi))


def points(inches: float | Fraction) -> float:
    return float(inches) * POINTS_PER_INCH


def mm_to_points(mm: float) -> float:
    return mm / MM_PER_INCH * POINTS_PER_INCH


def pt_to_px(pt: float, dpi: float) -> float:
    return pt / POINTS_PER_INCH * dpi


def paper_points(name: str) -> tuple[float, float]:
    try:
        return PAPER_POINTS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {name!r}; choose one of {', '.join(PAPER_POINTS)}") from None
