"""Zip archives both ways: byte-identical output for identical input, and bounded reading of hostile input.

Writing: entries keep the caller's order and every entry gets the same fixed timestamp and permissions,
so a rebuilt module or set-up is byte-for-byte the same file (no wall-clock anywhere).
Reading: a file from the internet may be truncated, corrupt, or a zip bomb.  A file on disk is read as a
stream -- only its end-of-central-directory record, its central directory and the entries asked for, never
the whole file -- so a genuine 500 MB module loads and a 1 GiB upload costs neither memory nor time.  Before
``zipfile`` parses anything, the end record's entry count and central-directory size are checked (hand-read
with ``struct`` because ``zipfile`` would load a directory of any size into memory first); every entry is
then refused on its declared size and again while it is decompressed (never trusting the headers), and every
failure becomes a VassalFileError sentence.
"""
from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from typing import BinaryIO, Iterable, Union

from modulebuilder.input_files import ARCHIVE_LIMIT_VARIABLE, archive_limit, limit_from_env, open_regular, size_words

from .errors import VassalFileError

FIXED_DATE = (1980, 1, 1, 0, 0, 0)      # the earliest date a zip can hold; no wall clock in outputs
# Decompressed size of any one entry we read (HEXWARGAME_MAX_ZIP_ENTRY_BYTES): a whole Borodino game's savedGame
# is 0.6 MB, its module's buildFile.xml 0.25 MB.  The entries one call reads may together take twice that; a
# reader's peak memory is a few times what it holds, so these keep a zip bomb's cost under 200 MB.
MAX_ENTRY_BYTES = 16 * 1024 * 1024
ENTRY_LIMIT_VARIABLE = "HEXWARGAME_MAX_ZIP_ENTRY_BYTES"
MAX_ENTRIES = 10_000                    # a save or log has three; a module's limit is the caller's
MAX_DIRECTORY_BYTES = 16 * 1024 * 1024  # the central directory, which zipfile parses in memory
MAX_FILE_BYTES = 256 * 1024 * 1024      # an archive given as bytes (already in memory: an upload)
CHUNK = 1024 * 1024                     # decompressed bytes read at a time
EOCD = b"PK\x05\x06"                    # end of central directory record (APPNOTE 4.3.16)
EOCD64_LOCATOR = b"PK\x06\x07"
EOCD64 = b"PK\x06\x06"
Source = Union[bytes, str, "os.PathLike[str]"]
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


def entry_limit() -> int:
    """The decompressed size any one entry may have (``HEXWARGAME_MAX_ZIP_ENTRY_BYTES``, default 16 MiB)."""
    return limit_from_env(ENTRY_LIMIT_VARIABLE, MAX_ENTRY_BYTES)


def read_entries(data: Source, wanted: Iterable[str], *, what: str, max_bytes: int | None = None,
                 max_entries: int = MAX_ENTRIES) -> dict[str, bytes]:
    """The ``wanted`` entries of a zip (its bytes, or a path read as a stream) that exist, each capped at
    ``max_bytes`` decompressed (default :func:`entry_limit`) and all together at twice the entry limit; an
    archive with more than ``max_entries`` entries is refused unread."""
    if max_bytes is None:
        max_bytes = entry_limit()
    if isinstance(data, bytes):
        if len(data) > MAX_FILE_BYTES:
            raise VassalFileError(f"{what} is {len(data) // (1024 * 1024)} MiB, more than the "
                                  f"{MAX_FILE_BYTES // (1024 * 1024)} MiB a VASSAL file can reasonably be.")
        return _read_from(io.BytesIO(data), wanted, what, max_bytes, max_entries)
    try:
        # A regular file within the archive cap (a FIFO or a device is refused before a byte is read).
        with open_regular(data, archive_limit(), ARCHIVE_LIMIT_VARIABLE) as f:
            return _read_from(f, wanted, what, max_bytes, max_entries)
    except OSError as e:
        why = e.strerror or "unreadable"
        raise VassalFileError(f"{what}: cannot read ({why[:1].lower()}{why[1:]}).") from None


