"""Map print versions: the full map at its physical size, and tiles that overlap with shared crosses."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest
from PIL import Image

from modulebuilder.render.map_print import Tiling, full_map_pdf, image_points, tiled_map_pdf
from pathlib import Path


def test_full_map_page_is_the_physical_size() -> None:
    img = Image.new("RGB", (300, 450), "white")
    data = full_map_pdf(img, 150)
    assert image_points(img, 150) == (144.0, 216.0)
    assert b"/MediaBox [0 0 144 216]" in data


def test_tiles_cover_the_map_with_overlap() -> None:
    t = Tiling("letter", 2000.0, 1500.0)
    assert t.overlap == 36.0
    wins = [t.window(r, c) for r in range(t.rows) for c in range(t.cols)]
    assert wins[0].x == 0 and wins[0].y == 0
    last = t.window(t.rows - 1, t.cols - 1)
    assert last.right >= 2000 and last.bottom >= 1500
    # Neighbours overlap by exactly the overlap across; down, the third row would add only 60 pt (a sliver), so
    # the rows are spread evenly and overlap more (tests/test_render_print_sizes.py).
    assert t.window(0, 0).right - t.window(0, 1).x == pytest.approx(t.overlap)
    assert t.window(0, 0).bottom - t.window(1, 0).y == pytest.approx(t.overlaps[1]) == pytest.approx(738 - 381)
    # No more tiles than needed.
    assert t.window(0, t.cols - 2).right < 2000


def test_registration_crosses_are_shared_by_neighbours() -> None:
    t = Tiling("a4", 1500.0, 1500.0, overlap_in=Fraction(1, 2))
    for r in range(t.rows):
        for c in range(t.cols):
            for x, y in t.crosses(r, c):
                on = [(rr, cc) for rr in range(t.rows) for cc in range(t.cols)
                      if t.window(rr, cc).x < x < t.window(rr, cc).right and t.window(rr, cc).y < y < t.window(rr, cc).bottom]
                assert len(on) >= 2, (x, y)
                for rr, cc in on:
                    if abs(rr - r) + abs(cc - c) == 1:
                        assert (x, y) in t.crosses(rr, cc)


def test_tiled_pdf_has_one_page_per_tile_and_one_image() -> None:
    img = Image.new("RGB", (1200, 900), "white")
    data = tiled_map_pdf(img, 100, "letter")
    t = Tiling("letter", *image_points(img, 100))
    assert len(re.findall(rb"/Type /Page ", data)) == t.rows * t.cols == 2      # 12" x 9" on portrait Letter
    assert data.count(b"/Subtype /Image") == 1


def test_print_outputs_are_byte_identical() -> None:
    from modulebuilder.render.map import render_map
    from modulebuilder.render.samples import sample_map
    m = sample_map(columns=8, rows=6)
    a, _ = render_map(m, 20)
    b, _ = render_map(m, 20)
    assert full_map_pdf(a, 100) == full_map_pdf(b, 100)
    assert tiled_map_pdf(a, 50, "a4") == tiled_map_pdf(b, 50, "a4")


def test_very_large_maps_are_drawn_without_supersampling(monkeypatch: pytest.MonkeyPatch) -> None:
    from modulebuilder.render import map as M
    from modulebuilder.render.samples import sample_map
    m = sample_map(columns=4, rows=3)
    small, lay = M.render_map(m, 30)
    monkeypatch.setattr(M, "SUPERSAMPLE_LIMIT_PX", 1)
    big, lay1 = M.render_map(m, 30)
    assert big.size == small.size and lay1.center("1301") == lay.center("1301")


# ------------------------------------------------------------------------------------------------ CMYK

def _profile_or_skip() -> None:
    from modulebuilder.render.cmyk import SYSTEM_PROFILES
    if not any(p.is_file() for p in SYSTEM_PROFILES):
        pytest.skip("no CMYK profile installed (Debian texlive-base ships FOGRA39L_coated.icc)")


def _image_stream(data: bytes) -> tuple[bytes, bytes]:
    """(dictionary, decompressed pixels) of the PDF's one image XObject."""
    import zlib
    m = re.search(rb"<< (/Type /XObject /Subtype /Image [^>]*/Length (\d+)) >>\nstream\n", data, re.S)
    assert m is not None
    return m.group(1), zlib.decompress(data[m.end():m.end() + int(m.group(2))])


def _contents(data: bytes) -> list[bytes]:
    """The decompressed page content streams (they start with an operator, not a dictionary)."""
    import zlib
    streams = re.findall(rb"<< /Filter /FlateDecode /Length \d+ >>\nstream\n(.*?)\nendstream", data, re.S)
    return [c for c in (zlib.decompress(s) for s in streams) if c.startswith(b"q ")]


