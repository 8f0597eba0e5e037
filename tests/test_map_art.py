"""The author's map art: a map names an image and places the grid on it by the pixel centres of two hexes;
the module's map and the print PDFs are the art, the VASSAL grid lies on the art's hexes (checked in the
REAL engine: a unit set up on 1208 sits on the painted 1208), and ``map --check-grid`` draws the grid over
the art.  The art here is painted by the test with a known grid at an offset from the image corner (and a
title band above it, as painted maps have), so every expected pixel is computed, not read back."""
from __future__ import annotations

import math
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from modulebuilder.definitions import load_scenario, validate_files
from modulebuilder.hexgrid import HexGrid, HexLayout
from modulebuilder.mapart import ArtFitError, fit_layout
from modulebuilder.model import Grid
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "examples" / "tiny"

# The painted grid: 12 x 10 pointy hexes of 37.5 px, its box 61 px right of and 97 px below the corner.
GRID = Grid("pointy", "even", 1, 1, 12, 10)
PAINTED = HexLayout(HexGrid.from_model(GRID), 37.5, (61, 97))
ART_SIZE = (1000, 820)
MARK = (200, 30, 30)                   # the dot painted at the centre of 1208


def paint_art(path: Path) -> None:
    """A parchment map with its own hexes, a title band and a red dot on 1208 (PNG or JPEG by suffix)."""
    img = Image.new("RGB", ART_SIZE, (236, 224, 188))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, ART_SIZE[0], 60), fill=(120, 90, 60))          # the title band the art has
    for h in PAINTED.grid.hexes():
        pts = PAINTED.corners(h)
        fill = (111, 154, 74) if h in ("0506", "0606", "0607") else None
        d.polygon(pts, fill=fill, outline=(90, 80, 60))
    x, y = PAINTED.center("1208")
    d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=MARK)
    img.save(path)


def centre(h: str) -> list[float]:
    x, y = PAINTED.center(h)
    return [round(x, 2), round(y, 2)]


def art_game(folder: Path, *, art: str | None = None, image: str = "art/tiny.png") -> Path:
    """examples/tiny on a 12 x 10 map with painted art, Dumon a set up on 1208; the scenario's path."""
    shutil.copytree(TINY, folder, dirs_exist_ok=True)
    (folder / "art").mkdir(exist_ok=True)
    paint_art(folder / image)
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    text = text.replace("columns: 8, rows: 8", "columns: 12, rows: 10")
    art = art or f'art: {{image: {image}, hexes: {{"0101": {centre("0101")}, "1208": {centre("1208")}}}}}'
    (folder / "map.yaml").write_text(text + art + "\n", encoding="utf-8")
    scenario = folder / "scenario.yaml"
    scenario.write_text(scenario.read_text(encoding="utf-8").replace('{unit: dumon-a, hex: "0203", facing: 2}',
                                                                      '{unit: dumon-a, hex: "1208", facing: 2}'))
    return scenario


# --------------------------------------------------------------------------------------------- geometry

@settings(max_examples=200, deadline=None)
@given(orientation=st.sampled_from(["flat", "pointy"]), shifted=st.sampled_from(["even", "odd"]),
       first=st.integers(0, 3), size=st.floats(8, 200), ox=st.floats(-500, 500), oy=st.floats(-500, 500),
       a=st.integers(0, 11 * 9), b=st.integers(0, 11 * 9))
def test_two_centres_give_back_every_centre_of_the_grid(orientation, shifted, first, size, ox, oy, a, b) -> None:
    grid = HexGrid.from_model(Grid(orientation, shifted, first, first, 12, 10))
    true = HexLayout(grid, size, (ox, oy))
    hexes = grid.hexes()
    ha, hb = hexes[a % len(hexes)], hexes[b % len(hexes)]
    if ha == hb:
        with pytest.raises(ArtFitError, match="must differ"):
            fit_layout(grid, [(ha, true.center(ha)), (hb, true.center(hb))])
        return
    fitted = fit_layout(grid, [(ha, true.center(ha)), (hb, true.center(hb))])
    for h in hexes:
        assert math.dist(fitted.center(h), true.center(h)) < 1e-6 * max(1.0, size)


def test_centres_that_no_regular_hexes_have_are_refused() -> None:
    grid = HexGrid.from_model(GRID)
    x, y = PAINTED.center("1208")
    with pytest.raises(ArtFitError, match=r"would put '1208' at \(\d+, \d+\), 35 px from \(840, 568\): check"):
        fit_layout(grid, [("0101", PAINTED.center("0101")), ("1208", (x, y + 40))])
    with pytest.raises(ArtFitError, match="the other way"):
        fit_layout(grid, [("0101", PAINTED.center("1208")), ("1208", PAINTED.center("0101"))])


