"""Receive buffers for large bodies that do not stall the server's other threads.

``bytearray(n)`` zeroes its ``n`` bytes at once, with the GIL held: for the 16 MiB upload or the 33 MB answer of
a heavy route that is a long pause of page faults and ``memset`` during which no submission can run (docs/service.md,
Performance; bench/bench_heavy_io.py).  An anonymous ``mmap`` is zeroed by the kernel a page at a time as ``recv_into``
writes it, with the GIL released; for small sizes a ``bytearray`` is cheaper."""
from __future__ import annotations

import mmap

LARGE = 1024 * 1024


def receive_buffer(n: int) -> bytearray | mmap.mmap:
    """A writable buffer of ``n`` bytes to ``recv_into``."""
    return bytearray(n) if n < LARGE else mmap.mmap(-1, n)
