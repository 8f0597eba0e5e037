"""Bad input: every problem one line, all reported at once (DESIGN §6)."""
from __future__ import annotations

from typing import Iterable


class InputError(Exception):
    """The log cannot be ruled on.  ``problems`` are one-line messages ``where: what``."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = [p.replace("\n", " ") for p in problems]
        super().__init__("\n".join(self.problems))
