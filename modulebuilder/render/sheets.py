"""Print-ready counter sheets: print items placed on a :class:`SheetGeometry`, slot by slot in order,
written as PDF (and PNG pages)."""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from modulebuilder.render.face_source import FaceSource
from modulebuilder.render.pdf import RGB_SPACE, Canvas, ColourSpace, PdfDocument, num
from modulebuilder.render.physical import POINTS_PER_INCH
from modulebuilder.render.print_items import PrintItem, page_slots, paginate, print_items
from modulebuilder.render.sheet_layout import CROP_WIDTH_PT, Rect, SheetGeometry

__all__ = ["FaceSource", "PrintItem", "Placement", "page_placements", "paginate", "print_items", "sheets_pdf",
           "page_png"]


# ----------------------------------------------------------------------------------------- placing faces

@dataclass(frozen=True)
class Placement:
    """A face drawn at an exact cut box on a page; the image carries its bleed outside that box."""
    key: str
    cut: Rect


def page_placements(geo: SheetGeometry, page: list[PrintItem], side: str) -> list[Placement]:
    """Where each face of a page goes: fronts in slot order; backs at the mirrored slot(s) (a two-hex
    counter's back covers the mirrored pair, as one image)."""
    out = []
    for s in page_slots(page, geo.cols):
        if side == "front":
            out.append(Placement(s.item.front, geo.slot(s.row, s.col, s.item.span)))
        else:
            out.append(Placement(s.item.back, geo.back_slot(s.row, s.col, s.item.span)))
    return out


def draw_counters(doc: PdfDocument, canvas: Canvas, src: FaceSource, placements: list[Placement]) -> None:
    """Each face as its vector form, its pixels scaled so the face covers the cut box exactly (the
    form's bleed lies outside it)."""
    for p in placements:
        canvas.form(src.form(doc, p.key), p.cut.x, p.cut.y, p.cut.h / src.size_px)


def draw_marks(canvas: Canvas, geo: SheetGeometry, side: str) -> None:
    for s in geo.crop_marks(side):                       # type: ignore[arg-type]
        canvas.line(s.x0, s.y0, s.x1, s.y1, width=CROP_WIDTH_PT)


def _footer(canvas: Canvas, geo: SheetGeometry, label: str) -> None:
    t = geo.trim
    y = t.bottom - 10 if not geo.slug_in else t.bottom + min(10.0, t.y - 2)
    canvas.text(geo.page[0] / 2, y, label, size=6, align="centre")


DIE_INK = "DieCut"                    # the spot colour die makers look for (never printed: overprint, own layer)


def draw_die_line(doc: PdfDocument, canvas: Canvas, placements: list[Placement]) -> None:
    """The cut path of every counter, in a spot colour on an optional-content layer "Die line"."""
    cs = doc.spot(DIE_INK, (0.0, 1.0, 0.0, 0.0))
    canvas.begin_layer("Die line")
    ops = [f"q /GOP gs /{cs} CS 1 SCN 0.25 w"]
    for p in placements:
        c = p.cut
        ops.append(f"{num(c.x)} {num(canvas.height - c.bottom)} {num(c.w)} {num(c.h)} re")
    ops.append("S Q")
    canvas.raw(" ".join(ops))
    canvas.end_layer()


def _boxes(canvas: Canvas, geo: SheetGeometry, sides: tuple[str, ...]) -> None:
    """TrimBox: the finished sheet (the paper itself when printing at home); BleedBox: the trim plus the
    bleed, within the media; ArtBox: the counters with their bleed."""
    pw, ph = geo.page
    t = geo.trim
    canvas.set_box("TrimBox", t.x, t.y, t.w, t.h)
    b = min(geo.bleed_pt, t.x, t.y)
    canvas.set_box("BleedBox", t.x - b, t.y - b, t.w + 2 * b, t.h + 2 * b)
    boxes = [geo.grid_box(s) for s in sides]           # type: ignore[arg-type]
    x0, y0 = min(b.x for b in boxes), min(b.y for b in boxes)
    x1, y1 = max(b.right for b in boxes), max(b.bottom for b in boxes)
    canvas.set_box("ArtBox", x0, y0, x1 - x0, y1 - y0)


def sheets_pdf(geo: SheetGeometry, pages: list, src: FaceSource, title: str = "",
               colours: ColourSpace | None = None, die_line: bool = False) -> bytes:
    """The print job: for duplex, each front page followed by its mirrored back page; for gutter fold,
    one page per sheet with fronts left, backs right and the fold line marked.  ``pages`` are lists of
    items on ``geo``, or (grid, items) pairs (:func:`~modulebuilder.render.print_items.paginate_by_span`:
    two-hex counters on their own grid)."""
    doc = PdfDocument(colours or RGB_SPACE, title=title)
    pw, ph = geo.page
    n = len(pages)
    grids = [p if isinstance(p, tuple) else (geo, p) for p in pages]
    for i, (geo, page) in enumerate(grids, start=1):
        if geo.layout == "duplex":
            for side in ("front", "back"):
                c = doc.new_page(pw, ph)
                placements = page_placements(geo, page, side)
                draw_counters(doc, c, src, placements)
                draw_marks(c, geo, side)
                if die_line and side == "front":
                    draw_die_line(doc, c, placements)
                _boxes(c, geo, (side,))
                _footer(c, geo, f"{title}  sheet {i}/{n} {side}  {_spec(geo)}")
        else:
            c = doc.new_page(pw, ph)
            draw_counters(doc, c, src, page_placements(geo, page, "front"))
            draw_counters(doc, c, src, page_placements(geo, page, "back"))
            draw_marks(c, geo, "front")
            draw_marks(c, geo, "back")
            if die_line:
                draw_die_line(doc, c, page_placements(geo, page, "front") + page_placements(geo, page, "back"))
            _boxes(c, geo, ("front", "back"))
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

