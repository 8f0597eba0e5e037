"""Map print versions: the full map at its physical size, and tiles that overlap with shared crosses."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest
from PIL import Image

from modulebuilder.render.map_print import Tiling, full_map_pdf, image_points, tiled_map_pdf


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
    # Neighbours overlap by exactly the overlap.
    assert t.window(0, 0).right - t.window(0, 1).x == pytest.approx(t.overlap)
    assert t.window(0, 0).bottom - t.window(1, 0).y == pytest.approx(t.overlap)
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
