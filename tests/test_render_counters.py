"""Counter faces: exact sizes, the Disordered back, legibility errors, determinism."""
from __future__ import annotations

from fractions import Fraction

import pytest
from PIL import Image, ImageStat

from modulebuilder.model import ActivationGroup, CounterSet, Face, Leader, Marker, Unit
from modulebuilder.render import (TextDoesNotFit, counter_images, render_leader_face, render_marker_face,
                                  render_unit_face)
from modulebuilder.render.colours import luminance
from modulebuilder.render.counters import unit_drawing
from modulebuilder.render.drawing import Layer, Text
from modulebuilder.render.faces import render_faces
from modulebuilder.render.physical import COUNTER_SIZES, px
from modulebuilder.render.samples import sample_counters
from modulebuilder.render.symbols import symbol_layer

BAND_BOTTOM, VALUE_Y = 0.26, 0.80        # the band's lower edge and the value row (triumph-and-glory.yaml)


def unit_symbol_key(unit: Unit) -> str:
    """The series symbol the bundled triumph-and-glory template draws for ``unit``."""
    layers = [i for i in unit_drawing(unit, AG, "front", 100).items if isinstance(i, Layer) and i.scale == 4]
    (layer,) = layers
    keys = [k for k in ("infantry", "pike_infantry", "light_infantry", "militia", "light_cavalry", "heavy_cavalry",
                        "cossack", "artillery", "horse_artillery") if symbol_layer(k, layer.width, layer.height, layer.at) == layer]  # type: ignore[arg-type]
    assert len(keys) == 1
    return keys[0]


AG = ActivationGroup("i-corps", "I Corps", "French", "#2b4c9b", 6, label="I", text_colour="#ffffff")
DUMON = Unit("dumon-a", "Dumon a", "infantry", "French", "i-corps", Face(4, 5, 4, 1), Face(3, 4, 4, 0),
             corps="CM", brigade="Dumon")
COSSACKS = Unit("platov", "Platov", "cavalry", "Russian", "i-corps", Face(2, 4, 8), None, cav_type="C")
GUNS = Unit("art", "I/12", "artillery", "French", "i-corps", Face(cohesion=5, ma=8, fire=3, eff_range=2, max_range=4),
            Face(cohesion=4, ma=8, fire=2, eff_range=2, max_range=4))


@pytest.mark.parametrize("inches", COUNTER_SIZES)
@pytest.mark.parametrize("dpi", [300, 600])
def test_face_is_exactly_the_physical_size(inches: Fraction, dpi: int) -> None:
    size = px(inches, dpi)
    assert size == round(float(inches) * dpi)
    for img in (render_unit_face(DUMON, AG, "front", size, dpi=dpi), render_unit_face(DUMON, AG, "back", size, dpi=dpi),
                render_leader_face(Leader("n", "Ney", "French", 3, 2, 0, 2, 6), size, dpi=dpi),
                render_marker_face(Marker("uo", "Under Orders", "UO", back_text="NO"), "back", size, dpi=dpi)):
        assert img.size == (size, size) and img.mode == "RGB"


def test_band_carries_the_activation_group_colour() -> None:
    img = render_unit_face(DUMON, AG, "front", 188)
    assert img.getpixel((2, 2)) == (0x2B, 0x4C, 0x9B)
    assert img.getpixel((2, round(188 * BAND_BOTTOM) + 3)) != (0x2B, 0x4C, 0x9B)


def _redness(img: Image.Image, box: tuple[int, int, int, int]) -> float:
    """Mean of red minus the other channels over ``box``: high only under the Disordered stripe."""
    r, g, b = ImageStat.Stat(img.crop(box)).mean
    return r - (g + b) / 2


