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
from modulebuilder.render.print_items import paginate, print_items
from modulebuilder.render.sheets import page_png, sheets_pdf


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

    @property
    def size_px(self) -> int:
        return px(self.counter_in, self.dpi)

    @property
    def bleed_px(self) -> int:
        return px(self.bleed_in, self.dpi)

    def geometry(self, layout: Literal["duplex", "gutter"]) -> SheetGeometry:
        return SheetGeometry(self.paper, self.counter_in, self.bleed_in, self.margin_in, layout, self.back_offset_mm)


def build_print_job(counters: CounterSet, out: Path, opts: PrintOptions, *, copies: Mapping[str, int] | None = None,
                    progress: Progress | None = None, log: Callable[[str], None] = lambda s: None) -> list[Path]:
    """Write the sheets for ``counters`` into ``out``; returns the files written, in order."""
    out.mkdir(parents=True, exist_ok=True)
    faces = face_drawings(counters, opts.size_px, dpi=opts.dpi, back=opts.back)
    if progress:
        progress(len(faces), len(faces))
    items = print_items(counters, faces, copies)
    src = FaceSource(faces, opts.size_px, opts.bleed_px)
    written: list[Path] = []
    layouts: tuple[Literal["duplex", "gutter"], ...] = ("duplex", "gutter") if opts.layout == "both" else (opts.layout,)
    for layout in layouts:
        geo = opts.geometry(layout)
        pages = paginate(items, geo.per_page, geo.cols)
        path = out / f"counters-{layout}.pdf"
        path.write_bytes(sheets_pdf(geo, pages, src, opts.title))
        written.append(path)
        log(f"{path}: {len(pages)} sheet(s) of {geo.rows}x{geo.cols}")
        if opts.png:
            for i, page in enumerate(pages, start=1):
                sides = ("front", "back") if layout == "duplex" else ("front",)
                for side in sides:
                    p = out / f"counters-{layout}-{i:02d}{'-' + side if layout == 'duplex' else ''}.png"
                    page_png(geo, page, src, side, opts.dpi).save(p, dpi=(opts.dpi, opts.dpi))
                    written.append(p)
    cal = out / "calibration.pdf"
    cal.write_bytes(calibration_pdf(opts.paper, opts.back_offset_mm))
    written.append(cal)
    return written
