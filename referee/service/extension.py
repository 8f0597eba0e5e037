"""The service's per-application objects (storage, hosted-game state cache), made on first use.

Made lazily, not in ``create_app``: gunicorn imports the app and then forks workers, and a database
connection must not be shared across a fork.
"""
from __future__ import annotations

import threading
from typing import Any

from flask import Flask, current_app

from referee.service import heavy
from referee.service.creation import CreationLimits
from referee.service.hosting import Host
from referee.service.replays import ReplayCache
from referee.storage import Storage, open_storage

KEY = "referee"


class Referee:
    def __init__(self, app: Flask) -> None:
        self.config = app.config
        self._lock = threading.Lock()
        self._storage: Storage | None = None
        self._host: Host | None = None
        # The page's replays (replay_view.py) share replayed logs through this; POST /check itself runs in
        # the checking workers (heavy.py), which keep their own.
        self.replays = ReplayCache(int(app.config["REPLAY_CACHE_SIZE"]))
        self.creation = CreationLimits.of_config(app.config)
        app.extensions[KEY] = self

    @property
    def storage(self) -> Storage:
        with self._lock:
            if self._storage is None:
                self._storage = open_storage(self.config.get("DATABASE_URL"))
            return self._storage

    @property
    def host(self) -> Host:
        storage = self.storage
        with self._lock:
            if self._host is None:
                config = self.config
                self._host = Host(storage, int(config["GAME_CACHE_SIZE"]),
                                  inline_setup=lambda doc: heavy.inline_setup(heavy.pool_for(config), doc),
                                  max_inline_scenario=int(config["MAX_INLINE_SCENARIO"]))
            return self._host

    def close(self) -> None:
        with self._lock:
            if self._host is not None:
                self._host.close()
            if self._storage is not None:
                self._storage.close()
                self._storage = None
                self._host = None


def ext() -> Referee:
    found: Any = current_app.extensions[KEY]
    return found
