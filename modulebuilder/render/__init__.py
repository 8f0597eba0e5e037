"""Counter art, print sheets and the rendered hex map.

Public API (used by the VASSAL writer): :func:`render_unit_face`, :func:`render_leader_face`,
:func:`render_marker_face`, :func:`counter_images` and :func:`render_map`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from modulebuilder.render.counters import render_leader_face, render_marker_face, render_unit_face
from modulebuilder.render.faces import counter_images
from modulebuilder.render.text import TextDoesNotFit

__all__ = ["render_unit_face", "render_leader_face", "render_marker_face", "counter_images", "render_map",
           "TextDoesNotFit"]

if TYPE_CHECKING:
    from modulebuilder.render.map import render_map


def __getattr__(name: str) -> Any:
    # The map renderer needs the hex geometry module; import it only when asked for.
    if name == "render_map":
        from modulebuilder.render.map import render_map
        return render_map
    raise AttributeError(name)