# --------------------------------------------------------------------------------------------- definitions

def test_the_map_loads_with_its_art_and_the_grid_where_the_art_has_it(tmp_path: Path) -> None:
    scenario = load_scenario(art_game(tmp_path))
    art = scenario.map.art
    assert art is not None and art.image == str(tmp_path / "art" / "tiny.png")
    assert dict(art.hexes) == {"0101": tuple(centre("0101")), "1208": tuple(centre("1208"))}
    from modulebuilder.render.map_art import art_layout
    layout = art_layout(scenario.map)
    assert layout.size == pytest.approx(37.5, abs=0.01)
    assert layout.center("0705") == pytest.approx(PAINTED.center("0705"), abs=0.02)


def test_the_module_grid_is_the_layout_of_the_art_it_shows_at_every_hex_size(tmp_path: Path) -> None:
    """The grid written into the module (screen_layout) is the one the shown art was resized with, also at a
    --hex-size equal to the art's own, where the art is shown unchanged."""
    from modulebuilder.render.map_art import art_layout, screen_art, screen_layout
    mapdef = load_scenario(art_game(tmp_path)).map
    own = art_layout(mapdef).size
    for hex_size in (None, own, own * (1 + 1e-12), 20.0, 75.0):
        img, shown = screen_art(mapdef, hex_size)
        grid = screen_layout(mapdef, hex_size)
        assert (grid.size, grid.origin) == (shown.size, shown.origin), hex_size
        assert (img.size == ART_SIZE) == (hex_size is None or math.isclose(hex_size, own)), hex_size


@pytest.mark.parametrize("art, line", [
    ('art: {image: art/none.png, hexes: {"0101": [10, 10], "1208": [500, 500]}}',
     "art.image: no such file: {tmp}/art/none.png"),
    ('art: {image: art/tiny.png, hexes: {"0101": [84, 134], "1299": [500, 500]}}',
     "art.hexes.1299: hex '1299' is not on the map (columns 1-12, rows 1-10)"),
    ('art: {image: art/tiny.png, hexes: {"0101": [84, 134], "1208": [900, 500]}}',
     "art.hexes: regular hexes of "),
    ('art: {image: art/tiny.png, hexes: {"0101": [884, 134], "0201": [930, 134]}}',
     "art.hexes: these centres put 90 hex centre(s) outside the 1000 x 820 image (hex '0401' at (1022, 134))"),
    ('art: {image: art/tiny.png, hexes: {"0101": [84, 134]}}', "art.hexes: "),
    (f'art: {{image: art/tiny.gif, hexes: {{"0101": {centre("0101")}, "1208": {centre("1208")}}}}}',
     "art.image: must be a PNG or JPEG file"),
    (f'art: {{image: art/tiny.png, hexes: {{"0101": {centre("0101")}, "1208": {centre("1208")}}}, scale: 2}}',
     "art.scale: unknown field 'scale'"),
])
def test_art_mistakes_are_reported_with_file_line_and_field(tmp_path: Path, art: str, line: str) -> None:
    art_game(tmp_path, art=art)
    problems = [str(p) for p in validate_files([tmp_path / "map.yaml"])]
    expected = line.replace("{tmp}", str(tmp_path))
    assert len(problems) == 1 and f"{tmp_path / 'map.yaml'}:36:" in problems[0] and expected in problems[0], problems


def test_a_jpeg_is_art_too(tmp_path: Path) -> None:
    scenario = load_scenario(art_game(tmp_path, image="art/tiny.jpg"))
    assert scenario.map.art is not None and scenario.map.art.image.endswith("tiny.jpg")


# --------------------------------------------------------------------------------------------- outputs

def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "modulebuilder", *args], capture_output=True, text=True, cwd=cwd)


