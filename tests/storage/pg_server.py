"""A throwaway PostgreSQL server for the storage tests.

``start_server()`` finds PostgreSQL's server programs (installing Debian's ``postgresql`` package
with apt-get when they are missing and we are root), creates a cluster in a fresh temporary folder,
starts it on 127.0.0.1 at a free port with password authentication, and returns a handle that
hands out empty databases (schemas) and stops the server.  PostgreSQL refuses to run as root, so as root the cluster
belongs to, and runs as, the ``postgres`` user that the Debian package creates.

Run it by hand to get a server for experiments:  ``python tests/storage/pg_server.py``.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

USER = "referee"
SERVICE_ACCOUNT = "postgres"


class PostgresUnavailable(Exception):
    """PostgreSQL could not be installed or started here."""


def _run(cmd: list[str], *, timeout: float = 120, env: dict[str, str] | None = None) -> None:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PostgresUnavailable(f"{' '.join(cmd)}: {exc}") from None
    if done.returncode != 0:
        raise PostgresUnavailable(
            f"{' '.join(cmd)} exited {done.returncode}: {(done.stderr or done.stdout).strip()[-2000:]}")


def find_bindir() -> Path | None:
    """The folder holding initdb and pg_ctl (Debian keeps them off PATH, per major version)."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if candidates:
        return Path(candidates[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).resolve().parent if on_path else None


def install() -> None:
    """apt-get install postgresql (Debian/Ubuntu, as root)."""
    if os.geteuid() != 0:
        raise PostgresUnavailable("PostgreSQL is not installed and we are not root to install it")
    if shutil.which("apt-get") is None:
        raise PostgresUnavailable("PostgreSQL is not installed and there is no apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    _run(["apt-get", "update", "-qq"], timeout=600, env=env)
    _run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "postgresql"],
         timeout=900, env=env)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    bindir: Path
    root: Path
    port: int = 0
    password: str = field(default_factory=lambda: secrets.token_hex(16))
    _counter: int = 0

    @property
    def data(self) -> Path:
        return self.root / "data"

    def _as_owner(self, cmd: list[str]) -> list[str]:
        # PostgreSQL refuses to run as root: drop to the service account.
        return ["runuser", "-u", SERVICE_ACCOUNT, "--", *cmd] if os.geteuid() == 0 else cmd

    def init(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam(SERVICE_ACCOUNT)
            except KeyError:
                raise PostgresUnavailable(f"no {SERVICE_ACCOUNT!r} user to run PostgreSQL as") from None
            for path in (self.root, pwfile):
                os.chown(path, account.pw_uid, account.pw_gid)
        _run(self._as_owner([str(self.bindir / "initdb"), "-D", str(self.data), "-U", USER,
                             f"--pwfile={pwfile}", "--auth=scram-sha-256", "-E", "UTF8",
                             "--no-locale", "--no-sync"]))

    def start(self) -> None:
        # A free port can be taken between choosing and binding it; try a few.
        last: PostgresUnavailable | None = None
        for _ in range(3):
            self.port = _free_port()
            # fsync=off: the tests kill clients, never the server or the machine, so flushing the
            # server's writes to disk would only slow them down.
            options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
                       "-c fsync=off -c max_connections=100")
            try:
                _run(self._as_owner([str(self.bindir / "pg_ctl"), "-D", str(self.data),
                                     "-l", str(self.root / "server.log"), "-o", options,
                                     "-w", "-t", "60", "start"]))
                return
            except PostgresUnavailable as exc:
                last = exc
        log = self.root / "server.log"
        detail = log.read_text()[-2000:] if log.exists() else ""
        raise PostgresUnavailable(f"{last}\n{detail}")

    def stop(self) -> None:
        # Immediate: the cluster is thrown away, so there is nothing worth a clean shutdown.
        try:
            _run(self._as_owner([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                                 "-w", "stop"]))
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}:{self.password}@127.0.0.1:{self.port}/{dbname}"

    def new_database_url(self) -> str:
        """The URL of a new, empty namespace: a schema of its own in the shared test database,
        made the first on the search path through the URL's ``options``.  Much cheaper than a
        database per test, which CREATE DATABASE makes by copying some 8 MB."""
        self._counter += 1
        schema = f"t{os.getpid()}_{self._counter}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        return self.url() + f"?options=-csearch_path%3D{schema}"


def start_server() -> PostgresServer:
    bindir = find_bindir()
    if bindir is None:
        install()
        bindir = find_bindir()
        if bindir is None:
            raise PostgresUnavailable("installed postgresql, but found no initdb")
    root = Path(tempfile.mkdtemp(prefix="referee-pg-"))
    server = PostgresServer(bindir=bindir, root=root)
    try:
        server.init()
        server.start()
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return server


if __name__ == "__main__":
    srv = start_server()
    print(f"DATABASE_URL={srv.new_database_url()}")
    print("Ctrl-C stops the server.")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        srv.stop()
