"""Counter sheets: exact page and slot geometry, mirrored backs, crop marks outside the bleed, counts,
and deterministic, valid PDF."""
from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from fractions import Fraction
from pathlib import Path

import pytest

from modulebuilder.model import ActivationGroup, CounterSet, Face, Marker, Unit
from modulebuilder.render.calibration import calibration_pdf, targets
from modulebuilder.render.faces import face_drawings, render_faces
from modulebuilder.render.physical import mm_to_points
from modulebuilder.render.print_job import PrintOptions, build_print_job
from modulebuilder.render.sheet_layout import Rect, SheetGeometry
from modulebuilder.render.sheets import FaceSource, page_placements, paginate, print_items, sheets_pdf
from modulebuilder.render.samples import sample_counters

F = Fraction
DPI = 100          # small images keep the tests fast; geometry is in points and independent of dpi


def pdf_pages(data: bytes) -> list[tuple[list[float], str]]:
    """(MediaBox, decoded content stream) of every page, read from our own PDF's plain object layout."""
    objs = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\n(.*?)\nendobj\n", data, re.S)}
    kids = re.search(rb"/Kids \[([^\]]*)\]", objs[2]).group(1)
    pages = []
    for ref in re.findall(rb"(\d+) 0 R", kids):
        page = objs[int(ref)]
        box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]*)\]", page).group(1).split()]
        content = objs[int(re.search(rb"/Contents (\d+) 0 R", page).group(1))]
        stream = content[content.index(b"stream\n") + 7:content.rindex(b"\nendstream")]
        pages.append((box, zlib.decompress(stream).decode("latin-1")))
    return pages


def placements_in(content: str) -> list[tuple[float, float, float]]:
    """(x, y, scale) in PDF coordinates of every face form drawn with 'k 0 0 -k x y cm /Name Do': (x, y) is
    the top-left corner of the face's cut box, k points per face pixel."""
    return [(float(m.group(2)), float(m.group(3)), float(m.group(1)))
            for m in re.finditer(r"([\d.]+) 0 0 -[\d.]+ ([\d.-]+) ([\d.-]+) cm /F\w+ Do", content)]


def _job(counters: CounterSet, geo: SheetGeometry) -> tuple[bytes, list, FaceSource]:
    size = round(float(geo.counter_in) * DPI)
    faces = face_drawings(counters, size)
    src = FaceSource(faces, size, round(float(geo.bleed_in) * DPI))
    pages = paginate(print_items(counters, faces), geo.per_page)
    return sheets_pdf(geo, pages, src), pages, src


@pytest.mark.parametrize("paper,size", [("letter", (612.0, 792.0)), ("a4", (595.2756, 841.8898))])
def test_page_size_is_exact(paper: str, size: tuple[float, float]) -> None:
    geo = SheetGeometry(paper, F(5, 8), F(1, 16), F(1, 4))
    assert geo.page == pytest.approx(size, abs=1e-4)
    data, _, _ = _job(sample_counters(4), geo)
    for box, _ in pdf_pages(data):
        assert box[2:] == pytest.approx(list(size), abs=1e-4)


@pytest.mark.parametrize("inches", [F(1, 2), F(9, 16), F(5, 8), F(3, 4), F(1)])
def test_slot_pitch_is_exact_and_no_drift(inches: Fraction) -> None:
    geo = SheetGeometry("letter", inches, F(1, 16), F(1, 4))
    pitch = float(inches + F(1, 8)) * 72
    assert geo.pitch_pt == pytest.approx(pitch, abs=1e-9)
    first = geo.slot(0, 0)
    last = geo.slot(geo.rows - 1, geo.cols - 1)
    assert last.x - first.x == pytest.approx((geo.cols - 1) * pitch, abs=1e-9)
    assert last.y - first.y == pytest.approx((geo.rows - 1) * pitch, abs=1e-9)
    assert first.w == first.h == pytest.approx(float(inches) * 72)
    # Everything, bleed included, stays inside the paper margins.
    page = Rect(18, 18, 612 - 36, 792 - 36)
    assert page.contains(geo.with_bleed(first)) and page.contains(geo.with_bleed(last))


def test_letter_five_eighths_fits_a_full_grid() -> None:
    geo = SheetGeometry("letter", F(5, 8), F(1, 16), F(1, 4))
    # (8.5" - 2 x (1/4" margin + crop-mark room)) / 3/4" pitch = 10 columns; 11" tall gives 13 rows.
    assert (geo.rows, geo.cols) == (13, 10)


