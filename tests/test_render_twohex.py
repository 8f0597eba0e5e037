"""Two-hex (Musket & Pike) counters: face geometry, the Shaken back, and their place on print sheets
(two adjacent slots of one row, never split across rows or pages; the back over the mirrored pair)."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from PIL import Image

from modulebuilder.model import ActivationGroup, CounterSet, Face, Unit
from modulebuilder.render.counters import SHAKEN_AMBER, back_treatment, render_unit_face
from modulebuilder.render.faces import face_drawings, render_faces
from modulebuilder.render.print_items import (PrintItem, page_slots, paginate, paginate_by_span, print_items,
                                              slot_positions)
from modulebuilder.render.print_job import PrintOptions, build_print_job
from modulebuilder.render.sheet_layout import SheetGeometry
from modulebuilder.render.sheets import FaceSource, page_placements, page_png
from modulebuilder.render.sources import load_sources

ROOT = Path(__file__).resolve().parents[1]
AG = ActivationGroup("c", "Centre", "Swedish", "#1f4fa0", 4, text_colour="#ffffff", label="C")
FRONT = Face(assault=6, cohesion=7, ma=4, dfe=3)
BACK = Face(assault=4, cohesion=5, ma=3, dfe=2)


def unit(uid: str, size: int = 1, flags: frozenset[str] = frozenset({"heavy", "pikes"})) -> Unit:
    return Unit(uid, f"Brigade {uid}", "infantry", "Swedish", "c", FRONT, BACK, flags=flags, size=size)


def counters(*units: Unit) -> CounterSet:
    return CounterSet(activation_groups=(AG,), units=units)


def is_amber(px: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 8 for a, b in zip(px, SHAKEN_AMBER))


# ------------------------------------------------------------------------------------------ faces

@pytest.mark.parametrize("face", ["front", "back"])
@pytest.mark.parametrize("back", ["disordered", "shaken"])
def test_two_hex_face_is_exactly_two_sides_wide(face: str, back: str) -> None:
    img = render_unit_face(unit("y", 2), AG, face, 90, back=back)          # type: ignore[arg-type]
    assert img.size == (180, 90)
    assert render_unit_face(unit("m", 1), AG, face, 90, back=back).size == (90, 90)   # type: ignore[arg-type]


def test_render_faces_keeps_each_face_its_own_size() -> None:
    faces = render_faces(counters(unit("y", 2), unit("m", 1)), 60, workers=2, back="shaken")
    assert {k: v.size for k, v in faces.items()} == {
        "y/front": (120, 60), "y/back": (120, 60), "m/front": (60, 60), "m/back": (60, 60)}


def test_two_hex_face_is_one_continuous_counter() -> None:
    """The AG band runs unbroken across both halves, and the symbol sits on the join, not in a half."""
    img = render_unit_face(unit("y", 2), AG, "front", 100)
    band_row = [img.getpixel((x, 3)) for x in range(img.width)]
    assert len(set(band_row)) == 1                                  # no seam at x = 100
    symbol_rows = range(34, 56)                                     # MID_Y ± half the symbol height
    dark = [x for x in range(img.width) for y in symbol_rows if sum(img.getpixel((x, y))) < 90]
    assert min(dark) < 100 < max(dark)                              # the symbol's frame straddles the join


def test_shaken_back_has_the_amber_frame_and_no_red_stripe() -> None:
    shaken = render_unit_face(unit("y", 2), AG, "back", 100, back="shaken")
    disordered = render_unit_face(unit("y", 2), AG, "back", 100, back="disordered")
    corners = [(1, 1), (198, 1), (1, 98), (198, 98), (100, 98)]
    assert all(is_amber(shaken.getpixel(p)) for p in corners)
    assert not any(is_amber(disordered.getpixel(p)) for p in corners)
    # The Disordered stripe crosses the lower left corner in red; the Shaken side has none.
    r, g, b = disordered.getpixel((8, 92))
    assert r > g + 60 and r > b + 60
    reds = [(x, y) for x in range(10, 190, 2) for y in range(30, 90, 2)
            if (px := shaken.getpixel((x, y)))[0] > px[1] + 60 and px[0] > px[2] + 60 and not is_amber(px)]
    assert reds == []


def test_fronts_do_not_depend_on_the_back_treatment() -> None:
    u = unit("y", 2)
    assert render_unit_face(u, AG, "front", 80, back="shaken").tobytes() == \
        render_unit_face(u, AG, "front", 80).tobytes()


def test_pikes_get_their_own_symbol() -> None:
    pikes = render_unit_face(unit("p", 1), AG, "front", 100)
    plain = render_unit_face(unit("h", 1, frozenset({"heavy"})), AG, "front", 100)
    sym = (30, 31, 70, 59)
    assert pikes.crop(sym).tobytes() != plain.crop(sym).tobytes()


def test_back_treatment_comes_from_the_ruleset() -> None:
    assert back_treatment("musket-and-pike") == "shaken"
    assert back_treatment("triumph-and-glory") == "disordered"
    assert back_treatment(None) == "disordered"
    assert load_sources([ROOT / "scenarios/mp-sample.yaml"]).back == "shaken"
    assert load_sources([ROOT / "scenarios/borodino.yaml"]).back == "disordered"
    with pytest.raises(ValueError, match="different rulesets"):
        _ = load_sources([ROOT / "scenarios/mp-sample.yaml", ROOT / "scenarios/borodino.yaml"]).back


# ------------------------------------------------------------------------------------------ sheets

def items(*spans: int) -> list[PrintItem]:
    return [PrintItem(f"c{i}", f"c{i}/front", f"c{i}/back", 1, s) for i, s in enumerate(spans)]


def test_a_pair_never_straddles_a_row() -> None:
    assert list(slot_positions([1, 1, 2, 2, 1, 1], 3)) == [(0, 0), (0, 1), (1, 0), (2, 0), (2, 2), (3, 0)]
    assert list(slot_positions([1] * 5, 3)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]   # singles: divmod
    with pytest.raises(ValueError):
        list(slot_positions([2], 1))


def test_a_pair_that_would_straddle_a_page_starts_the_next_page() -> None:
    # 2 rows x 3 columns: the pair would take the last slot of page 1 and the first of page 2.
    pages = paginate(items(1, 1, 1, 1, 1, 2, 1), per_page=6, cols=3)
    assert [[i.id for i in p] for p in pages] == [["c0", "c1", "c2", "c3", "c4"], ["c5", "c6"]]
    assert [(s.item.id, s.row, s.col) for s in page_slots(pages[1], 3)] == [("c5", 0, 0), ("c6", 0, 2)]


@pytest.mark.parametrize("layout", ["duplex", "gutter"])
def test_pair_cut_box_is_two_sides_and_its_back_is_the_mirrored_pair(layout: str) -> None:
    geo = SheetGeometry("letter", Fraction(5, 8), Fraction(1, 16), Fraction(1, 4), layout).for_span(2)  # type: ignore[arg-type]
    pw = geo.page[0]
    for col in range(geo.cols):
        front = geo.slot(1, col)
        assert (front.w, front.h) == (2 * geo.counter_pt, geo.counter_pt)
        back = geo.back_slot(1, col)
        assert back.x == pytest.approx(pw - front.right) and back.w == front.w and back.y == front.y
    with pytest.raises(IndexError):
        geo.slot(0, geo.cols)


@pytest.mark.parametrize("layout", ["duplex", "gutter"])
@pytest.mark.parametrize("bleed", [Fraction(1, 16), Fraction(1, 8), Fraction(0)])
def test_two_hex_crop_marks_sit_on_both_cut_edges(layout: str, bleed: Fraction) -> None:
    """The defect: a pair's right edge was 2 x bleed (1/8") short of the crop mark beside it.  Every
    vertical crop mark of the two-hex grid is now on a counter's left or right cut line, front and back."""
    geo = SheetGeometry("letter", Fraction(5, 8), bleed, Fraction(1, 4), layout).for_span(2)  # type: ignore[arg-type]
    for side in ("front", "back"):
        xs = sorted({round(m.x0, 6) for m in geo.crop_marks(side) if m.x0 == m.x1})       # type: ignore[arg-type]
        edges = sorted({round(v, 6) for c in range(geo.cols) for r in [geo.slot(0, c) if side == "front"
                        else geo.back_slot(0, c)] for v in (r.x, r.right)})
        assert xs == edges
        for c in range(geo.cols):
            r = geo.slot(0, c) if side == "front" else geo.back_slot(0, c)
            assert r.right - r.x == pytest.approx(2 * 45.0)          # exactly two 5/8" sides


