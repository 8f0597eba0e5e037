"""Ordered parallel map over both cores, for CPU-bound rendering and encoding.

Results come back in input order (``imap``), so output never depends on which worker finished first.
From a single-threaded process the pool forks, so workers start with the parent's loaded fonts and
caches; from a process with other threads (a web server, a thread pool) it spawns fresh workers,
because forking while another thread holds a lock can deadlock the child.  Exceptions raised in a worker
are re-raised in the caller; one that cannot be pickled arrives as a RuntimeError with its message
rather than silently stalling the pool."""
from __future__ import annotations

import multiprocessing
import os
import pickle
import threading
from typing import Any, Callable, Iterable, Iterator, TypeVar

A = TypeVar("A")
R = TypeVar("R")

# Below this many items a pool costs more to start than it saves.
PARALLEL_THRESHOLD = 48


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def _safe_exception(exc: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:                              # noqa: BLE001 - any pickling failure
        return RuntimeError(f"{type(exc).__name__}: {exc}")


def _call(job: tuple[Callable[[Any], Any], Any]) -> tuple[bool, Any]:
    fn, arg = job
    try:
        return True, fn(arg)
    except Exception as exc:                       # noqa: BLE001 - handed back to the caller
        return False, _safe_exception(exc)


def _context() -> multiprocessing.context.BaseContext:
    return multiprocessing.get_context("fork" if threading.active_count() == 1 else "spawn")


def ordered_map(fn: Callable[[A], R], items: Iterable[A], workers: int | None = None,
                chunksize: int = 16, min_items: int = PARALLEL_THRESHOLD) -> Iterator[R]:
    """``map(fn, items)``, in a pool of ``workers`` processes when there is enough work.
    ``fn`` must be a module-level function (it is sent to the workers by name).  Fewer than ``min_items``
    items run here (a pool is worth it for a few whole pages, not for a few counter faces)."""
    items = list(items)
    n = default_workers() if workers is None else workers
    if n <= 1 or len(items) < min_items:
        yield from map(fn, items)
        return
    with _context().Pool(n) as pool:
        for ok, value in pool.imap(_call, [(fn, item) for item in items], chunksize=chunksize):
            if not ok:
                raise value
            yield value
