"""Reading what to render from the command line: scenario files (their counters or map) and counters
files, in any mix."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, TypeVar

from modulebuilder.model import CounterSet, MapDef

_SCENARIO_KEYS = re.compile(r"^(ruleset|setup|reinforcements)\s*:", re.MULTILINE)
_SCENARIO_HEADER = re.compile(r"\$schema=\S*scenario\.schema\.json")
T = TypeVar("T")


def is_scenario(path: str | Path) -> bool:
    """A scenario says so in its editor header or has keys only scenarios have."""
    text = Path(path).read_text(encoding="utf-8")
    return bool(_SCENARIO_HEADER.search(text) or _SCENARIO_KEYS.search(text))


def _unique(items: Iterable[T], key: str = "id") -> tuple[T, ...]:
    """First occurrence of each id wins (a scenario and its counters file may both name a unit)."""
    seen: set[str] = set()
    out = []
    for item in items:
        k = getattr(item, key)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return tuple(out)


def merge(sets: Iterable[CounterSet]) -> CounterSet:
    sets = list(sets)
    return CounterSet(
        activation_groups=_unique(ag for s in sets for ag in s.activation_groups),
        units=_unique(u for s in sets for u in s.units),
        leaders=_unique(ldr for s in sets for ldr in s.leaders),
        markers=_unique(m for s in sets for m in s.markers),
    )


def load_counter_sources(paths: Iterable[str | Path]) -> CounterSet:
    """The counters of every scenario given plus everything in the counters files given."""
    from modulebuilder.definitions import load_counters, load_scenario   # the loader is only needed here
    paths = [Path(p) for p in paths]
    scenarios = [p for p in paths if is_scenario(p)]
    files = [p for p in paths if p not in scenarios]
    sets = [load_scenario(p).counters for p in scenarios]
    if files:
        sets.append(load_counters(files))
    return merge(sets)


def load_map_source(path: str | Path) -> MapDef:
    """A map file, or the map of a scenario."""
    from modulebuilder.definitions import load_map, load_scenario
    return load_scenario(path).map if is_scenario(path) else load_map(path)
