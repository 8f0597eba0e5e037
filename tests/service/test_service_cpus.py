"""The checking workers on CPUs of their own, the server's processes on the others (referee/service/cpus.py).

Measured under bench_service.py --rate 500 --flood 2 (one server process, 2 December): p99 84–214 ms with the
checks free to run anywhere, 15–35 ms with them placed."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from live import Server
from referee.service import cpus, heavy

SEVERAL = len(cpus.allowed()) >= 2
needs_two = pytest.mark.skipif(not SEVERAL or not hasattr(os, "sched_setaffinity"),
                               reason="placing processes needs Linux and two CPUs")


@given(st.frozensets(st.integers(0, 63), min_size=1, max_size=16), st.integers(1, 8))
def test_auto_leaves_the_server_at_least_one_cpu_and_the_checks_one_per_worker(cpu_set: frozenset[int],
                                                                               workers: int) -> None:
    placed = cpus.split("auto", workers, cpu_set)
    if len(cpu_set) < 2:
        assert placed is None
        return
    assert placed is not None
    server, check = placed
    assert server and check and not server & check and server | check == cpu_set
    assert len(check) == min(workers, len(cpu_set) - 1)
    assert min(check) > max(server)                         # the last CPUs


def test_all_places_nothing_and_a_list_names_the_checking_cpus() -> None:
    assert cpus.split("all", 1, frozenset({0, 1, 2})) is None
    assert cpus.split(" 2 ", 1, frozenset({0, 1, 2})) == (frozenset({0, 1}), frozenset({2}))
    assert cpus.split("0,1", 1, frozenset({0, 1})) == (frozenset(), frozenset({0, 1}))
    for bad, words in (("fast", "a list of CPU numbers"), ("7", "not among"), ("1,x", "a list of CPU numbers")):
        with pytest.raises(ValueError, match=words):
            cpus.split(bad, 1, frozenset({0, 1}))


@needs_two
def test_a_checking_worker_runs_on_the_last_cpu_by_default() -> None:
    pool = heavy.HeavyPool(workers=1, priority="0", cpu_setting="auto")
    try:
        job = heavy.Job("check", (Path(__file__).resolve().parents[1] / "fixtures" / "logs" /
                                  "small-inline.yaml").read_bytes(), "small.yaml", None)
        pool.admit()
        try:
            assert pool.run(job).status == 200
        finally:
            pool.release()
        [worker] = pool._all
        assert os.sched_getaffinity(worker.proc.pid) == {max(cpus.allowed())}
    finally:
        pool.close()


@needs_two
def test_the_servers_process_keeps_off_the_checking_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``referee serve`` places its process on the CPUs the checking workers leave, when they are two or more
    (one CPU for waitress's I/O thread and the application's threads was measured slower than none)."""
    monkeypatch.setenv("REFEREE_CHECK_CPUS", "auto")
    left = cpus.allowed() - {max(cpus.allowed())}
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        assert server.proc is not None
        status, _ = server.request("GET", "/api/v1/rulesets")
        assert status == 200
        assert os.sched_getaffinity(server.proc.pid) == (left if len(left) > 1 else cpus.allowed())
    monkeypatch.setenv("REFEREE_CHECK_CPUS", "all")
    with Server(f"sqlite:///{tmp_path / 'r2.sqlite'}", workers=1, threads=2) as server:
        assert server.proc is not None
        status, _ = server.request("GET", "/api/v1/rulesets")
        assert status == 200
        assert os.sched_getaffinity(server.proc.pid) == cpus.allowed()
