"""Facts about the environment the tests run in, shared by every test folder."""
from __future__ import annotations

import os


def in_ci() -> bool:
    """CI must exercise every real part (VASSAL engine, PostgreSQL, Chromium): there a missing part is a
    failure, never a skip."""
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")
