"""Which CPUs the checking workers run on, and which the server's processes keep (``REFEREE_CHECK_CPUS``).

A checking worker runs at ``SCHED_IDLE`` (heavy.py), so it takes only CPU that nothing else wants — and yet a
flood of ``POST /check`` still gave the hosted games' submissions a latency tail.  It is not the server's own
work: a ``referee check`` of a large log run at ``SCHED_IDLE`` *beside* a server with no flood did the same,
where ``SCHED_IDLE`` busy loops did nothing.  What a check does is fill the caches with a large log, and Linux
counts a CPU that runs only ``SCHED_IDLE`` work as idle when it picks a CPU to wake a thread on, so the server's
threads kept waking on the core the check had just used, behind its cache misses.  With the checking workers on
a CPU of their own and the server's process on the others, the tail went (the figures: docs/service.md,
Performance, "The CPUs").

So by default (``auto``) the checking workers share the last CPUs the process may use (one per worker, at most
all but one), and each process of the service's gunicorn worker the rest — when the server's processes fit
on the rest (``--workers`` no more than the CPUs left); otherwise only the checking workers are placed.  A
machine with one CPU places nothing.  ``all`` places nothing; a list such as ``3`` or ``2,3`` names the
checking workers' CPUs.  Linux only (``os.sched_setaffinity``); elsewhere nothing is placed.
"""
from __future__ import annotations

import os
from typing import Mapping

DEFAULT = "auto"


def allowed() -> frozenset[int]:
    """The CPUs this process may run on (empty where the system cannot say)."""
    getter = getattr(os, "sched_getaffinity", None)
    return frozenset(getter(0)) if getter is not None else frozenset()


def split(setting: str, checkers: int, cpus: frozenset[int]) -> tuple[frozenset[int], frozenset[int]] | None:
    """(the server's CPUs, the checking workers' CPUs) out of ``cpus``, or None to place nothing.
    ValueError for a setting that is neither ``auto``, ``all`` nor a list of CPUs of ``cpus``."""
    setting = setting.strip().lower()
    if setting == "all":
        return None
    if setting == "auto":
        if len(cpus) < 2:
            return None
        ordered = sorted(cpus)
        check = frozenset(ordered[-max(1, min(checkers, len(ordered) - 1)):])
    else:
        try:
            check = frozenset(int(part) for part in setting.split(","))
        except ValueError:
            raise ValueError(f"REFEREE_CHECK_CPUS: 'auto', 'all' or a list of CPU numbers such as '3' or '2,3', "
                             f"not {setting!r}") from None
        if not check <= cpus:
            raise ValueError(f"REFEREE_CHECK_CPUS: CPU(s) {sorted(check - cpus)} are not among this process's "
                             f"CPUs {sorted(cpus)}")
        if check == cpus:
            return frozenset(), check            # all of them: the server's processes are not placed
    return cpus - check, check


def of_config(config: Mapping[str, object]) -> tuple[frozenset[int], frozenset[int]] | None:
    """:func:`split` for a service's config (``CHECK_CPUS``, ``CHECK_WORKERS``) on this process's CPUs."""
    return split(str(config.get("CHECK_CPUS", DEFAULT)), int(config.get("CHECK_WORKERS", 1)),  # type: ignore[arg-type]
                 allowed())


def place(cpus: frozenset[int]) -> bool:
    """Run this process on ``cpus``; whether it could."""
    setter = getattr(os, "sched_setaffinity", None)
    if setter is None or not cpus:
        return False
    try:
        setter(0, cpus)
        return True
    except OSError:
        return False
