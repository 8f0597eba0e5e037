"""Retreat before shock, 9.31 and 9.32 (DESIGN §5 ``fall_back``)."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.fall_back import (fall_back_check_needed, fall_back_errors,
                                                          fall_back_roll, may_fall_back)

from .helpers import art, at, board, cav, inf
from .helpers_combat import DEF_HEX, FRONT_L, RU


def _codes(errs):
    return [e.code for e in errs]


def test_who_may_fall_back():
    b = board(at(cav("d", RU), DEF_HEX), at(cav("l", RU, cav_type="L"), "0808", status="disordered"),
              at(art("ha", RU, ma=8), "0101"), at(art("foot", RU, ma=4), "0102"),
              at(inf("i"), "0606"), at(cav("h", cav_type="H"), "0607"), at(cav("lf", cav_type="L"), "0608"))
    i, h, lf = b.unit("i"), b.unit("h"), b.unit("lf")
    assert may_fall_back(b.unit("d"), [i])                     # Good-Order cavalry before infantry
    assert not may_fall_back(b.unit("d"), [lf])                # not before light cavalry
    assert may_fall_back(b.unit("l"), [h])                     # light, even Disordered, before heavy only
    assert not may_fall_back(b.unit("l"), [i])                 # Disordered: not before infantry
    assert may_fall_back(b.unit("ha"), [i]) and not may_fall_back(b.unit("foot"), [i])
    assert fall_back_check_needed(b.unit("l"), [h], charging=True)
    assert not fall_back_check_needed(b.unit("l"), [h], charging=False)
    assert (fall_back_roll(b.unit("d")).base, fall_back_roll(b.unit("d")).base_rule) == (6, "9.31")


def test_fall_back_path():
    b = board(at(inf("a"), FRONT_L, facing=6), at(cav("d", RU), DEF_HEX, facing=12), at(inf("x"), "0606"))
    d, a = b.unit("d"), [b.unit("a")]
    assert fall_back_errors(b, d, ["0505"], a) == []
    assert _codes(fall_back_errors(b, d, ["0505", "0605"], a)) == ["fall_back_other_zoc"]   # x's ZOC
    assert _codes(fall_back_errors(b, d, ["0304", "0305"], a)) == ["fall_back_through_zoc"]
    assert _codes(fall_back_errors(b, d, ["0505", "0506", "0507"], a)) == ["fall_back_distance"]
    assert _codes(fall_back_errors(b, d, ["0606"], a)) == ["fall_back_path"]
    assert _codes(fall_back_errors(b, d, ["0505", DEF_HEX], a)) == ["fall_back_path"]      # no way back


def test_9_32_skirmishers_fall_back_one_hex_before_infantry_only():
    b = board(at(inf("a"), FRONT_L, facing=6), at(cav("h", cav_type="H"), "0101"),
              at(inf("s", RU, flags=["skirmisher"]), DEF_HEX, facing=12),
              at(inf("sd", RU, flags=["skirmisher"]), "0808", status="disordered"))
    s, a, h = b.unit("s"), [b.unit("a")], b.unit("h")
    assert may_fall_back(s, a) and not may_fall_back(s, [h])         # before infantry only (9.32)
    assert not may_fall_back(b.unit("sd"), a)                         # not when Disordered (9.61)
    assert fall_back_errors(b, s, ["0505"], a) == []
    errs = fall_back_errors(b, s, ["0505", "0506"], a)
    assert [(e.rule, e.code) for e in errs] == [("9.32", "fall_back_distance")]
    assert not fall_back_check_needed(s, a, charging=False)           # no roll


def test_cat_127_a_borodino_jaeger_regiment_is_ordinary_infantry_and_may_not_fall_back():
    b = board(at(inf("a"), FRONT_L, facing=6), at(inf("jgr", RU, flags=["jaeger"]), DEF_HEX, facing=12))
    errs = fall_back_errors(b, b.unit("jgr"), ["0505"], [b.unit("a")])
    assert [(e.rule, e.code) for e in errs] == [("9.31", "may_not_fall_back")]     # BOR-JAEGER: no 9.32
