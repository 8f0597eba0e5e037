"""Reference checks driven by the fields a verb declares: every unit, hex, side, marker... an event names must
exist in the scenario, or the log is bad input (DESIGN §6), reported before any ruling.

A ruleset builds one :class:`Names` per scenario — for each kind of name, the valid names and the sentence
for one that is missing — and each verb declares which of its fields hold which kind::

    refs={"unit": "unit", "path": "hexes", "marker": "wing",
          "assaults": {"attackers": "units", "target": "hex"},    # a list of objects: their fields
          "groups": ["unit?"],                                    # a list: each entry of that kind
          "rolls": "side{}"}                                      # an object: its keys are of that kind

A plural kind is a list of that kind (``units``, ``hexes``; one name alone stands for a list of one); a kind
with a ``?`` accepts a single name or a list (``hex?``).  ``side`` is checked on every event that has one.
Problems are reported in the order the event names them (a field of objects: in the order of its ``refs``).
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
    for fld, value in event.items():
        kind = refs.get(fld)
        if kind is None:
            if fld == "side" and "side" in names.kinds:
                _one(names.kinds["side"], value, "side", out)
            continue
        _field(names, value, kind, fld, out)
    return out


def _field(names: Names, value: Any, kind: Any, where: str, out: list[tuple[str, str]]) -> None:
    if isinstance(kind, Mapping):                       # a list of objects: each one's fields
        for i, item in enumerate(value or ()):
            if isinstance(item, Mapping):
                for fld, k in kind.items():
                    if fld in item:
                        _field(names, item[fld], k, f"{where}[{i}].{fld}", out)
        return
    if isinstance(kind, list):                          # a list: each entry of the one kind it holds
        for i, v in enumerate(value or ()):
            _field(names, v, kind[0], f"{where}[{i}]", out)
        return
    if kind.endswith("{}"):                             # an object: its keys name things
        k = names.kinds[kind[:-2]]
        for key in value or ():
            _one(k, key, f"{where}.{key}", out)
        return
    if kind.endswith("?"):
        k = names.kinds[kind[:-1]]
        if isinstance(value, list):
            _many(k, value, where, out)
        else:
            _one(k, value, where, out)
    elif kind not in names.kinds:
        _many(names.kinds[_singular(kind, names)], [value] if isinstance(value, str) else value or (), where, out)
    else:
        _one(names.kinds[kind], value, where, out)


def _many(kind: Kind, values: Any, where: str, out: list[tuple[str, str]]) -> None:
    """Each name of a list; the common case — every one known — is one set test, the positions worded only for
    a problem."""
    try:
        if type(values) is list and kind.names.issuperset(values):
            return
    except TypeError:                                   # an unhashable entry: worded below
        pass
    for i, v in enumerate(values):
        _one(kind, v, f"{where}[{i}]", out)


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
