"""The map drawn in strips is the map drawn on one whole canvas, byte for byte, and never needs the whole
supersampled canvas (#17: the module build's peak memory was 212 MiB, 132 MB of it Borodino's 2x canvas)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from modulebuilder.model import MapStyle
from modulebuilder.render import map as M
from modulebuilder.render import map_strips as S
from modulebuilder.render.map_style import Palette
from modulebuilder.render.samples import sample_map

ROOT = Path(__file__).resolve().parents[1]


def whole(mapdef, hex_size=None) -> Image.Image:  # type: ignore[no-untyped-def]
    """The reference: every layer drawn straight onto one canvas, then reduced (the map before strips)."""
    layout, (w, h) = M.map_layout(mapdef, hex_size)
    k = M.supersampling(mapdef, hex_size)
    return S.render_whole(lambda surface: M.paint_map(mapdef, layout, k, surface), (w * k, h * k),
                          Palette(mapdef.style.colours)["background"], k)


def _with_art(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The sample map (every terrain, hexside feature, road, marker, elevation) plus author art, pasted."""
    art = tmp_path / "oasis.png"
    img = Image.new("RGBA", (40, 40), (200, 20, 200, 255))
    img.paste((0, 0, 0, 0), (0, 0, 20, 20))                       # a transparent corner: pasted with a mask
    img.save(art)
    base = sample_map(columns=9, rows=7)
    hexes = sorted(base.terrain)
    style = MapStyle(base.style.hex_size, base.style.colours, base.style.margin, {"oasis": str(art), "jungle": "woods"})
    return dataclasses.replace(base, terrain={**base.terrain, hexes[1]: "oasis", hexes[2]: "jungle"}, style=style)


@pytest.mark.parametrize("strip_rows", [2, 7, 37, None])
@pytest.mark.parametrize("which", ["borodino", "bridgehead", "mp-sample", "sample-pointy"])
def test_strips_are_the_whole_canvas_byte_for_byte(which: str, strip_rows: int | None) -> None:
    from modulebuilder.render.sources import load_map_source
    mapdef = {"borodino": lambda: load_map_source(str(ROOT / "maps/borodino.yaml")),
              "bridgehead": lambda: load_map_source(str(ROOT / "examples/bridgehead/maps/bridgehead.yaml")),
              "mp-sample": lambda: load_map_source(str(ROOT / "maps/mp-sample.yaml")),
              "sample-pointy": lambda: sample_map("pointy", "even", columns=8, rows=6)}[which]()
    hex_size = 21.5 if which == "borodino" else None                  # fractional: every coordinate is cut
    img, _ = M.render_map(mapdef, hex_size, strip_rows)
    assert img.tobytes() == whole(mapdef, hex_size).tobytes()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(strip_rows=st.integers(1, 400), hex_size=st.floats(8, 40))
def test_any_strip_height_gives_the_same_map(tmp_path: Path, strip_rows: int, hex_size: float) -> None:
    mapdef = _with_art(tmp_path)
    img, _ = M.render_map(mapdef, hex_size, strip_rows)
    assert img.tobytes() == whole(mapdef, hex_size).tobytes()


def test_print_resolution_maps_are_drawn_in_strips_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(M, "SUPERSAMPLE_LIMIT_PX", 1)            # k = 1: strips cropped, not reduced
    mapdef = sample_map(columns=6, rows=5)
    img, _ = M.render_map(mapdef, 24, 29)
    assert img.tobytes() == whole(mapdef, 24).tobytes()


def _image_sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """(mode, width, height) of every image ``Image.new`` makes from here on, in order."""
    sizes: list[tuple[str, int, int]] = []
    new = Image.new

    def spy(mode, size, *args, **kw):  # type: ignore[no-untyped-def]
        sizes.append((mode, *size))
        return new(mode, size, *args, **kw)
    monkeypatch.setattr(Image, "new", spy)
    return sizes


def test_no_image_as_large_as_the_supersampled_canvas(monkeypatch: pytest.MonkeyPatch) -> None:
    """The largest image drawn is the result itself; every strip (and every wide outline's mask, which
    ImageDraw makes canvas-sized) holds about STRIP_PIXELS.  Before strips, Borodino's module map drew
    on a 6256 x 5286 canvas (four times the result) and made four such masks for its bridges."""
    from modulebuilder.render.sources import load_map_source
    mapdef = load_map_source(str(ROOT / "maps/borodino.yaml"))
    layout, (w, h) = M.map_layout(mapdef)
    assert M.supersampling(mapdef) == 2
    sizes = _image_sizes(monkeypatch)
    img, _ = M.render_map(mapdef)
    assert img.size == (w, h)
    largest = sorted(sizes, key=lambda s: s[1] * s[2])[-2:]
    assert largest[-1] == ("RGB", w, h)                                 # the result
    strip_px = largest[0][1] * largest[0][2]
    assert strip_px <= S.STRIP_PIXELS + 2 * w * 2, largest              # a strip: rows of the 2x canvas
    assert any(mode == "1" for mode, *_ in sizes)                       # the bridges' outlines were drawn


def test_a_drawing_call_strips_do_not_know_is_refused() -> None:
    """A Pillow that draws through a call the strips cannot move is noticed, not silently mis-drawn."""
    rec = S.Recording()
    with pytest.raises(NotImplementedError, match="draw_chord"):
        rec.draw.chord((0, 0, 10, 10), 0, 90, fill=(1, 2, 3))


def test_a_map_twice_as_large_needs_strips_no_taller_and_a_recording_twice_as_long(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#17, scale: Borodino repeated twice side by side (a generated map file).  The module's map image is
    the only image that grows; each strip stays within STRIP_PIXELS (half as many rows of a canvas twice as
    wide) and the recording grows with the hexes, so memory is the result plus a bounded strip."""
    from modulebuilder.definitions import load_map
    from modulebuilder.render.map_samples import write_widened_map
    from modulebuilder.vassal.mapnames import module_map_png
    maps = {n: load_map(write_widened_map(ROOT / "maps/borodino.yaml", n, tmp_path / f"x{n}.yaml")) for n in (1, 2)}
    assert maps[2].grid.columns == 84 and len(maps[2].terrain) == 2 * len(maps[1].terrain)
    calls = {}
    for n, m in maps.items():
        layout, _ = M.map_layout(m)
        rec = S.Recording()
        M.paint_map(m, layout, M.supersampling(m), rec)
        calls[n] = len(rec)
    assert 1.8 < calls[2] / calls[1] < 2.2, calls
    sizes = _image_sizes(monkeypatch)
    data = module_map_png(maps[2], None, 58)
    w, h = Image.open(__import__("io").BytesIO(data)).size
    assert (w, h) == M.map_layout(maps[2])[1] and w > 1.9 * M.map_layout(maps[1])[1][0]
    others = [s for s in sizes if s != ("RGB", w, h)]
    assert ("RGB", w, h) in sizes and max(a * b for _, a, b in others) <= S.STRIP_PIXELS + 2 * (2 * w)
