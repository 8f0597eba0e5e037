"""Game creation, bounded per client: a rate, a daily quota, and expiry of games never played.

Anyone may create a game (``POST /games`` needs no token), and each costs a row, two side rows and, with an
inline scenario, its document: one client creating games as fast as it can grows the database by megabytes a
second (docs/service.md).  So:

* **rate**: each client (its address; behind a reverse proxy, the proxy's: limit there too) has a bucket of
  ``REFEREE_CREATE_BURST`` creations refilled at ``REFEREE_CREATE_PER_MINUTE``; an empty bucket is 429
  ``too_many_games`` with ``Retry-After`` (kept per process);
* **quota**: at most ``REFEREE_CREATE_QUOTA`` games per client in 24 hours, counted in the database (so it holds
  across processes and restarts; the address is stored as a digest);
* **expiry**: games that never took an event are deleted ``REFEREE_UNPLAYED_DAYS`` days after their creation
  (checked at most once a minute, on creation).  A game with an event, or ended, is kept.

0 turns a bound off.
"""
from __future__ import annotations

import hashlib
import math
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from referee.service.errors import ApiError
from referee.storage import Storage

EXPIRY_EVERY = 60.0          # seconds between two sweeps of never-played games (per process)
QUOTA_WINDOW = timedelta(hours=24)


def creator_of(address: str | None) -> str:
    """What the database keeps of a client: a digest of its address (enough to count, not to read back)."""
    return hashlib.sha256(f"referee-creator/{address or ''}".encode()).hexdigest()[:32]


class CreationLimits:
    def __init__(self, per_minute: float, burst: int, quota: int, unplayed_days: float) -> None:
        self.per_minute = per_minute
        self.burst = burst
        self.quota = quota
        self.unplayed_days = unplayed_days
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}        # creator -> (tokens, when)
        self._next_sweep = 0.0

    @classmethod
    def of_config(cls, config: Mapping[str, Any]) -> "CreationLimits":
        return cls(float(config["CREATE_PER_MINUTE"]), int(config["CREATE_BURST"]), int(config["CREATE_QUOTA"]),
                   float(config["UNPLAYED_DAYS"]))

    def admit(self, address: str | None, storage: Storage) -> str:
        """The creator digest of ``address`` when it may create a game now; 429 otherwise."""
        creator = creator_of(address)
        self._take(creator)
        if self.quota > 0:
            since = datetime.now(timezone.utc) - QUOTA_WINDOW
            if storage.count_created(creator, since) >= self.quota:
                raise ApiError(429, "too_many_games",
                               f"this client has created {self.quota} games in 24 hours, the most this server "
                               "allows (REFEREE_CREATE_QUOTA); play or wait", headers={"Retry-After": "3600"})
        self.expire(storage)
        return creator

    def _take(self, creator: str) -> None:
        if self.per_minute <= 0 or self.burst <= 0:
            return
        now = time.monotonic()
        rate = self.per_minute / 60.0
        with self._lock:
            tokens, when = self._buckets.get(creator, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - when) * rate)
            if tokens < 1.0:
                self._buckets[creator] = (tokens, now)
                wait = math.ceil((1.0 - tokens) / rate)
                raise ApiError(429, "too_many_games",
                               f"games are created at most {self.per_minute:g} a minute per client "
                               f"(REFEREE_CREATE_PER_MINUTE); try again in {wait} s", headers={"Retry-After": str(wait)})
            self._buckets[creator] = (tokens - 1.0, now)
            if len(self._buckets) > 100_000:          # clients long quiet have full buckets: forget them
                cutoff = now - self.burst / rate
                self._buckets = {k: v for k, v in self._buckets.items() if v[1] > cutoff}

    def expire(self, storage: Storage, force: bool = False) -> int:
        """Delete the games never played for ``unplayed_days`` (at most once every EXPIRY_EVERY seconds)."""
        if self.unplayed_days <= 0:
            return 0
        now = time.monotonic()
        with self._lock:
            if not force and now < self._next_sweep:
                return 0
            self._next_sweep = now + EXPIRY_EVERY
        return storage.expire_unplayed(datetime.now(timezone.utc) - timedelta(days=self.unplayed_days))