def test_page_placements_put_one_unsplit_image_on_the_pair() -> None:
    geo = SheetGeometry("letter", Fraction(5, 8), Fraction(1, 16), Fraction(1, 4))
    cs = counters(*(unit(f"s{i}") for i in range(geo.cols - 1)), unit("y", 2))
    faces = face_drawings(cs, 60, back="shaken")
    pages = paginate_by_span(print_items(cs, faces), geo)
    assert [(g.span, len(p)) for g, p in pages] == [(1, geo.cols - 1), (2, 1)]   # the pair on its own grid
    g2, page = pages[1]
    front = page_placements(g2, page, "front")
    back = page_placements(g2, page, "back")
    assert [p.key for p in front] == ["y/front"] and [p.key for p in back] == ["y/back"]
    assert front[0].cut == g2.slot(0, 0) and back[0].cut == g2.back_slot(0, 0)
    # Drawn with bleed and the face's own aspect: the whole 2:1 face, not half of it, fills the pair.
    src = FaceSource(faces, 60, 6)
    box = src.drawn_box(front[0].cut)
    scale = front[0].cut.h / 60
    assert box.w == pytest.approx(front[0].cut.w + 12 * scale) and box.h == pytest.approx(front[0].cut.h + 12 * scale)


def test_back_page_png_shows_the_whole_shaken_back_on_the_mirrored_pair() -> None:
    geo = SheetGeometry("letter", Fraction(5, 8), Fraction(1, 16), Fraction(1, 4))
    cs = counters(unit("y", 2))
    faces = render_faces(cs, 63, workers=1, back="shaken")
    geo, page = paginate_by_span(print_items(cs, faces), geo)[0]
    img: Image.Image = page_png(geo, page, FaceSource(face_drawings(cs, 63, back="shaken"), 63, 6), "back", 100)
    cut = geo.back_slot(0, 0)
    k = 100 / 72
    inside = lambda fx, fy: img.getpixel((round((cut.x + fx * cut.w) * k), round((cut.y + fy * cut.h) * k)))  # noqa: E731
    # Both ends of the amber frame are on the page: the back is one image across the pair.
    assert is_amber(inside(0.004, 0.5)) and is_amber(inside(0.996, 0.5))


