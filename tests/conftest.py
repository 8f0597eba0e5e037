"""Fixtures shared across test folders."""
from __future__ import annotations

import os

import pytest

from modulebuilder.vassal import enginecheck


@pytest.fixture(scope="session")
def engine() -> None:
    """The REAL VASSAL engine (shared/tools/vassal-check), or a skip with the reason it is missing.

    With CI=true the engine's one-time set-up runs first and a failure is an error, never a skip: CI must
    exercise the engine.
    """
    reason = enginecheck.unavailable()
    if reason and os.environ.get("CI") == "true":
        enginecheck.prepare()
        reason = enginecheck.unavailable()
        if reason:
            pytest.fail(f"CI=true but the VASSAL engine could not be prepared: {reason}")
    if reason:
        pytest.skip(reason)
