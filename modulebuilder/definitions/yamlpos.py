"""YAML parsing that remembers where everything came from.

A document becomes plain Python values (dict, list, str, int, float, bool, None: what JSON Schema validates)
plus the positions of every key and value in side tables keyed by the path of each node.  libyaml reads it
(:mod:`yaml_libyaml`, fast); anything it cannot read exactly as ruamel.yaml does, syntax errors included,
is read again by ruamel.yaml (:mod:`yaml_ruamel`), the reference for data, positions and messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from modulebuilder.yaml_aliases import AliasBomb, check_aliases
from .problems import WHOLE_FILE, Path, Problem, format_path
from .yaml_libyaml import TooDeep, Unusual, parse_with_libyaml

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


TOO_DEEP = "nested too deeply to read (about a thousand levels; a definition file needs about ten)"


class YamlSyntaxError(Exception):
    """The text is not YAML; ``problem`` says where and why."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def parse_yaml(text: str, file: str) -> Located:
    """Parse one YAML document.  Raises :class:`YamlSyntaxError` (one problem line) on bad syntax, and on
    aliases that expand past their budget (:mod:`modulebuilder.yaml_aliases`), before either reader runs."""
    try:
        check_aliases(text)
    except AliasBomb as exc:
        raise YamlSyntaxError(Problem(file, exc.line, exc.column, WHOLE_FILE, exc.message)) from None
    try:
        try:
            data, values, keys = parse_with_libyaml(text)
        except Unusual:
            # Imported here: only an unusual file (a syntax error, a duplicate key...) pays for ruamel.yaml.
            from .yaml_ruamel import RuamelSyntaxError, parse_with_ruamel
            try:
                data, values, keys = parse_with_ruamel(text, file)
            except RuamelSyntaxError as exc:
                raise YamlSyntaxError(exc.problem) from None
    except TooDeep as exc:
        raise YamlSyntaxError(Problem(file, exc.line, exc.column, WHOLE_FILE, TOO_DEEP)) from None
    except RecursionError:              # both readers recurse once per level of nesting
        raise YamlSyntaxError(Problem(file, 1, 1, WHOLE_FILE, TOO_DEEP)) from None
    return Located(file, data, values, keys)
