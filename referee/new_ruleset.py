"""``referee new-ruleset NAME``: a working skeleton of a ruleset shipped as its own distribution.

What it writes (the templates in ``referee/skeleton/``, with the names filled in): ``pyproject.toml`` (the
entry points ``referee.rulesets`` and ``modulebuilder.rulesets`` keyed by the ruleset id), the package (the
ruleset class on the engine's framework, its records, its pending decision, one verb — ``move`` — with its
candidates, the event schema and the definitions contribution), a scenario with its map and two sides'
counters, a sample game and its tests, and a README with the rules the code cites.  Installed, it passes its
tests, ``referee check`` rules its sample game and ``referee serve`` hosts it; docs/writing-a-ruleset.md grows
it into a game.
"""
from __future__ import annotations

import keyword
import os
import re
from importlib.resources import files
from importlib.util import find_spec

from referee.engine import registry

#: a ruleset id: lower-case words joined by hyphens (it names the package too, with underscores)
NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
TEMPLATE_SUFFIX = ".tmpl"


class BadName(ValueError):
    """A name that cannot be a new ruleset's (one sentence saying why)."""


def names(ruleset_id: str) -> dict[str, str]:
    """What the templates are filled with: the ruleset id, the package, the class name and the title."""
    words = ruleset_id.split("-")
    return {"id": ruleset_id, "package": "_".join(words), "Class": "".join(w.capitalize() for w in words),
            "title": " ".join(w.capitalize() for w in words)}


def check_name(ruleset_id: str) -> None:
    """Refuse a name that is no ruleset id, or whose package would hide or be hidden by an importable one."""
    if not NAME.match(ruleset_id):
        raise BadName(f"'{ruleset_id}' is not a ruleset id: lower-case letters and digits, words joined by "
                         "hyphens, starting with a letter (e.g. 'my-game')")
    package = names(ruleset_id)["package"]
    if keyword.iskeyword(package):
        raise BadName(f"'{ruleset_id}' would make the package '{package}', a Python keyword")
    try:
        taken = find_spec(package) is not None
    except (ImportError, ValueError):
        taken = True
    if taken:
        raise BadName(f"a module '{package}' can already be imported here: the ruleset's package would clash "
                         "with it; choose another name")
    if ruleset_id in registry.available():
        raise BadName(f"a ruleset '{ruleset_id}' is installed already; choose another name")


def templates() -> list[tuple[str, str]]:
    """``(relative output path with PACKAGE / RULESET in it, template text)`` for every template file."""
    root = files("referee") / "skeleton"
    out: list[tuple[str, str]] = []

    def walk(node: object, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):     # type: ignore[attr-defined]
            rel = f"{prefix}{child.name}"
            if child.is_dir():
                walk(child, rel + "/")
            elif child.name.endswith(TEMPLATE_SUFFIX):
                out.append((rel[: -len(TEMPLATE_SUFFIX)], child.read_text(encoding="utf-8")))
    walk(root, "")
    return out


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def write_skeleton(ruleset_id: str, folder: str) -> list[str]:
    """Write the skeleton of ruleset ``ruleset_id`` into ``folder`` (new, or empty); the paths written."""
    check_name(ruleset_id)
    if os.path.exists(folder) and (not os.path.isdir(folder) or os.listdir(folder)):
        raise BadName(f"{folder}: exists and is not an empty folder; the skeleton goes into a new one")
    values = names(ruleset_id)
    written = []
    for rel, text in templates():
        rel = rel.replace("PACKAGE", values["package"]).replace("RULESET", values["id"])
        path = os.path.join(folder, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(fill(text, values))
        written.append(path)
    return written
