"""The reference YAML reader: ruamel.yaml's round-trip loader, for the files the libyaml path hands over.

ruamel.yaml's round-trip loader records the line and column of every mapping key and sequence item; we copy
the document into plain Python values and positions keyed by path, as :mod:`yaml_libyaml` does.  It is much
slower, so it reads only what libyaml cannot or should not (YAML 1.2 syntax that libyaml, a YAML 1.1 parser,
rejects, such as ``{b:}``; syntax errors, so their wording is the one authors know; duplicate keys; ``<<``
merges).  Plain values keep the rest of the loader free of ruamel types (``ScalarInt`` is an ``int``
subclass that would leak into the model otherwise).
"""
from __future__ import annotations

import datetime
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .problems import WHOLE_FILE, Path, Problem

Position = tuple[int, int]          # 1-based line, column
Parsed = tuple[Any, dict[Path, Position], dict[Path, Position]]   # data, value positions, key positions


class RuamelSyntaxError(Exception):
    """The text is not YAML; ``problem`` says where and why."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def parse_with_ruamel(text: str, file: str) -> Parsed:
    """Data and positions of one YAML document.  Raises :class:`RuamelSyntaxError` on bad syntax."""
    yaml = YAML(typ="rt")
    try:
        raw = yaml.load(text)
    except MarkedYAMLError as exc:
        raise RuamelSyntaxError(_syntax_problem(exc, file)) from None
    except YAMLError as exc:          # unmarked errors are rare (e.g. bad encoding); still one line
        raise RuamelSyntaxError(Problem(file, 1, 1, WHOLE_FILE, f"not valid YAML: {exc}")) from None
    values: dict[Path, Position] = {(): _start(raw)}
    keys: dict[Path, Position] = {}
    data = _plain(raw, (), values, keys)
    return data, values, keys


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
    if hasattr(v, "value") and isinstance(v.value, str):
        # An explicitly tagged scalar (``!!str 12``, ``!foo x``) comes back as a TaggedScalar: its text.
        return str(v.value)
    return v
