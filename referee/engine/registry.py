"""Finding rulesets: the ``referee.rulesets`` entry-point group (importlib.metadata).

``importlib.metadata`` is the authority, but importing it (email, zipfile, csv...) is a tenth of a short
``referee check``, which needs one entry point.  So the group's entry points are remembered in the user's
cache (``modulebuilder.user_cache.remembered_json``) under a fingerprint of everything they are read
from: the import path, and for each folder on it, the distributions it holds (installing or removing one
adds or removes its ``.dist-info``/``.egg-info`` there) and when each one's ``entry_points.txt`` last changed
(an entry point edited in place).  Taking the fingerprint is a directory listing and a ``stat`` per
installed distribution; any other difference, or a cache that is off, asks importlib.metadata."""
from __future__ import annotations

import os
import re
import sys
from functools import lru_cache, reduce
from importlib import import_module
from typing import Any

from modulebuilder.user_cache import blake2b, remembered_json   # blake2b: hashlib's, without loading OpenSSL

GROUP = "referee.rulesets"
METADATA = (".dist-info", ".egg-info")


class UnknownRuleset(LookupError):
    pass


def _fingerprint() -> bytes:
    """What the group's entry points are read from, as importlib.metadata finds distributions."""
    h = blake2b(_import_path(), digest_size=20)
    for folder in sys.path:
        try:
            # The distributions a folder holds, not its mtime: the project's own folder is on the path (its
            # editable install) and changes whenever a file is made there (a database, a build), which made
            # every such change a miss (a check then imported importlib.metadata).
            with os.scandir(folder or ".") as it:
                dists = sorted(e.path for e in it if e.name.endswith(METADATA))
        except OSError:                     # gone, a zip file or a path hook's name: its mtime (or none) says
            continue
        for dist in dists:
            try:
                st = os.stat(os.path.join(dist, "entry_points.txt"))
                h.update(f"\0{dist}\0{st.st_mtime_ns}\0{st.st_size}".encode())
            except OSError:
                h.update(f"\0{dist}".encode())
    return h.digest()


def _import_path() -> bytes:
    """Which entry: one per import path (a venv, a script's folder or the current one for ``-m``)."""
    return "\0".join([GROUP, *sys.path]).encode()


def _read_entry_points() -> dict[str, str]:
    from importlib.metadata import entry_points
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


@lru_cache(maxsize=None)
def _entry_points() -> dict[str, str]:
    """Ruleset id -> ``module:attribute``, from importlib.metadata or the cache of its last answer."""
    found = remembered_json("entry-points", _import_path(), _fingerprint(), _read_entry_points)
    return {str(k): str(v) for k, v in found.items()}


# importlib.metadata.EntryPoint.pattern: ``module[:attr.attr][ [extras]]``
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


def _load(value: str) -> Any:
    """What an entry point's value names (as ``importlib.metadata.EntryPoint.load``)."""
    match = _VALUE.match(value)
    if match is None:
        raise UnknownRuleset(f"entry point value {value!r} names no module")
    attrs = filter(None, (match.group("attr") or "").split("."))
    return reduce(getattr, attrs, import_module(match.group("module")))


def available() -> list[str]:
    """Ids of every installed ruleset."""
    return sorted(_entry_points())


@lru_cache(maxsize=None)
def get(ruleset_id: str) -> Any:
    """The ruleset object registered under ``ruleset_id``."""
    value = _entry_points().get(ruleset_id)
    if value is None:
        known = ", ".join(available()) or "none installed"
        raise UnknownRuleset(f"no ruleset '{ruleset_id}' (known: {known})")
    ruleset = _load(value)
    if getattr(ruleset, "id", None) != ruleset_id:
        raise UnknownRuleset(f"entry point '{ruleset_id}' loads a ruleset whose id is "
                             f"'{getattr(ruleset, 'id', None)}'")
    return ruleset