def test_back_is_disordered_at_a_glance() -> None:
    s = 300
    front = render_unit_face(DUMON, AG, "front", s)
    back = render_unit_face(DUMON, AG, "back", s)
    # The stripe runs from the lower left to the upper right: look just above the lower-left corner.
    corner = (2, s - 40, 30, s - 2)
    assert _redness(back, corner) > 40 > _redness(front, corner)
    # Washed out: the body of the back is lighter than the front's.
    body = (3, round(s * 0.30), 12, round(s * 0.34))          # left edge below the band, off the stripe
    assert luminance(back.getpixel(body[:2])) > luminance(front.getpixel(body[:2]))


def test_back_shows_its_own_values() -> None:
    """Same unit, different back values: the value row differs; equal values: identical value row
    apart from the stripe colour, so we compare against a unit whose back equals its front."""
    same = Unit("x", "Dumon a", "infantry", "French", "i-corps", Face(4, 5, 4, 1), Face(4, 5, 4, 1), corps="CM",
                brigade="Dumon")
    row = (int(188 * 0.35), int(188 * (VALUE_Y - 0.12)), int(188 * 0.65), int(188 * (VALUE_Y + 0.12)))
    a = render_unit_face(DUMON, AG, "back", 188).crop(row).tobytes()
    b = render_unit_face(same, AG, "back", 188).crop(row).tobytes()
    assert a != b


def test_units_without_back_have_no_back_face() -> None:
    with pytest.raises(ValueError, match="platov"):
        render_unit_face(COSSACKS, AG, "back", 188)
    cs = CounterSet((AG,), (DUMON, COSSACKS), (), (Marker("uo", "UO", "UO", back_text="NO"), Marker("f", "F", "F")))
    assert list(counter_images(cs, 64)) == ["dumon-a/front", "dumon-a/back", "platov/front", "uo/front", "uo/back",
                                            "f/front"]


def test_text_too_long_names_counter_and_field() -> None:
    long = Unit("long-one", "Leib-Grenadier-Regiment Jekaterinoslaw", "infantry", "Russian", "i-corps",
                Face(4, 5, 4, 1), None)
    with pytest.raises(TextDoesNotFit) as err:
        render_unit_face(long, AG, "front", px(Fraction(1, 2), 300), dpi=300)
    assert err.value.owner == "long-one" and err.value.field == "name"
    assert "long-one" in str(err.value) and "name" in str(err.value)
    marker = Marker("wordy", "Wordy", "Supercalifragilisticexpialidocious")
    with pytest.raises(TextDoesNotFit, match="wordy.*text"):
        render_marker_face(marker, "front", 150, dpi=300)


def test_long_text_shrinks_before_failing() -> None:
    """A name that does not fit at full size is drawn smaller, not refused."""
    u = Unit("mid", "Grenadiers", "infantry", "French", "i-corps", Face(4, 5, 4, 1), None)
    assert render_unit_face(u, AG, "front", 188, dpi=300).size == (188, 188)


def test_symbol_keys_follow_kind_type_and_flags() -> None:
    def inf(flags: set[str]) -> Unit:
        return Unit("i", "I", "infantry", "F", "a", Face(1, 1, 1, 1), None, flags=frozenset(flags))
    assert unit_symbol_key(inf(set())) == "infantry"
    assert unit_symbol_key(inf({"jaeger"})) == "light_infantry"
    assert unit_symbol_key(inf({"skirmisher"})) == "light_infantry"
    assert unit_symbol_key(inf({"militia"})) == "militia"
    for cav, key in (("L", "light_cavalry"), ("H", "heavy_cavalry"), ("C", "cossack")):
        u = Unit("c", "C", "cavalry", "F", "a", Face(1, 1, 1), None, cav_type=cav)  # type: ignore[arg-type]
        assert unit_symbol_key(u) == key
    assert unit_symbol_key(GUNS) == "horse_artillery"
    foot = Unit("f", "F", "artillery", "F", "a", Face(cohesion=1, ma=4, fire=1, eff_range=1, max_range=2), None)
    assert unit_symbol_key(foot) == "artillery"


def test_faces_are_deterministic_and_parallel_equals_serial() -> None:
    cs = sample_counters(60)
    serial = render_faces(cs, 90, workers=1)
    parallel = render_faces(cs, 90, workers=2)
    assert list(serial) == list(parallel)
    assert all(serial[k].tobytes() == parallel[k].tobytes() for k in serial)


