"""Counter art, print sheets and the rendered hex map (see README.md in this folder).

Public API (used by the VASSAL writer and the referee's board pictures): :func:`render_unit_face`,
:func:`render_leader_face`, :func:`render_marker_face`, :func:`counter_images` and :func:`render_map`."""
from __future__ import annotations

from modulebuilder.render.counters import render_leader_face, render_marker_face, render_unit_face
from modulebuilder.render.faces import counter_images
from modulebuilder.render.map import render_map
from modulebuilder.render.text import FacesDoNotFit, TextDoesNotFit

__all__ = ["render_unit_face", "render_leader_face", "render_marker_face", "counter_images", "render_map",
           "TextDoesNotFit", "FacesDoNotFit"]
