"""A real server for tests and benchmarks: ``referee serve`` on 127.0.0.1 at a free port, in its own process
group (waitress with one process, gunicorn's gthread workers with more).

    with Server(database_url) as server:
        status, body = server.request("GET", "/api/v1/rulesets")
"""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, database_url: str, *, workers: int = 1, threads: int = 8, cwd: Path | None = None,
                 preload: bool = False, env: dict[str, str] | None = None, port: int = 0) -> None:
        self.database_url = database_url
        self.fixed_port = port              # 0: a free port at each start; else this one at every start
        self.preload = preload              # load the project's scenarios at start (REFEREE_PRELOAD)
        self.workers = workers
        self.threads = threads
        self.env = env or {}
        self.cwd = cwd or ROOT
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> "Server":
        self.port = self.fixed_port or free_port()
        # A file, not a pipe: nobody reads the log while the server runs, and a full pipe would block it.
        self._log = tempfile.TemporaryFile()
        env = {**os.environ, "DATABASE_URL": self.database_url, "PYTHONPATH": str(ROOT),
               "REFEREE_PRELOAD": "1" if self.preload else "0", **self.env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(self.workers), "--threads", str(self.threads)],
            cwd=self.cwd, env=env, start_new_session=True,            # its own group: SIGKILL takes the workers too
            stdout=subprocess.DEVNULL, stderr=self._log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._log.seek(0)
                raise RuntimeError(f"the server exited: {self._log.read().decode(errors='replace')[-2000:]}")
            try:
                if self.request("GET", "/api/v1/rulesets", timeout=5)[0] == 200:
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not answer within the timeout")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def connection(self, timeout: float = 30.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                conn: http.client.HTTPConnection | None = None, timeout: float = 30.0) -> tuple[int, Any]:
        own = conn is None
        conn = conn or self.connection(timeout)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            resp = conn.getresponse()
            data = resp.read()
        finally:
            if own:
                conn.close()
        kind = resp.getheader("Content-Type", "")
        return resp.status, json.loads(data) if kind.startswith("application/json") else data

    def kill(self) -> None:
        """SIGKILL the master and its workers at once: no chance to finish anything."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "_log", None) is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
