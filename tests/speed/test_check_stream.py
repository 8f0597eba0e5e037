"""``referee check --format json`` writes its rulings as they are made (referee.cli.write_json): the bytes are
those of ``json.dump(indent=1)`` over ``replay()``'s whole result, and nothing reaches stdout on a failure."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from referee import cli
from referee.engine.replay import final_state, replay
from referee import jsonout
from referee.logs import read_log

ROOT = Path(__file__).resolve().parents[2]
LOGS = [ROOT / "tests/fixtures/logs/sample-borodino.json", ROOT / "tests/fixtures/logs/small-inline.yaml",
        ROOT / "examples/bridgehead/sample-game.json"]


def whole(log) -> bytes:
    """What check wrote before it streamed: the replay's result, dumped at once."""
    result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
    body = {"rulings": [r.to_dict() for r in result.rulings], "state": final_state(result.game)}
    return json.dumps(body, ensure_ascii=False, indent=1).encode() + b"\n"


class Out:
    def __init__(self) -> None:
        self.buffer = io.BytesIO()

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
@pytest.mark.parametrize("chunk", [1, 7, 256])
@pytest.mark.parametrize("spool", [1000, 10**9], ids=["file", "memory"])
def test_streamed_bytes_are_the_whole_replay_s(path, chunk, spool, monkeypatch):
    """Written by jsonout.ruling_text a chunk at a time, into memory or (past SPOOL_BYTES) a temporary file."""
    log = read_log(path)
    out = Out()
    monkeypatch.setattr(cli, "CHUNK", chunk)
    monkeypatch.setattr(cli, "SPOOL_BYTES", spool)
    monkeypatch.setattr(sys, "stdout", out)
    cli.write_json(log)
    assert out.buffer.getvalue() == whole(log)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_each_ruling_s_text_is_its_dict_s(path):
    """jsonout.ruling_text reads a Ruling's fields itself: its text must stay that of ``to_dict`` (a field
    added to Ruling.to_dict and not to ruling_text fails here), at any indentation."""
    log = read_log(path)
    result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=False)
    for r in result.rulings:
        assert tuple(r.to_dict()) == jsonout.RULING_KEYS
        for nl in ("\n", "\n  "):
            assert jsonout.ruling_text(r, nl) == json.dumps(r.to_dict(), ensure_ascii=False, indent=1).replace(
                "\n", nl)


class Word(str):
    pass


class Number(int):
    pass


odd_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text()
    | st.builds(Word, st.text(max_size=3)) | st.builds(Number, st.integers(-5, 5)),
    lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.text(max_size=4) | st.integers(0, 3) | st.builds(Word, st.text(max_size=2)), inner,
                      max_size=4), max_leaves=25)


@settings(max_examples=1000, deadline=None)
@given(odd_values, st.sampled_from(["\n", "\n ", "\n  "]))
def test_any_value_s_text_is_the_standard_library_s(value, nl):
    """jsonout.text spells exact JSON types itself and leaves the rest (subclasses, non-string keys, NaN …)
    to the standard library: the same bytes, whatever the value."""
    assert jsonout.any_text(value, nl) == json.dumps(value, ensure_ascii=False, indent=1).replace("\n", nl)


@settings(max_examples=300, deadline=None)
@given(rules=st.lists(st.text(max_size=4) | st.integers(0, 3), max_size=3), errors=st.lists(odd_values, max_size=2),
       extra=st.dictionaries(st.text(max_size=4), odd_values, max_size=3), index=st.integers(-1, 10) | st.booleans())
def test_any_ruling_s_text_is_its_dict_s(rules, errors, extra, index):
    from referee.engine.ruling import Awaiting, Error, Result, Ruling, table_roll
    r = Ruling(index=index, type="move", verdict="illegal", rules=tuple(rules),
               errors=tuple(Error("1.1", "code", "message", tuple(e) if isinstance(e, list) else None)
                            for e in errors),
               rolls=(table_roll("p", 3, extra, unit="u"),), results=(Result("e", "2.2", None, extra),),
               awaiting=(Awaiting("roll", "French", "3.3"),))
    assert jsonout.ruling_text(r, "\n  ") == json.dumps(r.to_dict(), ensure_ascii=False, indent=1).replace(
        "\n", "\n  ")


def test_a_log_without_events(tmp_path):
    doc = json.loads(LOGS[0].read_text(encoding="utf-8"))
    doc["events"] = []
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(path)], capture_output=True, cwd=ROOT,
                         check=True)
    assert run.stdout == whole(read_log(path))
    assert b'"rulings": [],' in run.stdout


def test_nothing_is_written_when_the_replay_fails_half_way(monkeypatch):
    log = read_log(LOGS[0])
    out = Out()
    monkeypatch.setattr(sys, "stdout", out)
    import referee.engine.replay as engine
    real, calls = engine.step, []

    def failing(game, i, event):
        calls.append(i)
        if i == 1000:
            raise RuntimeError("a bug in a rule")
        return real(game, i, event)
    monkeypatch.setattr(engine, "step", failing)
    with pytest.raises(RuntimeError):
        cli.write_json(log)
    assert calls[-1] == 1000 and out.buffer.getvalue() == b""



_TWINS = [[1, True, 1.0], [0, False, 0.0], ["5.31", Word("5.31")], ["1", Word("1")], ["", Word("")]]
_twin = st.tuples(st.sampled_from(range(len(_TWINS))), st.integers(0, 2), st.integers(0, 2))


@settings(max_examples=1000, deadline=None)
@given(st.lists(_twin, max_size=3), st.tuples(st.sampled_from(range(len(_TWINS))), st.integers(0, 2),
                                              st.integers(0, 2)),
       st.sampled_from(["legal", "illegal"]), st.sampled_from(["\n", "\n  "]), st.integers(-1, 10))
def test_a_ruling_with_only_rules_is_its_dict_s_whatever_was_written_before(rules, type_, verdict, nl, index):
    """jsonout.ruling_text keeps the text after the index of a ruling with only rules (jsonout._PLAIN): a
    ruling whose rules or type equal those of one written before but are other types (1, True, 1.0; a str
    subclass) must still get its own dict's text, whichever was written first."""
    from referee.engine.ruling import Ruling

    def pick(twin, side):
        values = _TWINS[twin[0]]
        return values[twin[side] % len(values)]

    jsonout._PLAIN.clear()
    for side in (1, 2, 1):
        r = Ruling(index=index, type=pick(type_, side), verdict=verdict, rules=tuple(pick(t, side) for t in rules))
        assert jsonout.ruling_text(r, nl) == json.dumps(r.to_dict(), ensure_ascii=False, indent=1).replace(
            "\n", nl)
