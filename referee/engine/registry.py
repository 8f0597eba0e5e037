"""Finding rulesets: the ``referee.rulesets`` entry-point group (importlib.metadata)."""
from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

GROUP = "referee.rulesets"


class UnknownRuleset(LookupError):
    pass


@lru_cache(maxsize=None)
def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def available() -> list[str]:
    """Ids of every installed ruleset."""
    return sorted(_entry_points())


@lru_cache(maxsize=None)
def get(ruleset_id: str) -> Any:
    """The ruleset object registered under ``ruleset_id``."""
    ep = _entry_points().get(ruleset_id)
    if ep is None:
        known = ", ".join(available()) or "none installed"
        raise UnknownRuleset(f"no ruleset '{ruleset_id}' (known: {known})")
    ruleset = ep.load()
    if getattr(ruleset, "id", None) != ruleset_id:
        raise UnknownRuleset(f"entry point '{ruleset_id}' loads a ruleset whose id is "
                             f"'{getattr(ruleset, 'id', None)}'")
    return ruleset
