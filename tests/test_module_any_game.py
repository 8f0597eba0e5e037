"""Modules for any game: the game file decides the look (its counter template, for every command), what a
unit's back is called and what it holds, the dice, the phases, the cup, the facing and the About text; a game
that names no referee ruleset builds; counter art per unit by a path pattern; flags drawn as documented; a
character no font has is the same error in every command.  The example game examples/orne-1944 is the
proof (its engine check: tests/test_vassal_orne.py)."""
from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from modulebuilder.cli import main
from modulebuilder.definitions import load_scenario
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal import play
from modulebuilder.dice import die

ROOT = Path(__file__).resolve().parents[1]
ORNE = ROOT / "examples" / "orne-1944"
SCENARIO = ORNE / "scenarios" / "hill-112.yaml"


@pytest.fixture(scope="module")
def orne():
    return load_scenario(SCENARIO)


@pytest.fixture(scope="module")
def orne_module(orne, tmp_path_factory) -> Path:
    return build([orne], tmp_path_factory.mktemp("orne")).path


def _zip_text(module: Path, name: str) -> str:
    return zipfile.ZipFile(module).read(name).decode()


# --------------------------------------------------------------------------------------------- the game file

def test_a_scenario_that_names_no_ruleset_loads_with_the_game_files_machinery(orne) -> None:
    assert orne.ruleset == ""
    g = orne.game
    assert (g.template, g.back_side, g.dice, g.cup, g.facing) == ("nato", "Reduced", "d6", False, False)
    assert g.phases == ("Movement Phase", "Combat Phase", "Exploitation Phase") and g.per_side
    assert g.about.startswith("Orne Bridgehead's own rules")
    u = next(u for u in orne.counters.units if u.id == "br-7-rtr")
    assert dict(u.fields) == {"attack": 6, "defence": 4, "movement": 8}
    assert dict(u.back_fields) == {"attack": 3, "defence": 3, "movement": 8} and u.two_sided
    assert not next(u for u in orne.counters.units if u.id == "br-204-fd").two_sided   # one-step: no back


@pytest.mark.parametrize("text, die, name, shown", [
    ("d6", (6, 1, 1), "d6", "d6 (1-6)"),
    ("2d6", (6, 1, 2), "2d6", "2d6 (2-12)"),
    ("d10 0-9", (10, 0, 1), "d10", "d10 (0-9)"),
    ("d10 1-10", (10, 1, 1), "d10", "d10 (1-10)"),
    ("d10", (10, 0, 1), "d10", "d10 (0-9)"),          # as the referee reads a d10 (DESIGN §5)
])
def test_dice_are_read_from_the_game_file(text, die, name, shown) -> None:
    d = play.parse_die(text)
    assert (d.sides, d.low, d.count) == die and d.label == name and d.text == shown


@pytest.mark.parametrize("bad", ["d1", "d10 2-11", "d6 0-6", "3x6"])
def test_a_die_that_is_not_one_is_refused(bad) -> None:
    with pytest.raises(ValueError):
        play.parse_die(bad)


# --------------------------------------------------------------------------------------------- the module

def test_the_module_is_the_games_own_machinery(orne_module) -> None:
    text = _zip_text(orne_module, "buildFile.xml")
    # the die: one d6 named with its faces
    assert re.search(r'<VASSAL.build.module.DiceButton [^>]*nDice="1" nSides="6"[^>]*plus="0"', text)
    assert 'text="d6 (1-6)"' in text and 'd10' not in text
    # no cup, no Disorder, no T&G phases; the game's own phases for each side in turn
    assert "DrawPile" not in text and "Activation cup" not in text
    assert "Disorder" not in text and "Orders Phase" not in text
    assert ("British Movement Phase,British Combat Phase,British Exploitation Phase,German Movement Phase,"
            "German Combat Phase,German Exploitation Phase") in text
    # no facing: no rotator on any prototype
    assert "rotate;" not in text and "Rotate CW" not in text
    about = _zip_text(orne_module, "help/about.html")
    assert "Orne Bridgehead&#x27;s own rules" in about and "Triumph" not in about


def test_a_reduced_back_is_a_layer_named_by_the_game_with_its_own_values(orne, orne_module) -> None:
    from modulebuilder.vassal.pieces import piece_specs
    specs = {p.key: p for p in piece_specs(orne.counters, back_side=orne.game.back_side, facing=lambda kind: False)}
    rtr = specs["br-7-rtr"]
    props = {tr.type[len("mark;"):]: tr.state for tr in rtr.own if tr.type.startswith("mark;")}
    assert {k: props[k] for k in ("attack", "defence", "movement", "Reduced_attack", "Reduced_defence",
                                   "Reduced_movement")} == {"attack": "6", "defence": "4", "movement": "8",
                                                            "Reduced_attack": "3", "Reduced_defence": "3",
                                                            "Reduced_movement": "8"}
    layer = next(tr for tr in rtr.own if tr.type.startswith("emb2;"))
    assert layer.type.startswith("emb2;Reduced;") and "+ (Reduced)" in layer.type and "(D)" not in layer.type
    assert rtr.back_layer == "Reduced" and not any(tr.type.startswith("emb2;") for tr in specs["br-204-fd"].own)
    text = _zip_text(orne_module, "buildFile.xml")
    assert "emb2;Reduced;" in text and "(D)" not in text


