"""``modulebuilder new GAME``: a game folder that validates and builds as it is written.

The starters are complete small games shipped as package data (``starters/<ruleset>/``, the folder named
with ``_`` for ``-``); ``__GAME__`` and ``__TITLE__`` in them become the new game's id and title.  The
folder gets its own ``schemas/`` (the schemas combined for the ruleset) and every file's header names
them relatively, so an editor validates the files wherever the folder is copied.
"""
from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

from .schemas import write_combined

RENAMED = {"readme.txt": "README.md"}     # package data carries *.txt, not *.md


class ScaffoldError(Exception):
    """The folder cannot be written as asked (one sentence)."""


def starters() -> tuple[str, ...]:
    """The rulesets a starter game is shipped for."""
    root = resources.files("modulebuilder.definitions").joinpath("starters")
    return tuple(sorted(p.name.replace("_", "-") for p in root.iterdir() if p.is_dir() and not p.name.startswith("_")))


def game_id(name: str) -> str:
    """``My Game`` -> ``my-game``: the id the definitions need (lower-case letters, digits, hyphens)."""
    ident = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return ident or "game"


def scaffold(folder: str | os.PathLike[str], *, ruleset: str = "triumph-and-glory", title: str | None = None) -> list[Path]:
    """Write a new game into ``folder`` (which must not exist, or be empty); the files written."""
    target = Path(folder)
    if ruleset not in starters():
        raise ScaffoldError(f"--ruleset {ruleset}: no starter game for it (starters: {', '.join(starters())}); "
                            "start from one and change its ruleset")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ScaffoldError(f"{target}: already exists and is not an empty folder; nothing was written")
    ident = game_id(target.resolve().name)
    title = title or target.resolve().name.replace("-", " ").replace("_", " ").strip().title() or "New Game"
    source = resources.files("modulebuilder.definitions").joinpath("starters", ruleset.replace("-", "_"))
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for item in sorted(source.iterdir(), key=lambda p: p.name):
        if not item.is_file():
            continue
        text = item.read_text(encoding="utf-8").replace("__GAME__", ident).replace("__TITLE__", title.replace('"', "'"))
        path = target / RENAMED.get(item.name, item.name)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    written += [Path(p) for p in write_combined(str(target / "schemas"), ruleset)]
    return written
