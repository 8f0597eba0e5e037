"""YAML aliases bounded by what they expand to, before any reader builds the document.

An alias (``*name``) repeats the value its anchor (``&name``) names.  YAML readers share that value rather than
copy it, so a 400-byte "billion laughs" (nine aliases of nine aliases of ..., or three of three over twenty
levels) parses into a few objects; but every consumer that walks it as a tree (positions, schemas, JSON,
hashing) meets its billions of leaves.  Counting aliases does not bound that (61 aliases, three per level, are
10^10 leaves), so this counts what they expand to: every value written out weighs ``VALUE_WEIGHT`` plus the
characters of its text, and the expansions of all aliases together may weigh at most the document itself or
the budget (``HEXWARGAME_YAML_ALIAS_BUDGET``, default ``DEFAULT_BUDGET``), whichever is more.  An alias inside
the value it names (a document that contains itself) is refused too: no file of ours is infinite.

The count walks the parser's events (libyaml's, in C; ruamel.yaml's for the YAML 1.2 text libyaml rejects),
never building the document, so it costs a fraction of the read it guards; text without a ``*`` has no alias
and is not scanned.  Every YAML reader of the project calls :func:`check_aliases` first.
"""
from __future__ import annotations

import os
from typing import Any, Iterable

BUDGET_VARIABLE = "HEXWARGAME_YAML_ALIAS_BUDGET"
DEFAULT_BUDGET = 1_000_000          # ~1 MB of values written out: far beyond any table a game repeats
VALUE_WEIGHT = 8                     # a value written out costs its text and about this much around it


class AliasBomb(ValueError):
    """The document's aliases expand past the budget, or an alias is inside the value it names."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(f"{line}:{column}: {message}")
        self.line, self.column, self.message = line, column, message   # 1-based


def budget() -> int:
    try:
        value = int(os.environ.get(BUDGET_VARIABLE, "").replace("_", ""))
    except ValueError:
        return DEFAULT_BUDGET
    return value if value > 0 else DEFAULT_BUDGET


def check_aliases(text: str, limit: int | None = None) -> None:
    """Raise :class:`AliasBomb` if the aliases of ``text`` expand past ``max(limit, len(text))`` (``limit``:
    the budget above).  Text that is not YAML passes: its reader reports the syntax error."""
    if "*" not in text:
        return
    allowed = max(budget() if limit is None else limit, len(text))
    import yaml
    try:
        _count(yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)), allowed)
        return
    except yaml.YAMLError:
        pass                        # YAML 1.2 that libyaml (YAML 1.1) rejects, or no YAML: the reference parser's
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    try:
        _count(YAML(typ="safe", pure=True).parse(text), allowed)
    except YAMLError:
        return


def _count(events: Iterable[Any], allowed: int) -> None:
    sizes: dict[str, int] = {}      # anchor -> weight of its value written out
    open_: list[list[Any]] = []     # the collections being read: [anchor, weight so far]
    added = 0                       # weight the aliases have added so far
    for event in events:
        kind = type(event).__name__     # PyYAML's and ruamel.yaml's events share their names
        if kind == "AliasEvent":
            if any(anchor == event.anchor for anchor, _ in open_):
                raise _bomb(event, "a YAML alias inside the value it names (the document contains itself)")
            weight = sizes.get(event.anchor, VALUE_WEIGHT)
            added += weight
            if added > allowed:
                raise _bomb(event, f"YAML aliases here expand the document past {allowed:,} bytes written out "
                                   f"(an alias bomb); write the repeated values out, or raise {BUDGET_VARIABLE}")
        elif kind == "ScalarEvent":
            weight = VALUE_WEIGHT + len(event.value)
            if event.anchor is not None:
                sizes[event.anchor] = weight
        elif kind in ("SequenceStartEvent", "MappingStartEvent"):
            open_.append([event.anchor, VALUE_WEIGHT])
            continue
        elif kind in ("SequenceEndEvent", "MappingEndEvent"):
            anchor, weight = open_.pop()
            if anchor is not None:
                sizes[anchor] = weight
        else:
            continue
        if open_:
            open_[-1][1] += weight


def _bomb(event: Any, message: str) -> AliasBomb:
    mark = event.start_mark
    return AliasBomb(mark.line + 1, mark.column + 1, message)
