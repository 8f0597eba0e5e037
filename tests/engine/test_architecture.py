"""The architecture is checked, not hoped for: the import-linter contracts in ``.importlinter`` (the layers of
docs/architecture.md) hold, and a contract the code breaks is reported broken."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / ".importlinter"

pytest.importorskip("importlinter", reason="import-linter is in the test extras (pip install -e '.[test]')")


def lint(config: Path) -> subprocess.CompletedProcess:
    # lint-imports caches the import graph in .import_linter_cache; --no-cache keeps the tree clean.
    return subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
                           " sys.exit(lint_imports_command())", str(config), "--no-cache"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_every_import_contract_is_kept():
    out = lint(CONFIG)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    kept = re.findall(r"\bKEPT\b", out.stdout)
    assert len(kept) == 17, out.stdout
    assert "0 broken" in out.stdout


def test_the_contracts_can_fail(tmp_path):
    """A contract the code breaks is reported as broken: layers that put Triumph & Glory's records above its
    views (the views read the records) fail."""
    cfg = tmp_path / "tg.ini"
    cfg.write_text("[importlinter]\nroot_packages =\n    referee\n\n"
                   "[importlinter:contract:tg]\nname = T&G upside down\ntype = layers\nlayers =\n"
                   "    referee.rulesets.triumph_and_glory.state\n    referee.rulesets.triumph_and_glory.views\n",
                   encoding="utf-8")
    out = lint(cfg)
    assert out.returncode != 0 and "BROKEN" in out.stdout, out.stdout[-3000:]


def test_triumph_and_glory_has_no_function_level_imports():
    """Issue #13: the cycle was held together by imports inside functions; none is left to hide one."""
    package = ROOT / "referee" / "rulesets" / "triumph_and_glory"
    hidden = [f"{p.name}:{i}" for p in sorted(package.glob("*.py"))
              for i, line in enumerate(p.read_text("utf-8").splitlines(), 1)
              if re.match(r"\s+(from \.|import )", line)]
    assert hidden == []


def test_a_forbidden_import_is_caught(tmp_path):
    """A forbidden contract over an import that exists (the random-play driver uses the engine's replay) is
    reported with the offending line."""
    cfg = tmp_path / "forbidden.ini"
    cfg.write_text("[importlinter]\nroot_packages =\n    referee\n\n"
                   "[importlinter:contract:x]\nname = play knows no engine\ntype = forbidden\n"
                   "source_modules = referee.play\nforbidden_modules = referee.engine\n", encoding="utf-8")
    out = lint(cfg)
    assert out.returncode != 0 and "referee.play -> referee.engine.replay" in out.stdout, out.stdout[-3000:]
