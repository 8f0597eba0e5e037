"""The Triumph & Glory and Musket & Pike looks as templates: the same drawings the coded layouts made
(pinned as value digests taken on main at 1aec161, before the layouts became data), and the language
features they brought (conditions, cases, formats, defaults, fallbacks, optional text, extends, insert,
colours by face), each checked on its own."""
from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path

import pytest

from modulebuilder.model import ActivationGroup, Face, Leader, Marker, Unit
from modulebuilder.render.counters import leader_drawing, marker_drawing, unit_drawing
from modulebuilder.render.drawing import Drawing, Layer, Text
from modulebuilder.render.template import TemplateError, load_template, template_drawing

AG = ActivationGroup("i-corps", "I Corps", "French", "#2b4c9b", 6, label="I", text_colour="#ffffff")
DUMON = Unit("dumon-a", "Dumon a", "infantry", "French", "i-corps", Face(4, 5, 4, 1), Face(3, 4, 4, 0), corps="CM",
             brigade="Dumon")
GUNS = Unit("art", "I/12", "artillery", "French", "i-corps", Face(cohesion=5, ma=8, fire=3, eff_range=2, max_range=4),
            Face(cohesion=4, ma=8, fire=2, eff_range=2, max_range=4))
COSSACKS = Unit("platov", "Platov", "cavalry", "Russian", "i-corps", Face(2, 4, 8), None, cav_type="C")
LINE = Unit("yellow", "Yellow Brigade", "infantry", "Swedish", "i-corps", Face(6, 7, 4, 3), Face(5, 6, 4, 2), size=2,
            flags=frozenset({"pikes"}))

# sha256 of the drawing's value (fonts by file name), first 16 hex digits, from the coded layouts on main.
CODED = {
    "dumon front 188 300": "d600ecea3af320b0",
    "dumon back 188 300": "963b09adb89fb63b",
    "guns back 75": "6cd3e0bd377d65ae",
    "cossacks front 113": "04f9004fad4e979a",
    "line front 100": "dd76296b26fef839",
    "line shaken 100": "3b7b514444c9bb2c",
    "line shaken 188 300": "b5999b70db4407fa",
    "ney 150": "eec1266add62e9a0",
    "marker 188": "b23bb9a47bc76d4c",
}


def _digest(d: Drawing) -> str:
    items = tuple(dataclasses.replace(i, font=os.path.basename(i.font)) if isinstance(i, Text) else i
                  for i in (*d.base, *d.items))
    return hashlib.sha256(repr((d.width, d.height, d.background, items)).encode()).hexdigest()[:16]


def test_series_templates_draw_what_the_coded_layouts_drew() -> None:
    drawn = {
        "dumon front 188 300": unit_drawing(DUMON, AG, "front", 188, dpi=300),
        "dumon back 188 300": unit_drawing(DUMON, AG, "back", 188, dpi=300),
        "guns back 75": unit_drawing(GUNS, AG, "back", 75),
        "cossacks front 113": unit_drawing(COSSACKS, AG, "front", 113),
        "line front 100": unit_drawing(LINE, AG, "front", 100),
        "line shaken 100": unit_drawing(LINE, AG, "back", 100, back="shaken"),
        "line shaken 188 300": unit_drawing(LINE, AG, "back", 188, dpi=300, back="shaken"),
        "ney 150": leader_drawing(Leader("n", "Ney", "French", 3, None, -1, 2, None), 150),
        "marker 188": marker_drawing(Marker("od", "Orders Delay", "Orders Delay DRM", back_text="No Orders"), "back", 188),
    }
    assert {k: _digest(d) for k, d in drawn.items()} == CODED


def test_the_leader_prints_its_defaults_and_signed_drm() -> None:
    texts = [t.text for t in leader_drawing(Leader("n", "Ney", "French", None, None, -1, 2, None), 150).items
             if isinstance(t, Text)]
    assert texts == ["Ney", "?", "–", "-1", "2", "d10"]
    zero = [t.text for t in leader_drawing(Leader("d", "Davout", "French", 3, 2, 0, 3, 6), 150).items
            if isinstance(t, Text)]
    assert zero == ["Davout", "3", "2", "0", "3", "6"]


def test_the_shaken_word_is_left_out_with_a_note_when_it_cannot_be_printed() -> None:
    notes: list[str] = []
    t = load_template("musket-and-pike")
    from modulebuilder.render.template import piece_fields
    small = template_drawing(t, piece_fields(DUMON, AG), "back", 188, dpi=300, notes=notes)   # 5/8"
    assert "Shaken" not in [i.text for i in small.items if isinstance(i, Text)]
    assert notes == ["note: counter 'dumon-a' back: the word 'Shaken' fits only at 4.3 pt (minimum 5.0 pt); "
                     "printed without it, the amber frame marks the side"]
    big = template_drawing(t, piece_fields(DUMON, AG), "back", 300, dpi=300)            # 1"
    assert "Shaken" in [i.text for i in big.items if isinstance(i, Text)]


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / f"{name}.yaml"
    p.write_text(text)
    return str(p)


