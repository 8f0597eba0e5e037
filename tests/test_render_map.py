"""The rendered map: hex centres where the layout says, terrain colours, both orientations and shifts,
margins, elevation shading, bad input, determinism."""
from __future__ import annotations

import math
from types import MappingProxyType

import pytest

from modulebuilder.hexgrid import HexGrid, HexLayout
from modulebuilder.model import Grid, Hexside, MapDef, MapStyle, Road
from modulebuilder.render import render_map
from modulebuilder.render.map import SUPERSAMPLE, map_layout
from modulebuilder.render.map_style import Palette, shaded
from modulebuilder.render.colours import luminance, rgb

GRIDS = [(o, s, fc, fr) for o in ("pointy", "flat") for s in ("even", "odd") for fc, fr in ((1, 1), (13, 0))]
# Terrain ids with no symbol, so the hex centre shows the plain fill.
PLAIN = {"sea": "#2050a0", "sand": "#e0c080", "heath": "#a05070"}


def _map(orientation: str, shifted: str, first_col: int = 1, first_row: int = 1, **kw) -> MapDef:
    g = Grid(orientation, shifted, first_col, first_row, 6, 5)  # type: ignore[arg-type]
    names = HexGrid.from_model(g).hexes()
    terrain = {h: ("sea", "sand", "heath")[i % 3] for i, h in enumerate(names) if i % 2 == 0}
    return MapDef("t", "Test", g, "clear", MappingProxyType(terrain),
                  style=MapStyle(hex_size=40, colours=MappingProxyType(PLAIN)), **kw)


@pytest.mark.parametrize("orientation,shifted,first_col,first_row", GRIDS)
def test_hex_centres_show_their_terrain(orientation: str, shifted: str, first_col: int, first_row: int) -> None:
    m = _map(orientation, shifted, first_col, first_row)
    img, layout = render_map(m)
    pal = Palette(m.style.colours)
    for h in layout.grid.hexes():
        x, y = layout.center(h)
        if m.terrain_of(h) in PLAIN:
            assert img.getpixel((round(x), round(y))) == pal[m.terrain_of(h)], h
    # Neighbours really are sqrt(3) * size apart, as the picture was drawn.
    a = layout.grid.hexes()[0]
    for n in layout.grid.neighbours(a).values():
        assert math.dist(layout.center(a), layout.center(n)) == pytest.approx(math.sqrt(3) * 40)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_margin_holds_title_and_legend_and_origin_accounts_for_it(orientation: str) -> None:
    m = _map(orientation, "odd")
    img, layout = render_map(m, 30)
    assert layout.size == 30
    left, top = layout.origin
    assert left > 0 and top > 30                       # title line above the grid
    assert img.width >= left + layout.width and img.height > top + layout.height + 30   # legend below
    assert map_layout(m, 30)[1] == img.size
    # Outside the grid, the margin is the background colour.
    assert img.getpixel((1, 1)) == Palette()["background"]


def test_hex_size_parameter_scales_the_map() -> None:
    m = _map("flat", "even")
    small, ls = render_map(m, 20)
    big, lb = render_map(m, 40)
    assert lb.width == pytest.approx(2 * ls.width)
    assert big.width == pytest.approx(2 * small.width, abs=2)


def test_elevation_is_shaded_lighter_up_and_darker_down() -> None:
    base = rgb("#e0c080")
    assert luminance(shaded(base, 1)) > luminance(base) > luminance(shaded(base, -1))
    g = Grid("pointy", "even", 1, 1, 3, 1)
    m = MapDef("e", "E", g, "sand", MappingProxyType({}), elevation=MappingProxyType({"0101": -1, "0301": 1}),
               style=MapStyle(hex_size=40, colours=MappingProxyType(PLAIN)))
    img, lay = render_map(m)
    lum = {h: luminance(img.getpixel(tuple(round(v) for v in lay.center(h)))) for h in ("0101", "0201", "0301")}
    assert lum["0101"] < lum["0201"] < lum["0301"]


