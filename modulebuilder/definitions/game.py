"""The game declaration: what a game says for all its scenarios (its module version, side colours, unit
types and factor fields), from a game file or the ``game:`` mapping of a scenario or resolved scenario.

Its unit types widen the kinds a unit may have beyond the ruleset's (``armor`` in a game that declares it;
``cavlry`` is still refused, with a suggestion), and its factors are fields its units may carry, merged
into the counters schema after the ruleset's (:func:`~.schemas.combined`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
import difflib
import os
from typing import Any, Iterable, Sequence

from ..model import Factor, GameDef, SideStyle, UnitType, Values
from .entries import Entry
from .problems import Path, Problem
from .yamlpos import Located

# Fields every unit has; a factor of the same name would hide them.
SHARED_UNIT_FIELDS = frozenset({"id", "name", "short_name", "kind", "side", "ag", "corps", "flags", "size",
                                "count", "echelon", "back", "art"})


@dataclass
class CheckedGame:
    problems: list[Problem] = field(default_factory=list)
    game: GameDef = GameDef()

    @property
    def factors(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.game.factors)

    @property
    def unit_types(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.game.unit_types)


def check_game(doc: Located, base: Path = ()) -> CheckedGame:
    """The declaration at ``base`` in ``doc`` (schema problems are the caller's: the file's own schema, or
    the scenario's, which includes it) and the problems the schema cannot see."""
    data = doc.get(base)
    if not isinstance(data, dict):
        return CheckedGame()
    problems = [*_duplicates(doc, base, "unit_types", "unit type"), *_duplicates(doc, base, "factors", "factor")]
    factors = data.get("factors")
    for i, f in enumerate(factors if isinstance(factors, list) else []):
        if isinstance(f, dict) and f.get("id") in SHARED_UNIT_FIELDS:
            problems.append(doc.problem(base + ("factors", i, "id"),
                                        f"{f['id']!r} is a field every unit has; name the factor otherwise"))
    line, _ = doc.position(base)
    return CheckedGame(problems, build_game(data, os.path.dirname(doc.file), f"{doc.file}:{line}")
                       if not problems else GameDef())


def _duplicates(doc: Located, base: Path, section: str, what: str) -> Iterable[Problem]:
    items = doc.get(base + (section,))
    seen: dict[str, int] = {}
    for i, item in enumerate(items if isinstance(items, list) else []):
        ident = item.get("id") if isinstance(item, dict) else None
        if not isinstance(ident, str):
            continue
        if ident in seen:
            yield doc.problem(base + (section, i, "id"), f"{what} {ident!r} is already declared at "
                                                        f"{section}[{seen[ident]}]")
        else:
            seen[ident] = i


def build_game(data: dict[str, Any], base: str | None = None, source: str = "") -> GameDef:
    """The model of a checked declaration (well-formed by the schema); ``base`` is the folder its paths are
    relative to (the game file's, or the scenario's for an inline declaration)."""
    def good(items: Any) -> list[dict[str, Any]]:
        return [x for x in items if isinstance(x, dict) and isinstance(x.get("id"), str)] \
            if isinstance(items, list) else []
    sides = data.get("sides") if isinstance(data.get("sides"), dict) else {}
    spec = data.get("phases")
    per_side = isinstance(spec, dict)
    phases = [str(p) for p in (spec.get("per_side") if per_side else spec) or () if isinstance(p, str)] \
        if isinstance(spec, (dict, list)) else []
    return GameDef(
        id=str(data.get("id", "")), title=str(data.get("title", "")),
        version=data["version"] if isinstance(data.get("version"), str) else None,
        sides=Values({name: SideStyle(s.get("colour"), s.get("text_colour"))
                      for name, s in sides.items() if isinstance(s, dict)}),
        unit_types=tuple(UnitType(t["id"], t.get("name", ""), t.get("symbol")) for t in good(data.get("unit_types"))),
        factors=tuple(Factor(f["id"], f.get("name", "")) for f in good(data.get("factors"))),
        back_side=data["back_side"] if isinstance(data.get("back_side"), str) and data["back_side"] else None,
        template=_path(data.get("template"), base, bundled=True),
        dice=_text(data.get("dice")),
        phases=tuple(phases) if phases else None, per_side=per_side,
        cup=data["cup"] if isinstance(data.get("cup"), bool) else None,
        facing=data["facing"] if isinstance(data.get("facing"), bool) else None,
        about=_text(data.get("about")), art=_path(data.get("art"), base), source=source,
    )


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _path(value: Any, base: str | None, bundled: bool = False) -> str | None:
    """A path the game file names, relative to that file (a bundled template's name is kept as it is)."""
    if not isinstance(value, str) or not value:
        return None
    if bundled and not os.path.splitext(value)[1]:
        return value
    return os.path.abspath(os.path.join(base or "", value))


def unknown_kinds(units: Sequence[Entry], known: Sequence[str]) -> list[Problem]:
    """Units whose kind neither the ruleset nor the game declares (no check when neither declares any)."""
    if not known:
        return []
    out = []
    for unit in units:
        kind = unit.text("kind")
        if kind is None or kind in known:
            continue
        close = difflib.get_close_matches(kind, list(known), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        out.append(unit.problem("kind", f"unknown unit type {kind!r} ({hint}known: {', '.join(known)}; a game "
                                        "declares more under unit_types)"))
    return out
