"""The benchmarks' ablation (``bench/ablation.py``, ``bench_listing.py --free``, ``bench_replay.py --free``):
a part answered from its record gives the very answers the live part gave, in the same order, and the part is
put back afterwards.  docs/speed.md's shares of the listing and the replay rest on it."""
from __future__ import annotations

import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHORT_LOG = ROOT / "examples" / "bridgehead" / "sample-game.json"
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import ablation
    import bench_listing
    import bench_replay
    return types.SimpleNamespace(ablation=ablation, listing=bench_listing, replay=bench_replay)


def test_recorded_answers_come_back_in_order_without_running(bench):
    calls = []
    mod = types.SimpleNamespace(part=lambda x: calls.append(x) or x * 10)
    original = mod.part
    record = {"part": []}
    with bench.ablation.answering(mod, record, live=True):
        assert [mod.part(i) for i in (1, 2, 3)] == [10, 20, 30]
    assert record == {"part": [10, 20, 30]} and calls == [1, 2, 3]
    with bench.ablation.answering(mod, record, live=False):
        assert [mod.part("ignored") for _ in range(3)] == [10, 20, 30]
    assert calls == [1, 2, 3]                   # the free pass never ran the part
    assert mod.part is original


def test_the_part_is_put_back_when_the_pass_fails(bench):
    mod = types.SimpleNamespace(part=lambda: 1)
    original = mod.part
    with pytest.raises(StopIteration):
        with bench.ablation.answering(mod, {"part": []}, live=False):
            mod.part()                          # nothing recorded: the pass asked more than the record holds
    assert mod.part is original


def test_listing_free_lists_what_the_live_pass_listed(bench, capsys):
    """The real T&G listing, its moves and fire answered from the record: ``free`` asserts the two passes list
    the same number of actions in the same number of calls, and the parts are back afterwards."""
    from referee.logs import read_log
    from referee.rulesets.triumph_and_glory import legal
    before = {name: getattr(legal, name) for name in bench.listing.FREE_PARTS.values()}
    log = read_log(str(SAMPLE))
    log.events[:] = log.events[:200]
    assert bench.listing.free(log, ["moves", "fire", "orders"], rounds=1) == 0
    out = capsys.readouterr().out
    assert "moves+fire+orders free" in out and "share of a call" in out
    assert {name: getattr(legal, name) for name in bench.listing.FREE_PARTS.values()} == before


def test_listing_free_refuses_an_unknown_part(bench, capsys):
    from referee.logs import read_log
    assert bench.listing.free(read_log(str(SAMPLE)), ["search", "nonsense"], rounds=1) == 2
    assert "unknown part(s) nonsense" in capsys.readouterr().err


def test_replay_free_rules_what_the_live_replay_ruled(bench, capsys):
    """``movement.check_move`` and ``apply_move`` answered from the record: ``free`` asserts every ruling is
    the live one's, so the shares in docs/speed.md are those of a replay that ruled the same."""
    from referee.logs import read_log
    from referee.rulesets.triumph_and_glory import movement
    before = (movement.check_move, movement.apply_move)
    log = read_log(str(SAMPLE))
    log.events[:] = log.events[:300]
    assert bench.replay.free(log, ["movement.check_move", "movement.apply_move"], repeat=1) == 0
    assert "share of the replay" in capsys.readouterr().out
    assert (movement.check_move, movement.apply_move) == before


def test_replay_free_refuses_a_function_the_ruleset_lacks(bench, capsys):
    from referee.logs import read_log
    assert bench.replay.free(read_log(str(SHORT_LOG)), ["movement.no_such_function"], repeat=1) == 2
    assert "no function movement.no_such_function" in capsys.readouterr().err


def test_the_collector_is_off_for_a_pass_and_as_it_was_afterwards(bench):
    import gc
    assert gc.isenabled()
    with bench.ablation.collector_off():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with bench.ablation.collector_off():
            assert not gc.isenabled()
        assert not gc.isenabled()               # a caller that had it off keeps it off
    finally:
        gc.enable()


def test_the_counting_driver_runs_every_stage_and_checks_its_passes(bench, monkeypatch, tmp_path):
    """``ablation_counts.py``, the instruction-count form (run under cachegrind in docs/speed.md), at its last
    stage on a short prefix of the sample: it asserts its passes listed and ruled alike, and exits 0."""
    import json

    import ablation_counts
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))
    doc["events"] = doc["events"][:150]             # the scenario id is found under the project
    short = tmp_path / "short.json"
    short.write_text(json.dumps(doc), encoding="utf-8")
    import gc
    try:
        for argv in (["listing", "moves,fire", "3"], ["replay", "movement.check_move,movement.apply_move", "2"]):
            monkeypatch.setattr("sys.argv", ["ablation_counts.py", *argv, str(short)])
            assert ablation_counts.main() == 0
    finally:
        gc.enable()                             # main() turns the collector off for the process it runs in
