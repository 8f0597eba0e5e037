"""Two-hex (Musket & Pike) pieces in the module: one image across two hexes that turns about the set-up hex.

The pure tests check the padded image; the ``vassal`` tests load modules in the REAL engine
(shared/tools/vassal-check) and check, for every two-hex unit, that the engine puts the piece in its set-up
hex (the left half L), with the set-up facing, and that the point where the engine's rotation carries the
right half's centre is the hex the Musket & Pike ruleset calls R (``right_half``: the neighbour at hour
facing + 3).
"""
from __future__ import annotations

import dataclasses
import re
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from fixtures.vassal.scenarios import counters as tg_counters, mapdef
from modulebuilder.definitions import load_scenario
from modulebuilder.hexgrid import HexGrid, HexLayout
from modulebuilder.model import Grid, Placement, Scenario, SideDef, TurnTrack
from modulebuilder.render.counters import SHAKEN_AMBER
from modulebuilder.render.map import map_layout
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal.facing import facing_hour, rotator_state
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.twohex import anchored_face, counter_box, pair_spacing, padded_size, second_half_offset
from referee.rulesets.musket_and_pike.facing import right_half

ROOT = Path(__file__).resolve().parents[1]
PROPS = ("UnitId", "Facing_Facing", "Facing_Degrees")
# Interior hexes (8 x 8 map, first column and row 1): every neighbour exists, whatever the facing.
BRIGADE_HEXES = ("0302", "0602", "0304", "0604", "0306", "0606")


# ------------------------------------------------------------------------------------------ scenarios

def two_hex_scenario(orientation: str, shifted: str) -> Scenario:
    """Six two-hex pike brigades, one per legal facing, a single-hex unit and a leader (M&P ruleset)."""
    g = Grid(orientation, shifted, 1, 1, columns=8, rows=8)      # type: ignore[arg-type]
    base = tg_counters()
    template = base.units[0]
    brigades = tuple(dataclasses.replace(template, id=f"brigade-{i}", name=f"Brigade {i}", size=2,
                                         flags=frozenset({"heavy", "pikes"})) for i in range(6))
    cs = dataclasses.replace(base, units=(*brigades, base.units[1]), leaders=(base.leaders[0],),
                             markers=())
    hours = HexGrid.from_model(g).vertex_hours
    setup = tuple(Placement(b.id, hex=h, facing=f) for b, h, f in zip(brigades, BRIGADE_HEXES, hours))
    setup += (Placement(base.units[1].id, hex="0405", facing=hours[0]), Placement("napoleon", hex="0405"))
    return Scenario(f"twohex-{orientation}", f"Two-hex {orientation}", "musket-and-pike", mapdef(g), cs,
                    (SideDef("French", "napoleon"),), TurnTrack(1, 2, None, None), setup)


def images_of(vmod: Path) -> dict[str, Image.Image]:
    with zipfile.ZipFile(vmod) as z:
        return {n[len("images/"):]: Image.open(BytesIO(z.read(n))) for n in z.namelist() if n.startswith("images/")}


def layout_of(s: Scenario) -> HexLayout:
    return map_layout(s.map, None)[0]


# ------------------------------------------------------------------------------------------ pure

def test_padded_image_is_centred_on_the_left_half_hex() -> None:
    face = Image.new("RGB", (120, 60), (10, 20, 30))
    img = anchored_face(face, 96)
    assert img.size == padded_size(60, 96) == (216, 60) and img.mode == "RGBA"
    left, top, right, bottom = counter_box(60, 96)
    assert (left, right) == (96, 216)                              # the canvas ends at the counter's edge
    assert img.getpixel((left - 1, 30))[3] == 0 and img.getpixel((left, 30)) == (10, 20, 30, 255)
    centre = img.width / 2
    # The counter is centred on the midpoint of L (image centre) and R (spacing to the east).
    assert (left + right) / 2 == centre + 96 / 2
    # Both hex centres are on the counter: L at the image centre, R one spacing east of it.
    assert img.getpixel((int(centre), 30))[3] == 255 and img.getpixel((int(centre) + 96, 30))[3] == 255
    with pytest.raises(ValueError):
        anchored_face(Image.new("RGB", (60, 60)), 96)


def test_pair_spacing_is_the_neighbour_distance_rounded_to_even() -> None:
    s = two_hex_scenario("pointy", "even")
    layout = layout_of(s)
    a, b = layout.center("0304"), layout.center("0404")              # east neighbours on a pointy grid
    spacing = pair_spacing(layout)
    assert spacing % 2 == 0 and abs(spacing - (b[0] - a[0])) <= 1


def test_second_half_offset_turns_clockwise_on_screen() -> None:
    x, y = second_half_offset(100, 90)                              # 3 o'clock turned a quarter: 6 o'clock
    assert (round(x), round(y)) == (0, 100)


