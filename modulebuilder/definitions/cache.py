"""Parsed scenarios kept on disk, keyed by content, so that a ``referee check`` loads its scenario in
milliseconds instead of parsing and validating five YAML files and importing the loader (most of a short
check's time; docs/speed.md, "Figures behind the code").

An entry is found by a key made of everything a load depends on that is known before loading:

* the code fingerprint: the size and modification time of each file of the loader, the model and the bundled
  schemas (``CODE``) -- the test Python itself applies before trusting a ``.pyc`` (hashing their 0.8 MB would
  cost more than the rest of a hit) --, the Python version, and when each site-packages folder last changed
  (installing or removing a ruleset changes it);
* the scenario: its file's name as messages show it (``Scenario.source`` carries it) and its bytes, or, for a
  resolved scenario given inline, its JSON text.

The entry lists what is known only after loading: the files the scenario names (map, counters, tables, game)
and the ruleset's schema contribution, each with the hash of its bytes.  A hit re-reads and re-hashes each of
them, so an edited map or counters file is a miss.  Only a scenario that loaded without a problem is kept;
a broken one is read afresh every time, so its messages are always the loader's own.

Safe with several processes at once: an entry is written to a temporary file in the same folder and renamed
over the old one (``os.replace`` is atomic), so a reader sees a whole entry or none.  Safe against a corrupt
entry (a crash on a filesystem without ordered writes, a truncated copy, another format): each entry starts
with a format line and a hash of the rest; anything that does not match, or does not unpickle, is a miss and
is overwritten.  Entries are pickles, so they are read only from a folder that belongs to the user and that no
one else may write to; the folder keeps the ``MAX_ENTRIES`` most recently used entries.

Where: ``$HEXWARGAME_CACHE_DIR``, else ``$XDG_CACHE_HOME/hexwargame``, else ``~/.cache/hexwargame``, in a
folder ``scenarios``.  Off: ``HEXWARGAME_CACHE=off`` (or ``0``, ``no``, ``false``), or ``referee check
--no-cache``.  When the folder cannot be made or written, scenarios simply load uncached.

Hand-written rather than a library's: joblib's and diskcache's caches key by the arguments (a path here, not
the content of the files behind it) and bring more than they would save in start-up.
"""
from __future__ import annotations

import copyreg
import io
import json
import os
import pickle
import site
import sys
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping

from modulebuilder.input_files import read_bytes

from .files import display_name

from modulebuilder.user_cache import (_digest, _private, _prune, _read_bytes, _write, blake2b, cache_dir,
                                     remembered_code, remembered_json)
from .problems import raise_if_any

FORMAT = b"hexwargame parsed scenario 1\n"
MAX_ENTRIES = 64
PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))          # modulebuilder/
CODE = ("model.py", "records.py", "hexgrid.py", "definitions/*.py", "schemas/*.json", "schemas/*/*.json")


def load_scenario(path: str | os.PathLike[str]) -> Any:
    """``definitions.load_scenario(path)``, from the cache when nothing it read has changed."""
    where = cache_dir()
    try:
        data = read_bytes(path)      # a regular file within the size cap (input_files)
    except OSError:
        where = None                 # the loader words the problem
    if where is None:
        from .scenario import load_scenario as load
        return load(path)
    key = _key(b"file", display_name(path).encode(), data)
    hit = _get(where, key)
    if hit is not None:
        return hit
    from .scenario import check_scenario
    checked = check_scenario(path)
    raise_if_any(checked.problems)
    scenario = checked.scenario
    assert scenario is not None
    deps = [f for f in checked.files if f != checked.files[0]]
    _put(where, key, _hashes(deps, scenario.ruleset), scenario)
    return scenario


def load_resolved(doc: Mapping[str, Any], source: str = "<inline>") -> Any:
    """``definitions.load_resolved(doc, source)`` for a resolved scenario given as a mapping, from the cache
    when the same document was loaded before."""
    from .resolved_read import load_resolved as load
    where = cache_dir()
    try:
        text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        where = None                 # not JSON-like: the loader says why
    if where is None:
        return load(doc, source)
    key = _key(b"resolved", source.encode(), text.encode())
    hit = _get(where, key)
    if hit is not None:
        return hit
    scenario = load(doc, source)
    _put(where, key, _hashes([], scenario.ruleset), scenario)
    return scenario


@lru_cache(maxsize=1)
def code_fingerprint() -> bytes:
    h = blake2b(FORMAT, digest_size=20)
    h.update(sys.version.encode())
    _hash_files(h, _code_files())
    for folder in [*site.getsitepackages(), site.getusersitepackages()]:
        try:
            h.update(f"\0{folder}\0{os.stat(folder).st_mtime_ns}".encode())
        except OSError:
            pass
    return h.digest()


def _hash_files(h: Any, files: Iterable[tuple[str, os.stat_result]]) -> None:
    """Feed each file's name, size and modification time to ``h`` (the test Python applies to its own ``.pyc``:
    hashing the bytes of the code would cost more than the rest of a cache hit)."""
    for rel, st in files:
        h.update(f"\0{rel}\0{st.st_size}\0{st.st_mtime_ns}".encode())


def _code_files() -> list[tuple[str, os.stat_result]]:
    """(path under PACKAGE, stat) of each file ``CODE`` names, in a stable order.  os.scandir rather than
    Path.glob: the same files for much less (docs/speed.md, "Figures behind the code")."""
    out = []
    for pattern in CODE:
        *folders, name = pattern.split("/")
        dirs = [""]
        for folder in folders:           # "*" is any sub-folder, else the folder itself
            dirs = [f"{d}{e.name}/" for d in dirs for e in _scan(os.path.join(PACKAGE, d)) if e.is_dir()] \
                if folder == "*" else [f"{d}{folder}/" for d in dirs]
        star, suffix = name.startswith("*"), name.lstrip("*")
        for d in dirs:
            for e in _scan(os.path.join(PACKAGE, d)):
                if (e.name.endswith(suffix) if star else e.name == name) and e.is_file():
                    out.append((f"{d}{e.name}", e.stat()))
    return sorted(out, key=lambda item: item[0])


