"""A CFF-based OpenType font (.otf) in a counter template: Pillow draws it for the module's PNGs, and the
sheets embed it (a CIDFontType0C subset, FontFile3) so that poppler draws the same letters.

The font is built here with fontTools' FontBuilder from the bundled DejaVu Sans Condensed Bold glyphs
(Bitstream Vera licence), each outline redrawn with a T2CharStringPen: real cubic CFF outlines, no binary
font in the repository, and a known answer (the same letters as the TrueType original)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from modulebuilder.fonts import BOLD
from modulebuilder.render.drawing import Text
from modulebuilder.render.pdf import PdfDocument
from modulebuilder.render.raster import to_image
from modulebuilder.render.template import load_template, template_drawing
from modulebuilder.render.vector import add_face_form

CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-/ "
PS_NAME = "ModuleTestCFF-Bold"


def build_cff_font(path: Path) -> Path:
    """An OTF with CFF outlines holding the glyphs of CHARS, redrawn from the bundled TrueType bold."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.ttLib import TTFont
    src = TTFont(str(BOLD))
    cmap = src.getBestCmap()
    glyphs = src.getGlyphSet()
    names = [".notdef"] + sorted({cmap[ord(c)] for c in CHARS})
    charstrings, metrics = {}, {}
    for name in names:
        advance, lsb = src["hmtx"][name]
        pen = T2CharStringPen(advance, glyphs)
        glyphs[name].draw(pen)
        charstrings[name] = pen.getCharString()
        metrics[name] = (advance, lsb)
    fb = FontBuilder(src["head"].unitsPerEm, isTTF=False)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): cmap[ord(c)] for c in CHARS})
    fb.setupCFF(PS_NAME, {"FullName": "Module Test CFF Bold"}, charstrings, {})
    fb.setupHorizontalMetrics(metrics)
    fb.setupHorizontalHeader(ascent=src["hhea"].ascent, descent=src["hhea"].descent)
    fb.setupNameTable({"familyName": "Module Test CFF", "styleName": "Bold", "psName": PS_NAME})
    os2 = src["OS/2"]
    fb.setupOS2(sTypoAscender=os2.sTypoAscender, sTypoDescender=os2.sTypoDescender, usWinAscent=os2.usWinAscent,
                usWinDescent=os2.usWinDescent, sCapHeight=getattr(os2, "sCapHeight", 1493))
    fb.setupPost()
    fb.save(str(path))
    assert "CFF " in TTFont(str(path)) and "glyf" not in TTFont(str(path))
    return path


def _template(tmp_path: Path, font: str) -> Path:
    tpl = tmp_path / f"otf-{Path(font).stem}.yaml"
    tpl.write_text(f"id: otf\nfonts: {{title: {font}}}\nfaces:\n  front:\n    - {{kind: fill, colour: '#ffffff'}}\n"
                   "    - {kind: text, field: name, font: title, box: [0.05, 0.3, 0.95, 0.7], colour: '#000000'}\n")
    return tpl


def test_a_cff_otf_font_renders_like_its_truetype_original(tmp_path: Path) -> None:
    otf = build_cff_font(tmp_path / "ModuleTestCFF-Bold.otf")
    shutil.copy(BOLD, tmp_path / "Original.ttf")
    fields = {"id": "u", "name": "Guard 1/27"}
    d = template_drawing(load_template(str(_template(tmp_path, otf.name))), fields, "front", 300, dpi=300)
    assert [i.font for i in d.items if isinstance(i, Text)] == [str(otf)]
    ref = template_drawing(load_template(str(_template(tmp_path, "Original.ttf"))), fields, "front", 300, dpi=300)
    img, ref_img = to_image(d), to_image(ref)
    ink = ImageStat.Stat(img.convert("L").point(lambda v: 255 if v < 128 else 0)).mean[0]
    assert ink > 5                                               # the letters are there...
    diff = ImageStat.Stat(ImageChops.difference(img, ref_img).convert("L")).mean[0]
    assert diff < 2.0                                            # ...and they are the TrueType letters


@pytest.mark.skipif(not (shutil.which("pdffonts") and shutil.which("pdftoppm")), reason="poppler-utils not installed")
def test_a_cff_otf_font_is_embedded_in_the_pdf_and_drawn_by_poppler(tmp_path: Path) -> None:
    otf = build_cff_font(tmp_path / "ModuleTestCFF-Bold.otf")
    d = template_drawing(load_template(str(_template(tmp_path, otf.name))), {"id": "u", "name": "Guard 1/27"},
                         "front", 300, dpi=300)
    doc = PdfDocument()
    add_face_form(doc, "X", d, 0)
    doc.new_page(72, 72).form("X", 0, 0, 72 / 300)              # one inch, face pixels at 300 dpi
    pdf = tmp_path / "otf.pdf"
    pdf.write_bytes(doc.tobytes())
    rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    assert len(rows) == 1, rows
    name = rows[0].split()[0]
    assert re.fullmatch(r"[A-Z]{6}\+" + PS_NAME, name), name   # a subset of our font, by its PostScript name
    # CFF outlines (Type 0C, in their OpenType wrapper), embedded, subset, with a ToUnicode map.
    assert re.search(r"\bCID Type 0C \(OT\)\s+Identity-H\s+yes\s+yes\s+yes\s", rows[0]), rows[0]
    subprocess.run(["pdftoppm", "-r", "300", "-png", "-singlefile", str(pdf), str(tmp_path / "page")], check=True)
    page = Image.open(tmp_path / "page.png").convert("RGB")
    assert page.size == (300, 300)
    diff = ImageStat.Stat(ImageChops.difference(page, to_image(d)).convert("L")).mean[0]
    ink = ImageStat.Stat(page.convert("L").point(lambda v: 255 if v < 128 else 0)).mean[0]
    assert ink > 5 and diff < 4.0, (ink, diff)                   # poppler draws the same letters, in place
