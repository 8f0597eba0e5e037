"""Concurrent appenders and crashes (both backends).

Every appender starts from a stale view (index 0) and retries with the index StaleIndex reports,
as an HTTP client would after a 409.  Afterwards the log must hold indexes 0..n-1 with no gap, every
acknowledged batch exactly once, and no batch in part.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from referee.storage import NewGame, Storage, open_storage
from workload import append_with_retry, batch, check_log

HERE = Path(__file__).parent
SIDES = ("French", "Russian")


def new_game(storage: Storage) -> str:
    return storage.create_game(NewGame(scenario="s", ruleset="r", sides=SIDES)).game_id


def test_eight_threads_on_one_storage_never_lose_or_double_an_event(storage: Storage) -> None:
    game_id = new_game(storage)
    writers, batches, size = 8, 12, 2
    acked: list[tuple[str, int]] = []
    stale_seen: list[int] = []
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def work(n: int) -> None:
        try:
            writer, view, stale_total = f"w{n}", 0, 0
            start.wait()
            for seq in range(batches):
                view, stale = append_with_retry(storage, game_id, SIDES[n % 2],
                                                batch(writer, seq, size), view)
                stale_total += stale
                acked.append((writer, seq))
            stale_seen.append(stale_total)
        except BaseException as exc:  # reported below: a thread's exception would be lost
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    events = storage.list_events(game_id)
    assert len(events) == writers * batches * size
    check_log(events, acked, size)
    # The writers really raced: some submissions were refused as stale and retried.
    assert sum(stale_seen) > 0


def test_eight_threads_with_their_own_storage_objects(database_url: str) -> None:
    """Eight "service instances" in one process, each with its own connections (or pool)."""
    with open_storage(database_url) as setup:
        game_id = new_game(setup)
    writers, batches, size = 8, 8, 3
    acked: list[tuple[str, int]] = []
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def work(n: int) -> None:
        try:
            with open_storage(database_url) as mine:
                start.wait()
                view = 0
                for seq in range(batches):
                    view, _ = append_with_retry(mine, game_id, SIDES[n % 2],
                                                batch(f"w{n}", seq, size), view)
                    acked.append((f"w{n}", seq))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    with open_storage(database_url) as check:
        events = check.list_events(game_id)
    assert len(events) == writers * batches * size
    check_log(events, acked, size)


def _start_appenders(url: str, game_id: str, batches: int, size: int,
                     writers: list[str]) -> list[subprocess.Popen[str]]:
    """Start one appender process per writer and release them together once all are ready."""
    procs = [subprocess.Popen(
        [sys.executable, str(HERE / "appender.py"), url, game_id, SIDES[n % 2], writer,
         str(batches), str(size)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE)
        for n, writer in enumerate(writers)]
    for proc in procs:
        assert proc.stdout is not None and proc.stdin is not None
        ready = proc.stdout.readline()
        assert ready == "ready\n", f"appender did not start: {ready!r} {proc.stderr.read() if proc.stderr else ''}"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    return procs


def _acks(lines: list[str]) -> list[tuple[str, int]]:
    return [(w, int(s)) for kind, w, s in (line.split() for line in lines if line.startswith("ack "))]


def test_separate_processes_share_one_database(database_url: str) -> None:
    """Two service processes appending to the same game (for PostgreSQL: two app instances with
    their own pools; for SQLite: two processes on one file)."""
    with open_storage(database_url) as setup:
        game_id = new_game(setup)
    batches, size = 40, 2
    procs = _start_appenders(database_url, game_id, batches, size, ["p0", "p1"])
    acked: list[tuple[str, int]] = []
    stale = 0
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        acked += _acks(out.splitlines())
        stale += int(out.splitlines()[-1].removeprefix("done "))
    # Both started at index 0, so at least one submission was refused as stale and retried.
    assert stale >= 1
    assert len(acked) == 2 * batches
    with open_storage(database_url) as check:
        events = check.list_events(game_id)
    assert len(events) == 2 * batches * size
    check_log(events, acked, size)


def test_killing_an_appender_mid_series_leaves_the_database_consistent(database_url: str) -> None:
    """SIGKILL a process that is appending as fast as it can, three times over: whatever it was
    doing (between statements, inside a transaction, in COMMIT), every acknowledged batch is
    stored, there is no gap, and no batch is stored in part.  A new process then carries on."""
    with open_storage(database_url) as setup:
        game_id = new_game(setup)
    size = 5
    acked: list[tuple[str, int]] = []
    # The batch each kill may have left in flight.  Its commit can become visible only *after* the check that
    # follows the kill: PostgreSQL finishes a COMMIT whose client has died; SQLite's WAL can hold a killed
    # writer's commit frame that the shared-memory index does not show until a later connection rebuilds it.
    in_flight: set[tuple[str, int]] = set()
    for round_ in range(3):
        writer = f"r{round_}"
        [proc] = _start_appenders(database_url, game_id, 10_000, size, [writer])
        assert proc.stdout is not None
        lines: list[str] = []
        # Let it commit a while, then kill it without warning.
        kill_after = 20 + 7 * round_
        while len(lines) < kill_after:
            line = proc.stdout.readline()
            assert line, f"appender stopped early: {proc.stderr.read() if proc.stderr else ''}"
            lines.append(line)
        os.kill(proc.pid, signal.SIGKILL)
        # The rest through the same reader: readline() may have buffered acknowledgements ahead, which
        # communicate() would lose (it reads the pipe underneath), making stored batches look unacknowledged.
        assert proc.stderr is not None and proc.stdin is not None
        rest = proc.stdout.read()
        err = proc.stderr.read()
        proc.stdin.close()
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL, f"appender ended by itself: {err}"
        lines += rest.splitlines()
        mine = _acks(lines)
        acked += mine
        in_flight.add((writer, len(mine)))                 # seqs are acknowledged in order from 0
        with open_storage(database_url) as check:
            events = check.list_events(game_id)
            check_log(events, acked, size)
            assert check.get_game(game_id).event_count == len(events)
        # Stored without having been acknowledged: at most the batch each kill left in flight.
        stored = {(e.event["writer"], e.event["seq"]) for e in events if e.event["part"] == 0}
        unacknowledged = stored - set(acked)
        assert unacknowledged <= in_flight, sorted(unacknowledged - in_flight)[:5]
    # After the last kill the game still takes events at the next index.
    with open_storage(database_url) as after:
        n = after.get_game(game_id).event_count
        assert after.append_events(game_id, "Russian", n, batch("after", 0, size)) == n + size
        check_log(after.list_events(game_id), acked + [("after", 0)], size)
