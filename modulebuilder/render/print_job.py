"""The whole print job for a counter set: faces rendered once, then the duplex and/or gutter-fold PDFs,
the calibration sheet and optional PNG pages, written to one folder."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable, Literal, Mapping

from modulebuilder.model import CounterSet
from modulebuilder.render.counters import BackTreatment
from modulebuilder.render.calibration import calibration_pdf
from modulebuilder.render.faces import Progress, face_drawings
from modulebuilder.render.physical import px
from modulebuilder.render.sheet_layout import SheetGeometry
from modulebuilder.render.face_source import FaceSource
from modulebuilder.render.drawing import Drawing
from modulebuilder.render.pdf import RGB_SPACE, ColourSpace
from modulebuilder.render.print_items import PrintItem, paginate_by_span, print_items
from modulebuilder.render.parallel import ordered_map
from modulebuilder.render.sheets import page_png, sheets_pdf
from modulebuilder.render.sheet_templates import sheet_template


@dataclass(frozen=True)
class PrintOptions:
    counter_in: Fraction = Fraction(5, 8)
    paper: str = "letter"
    dpi: int = 300
    bleed_in: Fraction = Fraction(1, 16)
    margin_in: Fraction = Fraction(1, 4)
    layout: Literal["duplex", "gutter", "both"] = "duplex"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    png: bool = False
    title: str = ""
    back: BackTreatment = "disordered"     # unit backs: Disordered (T&G) or Shaken (Musket & Pike)
    template: str | None = None            # a counter template (bundled id or file) instead of the series look
    cmyk: bool = False                     # DeviceCMYK through an ICC profile, with its output intent
    cmyk_profile: str | None = None        # that profile (default: FOGRA39, see render/cmyk.py)

    def colours(self) -> ColourSpace:
        if not self.cmyk:
            return RGB_SPACE
        from modulebuilder.render.cmyk import cmyk_space
        return cmyk_space(self.cmyk_profile)

    @property
    def size_px(self) -> int:
        return px(self.counter_in, self.dpi)

    @property
    def bleed_px(self) -> int:
        return px(self.bleed_in, self.dpi)

    sheet: str | None = None               # a sheet template (render/sheet_templates.py): paper, bleed, gap, margin
    die_line: bool = False                 # the cut paths on a "Die line" layer in a DieCut spot colour

    def geometry(self, layout: Literal["duplex", "gutter"]) -> SheetGeometry:
        if self.sheet:
            t = sheet_template(self.sheet)
            return SheetGeometry(t.paper, self.counter_in, t.bleed_in, t.margin_in, layout, self.back_offset_mm,
                                 1, t.gap_in, t.trim_pt, t.slug_in)
        return SheetGeometry(self.paper, self.counter_in, self.bleed_in, self.margin_in, layout, self.back_offset_mm)

    def face_bleed_px(self) -> int:
        """Bleed drawn around each face: the sheet's, but never more than half the gap to a neighbour."""
        geo = self.geometry("duplex")
        return px(Fraction(geo.edge_bleed_pt / 72).limit_denominator(100_000), self.dpi)


# The page-image workers read the pages and face rasters from here: forked workers inherit it, so the
# face images are never pickled (a page's faces are megabytes).
_PAGES: dict = {}
PNG_LEVEL = 3            # zlib level of the PNG pages: Pillow's default (6) costs far more time for little less


def _can_fork() -> bool:
    import threading
    return threading.active_count() == 1


def _page_worker(job: tuple[int, str]) -> bytes:
    import io
    i, side = job
    st = _PAGES
    geo, page = st["pages"][i]
    img = page_png(geo, page, st["src"], side, st["dpi"])
    buf = io.BytesIO()
    img.save(buf, "PNG", dpi=(st["dpi"], st["dpi"]), compress_level=PNG_LEVEL)
    return buf.getvalue()


def _paper_of(sheet: str) -> str:
    t = sheet_template(sheet)
    return t.paper if t.trim_pt is None else "letter"        # a die-cut sheet is not duplex-printed at home


def build_print_job(counters: CounterSet, out: Path, opts: PrintOptions, *, copies: Mapping[str, int] | None = None,
                    progress: Progress | None = None, log: Callable[[str], None] = lambda s: None,
                    game: object = None) -> list[Path]:
    """Write the sheets for ``counters`` into ``out``; returns the files written, in order.  ``game``: the
    scenario's game declarations (unit types' symbols, side colours) for data templates."""
    faces = face_drawings(counters, opts.size_px, dpi=opts.dpi, back=opts.back, template=opts.template, log=log,
                          game=game)
    if progress:
        progress(len(faces), len(faces))
    return write_sheets(faces, print_items(counters, faces, copies), out, opts, log=log)


def write_sheets(faces: Mapping[str, Drawing], items: list[PrintItem], out: Path, opts: PrintOptions, *,
                 log: Callable[[str], None] = lambda s: None) -> list[Path]:
    """The sheets of already drawn faces: PDFs (vector), optional PNG pages, the calibration sheet."""
    out.mkdir(parents=True, exist_ok=True)
    src = FaceSource(faces, opts.size_px, opts.face_bleed_px())
    written: list[Path] = []
    layouts: tuple[Literal["duplex", "gutter"], ...] = ("duplex", "gutter") if opts.layout == "both" else (opts.layout,)
    for layout in layouts:
        geo = opts.geometry(layout)
        pages = paginate_by_span(items, geo)
        path = out / f"counters-{layout}.pdf"
        path.write_bytes(sheets_pdf(geo, pages, src, opts.title, opts.colours(), opts.die_line))
        written.append(path)
        log(f"{path}: {len(pages)} sheet(s) of {geo.rows}x{geo.cols}"
            + "".join(f", {sum(1 for g, _ in pages if g.span == k)} of {k}-hex counters" for k in (2, 3, 4)
                      if any(g.span == k for g, _ in pages)))
        if opts.png:
            jobs = [(i, side) for i in range(len(pages)) for side in (("front", "back") if layout == "duplex" else ("front",))]
            # Each page worker rasterises the faces of its own pages (a front page's faces are not a back
            # page's), composes and encodes them: no face image crosses a process boundary (500 faces at
            # 5/8" were 77 MB through the pool's pipes, then unpickled in the parent).
            _PAGES.update(geo=geo, pages=pages, src=src, dpi=opts.dpi)
            try:
                for (i, side), data in zip(jobs, ordered_map(_page_worker, jobs, None if _can_fork() else 1, chunksize=1,
                                                                 min_items=2)):
                    p = out / f"counters-{layout}-{i + 1:02d}{'-' + side if layout == 'duplex' else ''}.png"
                    p.write_bytes(data)
                    written.append(p)
            finally:
                _PAGES.clear()
    cal = out / "calibration.pdf"
    cal.write_bytes(calibration_pdf(opts.paper if not opts.sheet else _paper_of(opts.sheet), opts.back_offset_mm))
    written.append(cal)
    return written
