"""Counter faces prepared for the sheets: bleed added and pixels compressed once per face, on all cores,
then shared by every copy on every page of every layout."""
from __future__ import annotations

from typing import Iterable, Mapping

from PIL import Image

from modulebuilder.render.bleed import with_bleed
from modulebuilder.render.counters import render_blank_back
from modulebuilder.render.parallel import ordered_map
from modulebuilder.render.pdf import EncodedImage, encode_image
from modulebuilder.render.print_items import BLANK
from modulebuilder.render.sheet_layout import Rect
from modulebuilder.render.stable import stable_hash


def _face_with_bleed(faces: Mapping[str, Image.Image], key: str, size_px: int, bleed_px: int) -> Image.Image:
    face = render_blank_back(key.removeprefix(BLANK), size_px) if key.startswith(BLANK) else faces[key]
    return with_bleed(face, bleed_px)


def _encode_worker(args: tuple[str, bytes, tuple[int, int], int, int]) -> EncodedImage:
    key, raw, dims, size_px, bleed_px = args
    faces = {} if key.startswith(BLANK) else {key: Image.frombytes("RGB", dims, raw)}
    return encode_image(_face_with_bleed(faces, key, size_px, bleed_px))


class FaceSource:
    """Face images with bleed, made and compressed once per key and shared by every copy on every page
    of every layout."""

    def __init__(self, faces: Mapping[str, Image.Image], size_px: int, bleed_px: int):
        self.faces, self.size_px, self.bleed_px = faces, size_px, bleed_px
        self._encoded: dict[str, EncodedImage] = {}

    def image(self, key: str) -> Image.Image:
        """The face with its bleed, as pixels (for PNG pages)."""
        return _face_with_bleed(self.faces, key, self.size_px, self.bleed_px)

    def prepare(self, keys: Iterable[str], workers: int | None = None) -> None:
        """Compress the faces ``keys`` on all cores (the slowest step of a print build otherwise)."""
        todo = sorted(set(keys) - set(self._encoded))
        jobs = [(k, b"" if k.startswith(BLANK) else self.faces[k].tobytes(),
                 (self.size_px, self.size_px) if k.startswith(BLANK) else self.faces[k].size,
                 self.size_px, self.bleed_px) for k in todo]
        for key, enc in zip(todo, ordered_map(_encode_worker, jobs, workers)):
            self._encoded[key] = enc

    def encoded(self, key: str) -> EncodedImage:
        if key not in self._encoded:
            self.prepare([key], workers=1)
        return self._encoded[key]

    def resource_name(self, key: str) -> str:
        """PDF names allow few characters: a stable, readable name derived from the key."""
        return "F" + "".join(c if c.isalnum() else "_" for c in key) + f"_{stable_hash(key) % 10**6}"

    def drawn_box(self, cut: Rect) -> Rect:
        """Box for the image with bleed, scaled so the face's own pixels map exactly onto ``cut``.
        The scale comes from the height, which is one counter side for every face (two-hex faces are
        two sides wide and their cut box two slots wide)."""
        scale = cut.h / self.size_px
        b = self.bleed_px * scale
        return Rect(cut.x - b, cut.y - b, cut.w + 2 * b, cut.h + 2 * b)