def _read_from(f: BinaryIO, wanted: Iterable[str], what: str, max_bytes: int,
               max_entries: int) -> dict[str, bytes]:
    entries, directory = _directory_size(f)
    if entries is not None and entries > max_entries:
        raise VassalFileError(f"{what} has {entries} zip entries, more than the {max_entries} allowed.")
    if directory is not None and directory > MAX_DIRECTORY_BYTES:
        raise VassalFileError(f"{what}'s zip directory is {directory // (1024 * 1024)} MiB, more than the "
                              f"{MAX_DIRECTORY_BYTES // (1024 * 1024)} MiB allowed (a zip bomb or not a VASSAL file).")
    f.seek(0)
    try:
        z = zipfile.ZipFile(f)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise VassalFileError(f"{what} is not a readable zip archive{_why(e)}.") from None
    with z:
        infos = z.infolist()
        if len(infos) > max_entries:
            raise VassalFileError(f"{what} has {len(infos)} zip entries, more than the {max_entries} allowed.")
        by_name = {i.filename: i for i in infos}
        out: dict[str, bytes] = {}
        total, total_cap = 0, 2 * max(max_bytes, entry_limit())
        for n in wanted:
            if n in by_name:
                out[n] = _read_capped(z, by_name[n], what, max_bytes)
                total += len(out[n])
                if total > total_cap:
                    raise VassalFileError(f"{what}: its zip entries decompress to more than {size_words(total_cap)} "
                                          f"together; refusing them (a zip bomb or not a VASSAL file; "
                                          f"{ENTRY_LIMIT_VARIABLE} raises the cap).")
        return out


def _why(e: Exception) -> str:
    """What went wrong in the archive's own terms, never Python's text."""
    if isinstance(e, zlib.error):
        return " (its compressed data is damaged)"
    if isinstance(e, NotImplementedError):
        return " (a compression method VASSAL does not write)"
    if isinstance(e, RuntimeError):
        return " (it is encrypted)"
    if isinstance(e, (EOFError, OSError)):
        return " (the file ends too early)"
    if isinstance(e, zipfile.BadZipFile):
        return " (its checksum does not match)" if "CRC" in str(e) else " (its zip structure is damaged)"
    return ""


def _directory_size(f: BinaryIO) -> tuple[int | None, int | None]:
    """(entries, central directory bytes) from the end record (zip64's when present); (None, None) when the
    end record is not found (zipfile then says the file is not a zip)."""
    try:
        size = f.seek(0, os.SEEK_END)
        tail_len = min(size, 22 + 0xFFFF)              # the end record plus the longest comment
        f.seek(size - tail_len)
        tail = f.read(tail_len)
    except OSError:
        return None, None
    at = tail.rfind(EOCD)
    if at < 0 or len(tail) - at < 22:
        return None, None
    entries, directory = struct.unpack("<HI", tail[at + 10:at + 16])
    locator = tail[at - 20:at] if at >= 20 else b""
    if locator.startswith(EOCD64_LOCATOR):
        (offset,) = struct.unpack("<Q", locator[8:16])
        try:
            f.seek(offset)
            record = f.read(56)
        except (OSError, ValueError, OverflowError):
            return None, None
        if record.startswith(EOCD64) and len(record) == 56:
            entries, directory = struct.unpack("<QQ", record[32:48])
    return entries, directory


def _read_capped(z: zipfile.ZipFile, info: zipfile.ZipInfo, what: str, cap: int) -> bytes:
    name = info.filename
    too_big = VassalFileError(f"{what}: zip entry {name!r} decompresses to more than {size_words(cap)}; refusing "
                              f"it (a zip bomb or not a VASSAL file; {ENTRY_LIMIT_VARIABLE} raises the cap).")
    if info.file_size > cap:
        raise too_big                       # declared: refused without inflating a byte
    out = bytearray()
    try:
        with z.open(info) as f:
            while chunk := f.read(min(CHUNK, cap + 1 - len(out))):
                out += chunk
                if len(out) > cap:
                    raise too_big           # the header lied: stopped one chunk past the cap
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError,
            ValueError) as e:
        raise VassalFileError(f"{what}: zip entry {name!r} is corrupt or unsupported{_why(e)}.") from None
    return bytes(out)
