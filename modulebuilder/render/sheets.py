"""Print-ready counter sheets: faces placed on a :class:`SheetGeometry`, written as PDF (and PNG pages).

Each physical counter is one *print item*: its front face, its back face (or a plain back in the
counter's colour when it has none, so a cut counter looks finished) and how many copies to print.
Items fill slots row by row in a fixed order, so the same definitions always give the same sheets."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

from PIL import Image, ImageDraw

from modulebuilder.model import CounterSet
from modulebuilder.render.bleed import with_bleed
from modulebuilder.render.counters import LEADER_BODY, body_colour, render_blank_back
from modulebuilder.render.parallel import ordered_map
from modulebuilder.render.pdf import Canvas, EncodedImage, PdfDocument, encode_image
from modulebuilder.render.physical import POINTS_PER_INCH
from modulebuilder.render.stable import stable_hash
from modulebuilder.render.sheet_layout import CROP_WIDTH_PT, Rect, SheetGeometry


@dataclass(frozen=True)
class PrintItem:
    """One counter design as printed: face keys into the rendered faces, and copies."""
    id: str
    front: str
    back: str                # a face key, or "blank:#rrggbb" for a plain back
    copies: int = 1


def print_items(counters: CounterSet, faces: Mapping[str, Image.Image],
                copies: Mapping[str, int] | None = None) -> list[PrintItem]:
    """Items for every unit, commander and marker; markers print ``Marker.count`` times, and
    ``copies`` (id -> n) overrides the count for any counter that exists several times."""
    copies = copies or {}
    ags = {ag.id: ag for ag in counters.activation_groups}
    items: list[PrintItem] = []

    def back_of(pid: str, colour: str) -> str:
        key = f"{pid}/back"
        return key if key in faces else f"blank:{colour}"

    for u in counters.units:
        colour = "#%02x%02x%02x" % body_colour(ags[u.ag])
        items.append(PrintItem(u.id, f"{u.id}/front", back_of(u.id, colour), copies.get(u.id, 1)))
    for ldr in counters.leaders:
        items.append(PrintItem(ldr.id, f"{ldr.id}/front", back_of(ldr.id, "#%02x%02x%02x" % LEADER_BODY),
                               copies.get(ldr.id, 1)))
    for m in counters.markers:
        items.append(PrintItem(m.id, f"{m.id}/front", back_of(m.id, m.colour), copies.get(m.id, m.count)))
    return items


def slots_in_order(items: Iterable[PrintItem]) -> Iterator[PrintItem]:
    """Each item repeated ``copies`` times, in order: one entry per physical counter."""
    for item in items:
        for _ in range(max(0, item.copies)):
            yield item


def paginate(items: list[PrintItem], per_page: int) -> list[list[PrintItem]]:
    flat = list(slots_in_order(items))
    if per_page <= 0:
        raise ValueError("the counters do not fit on the paper: use a smaller counter size, bleed or margin")
    return [flat[i:i + per_page] for i in range(0, len(flat), per_page)] or [[]]


# ----------------------------------------------------------------------------------------- placing faces

@dataclass(frozen=True)
class Placement:
    """A face drawn at an exact cut box on a page; the image carries its bleed outside that box."""
    key: str
    cut: Rect


def page_placements(geo: SheetGeometry, page: list[PrintItem], side: str) -> list[Placement]:
    """Where each face of a page goes: fronts in slot order; backs at the mirrored slot."""
    out = []
    for i, item in enumerate(page):
        row, col = divmod(i, geo.cols)
        if side == "front":
            out.append(Placement(item.front, geo.slot(row, col)))
        else:
            out.append(Placement(item.back, geo.back_slot(row, col)))
    return out


def _face_with_bleed(faces: Mapping[str, Image.Image], key: str, size_px: int, bleed_px: int) -> Image.Image:
    face = render_blank_back(key.removeprefix("blank:"), size_px) if key.startswith("blank:") else faces[key]
    return with_bleed(face, bleed_px)


def _encode_worker(args: tuple[str, bytes, int, int]) -> EncodedImage:
    key, raw, size_px, bleed_px = args
    faces = {} if key.startswith("blank:") else {key: Image.frombytes("RGB", (size_px, size_px), raw)}
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
        jobs = [(k, b"" if k.startswith("blank:") else self.faces[k].tobytes(), self.size_px, self.bleed_px)
                for k in todo]
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
        """Box for the image with bleed, scaled so the face's own pixels map exactly onto ``cut``."""
        scale = cut.w / self.size_px
        b = self.bleed_px * scale
        return Rect(cut.x - b, cut.y - b, cut.w + 2 * b, cut.h + 2 * b)


