"""``referee serve`` on 127.0.0.1 at a fixed port, stopped and started again at will (the link must ride it out)."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RefereeServer:
    def __init__(self, database: Path, log: Path, options: str = "") -> None:
        self.database = database
        self.options = options              # e.g. "?synchronous=normal" (referee.storage.sqlite)
        self.log = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90.0) -> "RefereeServer":
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--workers", "1", "--database-url", f"sqlite:///{self.database}{self.options}"],
                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"referee serve exited: {self.log.read_text(errors='replace')[-2000:]}")
            try:
                if self.call("GET", "/api/v1/rulesets", timeout=2)[0] == 200:
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("referee serve did not answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=30)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             timeout: float = 30) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.url + path, method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())
