"""Every face of a counter set, rendered in parallel with a deterministic order.

A face is keyed ``"<id>/front"`` or ``"<id>/back"``: units with a Disordered side and two-sided markers
have a back; commanders, one-sided markers and units flagged ``no_back`` have only a front.  Every face is
drawn by a counter template (:mod:`modulebuilder.render.template`): the one the caller names, else the
series look of the caller's :data:`~modulebuilder.render.counters.BackTreatment` (``triumph-and-glory``
for Disordered backs, ``musket-and-pike`` for Shaken ones); commanders and markers by that template's
``leader`` and ``marker`` companions.  Two-hex units' faces are twice as wide as they are high."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Literal, Union

from PIL import Image

from modulebuilder.model import ActivationGroup, CounterSet, Leader, Marker, Unit
from modulebuilder.render.art import check_art
from modulebuilder.render.counters import BackTreatment, face_size, series_template
from modulebuilder.render.drawing import Drawing
from modulebuilder.render.parallel import ordered_map
from modulebuilder.render.raster import to_image
from modulebuilder.render.template import Template, load_template, piece_fields, template_drawing
from modulebuilder.render.text import FacesDoNotFit, TextDoesNotFit

FaceName = Literal["front", "back"]
Progress = Callable[[int, int], None]          # (faces done, faces in all)


@dataclass(frozen=True)
class FaceJob:
    """What to draw for one face key."""
    key: str
    piece: Union[Unit, Leader, Marker]
    face: FaceName
    ag: ActivationGroup | None = None
    back: BackTreatment = "disordered"     # the series look when no template is named
    template: str | None = None            # a counter template (bundled id or file)

    def pixel_size(self, size_px: int) -> tuple[int, int]:
        """(width, height) of the rendered face: two-hex units are two sides wide."""
        return face_size(self.piece, size_px) if isinstance(self.piece, Unit) else (size_px, size_px)

    def counter_template(self) -> Template:
        """The template that draws this face."""
        t = load_template(self.template or series_template(self.back))
        if isinstance(self.piece, Leader):
            return t.companion("leader")
        if isinstance(self.piece, Marker):
            return t.companion("marker")
        return t


def _ag_for(counters: CounterSet, unit: Unit) -> ActivationGroup | None:
    if not unit.ag:
        return None              # a game without activation groups: the side's colours, or the template's own
    for ag in counters.activation_groups:
        if ag.id == unit.ag:
            return ag
    raise ValueError(f"unit {unit.id!r}: activation group {unit.ag!r} is not defined ({unit.source})")


def face_jobs(counters: CounterSet, back: BackTreatment = "disordered", template: str | None = None) -> list[FaceJob]:
    """All faces in a fixed order: units (front, back), commanders, markers (front, back)."""
    jobs: list[FaceJob] = []
    for u in counters.units:
        ag = _ag_for(counters, u)
        jobs.append(FaceJob(f"{u.id}/front", u, "front", ag, back, template))
        if u.two_sided:
            jobs.append(FaceJob(f"{u.id}/back", u, "back", ag, back, template))
    for ldr in counters.leaders:
        jobs.append(FaceJob(f"{ldr.id}/front", ldr, "front", None, back, template))
    for m in counters.markers:
        jobs.append(FaceJob(f"{m.id}/front", m, "front", None, back, template))
        if m.back_text is not None:
            jobs.append(FaceJob(f"{m.id}/back", m, "back", None, back, template))
    return jobs


def drawing_job(job: FaceJob, size_px: int, dpi: float | None = None, game: object = None,
                notes: list[str] | None = None, fields: dict[str, Any] | None = None) -> Drawing:
    """The face of ``job`` as a drawing (both backends start here)."""
    if fields is None:
        fields = piece_fields(job.piece, job.ag, game)
    return template_drawing(job.counter_template(), fields, job.face, size_px, dpi=dpi, notes=notes)


def render_job(job: FaceJob, size_px: int, dpi: float | None = None, game: object = None) -> Image.Image:
    return to_image(drawing_job(job, size_px, dpi, game))


def _raise_misfits(misfits: "list[TextDoesNotFit]") -> None:
    if len(misfits) == 1:
        raise misfits[0]
    if misfits:
        raise FacesDoNotFit(misfits)


def _note(misfits: "list[TextDoesNotFit]", exc: TextDoesNotFit) -> None:
    if isinstance(exc, FacesDoNotFit):
        for p in exc.problems:
            _note(misfits, p)
        return
    if not any(m.owner == exc.owner and m.field == exc.field for m in misfits):
        misfits.append(exc)               # a name too long on the front is too long on the back too


def face_drawings(counters: CounterSet, size_px: int, *, dpi: float | None = None,
                  back: BackTreatment = "disordered", template: str | None = None,
                  log: Callable[[str], None] | None = None, game: object = None) -> dict[str, Drawing]:
    """Every face of ``counters`` as a drawing, keyed and ordered as :func:`render_faces`; text that cannot
    be printed legibly is reported for all faces at once (:class:`FacesDoNotFit`).  ``log`` hears, once
    per counter and text, of text printed in a fallback font or left out as optional (the word "Shaken"
    on a counter too small for it)."""
    check_art(game, counters.units)
    out: dict[str, Drawing] = {}
    misfits: list[TextDoesNotFit] = []
    said: set[str] = set()
    for job in face_jobs(counters, back, template):
        notes: list[str] = []
        try:
            out[job.key] = drawing_job(job, size_px, dpi, game, notes)
        except TextDoesNotFit as exc:
            _note(misfits, exc)
        for n in notes:
            if log and n not in said:
                said.add(n)
                log(n)
    _raise_misfits(misfits)
    return out


def _worker(args: tuple[FaceJob, dict[str, Any], int, float | None]) -> tuple[str, tuple[int, int], bytes | TextDoesNotFit]:
    job, fields, size_px, dpi = args
    try:
        img = to_image(drawing_job(job, size_px, dpi, fields=fields))
        # Raw bytes cross the process boundary faster than a pickled Image.
        return job.key, img.size, img.tobytes()
    except TextDoesNotFit as exc:         # returned, not raised: the other faces still render and report
        return job.key, (0, 0), exc


def _rendered(jobs: list[FaceJob], size_px: int, dpi: float | None, workers: int | None,
              game: object = None) -> Iterator[tuple[str, Image.Image | TextDoesNotFit]]:
    for j in jobs:                        # load (and check) the templates before the workers fork
        j.counter_template()
    args = [(j, piece_fields(j.piece, j.ag, game), size_px, dpi) for j in jobs]
    for key, size, raw in ordered_map(_worker, args, workers):
        yield key, raw if isinstance(raw, TextDoesNotFit) else Image.frombytes("RGB", size, raw)


def render_faces(counters: CounterSet, size_px: int, *, dpi: float | None = None, workers: int | None = None,
                 progress: Progress | None = None, back: BackTreatment = "disordered",
                 template: str | None = None, game: object = None) -> dict[str, Image.Image]:
    """Every face of ``counters``, keyed ``"<id>/front"`` / ``"<id>/back"``, in :func:`face_jobs` order.
    Faces whose text cannot be printed legibly are all reported at once (:class:`FacesDoNotFit`)."""
    check_art(game, counters.units)
    jobs = face_jobs(counters, back, template)
    out: dict[str, Image.Image] = {}
    misfits: list[TextDoesNotFit] = []
    for i, (key, img) in enumerate(_rendered(jobs, size_px, dpi, workers, game)):
        if isinstance(img, TextDoesNotFit):
            _note(misfits, img)
        else:
            out[key] = img
        if progress:
            progress(i + 1, len(jobs))
    _raise_misfits(misfits)
    return out


def counter_images(counters: CounterSet, size_px: int, back: BackTreatment = "disordered") -> dict[str, Image.Image]:
    """Public API for the VASSAL writer: every face ``size_px`` high, keyed by ``"<id>/<face>"``."""
    return render_faces(counters, size_px, back=back)