def test_cmyk_map_pdfs_have_the_output_intent_cmyk_pixels_and_page_boxes() -> None:
    """#14: the map in CMYK with an ICC output intent, as the counter sheets.  The pixels are the sRGB map
    converted by Little CMS through the profile (relative colorimetric, black-point compensation), the marks
    around the tiles are on the black plate, and nothing is left in RGB."""
    _profile_or_skip()
    from PIL import ImageCms

    from modulebuilder.render.cmyk import cmyk_space, default_profile
    from modulebuilder.render.map import render_map
    from modulebuilder.render.map_print import map_print_pdfs
    from modulebuilder.render.samples import sample_map
    img, _ = render_map(sample_map(columns=8, rows=6), 30)
    files = dict(map_print_pdfs(img, 50, "letter", "s", "Sample", cmyk_space()))     # 11 x 16 in: four tiles
    assert sorted(files) == ["s-full.pdf", "s-tiles-letter.pdf"]
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(default_profile())),
                                        "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    expected = ImageCms.applyTransform(img, transform).tobytes()
    for name, data in files.items():
        assert data.count(b"/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX") == 1, name
        assert b"/DestOutputProfile" in data and b"/N 4 /Filter /FlateDecode" in data
        assert b"FOGRA39" in data                                      # the output condition, from the profile
        head, pixels = _image_stream(data)
        assert b"/ColorSpace /DeviceCMYK" in head and b"/DeviceRGB" not in data
        assert f"/Width {img.width} /Height {img.height}".encode() in head
        assert pixels == expected                                      # every pixel, through the profile
        pages = re.findall(rb"/Type /Page /Parent.*?>>", data)
        assert pages and all(b"/TrimBox" in p and b"/BleedBox" in p and b"/ArtBox" in p for p in pages)
        contents = _contents(data)
        assert contents and not any(re.search(rb"\b(rg|RG|g|G)\b", c) for c in contents)   # no RGB, no grey
    tiles = files["s-tiles-letter.pdf"]
    marks = b"".join(_contents(tiles))
    assert tiles.count(b"/Type /Page /Parent") == 4
    assert b"0 0 0 1 K" in marks and b"0 0 0 0.5 K" in marks           # crosses, trim ticks, frame: black plate
    assert b" m " in marks and b" c " in marks                          # the crosses' lines and circles


def test_cmyk_map_page_looks_like_the_rgb_map(tmp_path: Path) -> None:
    """The CMYK page, rendered by pdftoppm, is the map (not a blank or a negative): its colours stay within
    a few levels of the RGB page's on average (poppler converts CMYK back without the profile)."""
    _profile_or_skip()
    import shutil
    import subprocess

    from PIL import ImageChops, ImageStat

    from modulebuilder.render.cmyk import cmyk_space
    from modulebuilder.render.map import render_map
    from modulebuilder.render.map_print import full_map_pdf
    from modulebuilder.render.samples import sample_map
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) not installed")
    img, _ = render_map(sample_map(columns=8, rows=6), 30)
    pages = {}
    for label, colours in (("rgb", None), ("cmyk", cmyk_space())):
        pdf = tmp_path / f"{label}.pdf"
        pdf.write_bytes(full_map_pdf(img, 100, colours) if colours else full_map_pdf(img, 100))
        subprocess.run(["pdftoppm", "-r", "50", "-png", "-singlefile", str(pdf), str(tmp_path / label)], check=True)
        pages[label] = Image.open(tmp_path / f"{label}.png").convert("RGB")
    assert pages["rgb"].size == pages["cmyk"].size
    diff = ImageStat.Stat(ImageChops.difference(pages["rgb"], pages["cmyk"])).mean
    assert max(diff) < 20, diff
    assert len(pages["cmyk"].getcolors(1 << 20) or []) > 50             # a picture, not a flat page


def test_rgb_map_pdfs_are_unchanged_by_the_cmyk_option() -> None:
    """The default stays DeviceRGB, with no output intent, byte for byte what it was."""
    from modulebuilder.render.map import render_map
    from modulebuilder.render.map_print import map_print_pdfs
    from modulebuilder.render.samples import sample_map
    img, _ = render_map(sample_map(columns=6, rows=4), 20)
    files = dict(map_print_pdfs(img, 100, "a4", "s", "S"))
    assert files["s-full.pdf"] == full_map_pdf(img, 100)
    assert files["s-tiles-a4.pdf"] == tiled_map_pdf(img, 100, "a4", title="S")
    assert b"/OutputIntents" not in files["s-full.pdf"] and b"/DeviceRGB" in files["s-full.pdf"]


