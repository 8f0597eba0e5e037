"""``referee serve`` / ``referee verify-dice`` as registered on an argparse parser (as referee.cli does)."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from referee.service.commands import cmd_serve, cmd_verify_dice, register


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="referee")
    register(p.add_subparsers(dest="command", required=True))
    return p


def test_serve_takes_host_and_port() -> None:
    args = parser().parse_args(["serve", "--host", "127.0.0.1", "--port", "8123"])
    assert (args.host, args.port, args.func) == ("127.0.0.1", 8123, cmd_serve)


@pytest.mark.parametrize("content, message", [
    ("{not json", "not a JSON game export"),
    ("[]", "not a JSON game export"),
    (json.dumps({"dice": {"mode": "players"}}), "not a hosted game export"),
    (json.dumps({"format": "referee-game-export/2", "events": [], "status": "ended",
                 "dice": {"mode": "referee", "commitment": "00"}}), "not revealed"),
    (json.dumps({"format": "referee-game-export/2", "events": [], "status": "ended",
                 "dice": {"mode": "referee", "commitment": "00", "seed": "s"}}), "does not match"),
    (json.dumps({"format": "referee-game-export/2", "events": [1]}), "events[0]"),
])
def test_verify_dice_refuses_what_it_cannot_verify(tmp_path: Path, content: str, message: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "export.json"
    path.write_text(content)
    args = parser().parse_args(["verify-dice", str(path)])
    assert args.func is cmd_verify_dice and args.func(args) == 1
    assert message in capsys.readouterr().err


def test_verify_dice_on_a_missing_file_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(["verify-dice", str(tmp_path / "none.json")])
    assert args.func(args) == 1 and "cannot read" in capsys.readouterr().err


def test_serve_runs_the_service_on_the_given_port(tmp_path: Path) -> None:
    """`serve` as referee.cli will call it, in a child process: it answers on 127.0.0.1 until stopped.
    Two at once on one machine (issue 12.8): both answer, and neither takes gunicorn's per-user control socket
    (~/.gunicorn/gunicorn.ctl) from the other — there is none."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from live import ROOT, free_port

    ports = [free_port(), free_port()]
    script = ("import argparse, sys; from referee.service.commands import register; "
              "p = argparse.ArgumentParser(); register(p.add_subparsers()); "
              "a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))")
    home = tmp_path / "home"
    home.mkdir()
    procs = []
    for n, port in enumerate(ports):
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / f'serve{n}.sqlite'}", "REFEREE_PRELOAD": "0",
               "PYTHONPATH": str(ROOT), "HOME": str(home)}
        procs.append(subprocess.Popen([sys.executable, "-c", script, "serve", "--host", "127.0.0.1", "--port",
                                       str(port)], cwd=tmp_path, env=env, start_new_session=True,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    try:
        import http.client
        for port, proc in zip(ports, procs):
            deadline = time.monotonic() + 60
            status = None
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/api/v1/rulesets")
                    status = conn.getresponse().status
                    conn.close()
                    break
                except OSError:
                    time.sleep(0.2)
            assert status == 200
        assert not (home / ".gunicorn").exists() or not any((home / ".gunicorn").iterdir())
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