def draw_counters(doc: PdfDocument, canvas: Canvas, src: FaceSource, placements: list[Placement]) -> None:
    for p in placements:
        name = src.resource_name(p.key)
        if not doc.has_image(name):
            doc.add_image(name, src.encoded(p.key))
        box = src.drawn_box(p.cut)
        canvas.image(name, box.x, box.y, box.w, box.h)


def draw_marks(canvas: Canvas, geo: SheetGeometry, side: str) -> None:
    for s in geo.crop_marks(side):                       # type: ignore[arg-type]
        canvas.line(s.x0, s.y0, s.x1, s.y1, width=CROP_WIDTH_PT)


def _footer(canvas: Canvas, geo: SheetGeometry, label: str) -> None:
    canvas.text(geo.page[0] / 2, geo.page[1] - 10, label, size=6, align="centre")


def sheets_pdf(geo: SheetGeometry, pages: list[list[PrintItem]], src: FaceSource, title: str = "") -> bytes:
    """The print job: for duplex, each front page followed by its mirrored back page; for gutter fold,
    one page per sheet with fronts left, backs right and the fold line marked."""
    doc = PdfDocument()
    pw, ph = geo.page
    n = len(pages)
    src.prepare(key for page in pages for item in page for key in (item.front, item.back))
    for i, page in enumerate(pages, start=1):
        if geo.layout == "duplex":
            for side in ("front", "back"):
                c = doc.new_page(pw, ph)
                draw_counters(doc, c, src, page_placements(geo, page, side))
                draw_marks(c, geo, side)
                _footer(c, geo, f"{title}  sheet {i}/{n} {side}  {_spec(geo)}")
        else:
            c = doc.new_page(pw, ph)
            draw_counters(doc, c, src, page_placements(geo, page, "front"))
            draw_counters(doc, c, src, page_placements(geo, page, "back"))
            draw_marks(c, geo, "front")
            draw_marks(c, geo, "back")
            f = geo.fold_line()
            c.line(f.x0, 18, f.x1, f.y1 - 18, width=0.5, grey=0.4, dash=(4, 3))
            c.text(f.x0 + 3, 14, "fold", size=6)
            _footer(c, geo, f"{title}  sheet {i}/{n}  gutter fold  {_spec(geo)}")
    return doc.tobytes()


def _spec(geo: SheetGeometry) -> str:
    return (f"{geo.counter_in}\" counters, {geo.bleed_in}\" bleed, {geo.paper}"
            f"{'' if geo.back_offset_mm == (0.0, 0.0) else f', back offset {geo.back_offset_mm[0]:g},{geo.back_offset_mm[1]:g} mm'}")


def page_png(geo: SheetGeometry, page: list[PrintItem], src: FaceSource, side: str, dpi: float) -> Image.Image:
    """A raster of one page (for printing from image viewers and for previews), same geometry as the PDF."""
    pw, ph = geo.page
    k = dpi / POINTS_PER_INCH
    img = Image.new("RGB", (round(pw * k), round(ph * k)), "white")
    sides = ("front", "back") if geo.layout == "gutter" else (side,)
    draw = ImageDraw.Draw(img)
    for s in sides:
        for p in page_placements(geo, page, s):
            box = src.drawn_box(p.cut)
            face = src.image(p.key)
            target = (round(box.w * k), round(box.h * k))
            if face.size != target:
                face = face.resize(target, Image.Resampling.LANCZOS)
            img.paste(face, (round(box.x * k), round(box.y * k)))
        for seg in geo.crop_marks(s):                    # type: ignore[arg-type]
            draw.line([(seg.x0 * k, seg.y0 * k), (seg.x1 * k, seg.y1 * k)], fill=(0, 0, 0), width=1)
    if geo.layout == "gutter":
        f = geo.fold_line()
        for y in range(0, img.height, 12):
            draw.line([(f.x0 * k, y), (f.x0 * k, y + 6)], fill=(100, 100, 100), width=1)
    return img

