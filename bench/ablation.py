"""Ablation for the benchmarks: what a run would cost if some of its functions cost nothing.

A live pass records every answer of the named functions, in call order; a second pass, over a fresh game of the
same log, has them answer from that record without running.  The games and the rules are deterministic, so the
second pass asks the same questions in the same order (the callers check what it listed or ruled).  The
difference of the two passes' CPU is the functions' share, the callers' work on their answers included.  An
answer that carries memos (a Board) reaches the second pass warm, so a share measured this way is an upper
bound.  The record keeps every answer alive: with the cyclic collector on, the live pass would also pay for
collections walking that growing heap, so the passes run with it off (``collector_off``), as the listing's and
the replay's instruction counts in docs/speed.md are taken."""
from __future__ import annotations

import contextlib
import gc
import importlib
from typing import Any, Iterator


@contextlib.contextmanager
def answering(module: Any, record: dict[str, list[Any]], live: bool) -> Iterator[None]:
    """While open, each function of ``module`` named in ``record`` runs and appends each answer to its list
    (``live``), or answers from that list in order without running (not ``live``)."""
    saved = {name: getattr(module, name) for name in record}

    def recording(fn: Any, answers: list[Any]) -> Any:
        def part(*args: Any, **kw: Any) -> Any:
            answers.append(fn(*args, **kw))
            return answers[-1]
        return part

    def replaying(answers: Iterator[Any]) -> Any:
        return lambda *args, **kw: next(answers)

    try:
        for name, answers in record.items():
            setattr(module, name, recording(saved[name], answers) if live else replaying(iter(answers)))
        yield
    finally:
        for name, fn in saved.items():
            setattr(module, name, fn)


Records = dict[Any, dict[str, list[Any]]]       # module -> {function name: its answers}


def functions_of(package: str, names: list[str]) -> Records:
    """Empty records for ``MODULE.FUNCTION`` names under ``package``, grouped by module; ``LookupError`` naming
    the first that is not there."""
    records: Records = {}
    for name in names:
        mod_name, _, fn = name.rpartition(".")
        try:
            mod = importlib.import_module(f"{package}.{mod_name}")
            getattr(mod, fn)
        except (ImportError, AttributeError, ValueError):
            raise LookupError(f"no function {name} in {package}") from None
        records.setdefault(mod, {})[fn] = []
    return records


@contextlib.contextmanager
def answering_all(records: Records, live: bool) -> Iterator[None]:
    """``answering`` for every module of ``records`` at once."""
    with contextlib.ExitStack() as stack:
        for mod, record in records.items():
            stack.enter_context(answering(mod, record, live))
        yield


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """The cyclic collector off for one pass, after a full collection (so each pass starts from the same
    heap); as it was afterwards."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
