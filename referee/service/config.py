"""Settings of the service, read once by ``create_app``.

Defaults suit a local run; a deployment overrides them through the environment (``DATABASE_URL``,
``REFEREE_MAX_CONTENT_LENGTH``) or the ``config`` mapping given to ``create_app`` (tests do that).
"""
from __future__ import annotations

import os
from typing import Any, Mapping

API_PREFIX = "/api/v1"          # where the JSON API is mounted (DESIGN §6); the page is at /

# A whole Borodino game as a JSON log is about 0.6 MB and a VASSAL log a little more; 16 MiB leaves room for
# long games while keeping one request from exhausting a worker's memory.
DEFAULT_MAX_CONTENT_LENGTH = 16 * 1024 * 1024

# YAML is read by a pure-Python parser, far slower than JSON (limits.py): its own, smaller limit.
DEFAULT_MAX_YAML_LENGTH = 64 * 1024

# The heavy routes (POST /check, /replay, /replay/board.png): worker processes, waiting places, time budget (s),
# memory per worker (bytes) — heavy.py.
DEFAULT_CHECK_WORKERS = 1
DEFAULT_CHECK_QUEUE = 1
DEFAULT_CHECK_BUDGET = 30.0
DEFAULT_CHECK_MEMORY = 2 * 1024 ** 3
# Their CPU priority: "idle" (SCHED_IDLE: only CPU nothing else wants; nice 19 where there is no SCHED_IDLE) or
# a nice value 0-19.
DEFAULT_CHECK_PRIORITY = "idle"
DEFAULT_CHECK_CPUS = "auto"       # referee/service/cpus.py

# How long a request may take to arrive (server.py: `referee serve`'s waitress): its headers, the whole of it,
# and the least average rate after the first seconds; connections open at once; idle kept-alive seconds.
DEFAULT_HEADER_DEADLINE = 10.0
DEFAULT_REQUEST_DEADLINE = 120.0          # time enough for DEFAULT_MAX_CONTENT_LENGTH on a slow line
DEFAULT_MIN_RATE = 4096.0                 # bytes a second
DEFAULT_CONNECTION_LIMIT = 1000
DEFAULT_IDLE_SECONDS = 30

# Game creation per client (creation.py): a burst, then so many a minute; a quota per 24 hours; never-played
# games deleted after so many days.  0 turns one off.  An inline scenario's largest size (bytes of JSON).
DEFAULT_CREATE_PER_MINUTE = 30.0
DEFAULT_CREATE_BURST = 10
DEFAULT_CREATE_QUOTA = 500
DEFAULT_UNPLAYED_DAYS = 7.0
DEFAULT_MAX_INLINE_SCENARIO = 256 * 1024

# Engine states kept per worker for hosted games (each a few hundred kB at Borodino scale).
DEFAULT_GAME_CACHE_SIZE = 64
# Replayed uploaded logs kept per worker for the web page's board pictures.
DEFAULT_REPLAY_CACHE_SIZE = 8


def load(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The Flask config values this service reads, environment first, then ``overrides``."""
    env = os.environ
    values: dict[str, Any] = {
        # None lets referee.storage apply its own default (./referee.sqlite) and its own DATABASE_URL reading.
        "DATABASE_URL": env.get("DATABASE_URL") or None,
        "MAX_CONTENT_LENGTH": int(env.get("REFEREE_MAX_CONTENT_LENGTH", DEFAULT_MAX_CONTENT_LENGTH)),
        "MAX_YAML_LENGTH": int(env.get("REFEREE_MAX_YAML_LENGTH", DEFAULT_MAX_YAML_LENGTH)),
        "CHECK_WORKERS": int(env.get("REFEREE_CHECK_WORKERS", DEFAULT_CHECK_WORKERS)),
        "CHECK_QUEUE": int(env.get("REFEREE_CHECK_QUEUE", DEFAULT_CHECK_QUEUE)),
        "CHECK_BUDGET": float(env.get("REFEREE_CHECK_BUDGET", DEFAULT_CHECK_BUDGET)),
        "CHECK_MEMORY": int(env.get("REFEREE_CHECK_MEMORY", DEFAULT_CHECK_MEMORY)),
        "CHECK_PRIORITY": env.get("REFEREE_CHECK_PRIORITY", DEFAULT_CHECK_PRIORITY),
        "CHECK_CPUS": env.get("REFEREE_CHECK_CPUS", DEFAULT_CHECK_CPUS),
        "HEADER_DEADLINE": float(env.get("REFEREE_HEADER_DEADLINE", DEFAULT_HEADER_DEADLINE)),
        "REQUEST_DEADLINE": float(env.get("REFEREE_REQUEST_DEADLINE", DEFAULT_REQUEST_DEADLINE)),
        "MIN_RATE": float(env.get("REFEREE_MIN_RATE", DEFAULT_MIN_RATE)),
        "CONNECTION_LIMIT": int(env.get("REFEREE_CONNECTION_LIMIT", DEFAULT_CONNECTION_LIMIT)),
        "IDLE_SECONDS": int(env.get("REFEREE_IDLE_SECONDS", DEFAULT_IDLE_SECONDS)),
        # Host names served (browser_policy.trusted_hosts): comma-separated, "*" for any; SERVED_HOST is the
        # address `referee serve` listens on.
        "ALLOWED_HOSTS": env.get("REFEREE_ALLOWED_HOSTS"),
        "SERVED_HOST": env.get("REFEREE_SERVED_HOST"),
        "CREATE_PER_MINUTE": float(env.get("REFEREE_CREATE_PER_MINUTE", DEFAULT_CREATE_PER_MINUTE)),
        "CREATE_BURST": int(env.get("REFEREE_CREATE_BURST", DEFAULT_CREATE_BURST)),
        "CREATE_QUOTA": int(env.get("REFEREE_CREATE_QUOTA", DEFAULT_CREATE_QUOTA)),
        "UNPLAYED_DAYS": float(env.get("REFEREE_UNPLAYED_DAYS", DEFAULT_UNPLAYED_DAYS)),
        "MAX_INLINE_SCENARIO": int(env.get("REFEREE_MAX_INLINE_SCENARIO", DEFAULT_MAX_INLINE_SCENARIO)),
        "GAME_CACHE_SIZE": DEFAULT_GAME_CACHE_SIZE,
        "REPLAY_CACHE_SIZE": DEFAULT_REPLAY_CACHE_SIZE,
        # Flask's JSON provider sorts keys by default; rulings keep the contract's field order instead.
        "JSON_SORT_KEYS": False,
    }
    values.update(overrides or {})
    return values