def test_module_images_two_hex_padded_shaken_backs_and_deterministic(tmp_path: Path) -> None:
    s = two_hex_scenario("pointy", "even")
    vmod = build([s], tmp_path / "a").path
    imgs = images_of(vmod)
    side = imgs["dumon-b-front.png"].height
    spacing = pair_spacing(layout_of(s))
    for face in ("front", "back"):
        assert imgs[f"brigade-0-{face}.png"].size == padded_size(side, spacing)
    assert imgs["dumon-b-front.png"].size == (side, side)           # single-hex pieces are unchanged
    back = imgs["brigade-0-back.png"].convert("RGB")
    left, *_ = counter_box(side, spacing)
    assert all(abs(a - b) <= 8 for a, b in zip(back.getpixel((left + 1, side // 2)), SHAKEN_AMBER))
    with zipfile.ZipFile(vmod) as z:
        build_file = z.read("buildFile.xml").decode()
    slots = dict(re.findall(r'PieceSlot entryName="([^"]+)"[^>]* width="(\d+)"', build_file))
    assert slots["Brigade 0"] == str(padded_size(side, spacing)[0]) and slots["Dumon b"] == str(side)
    # Byte-identical rebuilds: with a fresh cache and from the cache.
    assert build([s], tmp_path / "b").path.read_bytes() == vmod.read_bytes()
    assert build([s], tmp_path / "a").path.read_bytes() == vmod.read_bytes()


def test_musket_and_pike_backs_are_called_shaken_and_a_shaken_set_up_shows_them(tmp_path: Path) -> None:
    s = two_hex_scenario("pointy", "even")
    first, *rest = s.setup
    s = dataclasses.replace(s, setup=(dataclasses.replace(first, formation="shaken"), *rest))
    vmod = build([s], tmp_path).path
    with zipfile.ZipFile(vmod) as z:
        build_file = z.read("buildFile.xml").decode()
        game = read_game(z.read(f"{s.id}.vsav"))
    # The layer's menu item and name suffix say Shaken; the layer (and its property) keeps its name.
    assert "emb2;Shaken;" in build_file and "+ (Shaken)" in build_file and "+ (D)" not in build_file
    units = game.by_unit()
    assert units[first.unit].properties["Disorder_Active"] == "true"          # the Shaken side is up
    assert units[rest[0].unit].properties["Disorder_Active"] == "false"


def test_one_module_cannot_mix_rulesets_backs(tmp_path: Path) -> None:
    mp = two_hex_scenario("pointy", "even")
    tg = dataclasses.replace(mp, id="tg", ruleset="triumph-and-glory")
    with pytest.raises(ValueError, match="same ruleset"):
        build([mp, tg], tmp_path)


# ------------------------------------------------------------------------------------------ real engine



def _setup_file(vmod: Path, scenario_id: str, out: Path) -> Path:
    with zipfile.ZipFile(vmod) as z:
        (out / f"{scenario_id}.vsav").write_bytes(z.read(f"{scenario_id}.vsav"))
    return out / f"{scenario_id}.vsav"


def expected_second_halves(s: Scenario) -> dict[tuple[int, int], str]:
    """Pixel -> hex: where each two-hex piece's right-half centre lands once turned to its facing, and the
    hex the Musket & Pike ruleset says R is there."""
    grid = HexGrid.from_model(s.map.grid)
    layout = layout_of(s)
    spacing = pair_spacing(layout)
    orientation = s.map.grid.orientation
    two_hex = {u.id for u in s.counters.units if u.size == 2}
    out: dict[tuple[int, int], str] = {}
    for placement in s.setup:
        if placement.unit in two_hex and placement.hex is not None:
            x, y = layout.center(placement.hex)
            dx, dy = second_half_offset(spacing, drawn_degrees(orientation, placement.facing))
            out[(round(x + dx), round(y + dy))] = right_half(grid, placement.hex, placement.facing)
    return out


def drawn_degrees(orientation: str, facing: int) -> float:
    """The clockwise turn the engine draws for a facing: 60 per rotator state (facing.py), plus the fixed
    30-degree offset rotator on flat grids."""
    return 60 * rotator_state(orientation, facing) + (30 if orientation == "flat" else 0)   # type: ignore[arg-type]


def check_in_engine(s: Scenario, tmp_path: Path) -> None:
    """Load ``s``'s module and set-up in the engine; assert every unit's hex, facing and drawn turn, and
    the hex the engine names under each two-hex piece's right half."""
    vmod = build([s], tmp_path / "out").path
    save = _setup_file(vmod, s.id, tmp_path)
    points = expected_second_halves(s)
    assert points, "the scenario has no two-hex unit on the map"
    run = enginecheck.vcheck(vmod, save, props=PROPS, points=points)
    assert run.ok, "\n".join(run.lines[-30:])
    assert run.problems == []
    pieces = {p.props["UnitId"]: p for p in run.pieces_after("loaded") if p.props.get("UnitId", "null") != "null"}
    orientation = s.map.grid.orientation
    units = {u.id for u in s.counters.units}
    for placement in s.setup:
        if placement.hex is None:
            continue
        p = pieces[placement.unit]
        assert (p.map, p.location) == ("Main Map", placement.hex), placement
        if placement.unit in units:                                  # leaders have no facing
            assert facing_hour(orientation, int(p.props["Facing_Facing"]) - 1) == placement.facing, placement
            # The engine's turn of the Facing rotator (clockwise degrees) is the one the points assume.
            assert float(p.props["Facing_Degrees"]) == 60 * rotator_state(orientation, placement.facing)
    assert {(x, y): name for x, y, name, _, _ in run.locations} == points


@pytest.mark.vassal
@pytest.mark.parametrize("orientation,shifted", [("pointy", "even"), ("flat", "odd")])
def test_engine_two_hex_pieces_cover_left_and_right_hex(engine, orientation: str, shifted: str,
                                                        tmp_path: Path) -> None:
    check_in_engine(two_hex_scenario(orientation, shifted), tmp_path)


@pytest.mark.vassal
def test_engine_loads_the_musket_and_pike_sample(engine, tmp_path: Path) -> None:
    s = load_scenario(ROOT / "scenarios" / "mp-sample.yaml")
    assert any(u.size == 2 for u in s.counters.units)
    check_in_engine(s, tmp_path)