def test_duplex_back_is_mirrored_about_the_long_edge() -> None:
    geo = SheetGeometry("letter", F(5, 8), F(1, 16), F(1, 4))
    for row in (0, geo.rows - 1):
        for col in range(geo.cols):
            f, b = geo.slot(row, col), geo.back_slot(row, col)
            assert b.x == pytest.approx(612 - f.x - f.w, abs=1e-9) and b.y == pytest.approx(f.y)
            assert b.x == pytest.approx(geo.slot(row, geo.back_column(col)).x, abs=1e-9)


def test_pdf_places_backs_in_mirrored_columns() -> None:
    geo = SheetGeometry("letter", F(5, 8), F(1, 16), F(1, 4))
    cs = CounterSet((ActivationGroup("a", "A", "F", "#336699", 4, label="A"),),
                    tuple(Unit(f"u{i}", f"U{i}", "infantry", "F", "a", Face(1, 2, 3, 0), Face(1, 1, 3, 0))
                          for i in range(3)))
    data, _, src = _job(cs, geo)
    (fbox, front), (bbox, back) = pdf_pages(data)
    fronts, backs = placements_in(front), placements_in(back)
    assert len(fronts) == len(backs) == 3
    for col, ((fx, fy, fk), (bx, by, bk)) in enumerate(zip(fronts, backs)):
        cut = geo.slot(0, col)
        # The face's own pixels cover the cut box exactly (its bleed lies outside, in the form's BBox).
        assert fk * src.size_px == pytest.approx(geo.counter_pt, abs=1e-3) and bk == fk
        assert fx == pytest.approx(cut.x, abs=1e-3)
        assert fy == pytest.approx(792 - cut.y, abs=1e-3)                    # PDF y grows upward
        mirrored = geo.slot(0, geo.back_column(col))
        assert bx == pytest.approx(mirrored.x, abs=1e-3) and by == pytest.approx(fy, abs=1e-3)


def test_back_offset_shifts_back_pages_only() -> None:
    base = SheetGeometry("a4", F(5, 8), F(1, 16), F(1, 4))
    shifted = SheetGeometry("a4", F(5, 8), F(1, 16), F(1, 4), back_offset_mm=(1.5, -2.0))
    assert shifted.slot(2, 3) == base.slot(2, 3)
    a, b = base.back_slot(2, 3), shifted.back_slot(2, 3)
    assert b.x - a.x == pytest.approx(mm_to_points(1.5)) and b.y - a.y == pytest.approx(mm_to_points(-2.0))


def test_gutter_fold_mirrors_about_the_fold_line() -> None:
    geo = SheetGeometry("letter", F(5, 8), F(1, 16), F(1, 4), "gutter")
    fold = geo.fold_line().x0
    assert fold == 306
    for col in range(geo.cols):
        f, b = geo.slot(1, col), geo.back_slot(1, col)
        assert f.right < fold < b.x
        assert (f.x + f.right) / 2 - fold == pytest.approx(fold - (b.x + b.right) / 2)
        assert b.y == f.y


@pytest.mark.parametrize("layout", ["duplex", "gutter"])
def test_crop_marks_stay_outside_every_bleed_and_on_the_page(layout: str) -> None:
    geo = SheetGeometry("letter", F(5, 8), F(1, 16), F(1, 4), layout)  # type: ignore[arg-type]
    sides = ("front", "back")
    bleeds = [geo.with_bleed(geo.slot(r, c) if s == "front" else geo.back_slot(r, c))
              for s in sides for r in range(geo.rows) for c in range(geo.cols)]
    page = Rect(0, 0, *geo.page)
    for side in sides:
        marks = geo.crop_marks(side)  # type: ignore[arg-type]
        assert marks
        for m in marks:
            seg = Rect(min(m.x0, m.x1), min(m.y0, m.y1), abs(m.x1 - m.x0) + 1e-9, abs(m.y1 - m.y0) + 1e-9)
            assert page.contains(seg)
            assert not any(seg.intersects(b) for b in bleeds)
    # Every cut line has a mark: each slot's left and right edges appear as x of a vertical mark.
    xs = {round(m.x0, 6) for m in geo.crop_marks("front") if m.x0 == m.x1}
    for c in range(geo.cols):
        assert round(geo.slot(0, c).x, 6) in xs and round(geo.slot(0, c).right, 6) in xs