def test_conditions_cases_formats_and_defaults(tmp_path: Path) -> None:
    t = load_template(_write(tmp_path, "lang", """id: lang
faces:
  front:
    - {kind: fill, colour: {front: '#ff0000', back: '#0000ff'}}
    - {kind: text, format: "{a}-{b}", label: ab, centre: [0.5, 0.2], extent: [0.9, 0.15]}
    - {kind: text, field: [short, name], default: "?", centre: [0.5, 0.4], extent: [0.9, 0.15]}
    - {kind: text, text: HEAVY, when: {all: [{field: kind, is: cavalry}, {not: {field: flags, has: light}}]}, centre: [0.5, 0.6], extent: [0.9, 0.15]}
    - {kind: text, text: ODD, when: {any: [{field: n, in: [1, 3]}, {field: kind, is_not: cavalry}]}, centre: [0.5, 0.8], extent: [0.9, 0.15]}
    - kind: symbol
      set: series
      centre: [0.5, 0.5]
      extent: [0.4, 0.27]
      type: {cases: [{when: {field: flags, has: [jaeger, light]}, then: light_infantry}, {then: infantry}]}
  back: {like: front, insert: {}}
"""))

    def texts(fields: dict, face: str = "front") -> list[str]:
        return [i.text for i in template_drawing(t, {"id": "x", **fields}, face, 200).items if isinstance(i, Text)]
    assert texts({"a": 1, "b": 2, "name": "N", "kind": "cavalry", "flags": frozenset(), "n": 2}) == ["1-2", "N", "HEAVY"]
    assert texts({"a": 1, "name": "N", "short": "S", "kind": "cavalry", "flags": frozenset({"light"}), "n": 3}) == ["S", "ODD"]
    assert texts({"kind": "infantry"}) == ["?", "ODD"]                      # a format with an unset field: nothing
    front = template_drawing(t, {"id": "x", "flags": frozenset({"light"})}, "front", 200)
    back = template_drawing(t, {"id": "x"}, "back", 200)
    assert (front.background, back.background) == ((255, 0, 0), (0, 0, 255))
    symbols = [i for i in (*front.items, *back.items) if isinstance(i, Layer)]
    assert len(symbols) == 2 and symbols[0] != symbols[1]                   # light infantry vs infantry


def test_extends_insert_fallback_and_font_lists(tmp_path: Path) -> None:
    base = _write(tmp_path, "base", """id: base
face_in_messages: false
fonts: {bold: "bundled:bold", regular: "bundled:regular"}
faces:
  front:
    - {kind: fill, colour: '#ffffff'}
    - {id: top, kind: band, y: [0, 0.2], colour: '#000000'}
    - {kind: text, field: name, fallback: short_name, font: [bold, regular], centre: [0.5, 0.5], extent: [0.9, 0.3]}
""")
    child = load_template(_write(tmp_path, "child", f"""id: child
extends: {Path(base).name}
faces:
  back: {{like: front, insert: {{top: [{{kind: stripe, width: 0.17, below: 0.2, colour: '#c81010', opacity: 0.5}}]}}}}
"""))
    assert child.has_face("front") and child.has_face("back")
    back = template_drawing(child, {"id": "x", "name": "Grenadiers"}, "back", 200)
    assert any(isinstance(i, Layer) and i.blend == "composite" for i in back.base)   # the stripe, in the shared base
    notes: list[str] = []
    d = template_drawing(child, {"id": "x", "name": "Grenadiers of the Guard", "short_name": "Gren G"}, "front", 60,
                         notes=notes)
    assert [i.text for i in d.items if isinstance(i, Text)] in (["Grenadiers of the Guard"], ["Gren G"])
    from modulebuilder.render.text import TextDoesNotFit
    with pytest.raises(TextDoesNotFit) as err:
        template_drawing(child, {"id": "x", "name": "Leib-Grenadier-Regiment Jekaterinoslaw"}, "front", 60, dpi=300)
    assert err.value.field == "name"                                         # face_in_messages: false
    bad = load_template(_write(tmp_path, "bad", f"""id: bad
extends: {Path(base).name}
faces:
  back: {{like: front, insert: {{nowhere: [{{kind: fill, colour: '#000000'}}]}}}}
"""))
    with pytest.raises(TemplateError, match="insert after nowhere"):
        template_drawing(bad, {"id": "x", "name": "N"}, "back", 100)
