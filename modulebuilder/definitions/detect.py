"""Telling what kind of definition file a file is, so ``validate`` can be given any mix of files.

In order of trust: the ``# yaml-language-server: $schema=...`` header the author chose, the top-level keys
(each kind has keys no other kind has), then the folder the file sits in (``counters/``, ``maps/`` ...).
"""
from __future__ import annotations

import os
import re
from typing import Any

from modulebuilder.input_files import read_head

from .rulesets import known_rulesets
from .schemas import KINDS, Kind

_HEADER = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S*?)([a-z-]+)\.schema\.json")

_KEYS: tuple[tuple[Kind, frozenset[str]], ...] = (
    ("resolved-scenario", frozenset({"units"})),          # with ruleset: checked first, see kind_of_data
    ("scenario", frozenset({"setup", "reinforcements"})),
    ("map", frozenset({"grid"})),
    ("counters", frozenset({"units", "leaders", "activation_groups", "markers"})),
    ("tables", frozenset({"movement_costs", "shock_terrain", "odds", "shock_results", "fire"})),
    ("game", frozenset({"unit_types", "factors", "version"})),
)

_FOLDERS: dict[str, Kind] = {"counters": "counters", "maps": "map", "scenarios": "scenario", "tables": "tables",
                             "games": "game"}


def kind_from_header(text: str) -> Kind | None:
    """The schema the file's editor header names, if it is one of ours."""
    return header(text)[0]


def header(text: str, file: str | None = None) -> tuple[Kind | None, str | None]:
    """The kind of file and the ruleset the editor header names: ``.../schemas/triumph-and-glory/map.schema.json``
    is a map of a Triumph & Glory game (the combined schemas sit in a folder named by the ruleset).  A copy
    written elsewhere (``schemas/map.schema.json`` in a game folder) names its ruleset inside, under
    ``x-ruleset``; it is read when ``file`` (the YAML file, which the path is relative to) is given."""
    for line in text.splitlines()[:5]:
        m = _HEADER.search(line)
        if m and m.group(2) in KINDS:
            folder = os.path.basename(os.path.dirname(m.group(1) + "x"))
            ruleset = folder if folder in known_rulesets() else None
            if ruleset is None and file is not None:
                ruleset = _ruleset_inside(os.path.join(os.path.dirname(file), m.group(1) + m.group(2) + ".schema.json"))
            return m.group(2), ruleset  # type: ignore[return-value]
    return None, None


def _ruleset_inside(schema_path: str) -> str | None:
    try:
        head = read_head(schema_path, 400)     # x-ruleset is the second key of a combined schema
    except (OSError, UnicodeDecodeError):
        return None
    m = re.search(r'"x-ruleset":\s*"([a-z0-9-]*)"', head)
    # "" is a copy combined for a game with no ruleset (NO_RULESET).
    return m.group(1) if m and (m.group(1) in known_rulesets() or m.group(1) == "") else None


def kind_of_data(data: Any) -> Kind | None:
    if not isinstance(data, dict):
        return None
    keys = set(data)
    if "ruleset" in keys and "units" in keys and not keys & {"game", "side"}:
        return "resolved-scenario"          # a counters file may name its ruleset too, but has a game or side
    for kind, marks in _KEYS[1:]:
        if keys & marks:
            return kind
    return None


def kind_from_folder(path: str) -> Kind | None:
    parts = os.path.normpath(path).split(os.sep)
    for folder in reversed(parts[:-1]):
        if folder in _FOLDERS:
            return _FOLDERS[folder]
    return None


def kind_of_document(file: str, data: Any) -> tuple[Kind | None, str | None]:
    """The kind (and header ruleset) of a parsed file, in the order of trust above (header, keys, folder)."""
    try:
        kind, ruleset = header(read_head(file, 2000), file)
    except (OSError, UnicodeDecodeError):
        kind, ruleset = None, None
    return kind or kind_of_data(data) or kind_from_folder(file), ruleset


KIND_NAMES: dict[str, str] = {"counters": "counters", "map": "map", "scenario": "scenario", "tables": "tables",
                              "game": "game", "resolved-scenario": "resolved scenario"}