def test_hexside_features_draw_on_the_shared_edge() -> None:
    m = _map("flat", "odd", hexsides=(Hexside(("0202", "0203"), "river"),))
    img, lay = render_map(m)
    hour = lay.grid.direction("0202", "0203")
    x, y = lay.edge_midpoint("0202", hour)
    r, g, b = img.getpixel((round(x), round(y)))
    assert b > r + 40                                  # blue water on the hexside
    with pytest.raises(ValueError, match="not adjacent"):
        render_map(_map("flat", "odd", hexsides=(Hexside(("0101", "0505"), "stream"),)))


def test_roads_pass_through_hex_centres() -> None:
    road = Road(("0101", "0201", "0301"), "road")
    m = _map("pointy", "even", roads=(road,))
    img, lay = render_map(m)
    for h in road.hexes:
        x, y = lay.center(h)
        assert img.getpixel((round(x), round(y))) == Palette()["road"]
    with pytest.raises(ValueError, match="9999"):
        render_map(_map("pointy", "even", roads=(Road(("0101", "9999")),)))


def test_render_is_deterministic() -> None:
    m = _map("flat", "odd", hexsides=(Hexside(("0202", "0203"), "stream"),))
    a, _ = render_map(m)
    b, _ = render_map(m)
    assert a.tobytes() == b.tobytes()


def test_layout_is_the_hexgrid_layout() -> None:
    m = _map("pointy", "odd")
    _, lay = render_map(m)
    assert isinstance(lay, HexLayout)
    assert lay.hex_at(*lay.center("0304")) == "0304"
    assert SUPERSAMPLE >= 1


def test_author_terrain_symbols_bundled_name_or_image(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An unknown terrain was a plain grey hex with no way to give it a symbol (issue #14): the map's
    style.symbols names a bundled symbol or an image for it, drawn in every such hex and in the legend."""
    from dataclasses import replace

    from PIL import Image

    from modulebuilder.model import MapStyle as Styled
    from modulebuilder.render.samples import sample_map

    art = tmp_path / "oasis.png"
    Image.new("RGBA", (40, 40), (200, 20, 200, 255)).save(art)
    base = sample_map()
    hexes = list(HexGrid.from_model(base.grid).hexes())
    plain = replace(base, terrain={**base.terrain, hexes[5]: "oasis", hexes[9]: "jungle"})
    styled = replace(plain, style=Styled(base.style.hex_size, base.style.colours, base.style.margin,
                                         {"oasis": str(art), "jungle": "woods"}))
    img, lay = render_map(styled, 30)
    before, _ = render_map(plain, 30)
    cx, cy = lay.center(hexes[5])
    assert img.getpixel((round(cx), round(cy))) == (200, 20, 200)
    assert before.getpixel((round(cx), round(cy))) != (200, 20, 200)
    jx, jy = lay.center(hexes[9])
    box = (round(jx - 10), round(jy - 10), round(jx + 10), round(jy + 10))
    assert img.crop(box).tobytes() != before.crop(box).tobytes()           # trees drawn in the jungle hex
    bad = replace(styled, style=Styled(base.style.hex_size, base.style.colours, base.style.margin,
                                       {"oasis": str(tmp_path / "missing.png")}))
    with pytest.raises(ValueError, match="oasis"):
        render_map(bad, 30)


def test_author_terrain_symbols_from_the_map_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """style.symbols written in a map's YAML reaches the renderer (the model had no field for it)."""
    from PIL import Image

    from modulebuilder.definitions import load_map

    art = tmp_path / "oasis.png"
    Image.new("RGBA", (40, 40), (200, 20, 200, 255)).save(art)
    (tmp_path / "map.yaml").write_text(
        "id: desert\ntitle: Desert\n"
        "grid: {orientation: pointy, shifted: even, first_column: 1, first_row: 1, columns: 4, rows: 4}\n"
        "terrain: {default: clear, hexes: {oasis: ['0202']}}\n"
        "style: {symbols: {oasis: oasis.png}}\n", encoding="utf-8")
    m = load_map(tmp_path / "map.yaml")
    assert dict(m.style.symbols) == {"oasis": "oasis.png"}
    img, lay = render_map(m, 30)
    cx, cy = lay.center("0202")
    assert img.getpixel((round(cx), round(cy))) == (200, 20, 200)
