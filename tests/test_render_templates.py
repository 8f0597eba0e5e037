"""Counter templates in data: schema-checked, colours by any field, the author's fonts and art, NATO
symbols from names and 2525 codes with echelons, and text that does not fit reported in points."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from modulebuilder.fonts import BOLD
from modulebuilder.render import nato
from modulebuilder.render.drawing import Picture, Text
from modulebuilder.render.pdf import PdfDocument
from modulebuilder.render.raster import to_image
from modulebuilder.render.template import TemplateError, load_template, template_drawing
from modulebuilder.render.text import FacesDoNotFit, TextDoesNotFit
from modulebuilder.render.vector import add_face_form

UNIT = {"id": "u1", "name": "1/27", "parent": "TF H", "kind": "infantry", "echelon": "battalion",
        "attack": 4, "defence": 3, "movement": 6, "colour": "#6b8e23", "back": {"attack": 2, "defence": 1}}


def _texts(d) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.text for t in d.items if isinstance(t, Text)]


def test_bundled_templates_validate() -> None:
    """Builds trust the bundled templates (no schema check at load time): this is their check."""
    from modulebuilder.render.template import TEMPLATE_DIR, _validate
    from ruamel.yaml import YAML
    bundled = sorted(p for p in TEMPLATE_DIR.glob("*.yaml") if p.stem != "sheets")
    assert {p.stem for p in bundled} >= {"nato", "leader", "marker", "triumph-and-glory", "musket-and-pike",
                                         "series-leader", "series-marker"}
    for p in bundled:
        _validate(YAML(typ="safe").load(p.read_text(encoding="utf-8")), str(p))
        assert load_template(p.stem).id == p.stem


def test_nato_front_and_reduced_back() -> None:
    t = load_template("nato")
    front = template_drawing(t, UNIT, "front", 188, dpi=300)
    back = template_drawing(t, UNIT, "back", 188, dpi=300)
    assert _texts(front) == ["1/27", "TF H", "II", "4-3-6"]
    assert _texts(back) == ["1/27", "TF H", "II", "2-1-6"]          # back values, movement unchanged
    assert back.background != front.background                      # washed: the reduced side looks less


def test_colour_by_side_and_a_broken_template_is_reported(tmp_path: Path) -> None:
    tpl = tmp_path / "sides.yaml"
    tpl.write_text("id: sides\nfaces:\n  front:\n    - {kind: fill, colour: {field: side, map: {A: '#ff0000', B: '#0000ff'}, "
                   "default: '#00ff00'}}\n")
    t = load_template(str(tpl))
    assert template_drawing(t, {"id": "a", "side": "A"}, "front", 50).background == (255, 0, 0)
    assert template_drawing(t, {"id": "b", "side": "B"}, "front", 50).background == (0, 0, 255)
    assert template_drawing(t, {"id": "c", "side": "C"}, "front", 50).background == (0, 255, 0)
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nfaces:\n  front:\n    - {kind: text, field: name}\n    - {kind: wobble}\n")
    with pytest.raises(TemplateError) as err:
        load_template(str(bad))
    assert "faces/front/0" in str(err.value) and "faces/front/1" in str(err.value)   # all problems at once


def test_author_font_and_art(tmp_path: Path) -> None:
    font = tmp_path / "AuthorFont.ttf"
    shutil.copy(BOLD, font)
    art = tmp_path / "art.png"
    Image.new("RGBA", (20, 20), (255, 0, 255, 255)).save(art)
    tpl = tmp_path / "art.yaml"
    tpl.write_text("id: art\nfonts: {title: AuthorFont.ttf}\nfaces:\n  front:\n    - {kind: fill, colour: '#ffffff'}\n"
                   "    - {kind: image, field: art, box: [0.1, 0.1, 0.9, 0.5]}\n"
                   "    - {kind: text, field: name, font: title, box: [0.05, 0.6, 0.95, 0.9]}\n")
    t = load_template(str(tpl))
    d = template_drawing(t, {"id": "x", "name": "Art", "art": str(art)}, "front", 100, dpi=300)
    assert any(isinstance(i, Picture) for i in d.items)
    assert [i.font for i in d.items if isinstance(i, Text)] == [str(font)]
    img = to_image(d)
    assert img.getpixel((50, 30)) == (255, 0, 255)
    doc = PdfDocument()
    add_face_form(doc, "X", d, 0)
    doc.new_page(100, 100).form("X", 0, 0, 1)
    pdf = doc.tobytes()
    assert b"+DejaVuSansCondensed-Bold" in pdf and b"/Subtype /Image" in pdf    # the author's font, embedded
    with pytest.raises(TemplateError, match="not found"):
        template_drawing(t, {"id": "y", "name": "A", "art": "missing.png"}, "front", 100)


def test_text_that_does_not_fit_is_reported_in_points_all_at_once() -> None:
    t = load_template("nato")
    long = dict(UNIT, name="Leib-Grenadier-Regiment Jekaterinoslaw", parent="Second Army Reserve Corps")
    with pytest.raises(FacesDoNotFit) as err:
        template_drawing(t, long, "front", 94, dpi=300)               # 5/16": nothing long fits
    lines = str(err.value).splitlines()
    assert len(lines) == 3 and "front name" in lines[0] and "front parent" in lines[1] and "echelon" in lines[2]
    assert all("minimum legible size (5.0 pt)" in line and "fits its box only at" in line for line in lines)
    with pytest.raises(TextDoesNotFit):
        template_drawing(t, dict(UNIT, name="Leib-Grenadier-Regiment"), "front", 94, dpi=300)


@pytest.mark.parametrize("code,expected", [
    ("infantry", ("infantry", None)), ("Armor", ("armor", None)), ("UCI---", ("infantry", None)),
    ("UCIZ--", ("mechanized", None)), ("UCAT--", ("armor", None)), ("UCFHE-", ("self_propelled_artillery", None)),
    ("SFGPUCIZ---F---", ("mechanized", "battalion")), ("SFGPUCR----D---", ("reconnaissance", "platoon")),
])
def test_nato_types_from_names_and_2525_codes(code: str, expected: tuple) -> None:
    assert nato.resolve(code) == expected


def test_echelon_marks_and_modifiers() -> None:
    assert [nato.echelon_mark(e) for e in ("company", "battalion", "regiment", "brigade", "division")] == \
        ["I", "II", "III", "X", "XX"]
    assert nato.echelon_mark("battalion", reinforced=True) == "II+" and nato.echelon_mark("F", reduced=True) == "II−"
    with pytest.raises(ValueError):
        nato.echelon_mark("platoonish")
    with pytest.raises(nato.UnknownUnitType):
        nato.resolve("wizard")


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(sorted(nato.TYPES)), w=st.integers(12, 120), h=st.integers(8, 80),
       hq=st.booleans())
def test_every_symbol_fills_its_box_and_renders_in_both_backends(kind: str, w: int, h: int, hq: bool) -> None:
    from modulebuilder.render.raster import layer_image
    layer = nato.symbol_layer(kind, w, h, hq=hq)
    img = layer_image(layer)
    assert img.size == (w, h) and img.getchannel("A").getbbox() is not None
    doc = PdfDocument()
    from modulebuilder.render.drawing import Drawing
    add_face_form(doc, "S", Drawing(w, h, (255, 255, 255), (), (layer,)), 0)
    doc.new_page(w, h).form("S", 0, 0, 1)
    assert doc.tobytes().startswith(b"%PDF")


def test_game_declarations_pick_symbol_and_side_colour() -> None:
    from modulebuilder.model import ActivationGroup, Face, GameDef, SideStyle, Unit, UnitType, Values
    from modulebuilder.render.template import piece_fields
    game = GameDef(sides=Values({"Blue": SideStyle("#1030c0", "#ffffff")}),
                   unit_types=(UnitType("panzer", "Panzer", "UCAT--"),))
    ag = ActivationGroup("g", "G", "Blue", "#777777", None, label="G")
    u = Unit("p1", "Pz 1", "panzer", "Blue", "g", Face(), None, echelon="battalion",  # type: ignore[arg-type]
             fields=Values({"attack": 7, "defence": 5, "movement": 6}), back_fields=Values({"attack": 3}))
    f = piece_fields(u, ag, game)
    assert f["symbol"] == "UCAT--" and f["side_colour"] == "#1030c0" and f["back"] == {"attack": 3}
    d = template_drawing(load_template("nato"), f, "front", 188, dpi=300)
    assert d.background == (0x10, 0x30, 0xc0)                     # the side's colour, not the group's grey
    assert _texts(d)[-1] == "7-5-6" and "II" in _texts(d)
    assert _texts(template_drawing(load_template("nato"), f, "back", 188, dpi=300))[-1] == "3-5-6"


def test_task_force_bracket_and_hq_staff() -> None:
    t = load_template("nato")
    plain = template_drawing(t, UNIT, "front", 188, dpi=300)
    tf = template_drawing(t, dict(UNIT, task_force=True), "front", 188, dpi=300)
    from modulebuilder.render.drawing import Shape
    assert len([i for i in tf.items if isinstance(i, Shape)]) == len([i for i in plain.items if isinstance(i, Shape)]) + 3
    hq = template_drawing(t, dict(UNIT, hq=True), "front", 188, dpi=300)
    assert to_image(hq).tobytes() != to_image(plain).tobytes()
