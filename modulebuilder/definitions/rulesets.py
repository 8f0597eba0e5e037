"""Where each ruleset's part of the definitions schema comes from, found without importing the ruleset.

The shared schemas (``modulebuilder/schemas/*.schema.json``) hold what every hex-and-counter game has; a
ruleset contributes the schema of its own fields, options and tables as one JSON file (its
"contribution", docs/definitions.md "Definitions per ruleset").  Contributions are found in two places:

* bundled: ``modulebuilder/schemas/rulesets/<ruleset-id>.schema.json``;
* installed: the entry-point group ``modulebuilder.rulesets``, one entry per ruleset id whose value names a
  package and a file in it, ``<package>:<file>`` (``classic-hex = "bridgehead:definitions.schema.json"``).
  The distribution ships the file as package data.  An installed entry replaces a bundled one of the same id.

modulebuilder never imports referee, nor a ruleset's code: the package an entry point names is located with
:func:`importlib.util.find_spec` on its top-level name (which finds a package without running it) and the
rest of the dotted name is walked as folders.  So the entry-point value is read as data, not loaded with
``EntryPoint.load()``; that is also why the file part may contain dots and hyphens.
"""
from __future__ import annotations

from dataclasses import dataclass
import importlib.util
import json
import os
from functools import lru_cache
from importlib import metadata, resources
from typing import Any, Mapping


ENTRY_POINT_GROUP = "modulebuilder.rulesets"

# Two ways of checking definitions beside "ruleset X" and "any ruleset" (None): a game whose scenario names
# no ruleset has the shared fields and its own alone; a scenario naming a ruleset that is not installed is
# checked for everything that needs no ruleset, the ruleset's own fields taken as they are.
NO_RULESET = ""
UNINSTALLED = "(not installed)"

DEFAULT_BACK_SIDE = "Reduced"


class ContributionError(Exception):
    """A ruleset's contribution cannot be read (missing file, not JSON, not a schema object)."""


@dataclass(frozen=True)
class SetupRules:
    """What a ruleset says about facings in a set-up (the contribution's ``x-setup``): whether a unit on the
    map must be given one (a classic hex-and-counter game has none), and the flags of pieces that face
    nothing even so (Musket & Pike [6.1]: wagons, limbered guns)."""
    facing_required: bool = True
    faceless_flags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Contribution:
    ruleset: str
    schema: Mapping[str, Any]
    origin: str                      # the file it was read from, for messages

    @property
    def setup(self) -> SetupRules:
        rules = self.schema.get("x-setup")
        if not isinstance(rules, dict):
            return SetupRules()
        return SetupRules(facing_required=rules.get("facing", "required") != "optional",
                          faceless_flags=frozenset(x for x in rules.get("faceless_flags", ()) if isinstance(x, str)))


def ruleset_unit_types(ruleset: str | None) -> tuple[str, ...]:
    """The unit types (kinds) a ruleset knows, from its contribution's ``x-unit-types``; for None (any
    ruleset), those of every known ruleset; for ``NO_RULESET`` and ``UNINSTALLED``, none."""
    if ruleset in (NO_RULESET, UNINSTALLED):
        return ()
    names = (ruleset,) if ruleset else known_rulesets()
    out: list[str] = []
    for name in names:
        try:
            found = contribution(name)
        except ContributionError:
            continue
        types = found.schema.get("x-unit-types") if found is not None else None
        out += [t for t in (types if isinstance(types, list) else []) if isinstance(t, str) and t not in out]
    return tuple(out)


def back_side(ruleset: str | None) -> str | None:
    """What ``ruleset`` calls the back of a two-sided unit counter (its contribution's ``x-back-side``:
    Disordered, Shaken ...), None when it says nothing."""
    try:
        found = contribution(ruleset) if ruleset else None
    except ContributionError:
        found = None
    name = found.schema.get("x-back-side") if found is not None else None
    return name if isinstance(name, str) and name else None


def setup_rules(ruleset: str | None) -> SetupRules:
    """The set-up rules of ``ruleset`` (the defaults of DESIGN §4 when it has no contribution).  A game with
    no ruleset, or one whose ruleset is not installed, has no rule that reads a facing: facings are optional."""
    if ruleset in (NO_RULESET, UNINSTALLED):
        return SetupRules(facing_required=False)
    try:
        found = contribution(ruleset) if ruleset else None
    except ContributionError:
        found = None
    return found.setup if found is not None else SetupRules()


def _bundled() -> dict[str, str]:
    folder = resources.files("modulebuilder.schemas").joinpath("rulesets")
    out: dict[str, str] = {}
    for item in folder.iterdir():
        name = item.name
        if name.endswith(".schema.json"):
            out[name[: -len(".schema.json")]] = str(item)
    return out


def package_folder(dotted: str) -> str | None:
    """The folder of package ``dotted`` without importing it (None when it is not installed)."""
    top, _, rest = dotted.partition(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        folder = os.path.join(base, *rest.split(".")) if rest else base
        if os.path.isdir(folder):
            return folder
    return None


def _installed() -> dict[str, str]:
    out: dict[str, str] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        package, _, file = ep.value.partition(":")
        folder = package_folder(package.strip())
        file = file.strip() or "definitions.schema.json"
        # A package that is not installed leaves a path that does not exist; reading it says so.
        out[ep.name] = os.path.join(folder, file) if folder else f"{package.strip()}:{file} (package not found)"
    return out


@lru_cache(maxsize=None)
def contribution_files() -> Mapping[str, str]:
    """Ruleset id -> the file of its contribution."""
    return {**_bundled(), **_installed()}


def known_rulesets() -> tuple[str, ...]:
    return tuple(sorted(contribution_files()))


@lru_cache(maxsize=None)
def contribution(ruleset: str) -> Contribution | None:
    """The contribution of ``ruleset``, or None when no installed ruleset contributes one."""
    path = contribution_files().get(ruleset)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
    except OSError as exc:
        raise ContributionError(f"ruleset {ruleset!r}: cannot read its definitions schema {path}: "
                                f"{exc.strerror or exc}") from None
    except ValueError as exc:
        raise ContributionError(f"ruleset {ruleset!r}: its definitions schema {path} is not JSON: {exc}") from None
    if not isinstance(schema, dict) or not isinstance(schema.get("$defs", {}), dict):
        raise ContributionError(f"ruleset {ruleset!r}: its definitions schema {path} must be a JSON object "
                                "whose $defs name the extension points")
    return Contribution(ruleset, schema, path)