def test_the_map_command_writes_the_art_for_screen_and_print_and_the_grid_check(tmp_path: Path) -> None:
    art_game(tmp_path)
    out = run("map", "map.yaml", "--out", "out", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    # The screen map is the art itself, pixel for pixel (no title band, no legend of ours).
    with Image.open(tmp_path / "out" / "tiny.png") as shown, Image.open(tmp_path / "art" / "tiny.png") as art:
        assert shown.size == art.size and shown.convert("RGB").tobytes() == art.convert("RGB").tobytes()
    # Print: a 3/4 in hex across the flats at 300 dpi is 225 px; the art's is 37.5 * sqrt(3) = 64.95 px.
    factor = 0.75 * 300 / (37.5 * math.sqrt(3))
    assert "note: map art" in out.stderr and "upsampled to 3464 x 2841 px for 300 dpi print" in out.stderr
    listed = subprocess.run(["pdfimages", "-list", str(tmp_path / "out" / "tiny-full.pdf")], capture_output=True,
                            text=True).stdout.splitlines()[2].split()
    assert (int(listed[3]), int(listed[4])) == (round(1000 * factor), round(820 * factor))
    assert listed[12] == listed[13] == "300"
    check = run("map", "map.yaml", "--check-grid", "--out", "out", cwd=tmp_path)
    assert check.returncode == 0 and check.stdout.strip() == "out/tiny-grid-check.png"
    with Image.open(tmp_path / "out" / "tiny-grid-check.png") as img:
        x, y = PAINTED.center("0707")
        assert img.getpixel((round(x), round(y)))[0] > 200 > img.getpixel((round(x), round(y)))[1]   # its dot
        (ax, ay), (bx, by) = PAINTED.corners("0707")[:2]
        r, g, _ = img.getpixel((round((ax + bx) / 2), round((ay + by) / 2)))
        assert r > 180 and g < 40                                                                    # its outline


def test_check_grid_without_art_says_so(tmp_path: Path) -> None:
    out = run("map", str(TINY / "map.yaml"), "--check-grid", "--out", str(tmp_path), cwd=ROOT)
    assert out.returncode == 1 and "--check-grid: map 'tiny' has no art" in out.stderr


@pytest.fixture(scope="module")
def art_module(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("art-game")
    scenario = load_scenario(art_game(folder))
    return folder, build([scenario], folder / "build").path


def test_the_module_map_is_the_art_and_its_grid_is_the_art_grid(art_module) -> None:
    folder, module = art_module
    with zipfile.ZipFile(module) as z:
        names = z.namelist()
        image = next(n for n in names if n.startswith("images/map-"))
        with Image.open(z.open(image)) as shown, Image.open(folder / "art" / "tiny.png") as art:
            assert shown.convert("RGB").tobytes() == art.convert("RGB").tobytes()
        text = z.read("buildFile.xml").decode()
    import re
    from modulebuilder.vassal.gridmap import vassal_grid
    g = vassal_grid(GRID, PAINTED.center)
    attrs = dict(re.findall(r'(\w+)="([^"]*)"', re.search(r"<VASSAL.build.module.map.boardPicker.board.HexGrid [^>]*>",
                                                          text).group(0)))
    assert float(attrs["dx"]) == pytest.approx(g.dx, abs=1e-3) and float(attrs["dy"]) == pytest.approx(g.dy, abs=1e-3)
    assert (int(attrs["x0"]), int(attrs["y0"]), attrs["sideways"]) == (g.x0, g.y0, "true")


@pytest.mark.vassal
def test_a_unit_set_up_on_1208_sits_on_the_painted_1208_in_the_engine(engine, art_module, tmp_path: Path) -> None:
    folder, module = art_module
    with zipfile.ZipFile(module) as z:
        save = next(n for n in z.namelist() if n.endswith(".vsav"))
        (tmp_path / "setup.vsav").write_bytes(z.read(save))
    painted = {h: PAINTED.center(h) for h in ("0101", "0705", "1208", "1210", "0110")}
    result = enginecheck.vcheck(module, tmp_path / "setup.vsav", props=("UnitId",),
                                points=[(round(x), round(y)) for x, y in painted.values()])
    assert result.ok, result.problems or result.lines[-5:]
    piece = next(p for p in result.pieces_after("loaded") if p.props.get("UnitId") == "dumon-a")
    # VASSAL's grid origin is whole pixels and it truncates a centre to whole pixels: within 1.5 px of the
    # painted centre (the hex is 65 px across).
    x, y = painted["1208"]
    assert piece.location == "1208" and math.dist((piece.x, piece.y), (x, y)) <= 1.5, (piece, (x, y))
    # The engine names every painted centre by the hex painted there, snapping to it.
    assert [(loc[2]) for loc in result.locations] == list(painted)
    for (_, _, _, sx, sy), (px, py) in zip(result.locations, painted.values()):
        assert math.dist((sx, sy), (px, py)) <= 1.5
