"""A live VASSAL server session in the REAL engine: VASSAL's own server on a local port and one engine process
per player (tests/link/online/vonline.sh, VOnline.java), each playing a script and writing its .vlog."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from modulebuilder.vassal import enginecheck

VONLINE = Path(__file__).resolve().parent / "online" / "vonline.sh"


class VassalServer:
    """``VASSAL.chat.node.Server`` on 127.0.0.1 at a free port, in its own process group."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.proc: subprocess.Popen[bytes] | None = None
        self._log = tempfile.TemporaryFile()

    def start(self, timeout: float = 120.0) -> "VassalServer":
        env = dict(os.environ, VASSAL_CHECK_TOOLS=str(enginecheck.tools_dir()))
        self.proc = subprocess.Popen(["sh", str(VONLINE), "server", str(self.port)], env=env,
                                     start_new_session=True, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the VASSAL server exited: {self.output()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the VASSAL server did not listen within the timeout")

    def output(self) -> str:
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)


@dataclass
class Player:
    """One player's engine run: its script, its .vlog, and (once finished) what it printed."""
    name: str
    vlog: Path
    proc: subprocess.Popen[str]
    out: Path
    lines: list[str] | None = None

    def wait(self, timeout: float) -> "Player":
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self.lines = self.out.read_text(errors="replace").splitlines()
        return self

    @property
    def ok(self) -> bool:
        return self.proc.returncode == 0 and bool(self.lines) and self.lines[-1] == "VONLINE OK"

    @property
    def chat(self) -> list[str]:
        """The lines of the player's chat pane at the end (what the player read)."""
        return [ln[len("chat: "):] for ln in self.lines or [] if ln.startswith("chat: ")]

    def referee(self) -> list[str]:
        """The referee's lines in the player's chat, without the prefix."""
        return [ln[len("* Referee: "):] for ln in self.chat if ln.startswith("* Referee: ")]

    def pieces(self) -> list[enginecheck.EnginePiece]:
        return enginecheck.EngineRun(self.proc.returncode, self.lines or []).pieces_after("final:")


def play(name: str, vmod: Path, vsav: Path, folder: Path, script: dict[str, Any], env: dict[str, str]) -> Player:
    """Starts one player's engine on ``script`` (``{"player", "server", "actions"}``); ``env`` reaches it."""
    (folder / f"{name}.json").write_text(json.dumps(script))
    out = folder / f"{name}.out"
    proc = subprocess.Popen(
        ["sh", str(VONLINE), "player", str(vmod), str(vsav), str(folder / f"{name}.json"),
         str(folder / f"{name}.vlog")],
        env=dict(os.environ, VASSAL_CHECK_TOOLS=str(enginecheck.tools_dir()), **env),
        stdout=out.open("w"), stderr=subprocess.STDOUT, text=True, start_new_session=True)
    return Player(name, folder / f"{name}.vlog", proc, out)


def play_both(vmod: Path, vsav: Path, folder: Path, server: dict[str, Any], french: list[dict[str, Any]],
              russian: list[dict[str, Any]], env: Callable[[str], dict[str, str]]) -> tuple[Player, Player]:
    """The two players of one session on the VASSAL server ``server`` (``{"port", "room"}``): the French player
    opens the room and waits for the Russian's "ready", then each plays its ``actions`` and ends with a chat
    line (a link sends its referee lines along with its player's next act: the last line makes sure they are
    all sent) and a pause for the answers to land.  Both runs must finish; their output is kept in ``folder``."""
    end = [{"chat": "good game"}, {"wait": 3000}]
    players = (
        play("Napoleon", vmod, vsav, folder, {"player": "Napoleon", "server": server, "actions": [
            {"await": "chat", "text": chat_line("Kutuzov", "ready")}, *french, *end]}, env("French")),
        play("Kutuzov", vmod, vsav, folder, {"player": "Kutuzov", "server": {**server, "join": True}, "actions": [
            {"chat": "ready"}, *russian, *end]}, env("Russian")))
    for player in players:
        player.wait(600)
    for player in players:
        assert player.ok, (player.name, (player.lines or [])[-30:])
    return players


def chat_line(player: str, text: str) -> str:
    """A player's typed chat line as VASSAL shows it."""
    return f"<{player}> - {text}"


STEP = re.compile(r"^\[(\d+)\] ")
