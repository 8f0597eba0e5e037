"""How the definitions loader reports what is wrong: one :class:`Problem` per mistake, all of them at once.

A problem renders as exactly one line, ``file:line:column: field.path: message``, the shape compilers use so
editors and CI logs can jump to it.  Paths read like Python (``units[3].cohesion``) because that is how a
module author thinks of "the fourth unit's cohesion".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence


# A path into a YAML document: mapping keys (str) and sequence indices (int), outermost first.
Path = tuple[str | int, ...]

# Used as the field path of a problem that concerns the file as a whole (YAML syntax, file not found).
WHOLE_FILE = "file"


def format_path(path: Path) -> str:
    """``("units", 3, "cohesion")`` -> ``units[3].cohesion``; the empty path names the whole file."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or WHOLE_FILE


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in one definition file.  ``line`` and ``column`` are 1-based."""
    file: str
    line: int
    column: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.path}: {self.message}"


class DefinitionError(Exception):
    """Raised by the loaders when the definitions are not usable; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


def unique_sorted(problems: Iterable[Problem]) -> list[Problem]:
    """Problems without repeats, in file then position order (the order an author fixes them in)."""
    return sorted(set(problems))


def raise_if_any(problems: Sequence[Problem]) -> None:
    if problems:
        raise DefinitionError(unique_sorted(problems))
