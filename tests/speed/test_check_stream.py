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
from referee.jsonout import dumps_indent1, write_items_indent1
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
@pytest.mark.parametrize("stdlib_events", [0, 10**9], ids=["orjson", "stdlib"])
def test_streamed_bytes_are_the_whole_replay_s(path, chunk, stdlib_events, monkeypatch):
    """Both encoders: orjson and a spooled file for a long log, the standard library and memory for a short
    one (cli.STDLIB_EVENTS)."""
    log = read_log(path)
    out = Out()
    monkeypatch.setattr(cli, "STDLIB_EVENTS", stdlib_events)
    monkeypatch.setattr(cli, "CHUNK", chunk)
    monkeypatch.setattr(cli, "SPOOL_BYTES", 1000)      # the spool goes to a temporary file early
    monkeypatch.setattr(sys, "stdout", out)
    cli.write_json(log)
    assert out.buffer.getvalue() == whole(log)


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


json_values = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(items=st.lists(json_values, max_size=8), cut=st.integers(0, 8), depth=st.integers(1, 4))
def test_items_written_in_chunks_are_the_list_dumped_whole(items, cut, depth):
    doc: object = items
    for _ in range(depth - 1):
        doc = {"k": doc}
    want = json.dumps(doc, ensure_ascii=False, indent=1).encode()
    out = io.BytesIO()
    head = b"".join(b"{\n" + b" " * (d + 1) + b'"k": ' for d in range(depth - 1))
    out.write(head + b"[")
    wrote = write_items_indent1(out, [items[:cut], items[cut:]], depth)
    out.write((b"\n" + b" " * (depth - 1) + b"]") if wrote else b"]")
    out.write(b"".join(b"\n" + b" " * (d) + b"}" for d in reversed(range(depth - 1))))
    assert out.getvalue() == want
    assert dumps_indent1(doc) == want
