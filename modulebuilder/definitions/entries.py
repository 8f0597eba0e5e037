"""The definitions inside a parsed document (units, leaders, set-up lines, ...) with where each one is.

Semantic checks run across several files (ids must be unique in the whole game), so they work on these
entries rather than on files; each entry can still point back at its own file, line and column.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from .problems import Path, Problem, format_path
from .yamlpos import Located


@dataclass(frozen=True)
class Entry:
    """One mapping in a list of a document (``units[3]``), and the side it belongs to if any."""
    doc: Located
    path: Path
    data: dict[str, Any]
    side: str | None = None

    @property
    def section(self) -> str:
        """The list the entry is in (``units``, ``leaders``, ``setup`` ...)."""
        return str(self.path[-2])

    def text(self, key: str) -> str | None:
        """The field as a string, or None when absent or not a string (the schema reports those)."""
        value = self.data.get(key)
        return value if isinstance(value, str) else None

    def integer(self, key: str) -> int | None:
        value = self.data.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def problem(self, field: str | int | None, message: str, *, at_key: bool = False) -> Problem:
        path = self.path if field is None else self.path + (field,)
        return self.doc.problem(path, message, at_key=at_key)

    def missing(self, field: str, message: str = "required field missing") -> Problem:
        """A problem about an absent field: located at this entry, naming the field in the path."""
        line, column = self.doc.position(self.path)
        return Problem(self.doc.file, line, column, format_path(self.path + (field,)), message)

    @property
    def where(self) -> str:
        """``file:line`` of the entry, for "first defined at" messages and the model's ``source``."""
        line, _ = self.doc.position(self.path)
        return f"{self.doc.file}:{line}"


def entries(doc: Located, section: str, *, base: Path = ()) -> Iterator[Entry]:
    """The mappings listed under ``section`` (at ``base``), each with its side: its own or the file's."""
    file_side = doc.get(base + ("side",))
    items = doc.get(base + (section,))
    if not isinstance(items, list):
        return
    for i, item in enumerate(items):
        if isinstance(item, dict):
            side = item.get("side", file_side)
            yield Entry(doc, base + (section, i), item, side if isinstance(side, str) else None)