def _scan(folder: str | os.PathLike[str]) -> list[os.DirEntry]:
    try:
        with os.scandir(folder) as it:
            return list(it)
    except OSError:
        return []


def _key(kind: bytes, name: bytes, data: bytes) -> str:
    h = blake2b(code_fingerprint(), digest_size=20)
    for part in (kind, name, data):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def _hashes(files: list[str], ruleset: str) -> list[list[str]] | None:
    """[file, hash of its bytes] for each file a loaded scenario depends on; None if one cannot be read."""
    from .rulesets import contribution_files
    contribution = contribution_files().get(ruleset)
    out = []
    for f in files + ([contribution] if contribution else []):
        try:
            out.append([f, _digest(read_bytes(f))])
        except OSError:
            return None
    return out


def _unchanged(deps: list[list[str]]) -> bool:
    for f, digest in deps:
        try:
            if _digest(read_bytes(f)) != digest:
                return False
        except OSError:
            return False
    return True


def _get(where: str, key: str) -> Any:
    if not _private(where):
        return None
    entry = os.path.join(where, f"{key}.pickle")
    try:
        blob = _read_bytes(entry)
    except OSError:
        return None
    head = len(FORMAT) + 20
    if not blob.startswith(FORMAT) or blake2b(blob[head:], digest_size=20).digest() != blob[len(FORMAT):head]:
        return None
    deps_line, sep, payload = blob[head:].partition(b"\n")
    try:
        deps = json.loads(deps_line)
        if not sep or not _unchanged(deps):
            return None
        scenario = pickle.loads(payload)
    except Exception:  # noqa: BLE001 — any entry that does not read back is a miss, never an error
        return None
    try:
        os.utime(entry)              # most recently used: kept longest
    except OSError:
        pass
    _remember(scenario, where, key, deps)
    return scenario


def _mappingproxy(items: dict[str, Any]) -> MappingProxyType:
    return MappingProxyType(items)


def _pickle(scenario: Any) -> bytes:
    # The model freezes its mappings in MappingProxyType, which pickle refuses; this pickler (only this one)
    # writes them as the dicts they view.
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: lambda m: (_mappingproxy, (dict(m),))}
    pickler.dump(scenario)
    return out.getvalue()


def _put(where: str, key: str, deps: list[list[str]] | None, scenario: Any) -> None:
    """Best effort: a cache that cannot be written leaves the scenario loaded, uncached."""
    if deps is None:
        return
    try:
        body = json.dumps(deps).encode() + b"\n" + _pickle(scenario)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    if _write(where, os.path.join(where, f"{key}.pickle"), FORMAT + blake2b(body, digest_size=20).digest() + body):
        _remember(scenario, where, key, deps)
        _prune(where, ".pickle", MAX_ENTRIES)


# Scenarios this process read from or wrote to the cache, by identity (each kept alive with its entry's place):
# what ``derived`` needs to write an entry again.  A process holds a few scenarios, so this stays small.
_ENTRIES: dict[int, tuple[Any, str, str, list[list[str]]]] = {}
ENTRIES_KEPT = 32
DERIVED = "__cache_derived__"       # the scenario's instance attribute that holds what ``derived`` kept


def _remember(scenario: Any, where: str, key: str, deps: list[list[str]]) -> None:
    if len(_ENTRIES) >= ENTRIES_KEPT and id(scenario) not in _ENTRIES:
        _ENTRIES.clear()
    _ENTRIES[id(scenario)] = (scenario, where, key, deps)


def derived(scenario: Any, name: str, stamp: bytes, build: Callable[[], Any]) -> Any:
    """``build()``, a value made from ``scenario`` alone (a ruleset's static map of it), kept in the scenario's
    cache entry: a later process that reads the entry gets it back instead of building it, when it was kept
    with the same ``stamp`` — the caller's fingerprint of the code that builds it (the entry's own key covers
    the scenario's files and the loader's code, not the caller's).

    On a miss the value is built, put in the scenario's instance ``__dict__`` (the scenario's fields, equality
    and repr do not see it; pickle does) and the entry is written again with it: atomic, hashed, private, as
    every entry.  A scenario that did not come through the cache (off, an entry that could not be written, a
    scenario built in memory) just gets ``build()``."""
    kept = scenario.__dict__.get(DERIVED)
    hit = kept.get(name) if kept else None
    if hit is not None and hit[0] == stamp:
        return hit[1]
    value = build()
    entry = _ENTRIES.get(id(scenario))
    if entry is not None and entry[0] is scenario:
        kept = dict(kept or {})
        kept[name] = (stamp, value)
        scenario.__dict__[DERIVED] = kept
        _put(entry[1], entry[2], entry[3], scenario)
    return value


def code_stamp(folder: str | os.PathLike[str]) -> bytes:
    """A fingerprint of the Python files in ``folder`` (name, size, modification time: the test Python applies
    to its own ``.pyc``), for :func:`derived`'s ``stamp``."""
    h = blake2b(sys.version.encode(), digest_size=20)
    _hash_files(h, sorted(((e.name, e.stat()) for e in _scan(folder) if e.name.endswith(".py")),
                          key=lambda item: item[0]))
    return h.digest()
