"""Ordered parallel map over both cores, for CPU-bound rendering and encoding.

Results come back in input order (``imap``), so output never depends on which worker finished first.
The pool forks, so workers start with the parent's loaded fonts and caches."""
from __future__ import annotations

import multiprocessing
import os
from typing import Callable, Iterable, Iterator, TypeVar

A = TypeVar("A")
R = TypeVar("R")

# Below this many items a pool costs more to start than it saves.
PARALLEL_THRESHOLD = 48


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def ordered_map(fn: Callable[[A], R], items: Iterable[A], workers: int | None = None,
                chunksize: int = 16) -> Iterator[R]:
    """``map(fn, items)``, in a pool of ``workers`` processes when there is enough work.
    ``fn`` must be a module-level function (it is sent to the workers by name)."""
    items = list(items)
    n = default_workers() if workers is None else workers
    if n <= 1 or len(items) < PARALLEL_THRESHOLD:
        yield from map(fn, items)
        return
    with multiprocessing.get_context("fork").Pool(n) as pool:
        yield from pool.imap(fn, items, chunksize=chunksize)
