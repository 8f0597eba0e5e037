"""A content-addressed cache of rendered images (PNG bytes), so an unchanged rebuild renders nothing.

The key of an image is a hash of everything that determines it: the model objects it is drawn from (in a
canonical form: frozensets sorted, mappings by key), the size, and the source of the renderer and the
fonts -- so editing a counter, or the renderer itself, invalidates exactly what it should.
"""
from __future__ import annotations

import ast
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


DRAWING_MODULES = ("modulebuilder.render.faces", "modulebuilder.render.map", "modulebuilder.vassal.mapnames")


def _imports(path: Path, package: str) -> set[str]:
    """Modules of this project that the source at ``path`` imports (absolute or relative)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("modulebuilder")}


def drawing_sources() -> list[Path]:
    """The source files the renderers depend on: DRAWING_MODULES and everything they import from us.

    Only these (plus the fonts) key the cache, so editing unrelated code (print sheets, the CLI) does not
    throw away every cached image.
    """
    root = Path(modulebuilder.__file__).parent.parent
    seen: set[Path] = set()
    todo = list(DRAWING_MODULES)
    while todo:
        name = todo.pop()
        base = root.joinpath(*name.split("."))
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if not path.is_file() or path in seen:
            continue
        seen.add(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        todo.extend(_imports(path, package))
    return sorted(seen)


@lru_cache(maxsize=None)
def renderer_fingerprint() -> str:
    """Hash of the code, fonts and counter templates that draw images."""
    fonts = Path(modulebuilder.__file__).parent / "fonts"
    templates = Path(modulebuilder.__file__).parent / "templates"     # the counter looks are data now
    h = hashlib.sha256()
    for f in [*drawing_sources(), *sorted(fonts.glob("*")), *sorted(templates.glob("*"))]:
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
