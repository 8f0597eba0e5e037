"""Run the real VASSAL engine (shared/tools/vassal-check: vcheck.sh, vrecord.sh) and parse what it prints.

Used by the tests and by anyone who wants the engine's verdict on a module: where each piece is, which
hex a pixel is in, whether everything loaded without an engine warning.  The tools install the engine on
first use; :func:`unavailable` says why the engine cannot run here (so tests can skip with a reason) and
:func:`prepare` runs that one-time set-up.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

DEFAULT_TOOLS = Path("/work/shared/tools/vassal-check")
PIECE_LINE = re.compile(r"^  piece (\S+) '(.*)' on (.+?) at (-?\d+),(-?\d+) hex=(.*?) parent=(\S+)(.*)$")
LOC_LINE = re.compile(r"^LOC (-?\d+) (-?\d+) (.*) SNAP (-?\d+) (-?\d+)$")


def tools_dir() -> Path:
    return Path(os.environ.get("VASSAL_CHECK_TOOLS", DEFAULT_TOOLS))


def work_dir() -> Path:
    return Path(os.environ.get("VCHECK_WORK", Path.home() / ".cache" / "vassal-check"))


def unavailable() -> str | None:
    """Why the engine cannot run now (None when it can, without installing anything)."""
    if not (tools_dir() / "vcheck.sh").is_file():
        return f"VASSAL check tools not found in {tools_dir()} (set VASSAL_CHECK_TOOLS)"
    for cmd in ("java", "javac", "xvfb-run"):
        if shutil.which(cmd) is None:
            return f"{cmd} is not installed (the engine set-up installs it; run with CI=true)"
    jar = Path(os.environ.get("VCHECK_ENGINE_JAR", work_dir() / "Vengine.jar"))
    if not jar.is_file():
        return f"the VASSAL engine jar is not prepared ({jar}); run with CI=true to install it"
    return None


def prepare() -> None:
    """The tools' one-time set-up (Debian packages, engine jar, harness classes); raises on failure."""
    env = dict(os.environ, HERE=str(tools_dir()))
    r = subprocess.run(["sh", "-c", '. "$HERE/engine_env.sh"'], env=env, capture_output=True, text=True,
                       timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"VASSAL engine set-up failed (exit {r.returncode}): {r.stderr.strip()[-2000:]}")


@dataclass(frozen=True)
class EnginePiece:
    id: str
    name: str
    map: str
    x: int
    y: int
    location: str
    parent: str
    props: dict[str, str]


@dataclass
class EngineRun:
    returncode: int
    lines: list[str]
    locations: list[tuple[int, int, str, int, int]] = field(default_factory=list)   # x, y, name, snap x, y

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and bool(self.lines) and self.lines[-1] in ("VCHECK OK", "VRECORD OK", "VPROBE OK")

    @property
    def problems(self) -> list[str]:
        return [ln for ln in self.lines if ln.startswith("PROBLEM")]

    def pieces_after(self, marker: str) -> list[EnginePiece]:
        """The piece lines that follow the first line starting with ``marker`` (e.g. ``loaded``, ``final:``)."""
        out: list[EnginePiece] = []
        started = False
        for ln in self.lines:
            if not started:
                started = ln.startswith(marker)
                continue
            if not ln.startswith("  "):
                if out:
                    break
                continue
            m = PIECE_LINE.match(ln)
            if m:
                props = dict(kv.split("=", 1) for kv in m.group(8).split() if "=" in kv)
                out.append(EnginePiece(m.group(1), m.group(2), m.group(3), int(m.group(4)), int(m.group(5)),
                                       m.group(6), m.group(7), props))
        return out


def _run(script: str, args: Sequence[str], env_extra: dict[str, str]) -> EngineRun:
    return _run_script(tools_dir() / script, args, env_extra)


def _run_script(script: Path, args: Sequence[str], env_extra: dict[str, str]) -> EngineRun:
    env = dict(os.environ, VASSAL_CHECK_TOOLS=str(tools_dir()), **env_extra)
    r = subprocess.run(["sh", str(script), *args], env=env, capture_output=True, text=True,
                       timeout=int(os.environ.get("VCHECK_TIMEOUT", "300")) + 60)
    lines = (r.stdout + r.stderr).splitlines()
    run = EngineRun(r.returncode, lines)
    for ln in lines:
        m = LOC_LINE.match(ln)
        if m:
            run.locations.append((int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4)), int(m.group(5))))
    return run


def vcheck(module: Path, save: Path | None = None, log: Path | None = None, *, props: Iterable[str] = (),
           points: Iterable[tuple[int, int]] = ()) -> EngineRun:
    """vcheck.sh: load the module (and a save/log); with ``points``, the engine's location name of each."""
    env = {"VCHECK_PROPS": ",".join(props)}
    with tempfile.TemporaryDirectory() as tmp:
        pts = list(points)
        if pts:
            f = Path(tmp) / "points.txt"
            f.write_text("".join(f"{x} {y}\n" for x, y in pts))
            env["VCHECK_POINTS"] = str(f)
        args = [str(module)] + [str(p) for p in (save, log) if p is not None]
        return _run("vcheck.sh", args, env)


PROBE = Path(__file__).resolve().parent / "probe" / "vprobe.sh"


@dataclass
class PlayerView:
    """What ``probe/VProbe.java`` saw in the player window (lines ``kind: text``)."""
    run: EngineRun

    def values(self, kind: str) -> list[str]:
        return [ln[len(kind) + 2:] for ln in self.run.lines if ln.startswith(kind + ": ")]

    def value(self, kind: str) -> str:
        vals = self.values(kind)
        if len(vals) != 1:
            raise AssertionError(f"expected one '{kind}:' line, got {vals} (last lines: {self.run.lines[-8:]})")
        return vals[0]

    def menu(self, name: str) -> list[str]:
        for v in self.values("menu"):
            title, _, items = v.partition(" = ")
            if title == name:
                return items.split(" ; ")
        return []


def probe(module: Path, setup: Path, out_dir: Path, *args: str, env: dict[str, str] | None = None) -> PlayerView:
    """Open ``module`` and load ``setup`` in the real engine's player window (1600 x 1000 virtual screen) and
    report what a player sees; ``args``: ``menu=PIECE``, ``next=N`` (step the turn track), ``save=FILE`` (the engine's Save Game), ``shot=NAME``
    (player window to OUT_DIR/NAME.png), ``charts=NAME`` (open the Charts window and shoot it)."""
    return PlayerView(_run_script(PROBE, [str(module), str(setup), str(out_dir), *args], env or {}))


def vrecord(module: Path, setup: Path, script: Path, out: Path, *, props: Iterable[str] = (),
            env: dict[str, str] | None = None) -> EngineRun:
    """vrecord.sh: play ``script`` through the engine and let it write the log ``out``.  ``env`` reaches the
    engine's process (the referee link reads its settings from REFEREE_URL, REFEREE_GAME, REFEREE_TOKEN)."""
    return _run("vrecord.sh", [str(module), str(setup), str(script), str(out)],
                {"VCHECK_PROPS": ",".join(props), **(env or {})})
