"""Small helpers shared by the service tests (conftest.py holds only fixtures: several test folders have a
conftest module, so importing names from one is ambiguous)."""
from __future__ import annotations

import os


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
