"""The ruleset's import contracts (``.importlinter`` in this folder) hold: it imports none of the referee's
front ends (log readers, report, service) nor another ruleset, and its modules form layers without cycles."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import HERE

pytest.importorskip("importlinter", reason="import-linter is in the referee's test extras")


def test_the_rulesets_import_contracts_are_kept():
    out = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command;"
                          " sys.exit(lint_imports_command())", str(HERE / ".importlinter"), "--no-cache"],
                         cwd=HERE, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert out.stdout.count("KEPT") == 3
