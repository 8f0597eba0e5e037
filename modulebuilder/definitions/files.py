"""Reading definition files: text from disk, parsed with positions, every failure as a :class:`Problem`."""
from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

from modulebuilder.input_files import read_text

from .problems import WHOLE_FILE, Problem

if TYPE_CHECKING:
    from .yamlpos import Located


def display_name(path: str | os.PathLike[str]) -> str:
    """How a file is named in messages: as given, normalised (``a/../b.yaml`` -> ``b.yaml``)."""
    return os.path.normpath(os.fspath(path))


def relative_to(owner: str, ref: str) -> str:
    """``ref`` as written inside the file ``owner`` (relative to it), named as messages show it."""
    return display_name(os.path.join(os.path.dirname(owner), ref))


def read_document(path: str | os.PathLike[str]) -> Located | Problem:
    """The parsed file, or the one problem that stops it being read (missing, unreadable, not YAML).

    Parsing with positions is not free (tens of milliseconds for a large counters file, seconds when it
    needs the reference reader) and a game's files are read again and again (validate, build, every
    referee check), so a file is parsed once per version on disk.  The result is shared: callers treat it
    as read-only.
    """
    name = display_name(path)
    try:
        st = os.stat(path)
    except OSError:
        return _read(name, path)
    return _read_cached(name, os.path.realpath(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=64)
def _read_cached(name: str, real: str, mtime_ns: int, size: int) -> Located | Problem:
    # mtime and size are part of the key so an edited file is parsed afresh.
    return _read(name, real)


def _read(name: str, path: str | os.PathLike[str]) -> Located | Problem:
    try:
        text = read_text(path)          # a regular file within the size cap, or an OSError saying why not
    except FileNotFoundError:
        return Problem(name, 1, 1, WHOLE_FILE, "file not found")
    except UnicodeDecodeError as exc:
        return Problem(name, 1, 1, WHOLE_FILE, f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        return Problem(name, 1, 1, WHOLE_FILE, f"cannot read the file: {exc.strerror or exc}")
    from .yamlpos import YamlSyntaxError, parse_yaml   # here: display_name's users need no YAML reader
    try:
        return parse_yaml(text, name)
    except YamlSyntaxError as exc:
        return exc.problem
