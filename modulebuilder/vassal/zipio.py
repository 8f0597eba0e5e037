"""Zip archives both ways: byte-identical output for identical input, and bounded reading of hostile input.

Writing: entries keep the caller's order and every entry gets the same fixed timestamp and permissions,
so a rebuilt module or set-up is byte-for-byte the same file (no wall-clock anywhere).
Reading: a file from the internet may be truncated, corrupt, or a zip bomb; every limit is checked while
decompressing (never trusting the sizes the headers claim) and every failure becomes a VassalFileError.
"""
from __future__ import annotations

import io
import zipfile
import zlib
from typing import Iterable

from .errors import VassalFileError

FIXED_DATE = (1980, 1, 1, 0, 0, 0)      # the earliest date a zip can hold; no wall clock in outputs
MAX_ENTRY_BYTES = 64 * 1024 * 1024      # decompressed size of any one entry we read
MAX_ENTRIES = 10_000
MAX_FILE_BYTES = 256 * 1024 * 1024      # the archive itself (its central directory is parsed in memory)
# Already-compressed images gain nothing from deflate; storing them makes warm builds faster.
STORED_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif")


def deterministic_zip(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip of ``(name, data)`` in the given order, with fixed dates, modes and compression."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.external_attr = 0o644 << 16
            info.create_system = 3   # unix, whatever machine builds it
            stored = name.lower().endswith(STORED_SUFFIXES)
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            z.writestr(info, data, compresslevel=None if stored else 6)
    return buf.getvalue()


def read_entries(data: bytes, wanted: Iterable[str], *, what: str,
                 max_bytes: int = MAX_ENTRY_BYTES) -> dict[str, bytes]:
    """The ``wanted`` entries of zip ``data`` that exist, each capped at ``max_bytes`` decompressed."""
    if len(data) > MAX_FILE_BYTES:
        raise VassalFileError(f"{what} is {len(data) // (1024 * 1024)} MiB, more than the "
                              f"{MAX_FILE_BYTES // (1024 * 1024)} MiB a VASSAL file can reasonably be.")
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise VassalFileError(f"{what} is not a readable zip archive ({e}).") from None
    with z:
        infos = z.infolist()
        if len(infos) > MAX_ENTRIES:
            raise VassalFileError(f"{what} has {len(infos)} zip entries, more than the {MAX_ENTRIES} allowed.")
        names = {i.filename for i in infos}
        return {n: _read_capped(z, n, what, max_bytes) for n in wanted if n in names}


def _read_capped(z: zipfile.ZipFile, name: str, what: str, cap: int) -> bytes:
    try:
        with z.open(name) as f:
            out = f.read(cap + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError,
            ValueError) as e:
        raise VassalFileError(f"{what}: zip entry {name!r} is corrupt or unsupported ({e}).") from None
    if len(out) > cap:
        raise VassalFileError(f"{what}: zip entry {name!r} decompresses to more than {cap // (1024 * 1024)} MiB; "
                              "refusing it (a zip bomb or not a VASSAL file).")
    return out
