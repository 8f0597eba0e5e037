"""Physical lengths as authors and printers write them: ``5/8``, ``7/8"``, ``0.6in``, ``16mm``, ``1.5cm``,
``36pt``, ``1 1/4in``.  One parser for every size option and definition field, so a size means the same
everywhere (``build --counter-size``, ``sheets --size``, ``--bleed``, a template's sizes).

Every length comes back as an exact :class:`~fractions.Fraction` of inches: 16 mm is exactly 160/254 in,
not a float that prints as 0.6299212598425197, so a counter of 16 mm lays out on a sheet without drift and
the same input gives the same bytes.  A bare number is in inches (what the tools always accepted).

Hand-written rather than a units library (pint and the like): four units, exact fractions and
author-readable errors are all that is needed, and those libraries work in floats.
"""
from __future__ import annotations

import argparse
import re
from fractions import Fraction
from typing import Callable

MM_PER_INCH = Fraction(254, 10)
POINTS_PER_INCH = 72

# inches per unit; the spellings an author may write after the number
UNITS: dict[str, Fraction] = {
    "in": Fraction(1), '"': Fraction(1), "inch": Fraction(1), "inches": Fraction(1),
    "mm": 1 / MM_PER_INCH,
    "cm": 10 / MM_PER_INCH,
    "pt": Fraction(1, POINTS_PER_INCH),
}

_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)"
_LENGTH = re.compile(
    rf"\s*(?:(?P<whole>\d+)\s+(?=\d+\s*/))?"                        # "1 1/4": a whole number before a fraction
    rf"(?P<num>{_NUMBER})(?:\s*/\s*(?P<den>{_NUMBER}))?"            # 5/8, 0.6, 16
    rf"\s*(?P<unit>[a-zA-Z]+|\")?\s*")


class LengthError(ValueError):
    """Not a length (its message says what was written and what a length looks like)."""


def parse_length(value: str | int | float | Fraction, *, what: str = "length") -> Fraction:
    """``value`` in inches, exactly: ``"5/8"`` -> 5/8, ``"16mm"`` -> 80/127, ``"0.6in"`` -> 3/5.

    Raises :class:`LengthError` for text that is not a length or a negative one.
    """
    if isinstance(value, bool):
        raise LengthError(f"{what} {value!r}: not a length")
    if isinstance(value, Fraction):
        inches = value
    elif isinstance(value, int):
        inches = Fraction(value)
    elif isinstance(value, float):
        # A float from YAML (0.625) is a decimal the author wrote; recover it rather than its binary error.
        inches = Fraction(repr(value))
    else:
        inches = _parse_text(str(value), what)
    if inches < 0:
        raise LengthError(f"{what} {value!r}: must not be negative")
    return inches


def _parse_text(text: str, what: str) -> Fraction:
    m = _LENGTH.fullmatch(text)
    if m is None and text.strip().startswith("-") and _LENGTH.fullmatch(text.strip()[1:]):
        raise LengthError(f"{what} {text!r}: must not be negative")
    if m is None:
        raise LengthError(f"{what} {text!r}: not a length; write e.g. 5/8, 0.6in, 16mm or 1.5cm "
                          "(a bare number is in inches)")
    unit = (m.group("unit") or "in").lower()
    if unit not in UNITS:
        raise LengthError(f"{what} {text!r}: unknown unit {m.group('unit')!r} (use in, mm, cm or pt)")
    number = Fraction(m.group("num"))
    if m.group("den") is not None:
        den = Fraction(m.group("den"))
        if den == 0:
            raise LengthError(f"{what} {text!r}: division by zero")
        number /= den
    if m.group("whole") is not None:
        number += int(m.group("whole"))
    return number * UNITS[unit]


def positive_length(value: str | int | float | Fraction, *, what: str = "length") -> Fraction:
    """As :func:`parse_length`, and more than zero (a size of nothing is a mistake, not a request)."""
    inches = parse_length(value, what=what)
    if inches == 0:
        raise LengthError(f"{what} {value!r}: must be more than 0")
    return inches


def to_mm(inches: Fraction) -> Fraction:
    return inches * MM_PER_INCH


def to_points(inches: Fraction) -> Fraction:
    return inches * POINTS_PER_INCH


def to_pixels(inches: Fraction, dpi: int | Fraction) -> int:
    """Whole pixels for a length at ``dpi``, rounded half up (exact: no float on the way)."""
    exact = Fraction(inches) * Fraction(dpi)
    return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))


def describe(inches: Fraction) -> str:
    """A length the way an author would write it back: ``5/8in`` for a simple fraction, else millimetres."""
    inches = Fraction(inches)
    if inches.denominator <= 64:
        return f"{inches}in"
    mm = to_mm(inches)
    return f"{mm.numerator}mm" if mm.denominator == 1 else f"{float(mm):.4g}mm"


def length_argument(*, positive: bool = True, what: str = "length") -> Callable[[str], Fraction]:
    """An ``argparse`` ``type=`` for a length option: errors become argparse's one-line usage message."""
    def convert(text: str) -> Fraction:
        try:
            return positive_length(text, what=what) if positive else parse_length(text, what=what)
        except LengthError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = what.replace(" ", "_")    # argparse names the type in some messages
    return convert


class ScreenSize:
    """A size for screen images (a VASSAL module's counters): a length, drawn at the scale the map is
    printed at, or a number of pixels written ``60px``."""
    __slots__ = ("text", "pixels", "inches")

    def __init__(self, text: str, *, what: str = "size"):
        self.text = text.strip()
        if self.text.lower().endswith("px"):
            digits = self.text[:-2].strip()
            if not digits.isdigit() or int(digits) == 0:
                raise LengthError(f"{what} {text!r}: pixels are a whole number more than 0, like 60px")
            self.pixels: int | None = int(digits)
            self.inches: Fraction | None = None
        else:
            self.pixels, self.inches = None, positive_length(self.text, what=what)

    def in_pixels(self, pixels_per_inch: Fraction | float) -> int:
        if self.pixels is not None:
            return self.pixels
        assert self.inches is not None
        return to_pixels(self.inches, Fraction(pixels_per_inch).limit_denominator(1_000_000))

    def __repr__(self) -> str:
        return f"ScreenSize({self.text!r})"


def screen_size_argument(*, what: str = "size") -> Callable[[str], ScreenSize]:
    """An ``argparse`` ``type=`` for a screen size: ``5/8``, ``16mm`` or ``60px``."""
    def convert(text: str) -> ScreenSize:
        try:
            return ScreenSize(text, what=what)
        except LengthError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    convert.__name__ = what.replace(" ", "_")
    return convert
