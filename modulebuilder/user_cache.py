"""The user's cache folder: small entries kept on disk between runs, so that a short command does not redo work
at every start (a compiled code object, a JSON value computed from installed files).

Where: ``$HEXWARGAME_CACHE_DIR``, else ``$XDG_CACHE_HOME/hexwargame``, else ``~/.cache/hexwargame``, one folder
per kind of entry.  Off: ``HEXWARGAME_CACHE=off`` (or ``0``, ``no``, ``false``).  Every entry is written to a
temporary file in its folder and renamed over the old one (``os.replace`` is atomic), starts with a hash of its
content, and is read only from a folder that belongs to the user and that no one else may write to; anything
that does not match is a miss.  A cache that is off, unreadable or unwritable just computes.

The lowest layer of the project's caches: it imports nothing of the project, so that ``modulebuilder.records``
(which every record class goes through) may keep its generated code here; the parsed scenarios' cache
(``modulebuilder.definitions.cache``) is built on it.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import time
from typing import Any, Callable

try:
    # The type hashlib.blake2b is; importing hashlib also loads OpenSSL's _hashlib, a visible share of a short
    # check, for constructors no entry uses.  A Python without _blake2 gets it from hashlib.
    from _blake2 import blake2b
except ImportError:                 # pragma: no cover - CPython always builds _blake2
    from hashlib import blake2b

MAX_ENTRIES = 64
CODE_ENTRIES = 512              # remembered_code's: one per event type of each ruleset's schema (~40 each)
STALE_TEMP_S = 3600            # a temporary file this old is left over from a writer that died
OFF = ("0", "off", "no", "false")


def cache_dir(kind: str = "scenarios") -> str | None:
    """The folder of entries (of parsed scenarios, or of another ``kind``), or None when the cache is off."""
    if os.environ.get("HEXWARGAME_CACHE", "").strip().lower() in OFF:
        return None
    base = os.environ.get("HEXWARGAME_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "hexwargame")
    return os.path.join(base, kind)


def remembered_json(kind: str, name: bytes, key: bytes, compute: Callable[[], Any]) -> Any:
    """``compute()`` (a JSON value), or the one it gave last time for ``name`` when ``key`` was the same.

    Entries live in their own folder beside the scenarios' (``cache_dir(kind)``), one per ``name``, the
    ``MAX_ENTRIES`` most recently used kept; each is written as the scenarios' are (temporary file,
    ``os.replace``, a hash of its content, read only from a private folder).  A cache that is off,
    unreadable or unwritable just computes."""
    where = cache_dir(kind)
    prefix = _digest(key).encode() + b" "
    entry = None if where is None else os.path.join(where, f"{_digest(name)}.json")
    body = _entry_body(where, entry, prefix)
    if body is not None:
        try:
            return json.loads(body)
        except ValueError:
            pass
    value = compute()
    if entry is not None:
        _keep_entry(where, entry, prefix, json.dumps(value, sort_keys=True).encode(), ".json")
    return value


def remembered_code(kind: str, source: str, filename: str) -> Any:
    """``compile(source, filename, "exec")``, or the code object it gave last time for the same text.

    For generated source compiled at every start (``records``), where reading an
    entry back costs a small fraction of compiling it (docs/speed.md, "Figures behind the code").  One entry per text (its hash and
    the Python version and marshal's format name it), written and read as ``remembered_json``'s are: a temporary
    file, ``os.replace``, a hash of the content, read only from a private folder.  An entry that does not
    match or unmarshal is a miss; a cache that is off, unreadable or unwritable just compiles."""
    import marshal
    where = cache_dir(kind)
    name = _digest(f"{sys.version}\0{marshal.version}\0{filename}\0".encode() + source.encode("utf-8", "surrogatepass"))
    entry = None if where is None else os.path.join(where, f"{name}.code")
    body = _entry_body(where, entry, b"")
    if body is not None:
        try:
            return marshal.loads(body)
        except (ValueError, EOFError, TypeError):
            pass
    code = compile(source, filename, "exec")
    if entry is not None:
        _keep_entry(where, entry, b"", marshal.dumps(code), ".code", CODE_ENTRIES)
    return code


def _entry_body(where: str | None, entry: str | None, prefix: bytes) -> bytes | None:
    """The body of ``entry`` when its first line is ``prefix`` and the body's hash, read only from a private
    folder; it is touched, so that the pruning keeps it longest.  None for a missing, foreign or torn entry."""
    if entry is None or where is None or not _private(where):
        return None
    try:
        blob = _read_bytes(entry)
    except OSError:
        return None
    head, _, body = blob.partition(b"\n")
    if head != prefix + _digest(body).encode():
        return None
    try:
        os.utime(entry)                  # most recently used: kept longest
    except OSError:
        pass
    return body


def _keep_entry(where: str, entry: str, prefix: bytes, body: bytes, suffix: str, keep: int | None = None) -> None:
    """Write ``entry`` as ``_entry_body`` reads it (atomic, best effort), then prune the folder's ``suffix``
    entries to ``keep``."""
    if _write(where, entry, prefix + _digest(body).encode() + b"\n" + body):
        _prune(where, suffix, keep)


def _write(where: str, entry: str, blob: bytes) -> bool:
    """Best effort, atomic: ``blob`` in ``entry`` (in the private folder ``where``), or nothing."""
    import tempfile
    tmp = None
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)      # the mode is the leaf's, as Path.mkdir's
        if not _private(where):
            return False
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".tmp-", suffix=os.path.splitext(entry)[1])
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, entry)
        tmp = None
        return True
    except OSError:
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _digest(data: bytes) -> str:
    return blake2b(data, digest_size=20).hexdigest()


def _private(where: str) -> bool:
    """The folder is ours and no one else may write to it (entries are pickles)."""
    try:
        st = os.stat(where)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _prune(where: str, suffix: str = ".pickle", keep: int | None = None) -> None:
    """Keep the ``keep`` (else ``MAX_ENTRIES``) most recently used entries; remove temporary files whose writer
    died."""
    keep = MAX_ENTRIES if keep is None else keep
    entries, now = [], time.time()
    try:
        with os.scandir(where) as it:
            for e in it:
                try:
                    mtime = e.stat().st_mtime
                except OSError:
                    continue
                if e.name.startswith(".tmp-"):
                    if now - mtime > STALE_TEMP_S:
                        _remove(e.path)
                elif e.name.endswith(suffix):
                    entries.append((mtime, e.path))
    except OSError:              # best effort, as the writes: a folder that cannot be listed is left as it is
        return
    for _, path in sorted(entries, reverse=True)[keep:]:
        _remove(path)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
