"""Opening a file a player may have been sent: only a regular file, and only up to a size cap.

Players send each other definitions, logs, saves and modules; a name on a command line may also be a device
(``/dev/zero`` never ends), a FIFO (opening it waits for a writer forever) or a sparse file of gigabytes.  Every
reader of such a file opens it here: the file is opened without waiting (``O_NONBLOCK``: a FIFO opens at
once), and before a byte is read ``fstat`` of the open file says what it is and how large, so what is checked
is what is read.  A refusal is an :class:`OSError` whose ``strerror`` is one sentence saying why and how to
raise the cap, so every reader's existing "cannot read (...)" message words it.

The caps are environment variables, read at each call (a caller's process may set them late):

* ``HEXWARGAME_MAX_TEXT_BYTES`` (default 16 MiB): a YAML or JSON file, read whole into memory.  The whole
  Borodino game (definitions and a full log) is under 1 MB; 16 MiB is also the service's body limit.
* ``HEXWARGAME_MAX_ARCHIVE_BYTES`` (default 1 GiB): a zip archive (.vmod, .vsav, .vlog), which is read as a
  stream: only its directory and the entries wanted, each capped where it is read (``vassal.zipio``).

Both take a number of bytes, optionally with a K, M or G suffix (``64M``).
"""
from __future__ import annotations

import errno
import io
import os
import stat
from typing import BinaryIO

TEXT_LIMIT_VARIABLE = "HEXWARGAME_MAX_TEXT_BYTES"
ARCHIVE_LIMIT_VARIABLE = "HEXWARGAME_MAX_ARCHIVE_BYTES"
DEFAULT_TEXT_LIMIT = 16 * 1024 * 1024
DEFAULT_ARCHIVE_LIMIT = 1024 * 1024 * 1024
_UNITS = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class NotRegularFile(OSError):
    """The name is a folder, a device, a FIFO or a socket: nothing a player's file can be."""


class FileTooLarge(OSError):
    """The file is larger than its cap."""


def limit_from_env(variable: str, default: int) -> int:
    """The cap ``variable`` sets (bytes, or with a K/M/G suffix), or ``default`` when unset or unreadable."""
    raw = os.environ.get(variable, "").strip().upper().removesuffix("B").removesuffix("I")
    unit = raw[-1:] if raw[-1:] in _UNITS else ""
    number = raw[:-1] if unit else raw
    try:
        value = int(float(number) * _UNITS[unit])
    except ValueError:
        return default
    return value if value > 0 else default


def text_limit() -> int:
    return limit_from_env(TEXT_LIMIT_VARIABLE, DEFAULT_TEXT_LIMIT)


def archive_limit() -> int:
    return limit_from_env(ARCHIVE_LIMIT_VARIABLE, DEFAULT_ARCHIVE_LIMIT)


def size_words(n: int) -> str:
    """``2.0 GiB``, ``16 MiB``, ``700 bytes``: a size as a message says it."""
    for unit, scale in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} bytes"


def open_regular(path: str | os.PathLike[str], limit: int, variable: str = TEXT_LIMIT_VARIABLE) -> BinaryIO:
    """``path`` opened for reading in binary, once it is known to be a regular file of at most ``limit``
    bytes; :class:`NotRegularFile` or :class:`FileTooLarge` otherwise (other failures: the usual OSError)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
            raise NotRegularFile(errno.EINVAL, f"{kind}, not a regular file", os.fspath(path))
        if st.st_size > limit:
            raise FileTooLarge(errno.EFBIG, f"{size_words(st.st_size)}, more than the {size_words(limit)} "
                                            f"allowed; set {variable} to raise the cap", os.fspath(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (default: the text cap); never more than
    ``limit`` + 1 bytes are read, even from a file that grows while it is read."""
    cap = text_limit() if limit is None else limit
    with open_regular(path, cap) as f:
        data = f.read(cap + 1)
    if len(data) > cap:
        raise FileTooLarge(errno.EFBIG, f"grew past the {size_words(cap)} allowed while it was read; "
                                        f"set {TEXT_LIMIT_VARIABLE} to raise the cap", os.fspath(path))
    return data


def read_text(path: str | os.PathLike[str], limit: int | None = None) -> str:
    """The UTF-8 text of a regular file within the text cap, newlines as ``open(path, encoding="utf-8")``
    reads them (``\\r\\n`` and ``\\r`` become ``\\n``).  UnicodeDecodeError when it is not UTF-8."""
    text = read_bytes(path, limit).decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_head(path: str | os.PathLike[str], size: int) -> str:
    """The first ``size`` characters of a text file (an editor header), with the same refusals."""
    with open_regular(path, text_limit()) as raw:
        with io.TextIOWrapper(raw, encoding="utf-8") as f:
            return f.read(size)
