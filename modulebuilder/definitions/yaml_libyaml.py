"""The fast YAML reader: libyaml (PyYAML's C parser) composes, we walk the nodes.

libyaml composes a document into nodes that carry the line and column where each starts; walking them into
plain Python values (dict, list, str, int, float, bool, None: what JSON Schema validates) and a side table
of positions keyed by path is far cheaper than ruamel.yaml's round-trip loader, which dominated loading a
game.  Scalars are typed by the YAML 1.2 core rules, as ruamel.yaml types them (``yes`` is a string,
``0304`` is 304), since files were written against it.  Whatever this reader does not do exactly as
ruamel.yaml does (any syntax error, a tab, a duplicate key, a ``<<`` merge, a key that is not a scalar, an
empty value) raises :class:`Unusual` so the caller can hand the text to the reference reader
(:mod:`yaml_ruamel`).
"""
from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.cyaml import CParser
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .problems import Path

Position = tuple[int, int]          # 1-based line, column
Parsed = tuple[Any, dict[Path, Position], dict[Path, Position]]   # data, value positions, key positions

_TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, TIMESTAMP, MERGE = (
    _TAG + name for name in ("str", "int", "float", "bool", "null", "timestamp", "merge"))


class Unusual(Exception):
    """The text needs the reference reader: libyaml rejected it, or it uses what this reader leaves out."""


class TooDeep(Exception):
    """libyaml stopped at its nesting limit (1,000 levels): the reference reader would recurse past Python's
    limit there too, after seconds of work, so the file is refused here."""

    def __init__(self, line: int, column: int):
        super().__init__(f"{line}:{column}")
        self.line, self.column = line, column


class _Yaml12Resolver(yaml.resolver.BaseResolver):
    """Plain scalars typed by the YAML 1.2 core schema (PyYAML's own resolver implements YAML 1.1)."""


# ruamel.yaml's YAML 1.2 patterns, so that a plain scalar gets the type it got there.
for _tag, _pattern, _first in (
    (BOOL, r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (FLOAT, r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
                |[-+]?\.(?:inf|Inf|INF)
                |\.(?:nan|NaN|NAN))$""", "-+0123456789."),
    (INT, r"""^(?:[-+]?0b[0-1_]+
                |[-+]?0o?[0-7_]+
                |[-+]?[0-9_]+
                |[-+]?0x[0-9a-fA-F_]+)$""", "-+0123456789"),
    (MERGE, r"^(?:<<)$", "<"),
    (NULL, r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    (TIMESTAMP, r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
                |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
                 (?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
                 (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""", "0123456789"),
):
    _Yaml12Resolver.add_implicit_resolver(_tag, re.compile(_pattern, re.X), list(_first))


class _Loader(CParser, _Yaml12Resolver):  # type: ignore[misc]
    """libyaml's parser and composer with the YAML 1.2 resolver (composing needs no constructor)."""

    def __init__(self, stream: str):
        CParser.__init__(self, stream)
        _Yaml12Resolver.__init__(self)

    # libyaml calls these for every node; PyYAML's versions also serve path resolvers, which we do not
    # use, and were a fifth of the time spent composing.
    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            if implicit[0]:
                for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], ()):
                    if regexp.match(value):
                        return tag
            return STR
        return _TAG + ("seq" if kind is SequenceNode else "map")


def parse_with_libyaml(text: str) -> Parsed:
    """Data and positions of one YAML document.  Raises :class:`Unusual` for the reference reader."""
    if "\t" in text:
        # libyaml accepts tabs in places where ruamel.yaml reports "found character '\t' that cannot start
        # any token"; authors have seen that error for a tab, so a file with one is read the old way.
        raise Unusual
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if getattr(exc, "problem", None) == "exceeded maximum nesting depth" and mark is not None:
            raise TooDeep(mark.line + 1, mark.column + 1) from None
        raise Unusual from None
    walk = _Walk()
    data = walk.plain(root, ()) if root is not None else None
    walk.values[()] = _mark(root) if isinstance(root, (MappingNode, SequenceNode)) else (1, 1)
    return data, walk.values, walk.keys


def _int(text: str) -> int:
    digits = text.replace("_", "")
    sign = -1 if digits[0] == "-" else 1
    digits = digits.lstrip("+-")
    for prefix, base in (("0b", 2), ("0x", 16), ("0o", 8)):
        if digits.startswith(prefix):
            return sign * int(digits[2:], base)
    return sign * int(digits)           # YAML 1.2: a leading zero is not octal ("0304" is 304)


def _float(text: str) -> float:
    digits = text.replace("_", "").lower()
    sign = -1.0 if digits[0] == "-" else 1.0
    digits = digits.lstrip("+-")
    if digits == ".inf":
        return sign * float("inf")
    if digits == ".nan":
        return float("nan")
    return sign * float(digits)


def _scalar(node: ScalarNode) -> Any:
    """The plain Python value of a scalar node, typed by its (resolved or explicit) tag."""
    tag, text = node.tag, node.value
    if not text and not node.style:     # plain style is "" from libyaml (None from pure-Python PyYAML)
        # An empty value (``delay_rating:``): libyaml places it right after the colon, ruamel.yaml at the
        # next token, and a problem about it ("must be an integer") must point where it always did.
        raise Unusual
    try:
        if tag == INT:
            return _int(text)
        if tag == FLOAT:
            return _float(text)
        if tag == BOOL:
            return SafeConstructor.bool_values[text.lower()]
        if tag == TIMESTAMP:
            # A date is descriptive text in our files (a battle's date); keep it as the author wrote it.
            return SafeConstructor().construct_yaml_timestamp(node).isoformat()
    except (ValueError, KeyError, IndexError, TypeError):   # "_" is an int by the pattern; "!!int x"
        raise Unusual from None
    if tag == NULL:
        return None
    if tag == MERGE:
        raise Unusual
    return text                         # strings, and the text of anything tagged otherwise


def _mark(node: Node) -> Position:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


class _Walk:
    """Turns composed nodes into plain values, recording where each key and value starts."""

    def __init__(self) -> None:
        self.values: dict[Path, Position] = {}
        self.keys: dict[Path, Position] = {}

    def plain(self, node: Node, path: Path) -> Any:
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        if isinstance(node, SequenceNode):
            items = []
            for i, item in enumerate(node.value):
                sub = path + (i,)
                self.values[sub] = _mark(item)
                items.append(self.plain(item, sub))
            return items
        return _scalar(node)

    def mapping(self, node: MappingNode, path: Path) -> dict[str, Any]:
        out: dict[str, Any] = {}
        typed: set[Any] = set()             # keys as typed: ``1:`` and ``"1":`` are different keys
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise Unusual
            key = _scalar(key_node)
            if key in typed:                # the reference reader words the duplicate-key error
                raise Unusual
            typed.add(key)
            # JSON Schema only knows string keys; an integer key (``1:`` in an elevation table) is kept
            # as written so the error, if any, can say so, but addressed by its text.
            name = key if isinstance(key, str) else str(key)
            sub = path + (name,)
            self.keys[sub] = _mark(key_node)
            self.values[sub] = _mark(value_node)
            out[name] = self.plain(value_node, sub)
        return out