def test_cmyk_pixels_are_converted_in_bands_the_same_as_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    _profile_or_skip()
    from modulebuilder.render import map_print
    from modulebuilder.render.cmyk import cmyk_space
    colours = cmyk_space()
    img = Image.radial_gradient("L").convert("RGB").resize((90, 70))
    whole = map_print.cmyk_art(img, colours)
    monkeypatch.setattr(map_print, "BAND_ROWS", 7)
    banded = map_print.cmyk_art(img, colours)
    import zlib
    assert zlib.decompress(banded.data) == zlib.decompress(whole.data) and len(zlib.decompress(whole.data)) == 90 * 70 * 4


def test_map_command_writes_cmyk_print_pdfs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``modulebuilder map MAP --cmyk``: both print PDFs in CMYK with the output intent; the PNG stays RGB;
    a profile that is not a CMYK output profile is one line of error, no traceback, nothing written."""
    _profile_or_skip()
    from modulebuilder.cli import main
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "m"
    assert main(["map", str(root / "examples/tiny/map.yaml"), "--cmyk", "--dpi", "72", "--paper", "a4",
                 "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    pdfs = [n for n in names if n.endswith(".pdf")]
    assert len(pdfs) == 2 and any("-tiles-a4" in n for n in pdfs)
    for n in pdfs:
        data = (out / n).read_bytes()
        assert b"/OutputIntents" in data and b"/ColorSpace /DeviceCMYK" in data and b"/DeviceRGB" not in data
    png = next(n for n in names if n.endswith(".png"))
    assert Image.open(out / png).mode == "RGB"
    srgb = root / "tests" / "no-such.icc"
    assert main(["map", str(root / "examples/tiny/map.yaml"), "--cmyk", "--cmyk-profile", str(srgb),
                 "--out", str(tmp_path / "bad")]) == 1
    err = capsys.readouterr().err
    assert "no such file" in err and "Traceback" not in err and not (tmp_path / "bad").exists()


def test_lining_up_the_crosses_of_neighbouring_tiles_lines_up_the_map(tmp_path: Path) -> None:
    """The tiles as printed (pdftoppm at 72 dpi: a pixel a point): around every cross two neighbouring tiles
    share, both pages show the same pixels -- cross and map -- so gluing them cross on cross assembles the map."""
    import shutil
    import subprocess

    from modulebuilder.render.map import render_map
    from modulebuilder.render.samples import sample_map
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) not installed")
    img, _ = render_map(sample_map(columns=8, rows=6), 30)
    t = Tiling("letter", *image_points(img, 50))
    assert (t.rows, t.cols) == (2, 2)
    (tmp_path / "t.pdf").write_bytes(tiled_map_pdf(img, 50, "letter"))
    subprocess.run(["pdftoppm", "-r", "72", "-png", str(tmp_path / "t.pdf"), str(tmp_path / "p")], check=True)
    pages = [Image.open(p).convert("RGB") for p in sorted(tmp_path.glob("p-*.png"))]
    assert len(pages) == 4
    half = int(t.overlap / 2) - 4                     # the window around a cross stays inside both tiles' clips
    checked = 0
    for r in range(t.rows):
        for c in range(t.cols):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 >= t.rows or c2 >= t.cols:
                    continue
                for x, y in set(t.crosses(r, c)) & set(t.crosses(r2, c2)):
                    crops = []
                    for rr, cc in ((r, c), (r2, c2)):
                        win = t.window(rr, cc)
                        px, py = round(t.area.x - win.x + x), round(t.area.y - win.y + y)
                        crops.append(pages[rr * t.cols + cc].crop((px - half, py - half, px + half, py + half)).tobytes())
                    assert crops[0] == crops[1], ((r, c), (r2, c2), (x, y))
                    checked += 1
    assert checked == 8                                                # two crosses on each of the four seams


def test_every_seam_has_two_crosses_even_where_the_last_tile_reaches_past_the_map() -> None:
    """Borodino's tiles on Letter: the last row's window runs 425 pt past the map's foot, and its seams had
    one cross each (the second quarter point fell off the map); one cross cannot square two tiles."""
    t = Tiling("letter", 2031.84, 1716.72)
    assert (t.rows, t.cols) == (3, 4) and t.window(2, 0).bottom > t.map_h + 400
    for r in range(t.rows):
        for c in range(t.cols):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < t.rows and c2 < t.cols:
                    assert len(set(t.crosses(r, c)) & set(t.crosses(r2, c2))) == 2, ((r, c), (r2, c2))


def test_rgb_print_pixels_compressed_in_bands_are_the_bytes_of_the_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The print PDFs compress the RGB map band by band (no second copy of a 300 ppi map): the same bytes as
    pdf.encode_image compressing the whole raster, so the PDFs are unchanged."""
    from modulebuilder.render import map_print
    from modulebuilder.render.pdf import encode_image
    img = Image.radial_gradient("L").convert("RGB").resize((91, 67))
    monkeypatch.setattr(map_print, "BAND_ROWS", 5)
    banded = map_print.print_art(img)
    assert isinstance(banded, map_print.EncodedImage) and banded == encode_image(img)
