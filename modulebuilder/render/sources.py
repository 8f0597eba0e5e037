"""Reading what to render from the command line: scenario files (their counters or map) and counters
files, in any mix."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, TypeVar

from modulebuilder.input_files import read_text
from modulebuilder.model import CounterSet, MapDef
from modulebuilder.render.counters import BackTreatment, back_treatment

_SCENARIO_KEYS = re.compile(r"^(ruleset|setup|reinforcements)\s*:", re.MULTILINE)
_SCENARIO_HEADER = re.compile(r"\$schema=\S*scenario\.schema\.json")
T = TypeVar("T")


def is_scenario(path: str | Path) -> bool:
    """A scenario says so in its editor header or has keys only scenarios have."""
    text = read_text(path)      # a regular file within the size cap (input_files), or an OSError saying why
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


@dataclass(frozen=True)
class CounterSources:
    counters: CounterSet
    rulesets: tuple[str, ...]          # rulesets of the scenarios given, in order, each once
    game: object = None                # the first scenario's game declarations (GameDef), if any

    def template(self, given: str | None) -> str | None:
        """The counter template to draw with: the one given (``--template``), else the game file's."""
        return given or getattr(self.game, "template", None)

    @property
    def back(self) -> BackTreatment:
        """How unit backs are drawn: from the scenarios' ruleset (counters files alone say none: T&G look)."""
        looks = {back_treatment(r) for r in self.rulesets}
        if len(looks) > 1:
            raise ValueError(f"scenarios of different rulesets ({', '.join(self.rulesets)}) need different "
                             "counter backs: render them separately")
        return looks.pop() if looks else back_treatment(None)


def load_sources(paths: Iterable[str | Path]) -> CounterSources:
    """The counters of every scenario given plus everything in the counters files given, and the rulesets."""
    from modulebuilder.definitions import load_counters, load_scenario   # the loader is only needed here
    paths = [Path(p) for p in paths]
    scenarios = [load_scenario(p) for p in paths if is_scenario(p)]
    files = [p for p in paths if not is_scenario(p)]
    sets = [s.counters for s in scenarios]
    if files:
        sets.append(load_counters(files))
    return CounterSources(merge(sets), tuple(dict.fromkeys(s.ruleset for s in scenarios)),
                          getattr(scenarios[0], "game", None) if scenarios else None)


def load_counter_sources(paths: Iterable[str | Path]) -> CounterSet:
    """The counters of every scenario given plus everything in the counters files given."""
    return load_sources(paths).counters


def load_map_source(path: str | Path) -> MapDef:
    """A map file, or the map of a scenario."""
    from modulebuilder.definitions import load_map, load_scenario
    return load_scenario(path).map if is_scenario(path) else load_map(path)
