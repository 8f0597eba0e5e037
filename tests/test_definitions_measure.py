"""Lengths as authors write them (modulebuilder/measure.py): every size option reads them the same way."""
from __future__ import annotations

import argparse
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modulebuilder.measure import (LengthError, describe, length_argument, parse_length, positive_length, to_mm,
                                   to_pixels)


@pytest.mark.parametrize("text, inches", [
    ("5/8", Fraction(5, 8)), ("7/8", Fraction(7, 8)), ('7/8"', Fraction(7, 8)), ("0.6in", Fraction(3, 5)),
    ("0.6", Fraction(3, 5)), ("16mm", Fraction(160, 254)), ("15 mm", Fraction(150, 254)),
    ("1.5cm", Fraction(150, 254)), ("36pt", Fraction(1, 2)), ("1 1/4in", Fraction(5, 4)), (".5in", Fraction(1, 2)),
    ("1 inch", Fraction(1)), ("  9/16  ", Fraction(9, 16)), ("5/8IN", Fraction(5, 8)),
])
def test_the_lengths_of_issue_14_parse_exactly(text: str, inches: Fraction) -> None:
    assert parse_length(text) == inches


@pytest.mark.parametrize("text, message", [
    ("", "not a length"), ("big", "not a length"), ("5/0", "division by zero"), ("-1/2", "must not be negative"),
    ("3ft", "unknown unit 'ft'"), ("1/2/3", "not a length"), ("16 m m", "not a length"),
])
def test_what_is_not_a_length_says_so(text: str, message: str) -> None:
    with pytest.raises(LengthError, match=message):
        parse_length(text, what="--size")


def test_zero_is_refused_where_a_size_is_wanted() -> None:
    assert parse_length("0") == 0
    with pytest.raises(LengthError, match="must be more than 0"):
        positive_length("0mm", what="--hex-inches")


def test_yaml_numbers_keep_the_decimal_the_author_wrote() -> None:
    assert parse_length(0.6) == Fraction(3, 5) and parse_length(1) == 1 and parse_length(Fraction(5, 8)) == Fraction(5, 8)
    with pytest.raises(LengthError):
        parse_length(True)


def test_an_argparse_option_reports_one_line() -> None:
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--size", type=length_argument(what="--size"))
    assert parser.parse_args(["--size", "16mm"]).size == Fraction(80, 127)
    with pytest.raises(argparse.ArgumentError, match="--size '0': must be more than 0"):
        parser.parse_args(["--size", "0"])


@given(st.fractions(min_value=0, max_value=100, max_denominator=1000))
def test_a_fraction_in_inches_reads_back(value: Fraction) -> None:
    assert parse_length(f"{value.numerator}/{value.denominator}in") == value
    assert parse_length(f"{value.numerator}/{value.denominator}") == value


@given(st.integers(min_value=0, max_value=100_000))
def test_millimetres_are_exact(tenths: int) -> None:
    mm = Fraction(tenths, 10)
    text = f"{tenths // 10}.{tenths % 10}mm"
    assert to_mm(parse_length(text)) == mm


@given(st.fractions(min_value=Fraction(1, 64), max_value=10, max_denominator=500))
def test_describe_reads_back_as_the_same_length_or_the_nearest_tenth_of_a_mm(value: Fraction) -> None:
    back = parse_length(describe(value))
    assert back == value or abs(to_mm(back) - to_mm(value)) < Fraction(1, 10)


@given(st.fractions(min_value=0, max_value=20, max_denominator=1000), st.sampled_from([72, 150, 300, 600]))
def test_pixels_round_half_up(value: Fraction, dpi: int) -> None:
    px = to_pixels(value, dpi)
    assert abs(Fraction(px) - value * dpi) <= Fraction(1, 2)
    assert to_pixels(Fraction(1, 2 * dpi), dpi) == 1
