"""YAML parsing that remembers where everything came from.

ruamel.yaml's round-trip loader records the line and column of every mapping key and sequence item; we copy
the document into plain Python values (dict, list, str, int, float, bool, None: what JSON Schema validates)
and keep the positions in a side table keyed by the path of each node.  Plain values keep the rest of the
loader free of ruamel types (``ScalarInt`` is an ``int`` subclass that would leak into the model otherwise).
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Mapping

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .problems import WHOLE_FILE, Path, Problem, format_path

Position = tuple[int, int]          # 1-based line, column


@dataclass(frozen=True)
class Located:
    """A parsed document: plain ``data`` plus where each node starts in ``file``.

    ``values[path]`` is where the node at ``path`` starts; ``keys[path]`` is where the mapping key naming
    it starts (absent for sequence items and the root).
    """
    file: str
    data: Any
    values: Mapping[Path, Position] = field(default_factory=dict)
    keys: Mapping[Path, Position] = field(default_factory=dict)

    def position(self, path: Path, *, at_key: bool = False) -> Position:
        """Where to point for a problem at ``path``: the node itself, or the nearest ancestor we know."""
        while True:
            if at_key and path in self.keys:
                return self.keys[path]
            if path in self.values:
                return self.values[path]
            if path in self.keys:
                return self.keys[path]
            if not path:
                return (1, 1)
            path = path[:-1]

    def problem(self, path: Path, message: str, *, at_key: bool = False) -> Problem:
        line, column = self.position(path, at_key=at_key)
        return Problem(self.file, line, column, format_path(path), message)

    def get(self, path: Path, default: Any = None) -> Any:
        """The value at ``path`` or ``default`` when any step is missing or of the wrong type."""
        node = self.data
        for part in path:
            if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
                node = node[part]
            elif isinstance(part, str) and isinstance(node, dict) and part in node:
                node = node[part]
            else:
                return default
        return node


class YamlSyntaxError(Exception):
    """The text is not YAML; ``problem`` says where and why."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def parse_yaml(text: str, file: str) -> Located:
    """Parse one YAML document.  Raises :class:`YamlSyntaxError` (one problem line) on bad syntax."""
    yaml = YAML(typ="rt")
    try:
        raw = yaml.load(text)
    except MarkedYAMLError as exc:
        raise YamlSyntaxError(_syntax_problem(exc, file)) from None
    except YAMLError as exc:          # unmarked errors are rare (e.g. bad encoding); still one line
        raise YamlSyntaxError(Problem(file, 1, 1, WHOLE_FILE, f"not valid YAML: {exc}")) from None
    values: dict[Path, Position] = {(): _start(raw)}
    keys: dict[Path, Position] = {}
    data = _plain(raw, (), values, keys)
    return Located(file, data, values, keys)


def _syntax_problem(exc: MarkedYAMLError, file: str) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    what = exc.problem or exc.context or "not valid YAML"
    # ruamel appends advice on how to silence the duplicate-key check; an author needs the fact only.
    what = what.split("\n")[0]
    opened = exc.context_mark
    # "while parsing a flow mapping started at line 5" finds the unclosed bracket; other contexts add noise.
    if exc.context and exc.context.startswith("while parsing") and opened is not None and opened.line + 1 != line:
        what += f" ({exc.context} started at line {opened.line + 1})"
    return Problem(file, line, column, WHOLE_FILE, f"YAML syntax error: {what}")


def _start(node: Any) -> Position:
    lc = getattr(node, "lc", None)
    if lc is not None and lc.line is not None:
        return (lc.line + 1, lc.col + 1)
    return (1, 1)


def _plain(node: Any, path: Path, values: dict[Path, Position], keys: dict[Path, Position]) -> Any:
    if isinstance(node, dict):
        out: dict[Any, Any] = {}
        for k, v in node.items():
            key = _plain_scalar(k)
            # JSON Schema only knows string keys; an integer key (``1:`` in an elevation table) is kept
            # as written so the error, if any, can say so, but addressed by its text.
            sub = path + (str(key),)
            try:
                kl, kc = node.lc.key(k)
                keys[sub] = (kl + 1, kc + 1)
                vl, vc = node.lc.value(k)
                values[sub] = (vl + 1, vc + 1)
            except (AttributeError, KeyError, TypeError):
                pass
            out[str(key) if not isinstance(key, str) else key] = _plain(v, sub, values, keys)
        return out
    if isinstance(node, list):
        items = []
        for i, v in enumerate(node):
            sub = path + (i,)
            try:
                il, ic = node.lc.item(i)
                values[sub] = (il + 1, ic + 1)
            except (AttributeError, KeyError, TypeError, IndexError):
                pass
            items.append(_plain(v, sub, values, keys))
        return items
    return _plain_scalar(node)


def _plain_scalar(v: Any) -> Any:
    if v is None or isinstance(v, bool):
        return v if v is None else bool(v)
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    if isinstance(v, (datetime.date, datetime.datetime)):
        # A date is descriptive text in our files (a battle's date); keep it as the author wrote it.
        return v.isoformat()
    return v
