"""Small helpers shared by the service tests (conftest.py holds only fixtures: several test folders have a
conftest module, so importing names from one is ambiguous)."""
from __future__ import annotations

from testenv import in_ci  # noqa: F401  (re-exported for the service tests)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
