"""Counter art per unit or per face: the game file's ``art`` pattern (``art/{id}.png``, ``art/{id}-{face}.png``),
relative to the game file, names one picture per unit (or per face).  A template draws it where it has an
``image`` item of ``field: art`` (the bundled ``nato`` look: in place of the NATO symbol).

Every unit must have its picture: a missing file is an error naming the unit's definition (file:line), the
file looked for and the game file's line that gives the pattern, for every unit at once."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Iterable

from modulebuilder.model import CounterSet, Unit

FACES = ("front", "back")


class ArtMissing(ValueError):
    """Counter art the game names that is not there (one line per unit)."""


def art_path(game: Any, unit: Unit, face: str = "front") -> Path | None:
    """The picture of ``unit``'s ``face``: its own ``art:`` (both faces), else the game's pattern, else None."""
    if unit.art:
        return Path(unit.art)
    pattern = getattr(game, "art", None)
    if not pattern:
        return None
    return Path(pattern.replace("{id}", unit.id).replace("{face}", face))


def _faces(unit: Unit) -> tuple[str, ...]:
    return FACES if unit.two_sided else FACES[:1]


def art_files(game: Any, counters: CounterSet) -> list[Path]:
    """Every picture the game names for ``counters``' units (existing or not), each once, in unit order."""
    out = [art_path(game, u, face) for u in counters.units for face in _faces(u)]
    out = [p for p in out if p is not None and (getattr(game, "art", None) or p.is_file())]
    return list(dict.fromkeys(p for p in out if p is not None))


def check_art(game: Any, units: Iterable[Unit]) -> None:
    """Raise :class:`ArtMissing` listing every unit whose picture is missing."""
    lines = []
    for u in units:
        if not getattr(game, "art", None):
            continue             # a unit's own art: its counters file's check has said whether it is there
        for face in _faces(u):
            p = art_path(game, u, face)
            if p is not None and not p.is_file():
                where = f"{u.source}: " if u.source else ""
                lines.append(f"{where}unit {u.id!r}: no counter art {p} (the game's art: at {game.source})")
    if lines:
        raise ArtMissing("\n".join(lines))


def art_fields(game: Any, unit: Unit) -> dict[str, Any]:
    """The template fields of the unit's art: ``art`` (front) and ``back.art``."""
    front = art_path(game, unit)
    if front is None:
        return {}
    out: dict[str, Any] = {"art": str(front)}
    if unit.two_sided:
        out["back_art"] = str(art_path(game, unit, "back"))
    return out


def art_digest(game: Any, piece: Any) -> str:
    """A digest of the pictures a counter is drawn with (empty when none): a cached face is redrawn when its
    art changes even if nothing in the definitions did."""
    if not isinstance(piece, Unit):
        return ""
    paths = [art_path(game, piece, face) for face in _faces(piece)]
    paths = [p for p in paths if p is not None]
    if not paths:
        return ""
    h = hashlib.sha256()
    hash_files(h, paths)
    return h.hexdigest()


def hash_files(h: Any, paths: Iterable[Path]) -> None:
    """Feed ``h`` each path and its bytes (``missing`` for a file that is not there): a drawing's cache key
    changes when a picture, font or template it uses is edited, added or removed."""
    for p in paths:
        h.update(str(p).encode())
        h.update(p.read_bytes() if p.is_file() else b"missing")
