"""Reference checks driven by the fields a verb declares: every unit, hex, side, marker... an event names must
exist in the scenario, or the log is bad input (DESIGN §6), reported before any ruling.

A ruleset builds one :class:`Names` per scenario — for each kind of name, the valid names and the sentence
for one that is missing — and each verb declares which of its fields hold which kind::

    refs={"unit": "unit", "path": "hexes", "marker": "wing",
          "assaults": {"attackers": "units", "target": "hex"}}     # a list of objects: their fields

A plural kind is a list of that kind (``units``, ``hexes``); a kind with a ``?`` accepts a single
name or a list (``hex?``).  ``side`` is checked on every event that has one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Kind:
    """The names of one kind in a scenario and how to say one is missing (``{name}`` is filled in)."""
    names: frozenset[str]
    missing: str

    def problem(self, value: Any) -> str | None:
        if isinstance(value, str) and value in self.names:
            return None
        return self.missing.replace("{name}", str(value))


@dataclass(frozen=True)
class Names:
    """What the events of a scenario may name, by kind (``unit``, ``hex``, ``side``, ``wing``, ...)."""
    kinds: Mapping[str, Kind]

    @classmethod
    def of(cls, **kinds: tuple[Any, str]) -> "Names":
        """``Names.of(unit=(ids, "no unit '{name}' in the scenario"), ...)``."""
        return cls({k: Kind(frozenset(names), missing) for k, (names, missing) in kinds.items()})


def check(names: Names, event: Mapping[str, Any], refs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(field, message)`` for every name in ``event`` that the scenario does not have."""
    out: list[tuple[str, str]] = []
    _fields(names, event, refs, "", out)
    if "side" in event and "side" not in refs and "side" in names.kinds:
        _one(names.kinds["side"], event["side"], "side", out)
    return out


def _fields(names: Names, obj: Mapping[str, Any], refs: Mapping[str, Any], prefix: str,
            out: list[tuple[str, str]]) -> None:
    for fld, kind in refs.items():
        if fld not in obj:
            continue
        value, where = obj[fld], prefix + fld
        if isinstance(kind, Mapping):
            for i, item in enumerate(value or ()):
                if isinstance(item, Mapping):
                    _fields(names, item, kind, f"{where}[{i}].", out)
            continue
        if kind.endswith("?"):
            k = names.kinds[kind[:-1]]
            if isinstance(value, list):
                for i, v in enumerate(value):
                    _one(k, v, f"{where}[{i}]", out)
            else:
                _one(k, value, where, out)
        elif kind not in names.kinds:
            k = names.kinds[_singular(kind, names)]
            for i, v in enumerate(value or ()):
                _one(k, v, f"{where}[{i}]", out)
        else:
            _one(names.kinds[kind], value, where, out)


def _singular(kind: str, names: Names) -> str:
    """``units`` -> ``unit``, ``hexes`` -> ``hex``."""
    for cut in (2, 1):
        if kind[:-cut] in names.kinds:
            return kind[:-cut]
    raise KeyError(f"no kind of name '{kind}' (known: {', '.join(names.kinds)})")


def _one(kind: Kind, value: Any, where: str, out: list[tuple[str, str]]) -> None:
    problem = kind.problem(value)
    if problem is not None:
        out.append((where, problem))