def test_partly_filled_sheet_uses_the_same_slots() -> None:
    geo = SheetGeometry("letter", F(5, 8), F(1, 16), F(1, 4))
    cs = sample_counters(3)
    faces = render_faces(cs, 40, workers=1)
    items = print_items(cs, faces)
    page = paginate(items, geo.per_page)[0]
    placed = page_placements(geo, page, "front")
    assert [p.cut for p in placed] == [geo.slot(*divmod(i, geo.cols)) for i in range(len(placed))]


def test_markers_print_count_times_and_units_once() -> None:
    cs = CounterSet(markers=(Marker("uo", "UO", "UO", count=7, back_text="NO"), Marker("x", "X", "X", count=2)))
    faces = render_faces(cs, 40, workers=1)
    items = print_items(cs, faces, copies={"x": 3})
    flat = [i.id for page in paginate(items, 5) for i in page]
    assert flat == ["uo"] * 7 + ["x"] * 3
    assert items[1].back.startswith("blank:")            # one-sided marker: plain back in its colour
    sample = sample_counters(10)
    sample_faces = render_faces(sample, 40, workers=1)
    counts = {i.id: i.copies for i in print_items(sample, sample_faces)}
    assert all(counts[u.id] == 1 for u in sample.units)


def test_sheets_pdf_is_byte_identical_and_valid(tmp_path: Path) -> None:
    opts = PrintOptions(counter_in=F(1, 2), dpi=DPI, layout="both", png=True)
    cs = sample_counters(30)
    a = build_print_job(cs, tmp_path / "a", opts)
    b = build_print_job(cs, tmp_path / "b", opts)
    assert [p.name for p in a] == [p.name for p in b]
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes(), pa.name
    assert {"counters-duplex.pdf", "counters-gutter.pdf", "calibration.pdf"} <= {p.name for p in a}
    if shutil.which("pdftoppm"):
        out = tmp_path / "page"
        subprocess.run(["pdftoppm", "-r", "20", "-png", "-f", "1", "-l", "2",
                        str(tmp_path / "a" / "counters-duplex.pdf"), str(out)], check=True, capture_output=True)
        assert len(list(tmp_path.glob("page-*.png"))) == 2


def test_png_page_matches_pdf_geometry(tmp_path: Path) -> None:
    from PIL import Image
    opts = PrintOptions(counter_in=F(5, 8), dpi=72, layout="duplex", png=True)
    cs = CounterSet((ActivationGroup("a", "A", "F", "#336699", 4, label="A"),),
                    (Unit("u", "U", "infantry", "F", "a", Face(1, 2, 3, 0), Face(1, 1, 3, 0)),))
    files = build_print_job(cs, tmp_path, opts)
    png = next(p for p in files if p.name.endswith("front.png"))
    img = Image.open(png)
    assert img.size == (612, 792)
    slot = opts.geometry("duplex").slot(0, 0)
    assert img.getpixel((round(slot.x) + 2, round(slot.y) + 2)) == (0x33, 0x66, 0x99)   # the AG band


def test_calibration_back_crosses_are_mirrored_and_offset() -> None:
    pages = pdf_pages(calibration_pdf("letter", (1.0, 2.0)))
    assert len(pages) == 2
    _, back = pages[1]
    for x, y in targets("letter"):
        bx = 612 - x + mm_to_points(1.0)
        assert f"{bx:.4f}".rstrip("0").rstrip(".") in back


def test_calibration_has_rulers_and_the_print_at_100_percent_warning(tmp_path: Path) -> None:
    data = calibration_pdf("letter")
    (front, content), _ = pdf_pages(data)
    if shutil.which("pdftotext"):
        (tmp_path / "c.pdf").write_bytes(data)
        text = subprocess.run(["pdftotext", str(tmp_path / "c.pdf"), "-"], capture_output=True, text=True).stdout
        assert "PRINT AT 100%" in text and "10 cm" in text
    h = 792
    y = h - (792 - 150)
    ticks = re.findall(r"([\d.]+) " + f"{y:g}".replace(".", r"\.") + r" m [\d.]+ [\d.]+ l S", content)
    xs = sorted({float(x) for x in ticks})
    assert xs[-1] - xs[0] == pytest.approx(4 * 72)           # the inch ruler is exactly 4 inches


def test_units_print_their_count() -> None:
    from dataclasses import replace
    base = sample_counters(2)
    u = base.units[0]
    counted = replace(u, count=3)
    cs = CounterSet(base.activation_groups, (counted, *base.units[1:]), base.leaders, base.markers)
    items = {i.id: i.copies for i in print_items(cs, face_drawings(cs, 40))}
    assert items[u.id] == 3 and items[base.units[1].id] == 1
