"""Appending with retry-on-stale, and checking a log afterwards: shared by the thread tests and
by appender.py, the child process of the multi-process and crash tests.

Every event is ``{"type": "note", "writer": W, "seq": S, "part": P}``: writer W's S-th batch,
part P of it.  That is enough to tell afterwards whether an event was lost, doubled, or stored
without the rest of its batch.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from referee.storage import NewEvent, StaleIndex, Storage, StoredEvent


def batch(writer: str, seq: int, size: int) -> list[NewEvent]:
    return [NewEvent({"type": "note", "writer": writer, "seq": seq, "part": part},
                     {"verdict": "legal", "writer": writer, "seq": seq, "part": part})
            for part in range(size)]


def append_with_retry(storage: Storage, game_id: str, side: str, events: list[NewEvent],
                      view: int) -> tuple[int, int]:
    """Append at the caller's view of the index, as a client would; on StaleIndex take the
    current index it reports and try again.  Returns (the new index, how many tries were stale)."""
    stale = 0
    while True:
        try:
            return storage.append_events(game_id, side, view, events), stale
        except StaleIndex as exc:
            stale += 1
            view = exc.current


def check_log(events: list[StoredEvent], acknowledged: Iterable[tuple[str, int]],
              batch_size: int) -> None:
    """Fail unless the log is consistent and holds every acknowledged batch exactly once."""
    assert [e.index for e in events] == list(range(len(events))), "indexes have a gap or disorder"
    keys = [(e.event["writer"], e.event["seq"], e.event["part"]) for e in events]
    doubled = [k for k, n in Counter(keys).items() if n > 1]
    assert not doubled, f"events stored twice: {doubled[:5]}"
    # Each batch is stored whole, in one run of consecutive indexes, parts in order.
    i = 0
    while i < len(events):
        writer, seq, _ = keys[i]
        assert keys[i:i + batch_size] == [(writer, seq, p) for p in range(batch_size)], \
            f"partial or interleaved batch at index {i}: {keys[i:i + batch_size]}"
        assert all(e.ruling == {"verdict": "legal", "writer": writer, "seq": seq, "part": p}
                   for p, e in enumerate(events[i:i + batch_size]))
        i += batch_size
    stored = {(w, s) for w, s, _ in keys}
    missing = set(acknowledged) - stored
    assert not missing, f"acknowledged batches missing: {sorted(missing)[:5]}"
