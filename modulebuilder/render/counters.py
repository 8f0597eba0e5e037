"""The series looks' entry points: unit, commander and marker faces of *Triumph & Glory* and *Musket &
Pike*, drawn by the bundled templates ``triumph-and-glory`` / ``musket-and-pike`` (and their
``series-leader`` / ``series-marker``), which say everything about the layout (see
``modulebuilder/templates/triumph-and-glory.yaml``).

A unit's back is drawn with a *back treatment*, the name callers have always used for the look:
``disordered`` (T&G: washed colours under a red diagonal stripe) or ``shaken`` (M&P: washed colours, an
amber frame, the word "Shaken" when it is legible).  Callers pick it from the scenario's ruleset with
:func:`back_treatment`; :func:`series_template` names the template that draws it."""
from __future__ import annotations

from typing import Any, Literal

from PIL import Image

from modulebuilder.model import ActivationGroup, Leader, Marker, Unit
from modulebuilder.render.colours import RGB, rgb
from modulebuilder.render.drawing import Drawing
from modulebuilder.render.raster import to_image
from modulebuilder.render.template import load_template, piece_fields, template_drawing

FaceName = Literal["front", "back"]
BackTreatment = Literal["disordered", "shaken"]
MUSKET_AND_PIKE = "musket-and-pike"
SERIES_TEMPLATES: dict[str, str] = {"disordered": "triumph-and-glory", "shaken": "musket-and-pike"}


def back_treatment(ruleset: str | None) -> BackTreatment:
    """The look of a unit's back for a scenario's ruleset: Musket & Pike backs are Shaken, everything else
    (Triumph & Glory, or no scenario at all) keeps the Disordered look."""
    return "shaken" if ruleset == MUSKET_AND_PIKE else "disordered"


def series_template(back: BackTreatment) -> str:
    """The bundled template of a series look."""
    return SERIES_TEMPLATES[back]


def face_size(unit: Unit, size_px: int) -> tuple[int, int]:
    """(width, height) of a unit's face: ``size`` counter sides wide, one side high."""
    return size_px * unit.size, size_px


def unit_drawing(unit: Unit, ag: ActivationGroup, face: FaceName, size_px: int, *,
                 dpi: float | None = None, back: BackTreatment = "disordered") -> Drawing:
    """One face of a combat unit, ``size_px`` high and ``unit.size * size_px`` wide.

    ``face="back"`` is the unit's back (``ValueError`` if it has none), drawn with the ``back`` treatment.
    ``dpi`` gives the physical size for the 5 pt legibility limit; without it (screen images) the limit
    is 6 px."""
    if face == "back" and unit.back is None:
        raise ValueError(f"unit {unit.id!r} has no back ({back}) face")
    return template_drawing(load_template(series_template(back)), piece_fields(unit, ag), face, size_px, dpi=dpi)


def render_unit_face(unit: Unit, ag: ActivationGroup, face: FaceName, size_px: int, *,
                     dpi: float | None = None, back: BackTreatment = "disordered") -> Image.Image:
    """:func:`unit_drawing` rasterised."""
    return to_image(unit_drawing(unit, ag, face, size_px, dpi=dpi, back=back))


def leader_drawing(leader: Leader, size_px: int, *, dpi: float | None = None) -> Drawing:
    """A commander of the series looks (``series-leader``)."""
    t = load_template(series_template("disordered")).companion("leader")
    return template_drawing(t, piece_fields(leader), "front", size_px, dpi=dpi)


def render_leader_face(leader: Leader, size_px: int, *, dpi: float | None = None) -> Image.Image:
    """:func:`leader_drawing` rasterised."""
    return to_image(leader_drawing(leader, size_px, dpi=dpi))


def marker_drawing(marker: Marker, face: FaceName, size_px: int, *, dpi: float | None = None) -> Drawing:
    """A game marker of the series looks (``series-marker``): its text (``back_text`` on the back)."""
    if face == "back" and marker.back_text is None:
        raise ValueError(f"marker {marker.id!r} has no back face")
    t = load_template(series_template("disordered")).companion("marker")
    return template_drawing(t, piece_fields(marker), face, size_px, dpi=dpi)


def render_marker_face(marker: Marker, face: FaceName, size_px: int, *, dpi: float | None = None) -> Image.Image:
    """:func:`marker_drawing` rasterised."""
    return to_image(marker_drawing(marker, face, size_px, dpi=dpi))


def blank_drawing(colour: str | RGB, size_px: int) -> Drawing:
    """The back of a one-sided counter on a duplex sheet: plain colour, so the cut counter looks finished."""
    return Drawing(size_px, size_px, rgb(colour))


def render_blank_back(colour: str | RGB, size_px: int) -> Image.Image:
    """:func:`blank_drawing` rasterised."""
    return to_image(blank_drawing(colour, size_px))


def __getattr__(name: str) -> Any:
    # Read from the template, so the constant can never disagree with the art (and importing this module
    # does not load a template).
    if name == "SHAKEN_AMBER":
        return rgb(load_template("musket-and-pike").data["colours"]["shaken"])
    raise AttributeError(name)
