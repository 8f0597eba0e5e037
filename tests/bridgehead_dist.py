"""``examples/bridgehead``, the third ruleset's own distribution, installed into this environment for the tests
that run it — only when the installed copy is not the folder's already.

Reinstalling removes the installed files and metadata first: for that moment the ruleset's entry points are
gone, and a test in another worker process that lists or loads the rulesets then (the registry's cache tests,
any check of a classic-hex log) sees another set of rulesets than the environment's.  ``scripts/setup.sh``
installs it, so in a prepared environment no test reinstalls it."""
from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "examples" / "bridgehead"


def ensure_installed() -> str | None:
    """Install the distribution unless the installed one is current; None, or why it does not install.  First
    offline with this environment's build tools; if they cannot build a wheel, the ordinary way."""
    if not installed_is_current():
        base = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
        out = subprocess.run(base + ["--no-build-isolation", "--no-index", str(GAME)], capture_output=True,
                             text=True, timeout=600)
        if out.returncode != 0:
            out = subprocess.run(base + [str(GAME)], capture_output=True, text=True, timeout=600)
        if out.returncode != 0:
            why = [line.strip() for line in out.stderr.splitlines() if "error" in line.lower()] or [out.stderr[-300:]]
            return f"examples/bridgehead does not install here (pip: {why[0]})"
    importlib.invalidate_caches()
    return None


def installed_is_current() -> bool:
    """The installed classic_hex has the same files as the folder's (an editable install counts)."""
    from importlib.metadata import PackageNotFoundError, distribution
    importlib.invalidate_caches()
    try:
        dist = distribution("bridgehead-classic-hex")
    except PackageNotFoundError:
        return False
    if not any(ep.name == "classic-hex" for ep in dist.entry_points if ep.group == "referee.rulesets"):
        return False
    spec = importlib.util.find_spec("classic_hex")
    if spec is None or not spec.submodule_search_locations:
        return False
    installed = Path(list(spec.submodule_search_locations)[0])
    source = GAME / "classic_hex"
    files = [p.relative_to(source) for p in source.iterdir() if p.suffix in (".py", ".json")]
    return all((installed / f).is_file() and (installed / f).read_bytes() == (source / f).read_bytes() for f in files)