def test_print_job_of_the_musket_and_pike_sample(tmp_path: Path) -> None:
    sources = load_sources([ROOT / "scenarios/mp-sample.yaml"])
    # 5/8" is the default print size; every name of the sample must stay legible at it.
    opts = PrintOptions(Fraction(5, 8), layout="both", back=sources.back)
    files = build_print_job(sources.counters, tmp_path, opts)
    assert {f.name for f in files} == {"counters-duplex.pdf", "counters-gutter.pdf", "calibration.pdf"}
    again = build_print_job(sources.counters, tmp_path / "again", opts)
    assert [f.read_bytes() for f in files] == [f.read_bytes() for f in again]


def test_counters_command_draws_musket_and_pike_backs_shaken_and_borodino_disordered(tmp_path: Path) -> None:
    from modulebuilder.cli import main
    assert main(["counters", str(ROOT / "scenarios/mp-sample.yaml"), "--px", "120", "--out", str(tmp_path / "mp")]) == 0
    back = Image.open(tmp_path / "mp" / "sw-yellow-brigade-back.png").convert("RGB")
    assert back.size == (240, 120) and is_amber(back.getpixel((1, 119)))
    assert Image.open(tmp_path / "mp" / "sw-musketeers-c-front.png").size == (120, 120)
    assert main(["counters", str(ROOT / "scenarios/borodino.yaml"), "--px", "120", "--out", str(tmp_path / "b")]) == 0
    first = next(u for u in load_sources([ROOT / "scenarios/borodino.yaml"]).counters.units if u.back is not None)
    tg_back = Image.open(tmp_path / "b" / f"{first.id}-back.png").convert("RGB")
    assert not is_amber(tg_back.getpixel((1, 119)))


def test_nothing_is_dropped_or_substituted_without_a_word() -> None:
    """Issue #14: at 5/8" the Musket & Pike backs lost "Shaken" silently and a long name fell to the
    regular weight silently.  Both are now reported, one line per counter, in points."""
    from modulebuilder.render.faces import face_drawings
    sources = load_sources([ROOT / "scenarios/mp-sample.yaml"])
    notes: list[str] = []
    face_drawings(sources.counters, 188, dpi=300, back=sources.back, log=notes.append)
    shaken = [n for n in notes if "'Shaken'" in n]
    backs = [u for u in sources.counters.units if u.back is not None]
    assert len(shaken) == len(backs) and all("4.3 pt (minimum 5.0 pt)" in n for n in shaken)
    assert any("'Pappenheim Cuir' is printed in the regular weight at 5.3 pt" in n for n in notes)
    notes.clear()
    face_drawings(sources.counters, 300, dpi=300, back=sources.back, log=notes.append)      # 1": room for all
    assert not [n for n in notes if "'Shaken'" in n]
