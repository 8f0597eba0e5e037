"""What goes to print, at the size print needs: map tiles without slivers (a last row or column of tiles that
would add only a strip of the map, one column of hexes on a page of its own, is avoided by spreading that
direction's tiles evenly; ``--landscape`` tiles on the paper turned), counter art embedded at the print
resolution with a note, and a corrupt font reported with its file's name."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from modulebuilder.render.map_print import SLIVER, Tiling, image_points, tiled_map_pdf

ROOT = Path(__file__).resolve().parents[1]


def fresh(t: Tiling, axis: int) -> float:
    """What the last tile of an axis adds beyond its neighbour's window."""
    n = (t.cols, t.rows)[axis]
    length, window = (t.map_w, t.area.w) if axis == 0 else (t.map_h, t.area.h)
    last = (n - 1) * t.step[axis]
    return length - (last - t.step[axis] + window) if n >= 2 else length


def test_a_one_column_sliver_becomes_evenly_spread_tiles() -> None:
    # Letter: a 558 pt window, 522 pt step.  A map of 1650 pt needs 4 columns; the fourth would add 48 pt.
    t = Tiling("letter", 1650.0, 700.0)
    assert t.cols == 4
    assert fresh(t, 0) >= SLIVER * (t.area.w - t.overlap)
    assert 1650.0 <= t.window(0, t.cols - 1).right < 1651              # the last window ends on the edge
    assert t.step[0] == 364 and t.overlaps[0] == 558 - 364            # (1650 - 558) / 3, in whole points
    assert t.overlaps[1] == pytest.approx(t.overlap)                         # down: no sliver, as before


@settings(max_examples=120, deadline=None)
@given(w=st.floats(100, 4000), h=st.floats(100, 4000), paper=st.sampled_from(["letter", "a4"]),
       landscape=st.booleans())
def test_tiles_cover_the_map_share_their_crosses_and_never_end_in_a_sliver(w, h, paper, landscape) -> None:
    t = Tiling(paper, w, h, landscape=landscape)
    last = t.window(t.rows - 1, t.cols - 1)
    assert last.right >= w - 1e-6 and last.bottom >= h - 1e-6
    for axis in (0, 1):
        assert t.overlaps[axis] >= t.overlap - 1e-6
        n, length, window = (t.cols, w, t.area.w) if axis == 0 else (t.rows, h, t.area.h)
        if n >= 2:
            # The map fills the last tile's window beyond the overlap by at least a quarter of a step: a full
            # window when the tiles are spread, never a strip on a page of its own.
            shown = length - (n - 1) * t.step[axis]
            assert shown >= t.overlap + SLIVER * (window - t.overlap) - 1e-6
    # A cross on the seam with the tile below or to the right is that tile's cross too, to the last bit.
    for r in range(t.rows):
        for c in range(t.cols):
            for x, y in t.crosses(r, c):
                if r + 1 < t.rows and y == t._seam(1, r):
                    assert (x, y) in t.crosses(r + 1, c)
                if c + 1 < t.cols and x == t._seam(0, c):
                    assert (x, y) in t.crosses(r, c + 1)


def test_landscape_tiles_are_on_the_turned_paper_and_need_fewer_pages_for_a_wide_map() -> None:
    img = Image.new("RGB", (1900, 700), "white")                 # 19 x 7 in at 100 dpi
    portrait, landscape = tiled_map_pdf(img, 100, "letter"), tiled_map_pdf(img, 100, "letter", landscape=True)
    assert b"/MediaBox [0 0 792 612]" in landscape and b"/MediaBox [0 0 612 792]" in portrait
    assert [len(re.findall(rb"/Type /Page ", d)) for d in (portrait, landscape)] == [3, 2]
    assert Tiling("letter", *image_points(img, 100), landscape=True).page == (792, 612)


def test_the_map_command_writes_landscape_tiles(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "modulebuilder", "map", "examples/tiny/map.yaml", "--landscape",
                          "--dpi", "100", "--out", str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    data = (tmp_path / "tiny-tiles-letter-landscape.pdf").read_bytes()
    assert b"/MediaBox [0 0 792 612]" in data


def test_a_corrupt_font_is_an_error_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "Broken.ttf"
    bad.write_bytes(bytes(range(256)) * 8)
    look = tmp_path / "look.yaml"
    look.write_text("id: my-look\nextends: nato\nfonts: {bold: Broken.ttf}\n", encoding="utf-8")
    for command in ("counters", "sheets"):
        out = subprocess.run([sys.executable, "-m", "modulebuilder", command, "examples/tiny/scenario.yaml",
                              "--template", str(look), "--out", str(tmp_path / command)],
                             capture_output=True, text=True, cwd=ROOT)
        assert out.returncode == 1
        assert out.stderr.strip().splitlines()[-1] == (
            f"error: {bad}: not a font FreeType can read (unknown file format); a counter template's fonts must be "
            "TrueType or OpenType files (.ttf, .otf)")


def test_counter_art_larger_than_print_is_embedded_at_the_print_resolution_with_a_note(tmp_path: Path) -> None:
    from modulebuilder.render.drawing import Picture
    from modulebuilder.render.pdf import PdfDocument
    from modulebuilder.render.template import load_template, template_drawing
    from modulebuilder.render.vector import add_face_form
    big = tmp_path / "scan.png"
    Image.effect_noise((2400, 1200), 60).convert("RGB").save(big)          # a scan far larger than a counter
    tpl = tmp_path / "art.yaml"
    tpl.write_text("id: art\nfaces:\n  front:\n    - {kind: fill, colour: '#ffffff'}\n"
                   "    - {kind: image, field: art, box: [0.1, 0.1, 0.9, 0.5]}\n", encoding="utf-8")
    notes: list[str] = []
    d = template_drawing(load_template(str(tpl)), {"id": "x", "art": str(big)}, "front", 188, dpi=300, notes=notes)
    (picture,) = [i for i in d.items if isinstance(i, Picture)]
    w, h = picture.box[2] - picture.box[0] + 1, picture.box[3] - picture.box[1] + 1
    assert notes == [f"note: counter 'x': image {big} is 2400 x 1200 px; printed {w} x {h} px at 300 dpi, so the "
                     "sheets embed it downsampled to that"]
    doc = PdfDocument()
    add_face_form(doc, "X", d, 0)
    doc.new_page(188, 188).form("X", 0, 0, 1)
    (tmp_path / "x.pdf").write_bytes(doc.tobytes())
    listed = subprocess.run(["pdfimages", "-list", str(tmp_path / "x.pdf")], capture_output=True,
                            text=True).stdout.splitlines()[2].split()
    assert (int(listed[3]), int(listed[4])) == (w, h) == (150, 75)
