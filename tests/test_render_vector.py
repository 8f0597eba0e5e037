"""The sheets as vector PDF: faces are forms of paths and text in embedded subset fonts (no raster for
drawn art), every page has its print boxes, and the bytes are reproducible."""
from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from PIL import Image

from modulebuilder.render.faces import face_drawings, render_faces
from modulebuilder.render.pdf import MissingGlyph, PdfDocument
from modulebuilder.render.print_job import PrintOptions, build_print_job
from modulebuilder.render.raster import to_image
from modulebuilder.render.samples import sample_counters
from modulebuilder.render.vector import add_face_form

F = Fraction


def test_drawings_rasterise_to_the_faces_the_module_gets() -> None:
    cs = sample_counters(12)
    drawings = face_drawings(cs, 90)
    images = render_faces(cs, 90, workers=1)
    assert list(drawings) == list(images)
    for key, d in drawings.items():
        assert to_image(d).tobytes() == images[key].tobytes(), key


def test_sheet_pdf_is_vector_with_embedded_fonts_and_boxes(tmp_path: Path) -> None:
    files = build_print_job(sample_counters(20), tmp_path, PrintOptions(layout="both"))
    for f in files:
        data = f.read_bytes()
        assert b"/Subtype /Image" not in data, f.name           # drawn art only: no raster at all
        assert b"/Helvetica" not in data and b"/Type1" not in data
        assert data.count(b"/FontFile2") == data.count(b"/Subtype /Type0") >= 1
        pages = data.count(b"/Type /Page ")
        for box in (b"/TrimBox", b"/BleedBox", b"/ArtBox"):
            assert data.count(box) == pages, (f.name, box)
    if shutil.which("pdffonts"):
        out = subprocess.run(["pdffonts", str(tmp_path / "counters-duplex.pdf")], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
        assert out and all(re.search(r"\byes\s+yes\s+yes\b", line) for line in out), out


def test_sheet_pdf_is_byte_identical_run_to_run(tmp_path: Path) -> None:
    cs = sample_counters(15)
    a = build_print_job(cs, tmp_path / "a", PrintOptions())
    b = build_print_job(cs, tmp_path / "b", PrintOptions())
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes()


def test_the_pdf_page_looks_like_the_png_page(tmp_path: Path) -> None:
    """pdftoppm's rendering of the vector sheet and our raster page agree pixel for pixel on average."""
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm is not installed")
    files = build_print_job(sample_counters(10), tmp_path, PrintOptions(dpi=100, png=True))
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", str(tmp_path / "counters-duplex.pdf"),
                    str(tmp_path / "pdf")], check=True)
    ours = Image.open(next(f for f in files if f.name.endswith("01-front.png"))).convert("L")
    theirs = Image.open(next(tmp_path.glob("pdf-*.png"))).convert("L")
    assert ours.size == theirs.size
    diff = sum(abs(a - b) for a, b in zip(ours.tobytes(), theirs.tobytes())) / len(ours.tobytes())
    assert diff < 4.0, diff                    # anti-aliasing and hinting differ, the art does not


def test_a_character_the_font_lacks_is_an_error_not_a_substitute() -> None:
    from modulebuilder.render.drawing import Drawing, Text
    from modulebuilder.fonts import BOLD
    doc = PdfDocument()
    d = Drawing(10, 10, (255, 255, 255), (), (Text("\u6f22", 5, 5, 5, str(BOLD), (0, 0, 0)),))
    with pytest.raises(MissingGlyph, match="no glyph"):
        add_face_form(doc, "X", d, 0)


def test_the_font_cache_never_changes_the_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from modulebuilder.render import pdf as P
    cs = sample_counters(6)

    def build(where: str) -> bytes:
        P._metrics.cache_clear()
        P._subset.cache_clear()
        monkeypatch.setenv("MODULEBUILDER_CACHE", where)
        out = tmp_path / where.replace("/", "_")
        build_print_job(cs, out, PrintOptions())
        return (out / "counters-duplex.pdf").read_bytes()

    cold = build("off")
    first = build(str(tmp_path / "cache"))                # fills the cache
    warm = build(str(tmp_path / "cache"))                 # reads it
    assert cold == first == warm
    assert list((tmp_path / "cache" / "fonts").glob("subset-*.pickle"))