def test_the_modules_pieces_are_the_printed_faces(orne, orne_module, tmp_path) -> None:
    """One look everywhere: the module's images are the faces `counters` draws with the game's template."""
    from modulebuilder.render.faces import render_faces
    from modulebuilder.vassal.assemble import default_counter_size
    size = default_counter_size(orne.map, None)
    faces = render_faces(orne.counters, size, template="nato", game=orne.game, workers=1)
    with zipfile.ZipFile(orne_module) as z:
        for key in ("br-7-rtr/front", "br-7-rtr/back", "de-ar-986/front", "br-hq-129/front"):
            uid, face = key.split("/")
            img = Image.open(io.BytesIO(z.read(f"images/{uid}-{face}.png"))).convert("RGB")
            assert img.tobytes() == faces[key].tobytes(), key
    # and the series look is not what they are
    series = render_faces(orne.counters, size, workers=1)
    assert series["br-7-rtr/front"].tobytes() != faces["br-7-rtr/front"].tobytes()


def test_build_takes_template_like_counters_and_sheets(tmp_path) -> None:
    scenario = ROOT / "examples" / "tiny" / "scenario.yaml"
    assert main(["build", str(scenario), "--template", "nato", "--out", str(tmp_path / "nato")]) == 0
    assert main(["build", str(scenario), "--out", str(tmp_path / "series")]) == 0
    assert main(["counters", str(scenario), "--template", "nato", "--px", "60", "--out", str(tmp_path / "faces")]) == 0
    nato = zipfile.ZipFile(next((tmp_path / "nato").glob("*.vmod")))
    series = zipfile.ZipFile(next((tmp_path / "series").glob("*.vmod")))
    names = [n for n in nato.namelist() if n.startswith("images/") and n.endswith("-front.png") and "map" not in n]
    unit = next(n for n in names if nato.read(n) != series.read(n))   # the pieces changed look
    assert unit


def test_the_game_template_is_used_by_counters_sheets_and_aids(orne, tmp_path) -> None:
    from modulebuilder.render.faces import render_faces
    assert main(["counters", str(SCENARIO), "--px", "60", "--out", str(tmp_path / "faces")]) == 0
    drawn = Image.open(tmp_path / "faces" / "br-7-rtr-front.png").convert("RGB")
    nato = render_faces(orne.counters, 60, template="nato", game=orne.game, workers=1)["br-7-rtr/front"]
    assert drawn.tobytes() == nato.tobytes()
    assert main(["sheets", str(SCENARIO), "--out", str(tmp_path / "sheets")]) == 0
    assert main(["aids", str(SCENARIO), "--out", str(tmp_path / "aids")]) == 0
    assert main(["map", str(SCENARIO), "--out", str(tmp_path / "map")]) == 0


def test_a_game_that_names_no_ruleset_defaults_to_a_d6_and_no_cup(orne, tmp_path) -> None:
    import dataclasses
    from modulebuilder.vassal import cup, play, turns
    bare = dataclasses.replace(orne, game=dataclasses.replace(orne.game, dice=None, cup=None, phases=None,
                                                            facing=None, about=None))
    assert play.die(bare) == die("d6") == die("d6 1-6") and not cup.uses_cup(bare) and turns.phases(bare) == ()
    assert not play.facing(bare, "infantry")


def test_a_bundled_rulesets_game_keeps_its_machinery_unless_its_game_file_says_otherwise() -> None:
    import dataclasses
    from modulebuilder.vassal import cup, play, turns
    s = load_scenario(ROOT / "scenarios" / "borodino.yaml")
    assert play.die(s) == die("d10") == die("d10 0-9") and cup.uses_cup(s) and turns.phases(s)[0] == "Orders Phase"
    own = dataclasses.replace(s, game=dataclasses.replace(s.game, dice="2d6", cup=False, phases=("One", "Two")))
    assert (play.die(own).sides, play.die(own).count) == (6, 2) and not cup.uses_cup(own) and turns.phases(own) == ("One", "Two")


# --------------------------------------------------------------------------------------------- counter art

def _copy_orne(tmp_path: Path) -> Path:
    game = tmp_path / "orne"
    shutil.copytree(ORNE, game, ignore=shutil.ignore_patterns("docs", "out"))
    return game


