"""T&G's odds ratios (9.51) without ``fractions``: ``combat_tables.Ratio`` is Fraction's value, terms, order,
equality and hash, and the odds table reads the same rows as it did with Fractions (docs/speed.md §1)."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from referee.rulesets.triumph_and_glory.combat_tables import DEFAULT_ODDS, OddsTable, Ratio

_int = st.integers(-60, 60)
_nonzero = _int.filter(bool)


@settings(max_examples=2000, deadline=None)
@given(_int, _nonzero, _int, _nonzero)
def test_a_ratio_is_the_fraction_of_its_terms(a, b, c, d):
    r, s, fr, fs = Ratio(a, b), Ratio(c, d), Fraction(a, b), Fraction(c, d)
    assert (r.numerator, r.denominator) == (fr.numerator, fr.denominator)
    assert (r == s, r < s, r <= s, r > s, r >= s) == (fr == fs, fr < fs, fr <= fs, fr > fs, fr >= fs)
    assert (r == fs, r < fs, r <= fs, fr < s, fr >= s) == (fr == fs, fr < fs, fr <= fs, fr < fs, fr >= fs)
    assert (r == c, r <= c, c < r) == (fr == c, fr <= c, c < fr)
    assert hash(r) == hash(fr)
    assert (r == fs) == (fs == r)


def test_a_ratio_refuses_what_fraction_refuses():
    with pytest.raises(ZeroDivisionError, match=r"^Fraction\(3, 0\)$"):
        Ratio(3, 0)
    with pytest.raises(ZeroDivisionError, match=r"^Fraction\(3, 0\)$"):
        Fraction(3, 0)
    with pytest.raises(AttributeError):
        Ratio(1, 2).numerator = 3


def _fraction_table(raw):
    """OddsTable as it was, with Fractions (110943f)."""
    rows = []
    for r in raw or DEFAULT_ODDS:
        if isinstance(r, dict):
            rows.append((Fraction(str(r["min"])).limit_denominator(100), int(r["drm"])))
        else:
            a, d, drm = r
            rows.append((Fraction(int(a), int(d)), int(drm)))
    return tuple(sorted(rows, key=lambda x: x[0], reverse=True))


def _fraction_row(rows, attacker, defender):
    actual = Fraction(attacker, defender)
    for ratio, drm in rows:
        if ratio <= actual:
            return ratio, drm
    return rows[-1]


_rows = st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9), st.integers(-5, 5)), min_size=1, max_size=9) \
    | st.lists(st.fixed_dictionaries({"min": st.sampled_from(["0.25", "1/3", "1.5", "2", "0.667", "4"]) | st.integers(0, 5),
                                      "drm": st.integers(-5, 5)}), min_size=1, max_size=6) \
    | st.just(None)


@settings(max_examples=1000, deadline=None)
@given(_rows, st.integers(0, 40), st.integers(1, 40))
def test_the_table_gives_the_rows_it_gave_with_fractions(raw, attacker, defender):
    table, old = OddsTable.parse(raw), _fraction_table(raw)
    assert [(r.numerator, r.denominator, drm) for r, drm in table.rows] == \
        [(r.numerator, r.denominator, drm) for r, drm in old]
    ratio, drm = table.row(attacker, defender)
    old_ratio, old_drm = _fraction_row(old, attacker, defender)
    assert (ratio.numerator, ratio.denominator, drm) == (old_ratio.numerator, old_ratio.denominator, old_drm)
    assert ratio == old_ratio
