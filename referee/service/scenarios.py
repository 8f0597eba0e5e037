"""Scenario lookup for the service: the ids it offers, and loaded scenarios cached per process.

Loading the Borodino scenario (definitions, schema checks, tables) takes seconds, so every request that names
a scenario by id would pay that; scenarios are immutable values, so one loaded copy serves every request.
Ids are restricted to plain names: ``referee.logs`` also accepts a path ending in ``.yaml`` (handy on the
command line), which a remote client must not be able to use to read files on the server.
"""
from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Mapping

from referee.logs.jsonlog import PROJECT_ROOT, load_scenario
from referee.logs.problems import InputError

SCENARIO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_RESOLVED_CACHE_SIZE = 32

_lock = threading.Lock()
_by_id: dict[str, Any] = {}
_loading: dict[str, threading.Lock] = {}         # one load per id at a time; the others wait for it
_resolved: OrderedDict[str, Any] = OrderedDict()


def scenario_dirs() -> list[Path]:
    """Where scenario ids are looked up, in the order ``referee.logs`` uses (working folder first)."""
    dirs = [Path.cwd() / "scenarios", Path(PROJECT_ROOT) / "scenarios"]
    return list(dict.fromkeys(d.resolve() for d in dirs if d.is_dir()))


def available() -> list[dict[str, Any]]:
    """``[{id, name, ruleset, description?}]`` from the scenario files' top-level fields (no full load)."""
    from ruamel.yaml import YAML
    yaml = YAML(typ="safe", pure=True)
    seen: dict[str, dict[str, Any]] = {}
    for folder in scenario_dirs():
        for path in sorted(folder.glob("*.yaml")):
            if path.stem in seen or not SCENARIO_ID.match(path.stem):
                continue
            try:
                doc = yaml.load(path.read_text(encoding="utf-8"))
            except Exception:  # noqa: BLE001 — a broken file is left out of the list, not a failed request
                continue
            if isinstance(doc, Mapping) and "ruleset" in doc:
                entry = {"id": path.stem, "name": str(doc.get("name", path.stem)), "ruleset": str(doc["ruleset"])}
                if doc.get("description"):
                    entry["description"] = str(doc["description"])
                seen[path.stem] = entry
    return list(seen.values())


def bundled(scenario: Any) -> bool:
    """Whether ``scenario`` is one loaded by id (the server's own, drawn at start-up), not a document sent in."""
    with _lock:
        return any(hit is scenario for hit in _by_id.values())


def resolve(ref: Any) -> Any:
    """The loaded scenario for an id or a resolved scenario document; InputError when it cannot be used."""
    if isinstance(ref, str):
        if not SCENARIO_ID.match(ref):
            raise InputError([f"scenario: {ref!r} is not a scenario id (letters, digits, '-' and '_')"])
        with _lock:
            hit = _by_id.get(ref)
            gate = _loading.setdefault(ref, threading.Lock())
        if hit is not None:
            return hit
        with gate:                              # a request during the warm-up waits for the same load
            with _lock:
                hit = _by_id.get(ref)
            if hit is None:
                hit = load_scenario(ref)
                with _lock:
                    _by_id[ref] = hit
        return hit
    if isinstance(ref, Mapping):
        key = json.dumps(ref, sort_keys=True, default=str)
        with _lock:
            hit = _resolved.get(key)
            if hit is not None:
                _resolved.move_to_end(key)
                return hit
        hit = load_scenario(dict(ref))
        with _lock:
            _resolved[key] = hit
            while len(_resolved) > _RESOLVED_CACHE_SIZE:
                _resolved.popitem(last=False)
        return hit
    raise InputError(["scenario: expected a scenario id or a resolved scenario object"])


def side_names(scenario: Any) -> tuple[str, ...]:
    return tuple(s.name for s in scenario.sides)


def preload() -> None:
    """Load every scenario ``available()`` lists into the cache (a server's warm-up; failures are left for the
    request that names the scenario to report)."""
    for entry in available():
        try:
            resolve(entry["id"])
        except Exception:  # noqa: BLE001 — a scenario that does not load is reported when someone asks for it
            continue
