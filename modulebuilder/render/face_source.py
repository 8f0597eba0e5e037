"""Counter faces prepared for the sheets: each face key's drawing becomes one PDF Form XObject (vector,
with its bleed) shared by every copy on every page of a document, and, for PNG pages, one raster with
bleed made once per key."""
from __future__ import annotations

from typing import Iterable, Mapping

from PIL import Image

from modulebuilder.render.bleed import with_bleed
from modulebuilder.render.counters import blank_drawing
from modulebuilder.render.drawing import Drawing
from modulebuilder.render.parallel import ordered_map
from modulebuilder.render.pdf import PdfDocument
from modulebuilder.render.print_items import BLANK
from modulebuilder.render.raster import to_image
from modulebuilder.render.sheet_layout import Rect
from modulebuilder.render.stable import stable_hash
from modulebuilder.render.vector import add_face_form


def _raster_worker(args: tuple[Drawing, int]) -> tuple[tuple[int, int], bytes]:
    drawing, bleed_px = args
    img = with_bleed(to_image(drawing), bleed_px)
    return img.size, img.tobytes()


class FaceSource:
    """The drawings of a counter set with their bleed, for PDF (vector forms) and PNG pages (rasters)."""

    def __init__(self, drawings: Mapping[str, Drawing], size_px: int, bleed_px: int):
        self.drawings, self.size_px, self.bleed_px = drawings, size_px, bleed_px
        self._images: dict[str, Image.Image] = {}

    def drawing(self, key: str) -> Drawing:
        if key.startswith(BLANK):
            return blank_drawing(key.removeprefix(BLANK), self.size_px)
        return self.drawings[key]

    def prepare(self, keys: Iterable[str], workers: int | None = None) -> None:
        """Rasterise the faces ``keys`` with their bleed on all cores (for PNG pages)."""
        todo = sorted(set(keys) - set(self._images))
        for key, (size, raw) in zip(todo, ordered_map(_raster_worker, [(self.drawing(k), self.bleed_px) for k in todo],
                                                       workers)):
            self._images[key] = Image.frombytes("RGB", size, raw)

    def image(self, key: str) -> Image.Image:
        """The face with its bleed, as pixels (for PNG pages)."""
        if key not in self._images:
            self.prepare([key], workers=1)
        return self._images[key]

    def form(self, doc: PdfDocument, key: str) -> str:
        """The face as a Form XObject of ``doc`` (registered once), in face pixels with its bleed."""
        return add_face_form(doc, self.resource_name(key), self.drawing(key), self.bleed_px)

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