def test_progress_reports_every_face() -> None:
    seen: list[tuple[int, int]] = []
    cs = sample_counters(6)
    faces = render_faces(cs, 60, workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (len(faces), len(faces)) and len(seen) == len(faces)


def test_text_error_raised_in_a_worker_reaches_the_caller() -> None:
    """Faces render in worker processes: the legibility error must cross the process boundary intact."""
    cs = sample_counters(60)
    bad = Unit("too-long", "Leib-Grenadier-Regiment Jekaterinoslaw", "infantry", "French", cs.units[0].ag,
               Face(4, 5, 4, 1), None)
    cs = CounterSet(cs.activation_groups, cs.units + (bad,), cs.leaders, cs.markers)
    with pytest.raises(TextDoesNotFit) as err:
        render_faces(cs, px(Fraction(1, 2), 300), dpi=300, workers=2)
    assert (err.value.owner, err.value.field) == ("too-long", "name")


def marker_lines(text: str, s: int) -> tuple[list[str], int]:
    from modulebuilder.render.counters import marker_drawing
    texts = [t for t in marker_drawing(Marker("m", "M", text), "front", s).items if isinstance(t, Text)]
    return [t.text for t in texts], texts[0].size


def test_marker_text_wraps_only_when_it_must() -> None:
    assert marker_lines("UO", 188)[0] == ["UO"]
    lines, size = marker_lines("Orders Delay DRM", 188)
    assert len(lines) >= 2 and size >= 0.15 * 188
    text = "Orders Delay Modifier Track"
    lines, size = marker_lines(text, 188)
    assert " ".join(lines) == text and 2 <= len(lines) <= 3
    assert size > marker_lines("OrdersDelayModifierTrack", 188)[1]     # wrapping beat shrinking


def test_every_face_that_does_not_fit_is_reported_at_once() -> None:
    """The author shortens every name in one pass: all illegible faces are listed, each counter once."""
    from modulebuilder.render import FacesDoNotFit
    cs = sample_counters(60)
    bad = tuple(Unit(f"too-long-{i}", "Leib-Grenadier-Regiment Jekaterinoslaw", "infantry", "French",
                     cs.units[0].ag, Face(4, 5, 4, 1), Face(3, 4, 3, 1)) for i in range(3))
    cs = CounterSet(cs.activation_groups, cs.units + bad, cs.leaders, cs.markers)
    for workers in (1, 2):
        with pytest.raises(FacesDoNotFit) as err:
            render_faces(cs, px(Fraction(1, 2), 300), dpi=300, workers=workers)
        assert [(p.owner, p.field) for p in err.value.problems] == [(f"too-long-{i}", "name") for i in range(3)]
        assert str(err.value).splitlines() == [str(p) for p in err.value.problems]


def test_short_name_is_printed_when_the_name_does_not_fit() -> None:
    """Small counters: the author's ``short_name`` stands in for a name that cannot be printed legibly; a name
    that fits is always printed as it is."""
    from dataclasses import replace
    long = Unit("long-one", "Leib-Grenadier-Regiment Jekaterinoslaw", "infantry", "Russian", "i-corps",
                Face(4, 5, 4, 1), None, short_name="LG Jek")
    small = px(Fraction(1, 2), 300)
    with_short = render_unit_face(long, AG, "front", small, dpi=300)
    assert with_short.tobytes() == render_unit_face(replace(long, name="LG Jek"), AG, "front", small, dpi=300).tobytes()
    big = px(Fraction(1, 1), 600)
    assert render_unit_face(long, AG, "front", big, dpi=300).tobytes() != render_unit_face(
        replace(long, name="LG Jek"), AG, "front", big, dpi=300).tobytes()
    with pytest.raises(TextDoesNotFit) as err:
        render_unit_face(replace(long, short_name="Still far too long for a small counter"), AG, "front", small, dpi=300)
    assert err.value.field == "short_name"