def test_counter_art_by_a_path_pattern_is_drawn_and_a_missing_file_is_an_error_with_its_line(tmp_path, capsys) -> None:
    game = _copy_orne(tmp_path)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text + "art: \"pictures/{id}-{face}.png\"\n")
    scenario = game / "scenarios" / "hill-112.yaml"
    assert main(["counters", str(scenario), "--px", "60", "--out", str(tmp_path / "faces")]) == 1
    err = capsys.readouterr().err
    line = next(ln for ln in err.splitlines() if "br-4-som" in ln and "front" in ln)
    assert re.search(r"counters/british\.yaml:\d+:\d+: units\[0\]\.id: no counter art .*pictures/br-4-som-front\.png "
                     r"\(the game's art: at .*game\.yaml:\d+\)", line), line
    # every unit's art present: drawn in place of the symbol, per face
    s = load_scenario(SCENARIO)
    (game / "pictures").mkdir()
    for u in s.counters.units:
        for face, colour in (("front", (200, 0, 0)), ("back", (0, 0, 200))):
            Image.new("RGB", (40, 30), colour).save(game / "pictures" / f"{u.id}-{face}.png")
    assert main(["counters", str(scenario), "--px", "60", "--out", str(tmp_path / "faces")]) == 0
    front = Image.open(tmp_path / "faces" / "br-7-rtr-front.png").convert("RGB")
    back = Image.open(tmp_path / "faces" / "br-7-rtr-back.png").convert("RGB")
    assert front.getpixel((30, 29)) == (200, 0, 0) and back.getpixel((30, 29)) == (0, 0, 200)
    # the module shows the same art
    assert main(["build", str(scenario), "--out", str(tmp_path / "module")]) == 0
    z = zipfile.ZipFile(tmp_path / "module" / "orne.vmod")
    piece = Image.open(io.BytesIO(z.read("images/br-7-rtr-front.png"))).convert("RGB")
    assert piece.getpixel((piece.width // 2, int(piece.height * 0.49))) == (200, 0, 0)


def test_a_template_image_path_may_be_a_pattern(tmp_path) -> None:
    from modulebuilder.render.template import load_template, piece_fields, template_drawing
    from modulebuilder.render.drawing import Picture
    s = load_scenario(SCENARIO)
    (tmp_path / "art").mkdir()
    unit = s.counters.units[0]
    Image.new("RGB", (10, 10), (1, 2, 3)).save(tmp_path / "art" / f"{unit.id}.png")
    t = tmp_path / "t.yaml"
    t.write_text("id: t\nfaces:\n  front:\n    - {kind: fill, colour: '#ffffff'}\n"
                 "    - {kind: image, path: 'art/{id}.png', box: [0.1, 0.1, 0.9, 0.9]}\n")
    d = template_drawing(load_template(str(t)), piece_fields(unit, None, s.game), "front", 60)
    assert [i.path for i in d.items if isinstance(i, Picture)] == [str(tmp_path / "art" / f"{unit.id}.png")]


# --------------------------------------------------------------------------------------------- flags, leaders

def test_the_reinforced_and_hq_flags_are_drawn() -> None:
    import dataclasses
    from modulebuilder.render.faces import render_faces
    from modulebuilder.model import CounterSet
    s = load_scenario(SCENARIO)
    unit = next(u for u in s.counters.units if u.id == "br-4-som")
    plain = dataclasses.replace(unit, flags=frozenset())
    flagged = {f: dataclasses.replace(unit, id=f"x-{f}", flags=frozenset({f})) for f in ("reinforced", "hq")}
    fielded = dataclasses.replace(unit, id="x-field", fields=type(unit.fields)({**unit.fields, "reinforced": True}))
    cs = CounterSet(s.counters.activation_groups, (plain, *flagged.values(), fielded))
    faces = render_faces(cs, 75, template="nato", game=s.game, workers=1)
    assert faces["x-reinforced/front"].tobytes() != faces["br-4-som/front"].tobytes()
    assert faces["x-hq/front"].tobytes() != faces["br-4-som/front"].tobytes()
    assert faces["x-reinforced/front"].tobytes() == faces["x-field/front"].tobytes()   # the flag reads as the field


def test_nato_leaders_print_their_values_from_any_bundled_ruleset() -> None:
    from modulebuilder.render.faces import face_drawings
    from modulebuilder.model import CounterSet
    from modulebuilder.render.drawing import Text
    s = load_scenario(ROOT / "scenarios" / "borodino.yaml")
    leader = next(ldr for ldr in s.counters.leaders if ldr.command_range is not None and ldr.ma is not None)
    d = face_drawings(CounterSet(leaders=(leader,)), 75, template="nato")[f"{leader.id}/front"]
    texts = [i.text for i in d.items if isinstance(i, Text)]
    assert any(str(leader.command_range) in t and str(leader.ma) in t for t in texts), texts


# --------------------------------------------------------------------------------------------- glyphs

def test_a_character_no_font_has_is_the_same_error_in_counters_sheets_and_build(tmp_path, capsys) -> None:
    game = _copy_orne(tmp_path)
    british = game / "counters" / "british.yaml"
    british.write_text(british.read_text().replace('name: "7 RTR"', 'name: "7 RTR 戦"'))
    scenario = str(game / "scenarios" / "hill-112.yaml")
    said = {}
    for cmd in (["counters", "--px", "75"], ["sheets"], ["build"]):
        code = main([cmd[0], scenario, *cmd[1:], "--out", str(tmp_path / cmd[0])])
        err = capsys.readouterr().err
        assert code == 1, cmd
        said[cmd[0]] = next(ln for ln in err.splitlines() if "br-7-rtr" in ln)
    for line in said.values():
        assert "no glyph for '戦' (U+6226)" in line and "DejaVuSansCondensed-Bold.ttf" in line, line
    assert not list((tmp_path / "counters").glob("*.png")) if (tmp_path / "counters").exists() else True


def test_a_font_in_the_items_list_that_has_the_character_is_used() -> None:
    from modulebuilder.render import text as T
    from modulebuilder.fonts import BOLD
    assert T.lacks("7 RTR 戦", str(BOLD)) == "戦" and T.lacks("Borodino – Семёновское", str(BOLD)) == ""


def test_a_units_own_art_is_a_path_of_any_length_and_a_missing_one_is_its_line(tmp_path, capsys) -> None:
    game = _copy_orne(tmp_path)
    british = game / "counters" / "british.yaml"
    folder = game / "counters" / "pictures of the 31st tank brigade"
    folder.mkdir()
    name = "seventh royal tank regiment, Churchill tanks, July 1944.png"
    text = british.read_text().replace('name: "7 RTR", kind: armour,', f'name: "7 RTR", art: "{folder.name}/{name}", kind: armour,')
    british.write_text(text)
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if name in ln)
    scenario = game / "scenarios" / "hill-112.yaml"
    assert main(["validate", str(scenario)]) == 1
    said = capsys.readouterr()
    err = said.out + said.err
    assert re.search(rf"counters/british\.yaml:{line}:\d+: units\[\d+\]\.art: no such file: .*{re.escape(name)}", err), err
    Image.new("RGB", (40, 30), (0, 160, 0)).save(folder / name)
    assert main(["counters", str(scenario), "--px", "60", "--out", str(tmp_path / "faces")]) == 0
    front = Image.open(tmp_path / "faces" / "br-7-rtr-front.png").convert("RGB")
    assert front.getpixel((30, 29)) == (0, 160, 0)
    assert Image.open(tmp_path / "faces" / "br-9-rtr-front.png").convert("RGB").getpixel((30, 29)) != (0, 160, 0)
    # the module: drawn, and redrawn when only the picture changes (the image cache keys on the art's bytes)
    assert main(["build", str(scenario), "--out", str(tmp_path / "module")]) == 0
    piece = lambda: Image.open(io.BytesIO(zipfile.ZipFile(tmp_path / "module" / "orne.vmod")  # noqa: E731
                                          .read("images/br-7-rtr-front.png"))).convert("RGB")
    assert piece().getpixel((piece().width // 2, int(piece().height * 0.49))) == (0, 160, 0)
    Image.new("RGB", (40, 30), (160, 0, 160)).save(folder / name)
    assert main(["build", str(scenario), "--out", str(tmp_path / "module")]) == 0
    assert piece().getpixel((piece().width // 2, int(piece().height * 0.49))) == (160, 0, 160)


def test_validate_reports_the_counter_art_the_game_names_and_lacks(tmp_path, capsys) -> None:
    game = _copy_orne(tmp_path)
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "art: \"pictures/{id}-{face}.png\"\n")
    assert main(["validate", str(game / "scenarios" / "hill-112.yaml")]) == 1
    said = capsys.readouterr()
    lines = [ln for ln in (said.out + said.err).splitlines() if "no counter art" in ln]
    # 18 units, 11 of them two-sided: 29 pictures, each one line at its unit
    assert len(lines) == 29 and all(re.match(r".*counters/(british|german)\.yaml:\d+:\d+: units\[\d+\]\.id: ", ln)
                                    for ln in lines), lines[:3]
    assert any("br-204-fd-front.png" in ln for ln in lines) and not any("br-204-fd-back" in ln for ln in lines)


def test_the_example_module_is_byte_identical_on_rebuild(orne, orne_module, tmp_path) -> None:
    again = build([orne], tmp_path / "again").path
    assert again.read_bytes() == orne_module.read_bytes()
