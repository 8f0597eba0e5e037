"""``referee serve`` on 127.0.0.1 at one port for its whole life, stopped and started again at will (the link
must find it again there): the service tests' server (tests/service/live.py) with its port fixed."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "service"))
from live import Server, free_port  # noqa: E402


class RefereeServer(Server):
    def __init__(self, database: Path, options: str = "") -> None:
        """``options``: the database URL's query, e.g. ``?synchronous=normal`` (bench/bench_live.py)."""
        super().__init__(f"sqlite:///{database}{options}", port=free_port())

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             timeout: float = 30) -> tuple[int, Any]:
        return self.request(method, path, body, token, timeout=timeout)
