"""A content-addressed cache of rendered images (PNG bytes), so an unchanged rebuild renders nothing.

The key of an image is a hash of everything that determines it: the model objects it is drawn from (in a
canonical form: frozensets sorted, mappings by key), the size, and the source of the renderer and the
fonts -- so editing a counter, or the renderer itself, invalidates exactly what it should.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

import modulebuilder


def canonical(value: Any) -> Any:
    """A JSON-able form of model values that is the same in every process (no set or hash order)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__name__,
                **{f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value


@lru_cache(maxsize=None)
def renderer_fingerprint() -> str:
    """Hash of the code and fonts that draw images (render package, hex geometry, bundled fonts)."""
    root = Path(modulebuilder.__file__).parent
    files = sorted([*root.joinpath("render").glob("*.py"), root / "hexgrid.py", *root.joinpath("fonts").glob("*")])
    h = hashlib.sha256()
    for f in files:
        if f.is_file():
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def key_of(*parts: Any) -> str:
    blob = json.dumps([renderer_fingerprint(), canonical(list(parts))], sort_keys=True, default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()


class ImageCache:
    """PNG bytes by key under ``folder`` (written atomically, so a killed build leaves no half file)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.png"

    def get(self, key: str) -> bytes | None:
        try:
            data = self._path(key).read_bytes()
        except OSError:
            return None
        self.hits += 1
        return data

    def put(self, key: str, data: bytes) -> None:
        self.misses += 1
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)

    def get_or_make(self, key: str, make: Callable[[], bytes]) -> bytes:
        data = self.get(key)
        if data is None:
            data = make()
            self.put(key, data)
        return data
