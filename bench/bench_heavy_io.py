"""What a heavy upload costs the submissions' process: its CPU and the longest time it holds the GIL.

    .venv/bin/python bench/bench_heavy_io.py [--answer-mib 31.5] [--rounds 5]

A ``POST /check`` of the largest log allowed is ruled in a checking worker (referee/service/heavy.py), but its
answer is passed on to the client by a thread of the server's process, beside the threads that answer the hosted
games' submissions.  A copy of 16 MiB in C holds the GIL for milliseconds, and every submission waiting for the
GIL waits that long: that was the latency tail under ``bench_service.py --flood``.  (The body is read by waitress's
I/O thread before the request reaches the application; the worker this bench also measured for reading bodies
is retired.)  This bench runs both ways of passing a worker's answer (33 MB for the largest log) on to the
client: received into a ``bytearray`` and written as one ``bytes`` copy (before), or received into ``buffers.receive_buffer`` and written
as ``heavy.pieces`` (now).  A probe thread that wakes every 0.2 ms measures how late it wakes: its
worst lateness is the longest stall a submission would have seen.  CPU is the reading thread's own
(``time.thread_time``), so the machine's other load changes it little; the stalls are medians of the rounds.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]


from referee.service import heavy  # noqa: E402


def _child(sock: socket.socket, code: str) -> subprocess.Popen[bytes]:
    """A fresh interpreter running ``code`` with ``s``, the socket ``sock`` (another process, so that the
    other end of the socket takes nothing of this process's GIL, and no ``fork`` of it)."""
    return subprocess.Popen([sys.executable, "-c", "import os, socket, sys; sys.path[:0] = [sys.argv[2]]; "
                             f"s = socket.socket(fileno=int(sys.argv[1])); {code}", str(sock.fileno()), str(ROOT)],
                            pass_fds=[sock.fileno()])


class Probe(threading.Thread):
    """Wakes every ``tick`` seconds and keeps its worst lateness."""

    def __init__(self, tick: float = 0.0002) -> None:
        super().__init__(daemon=True)
        self.tick, self.worst, self.running = tick, 0.0, True

    @classmethod
    def started(cls) -> "Probe":
        """A running probe, its worst lateness counted from now (not from its own start)."""
        probe = cls()
        probe.start()
        time.sleep(0.02)
        probe.worst = 0.0
        return probe

    def stop(self) -> float:
        """Stop the probe; its worst lateness, in seconds."""
        self.running = False
        self.join()
        return self.worst

    def run(self) -> None:
        while self.running:
            t = time.perf_counter()
            time.sleep(self.tick)
            self.worst = max(self.worst, time.perf_counter() - t - self.tick)


def _old_exactly(sock: socket.socket, n: int) -> bytearray:
    """How the server received a worker's answer before (heavy._Channel._exactly with ``bytearray(n)``)."""
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        got += sock.recv_into(view[got:])
    return buf


def one_answer(answer: bytes, now: bool) -> tuple[float, float]:
    """(CPU s, worst lateness s) receiving a worker's ``answer`` and writing it to a client, as the server
    does: before, into a ``bytearray`` then one ``bytes`` copy written at once; now, ``heavy._Channel``'s
    receive buffer written as ``heavy.pieces``."""
    w_server, w_worker = socket.socketpair()        # the checking worker's channel
    c_server, c_client = socket.socketpair()        # the client's connection
    worker = _child(w_worker, f"from referee.service import heavy; heavy._Channel(s).send('answer', "
                              f"os.urandom(1 << 20) * {len(answer) >> 20})")
    client = _child(c_client, "any(iter(lambda: not s.recv(1 << 20), True))")
    w_worker.close()
    c_client.close()
    probe = Probe.started()
    c = time.thread_time()
    if now:
        _, body = heavy._Channel(w_server).recv()
        items = heavy.pieces(body)
    else:
        n_head, n_blob = heavy._Channel._HEAD.unpack(_old_exactly(w_server, heavy._Channel._HEAD.size))
        _old_exactly(w_server, n_head)
        items = [bytes(_old_exactly(w_server, n_blob))]
    for item in items:
        c_server.sendall(item)
    cpu = time.thread_time() - c
    c_server.close()
    w_server.close()
    worst = probe.stop()
    worker.wait()
    client.wait()
    return cpu, worst


def one_idle() -> tuple[float, float]:
    """The probe alone for 50 ms: how late it wakes on this machine when nothing in this process runs."""
    probe = Probe.started()
    time.sleep(0.05)
    return 0.0, probe.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answer-mib", type=float, default=31.5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    answer = b"x" * (int(args.answer_mib) << 20)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"answer {len(answer) / 2 ** 20:.1f} MiB, {args.rounds} rounds, medians")
    cases = {"nothing (the probe alone)": one_idle,
             "answer, before": lambda: one_answer(answer, False),
             "answer, now": lambda: one_answer(answer, True)}
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for _ in range(args.rounds):
        for name, run in cases.items():                 # interleaved
            got[name].append(run())
    for name, runs in got.items():
        cpu = statistics.median(r[0] for r in runs)
        worst = statistics.median(r[1] for r in runs)
        print(f"{name:26s} CPU {1000 * cpu:7.1f} ms   longest stall of the other threads {1000 * worst:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
