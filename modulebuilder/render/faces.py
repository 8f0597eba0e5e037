"""Every face of a counter set, rendered in parallel with a deterministic order.

A face is keyed ``"<id>/front"`` or ``"<id>/back"``: units with a Disordered side and two-sided markers
have a back; commanders, one-sided markers and units flagged ``no_back`` have only a front.  A unit's back
is drawn with the caller's :data:`~modulebuilder.render.counters.BackTreatment` (Disordered for Triumph &
Glory, Shaken for Musket & Pike); two-hex units' faces are twice as wide as they are high."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Literal, Union

from PIL import Image

from modulebuilder.model import ActivationGroup, CounterSet, Leader, Marker, Unit
from modulebuilder.render.counters import BackTreatment, face_size, leader_drawing, marker_drawing, unit_drawing
from modulebuilder.render.drawing import Drawing
from modulebuilder.render.raster import to_image
from modulebuilder.render.parallel import ordered_map
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
    back: BackTreatment = "disordered"     # how a unit's back is drawn (ignored for fronts and non-units)

    def pixel_size(self, size_px: int) -> tuple[int, int]:
        """(width, height) of the rendered face: two-hex units are two sides wide."""
        return face_size(self.piece, size_px) if isinstance(self.piece, Unit) else (size_px, size_px)


def _ag_for(counters: CounterSet, unit: Unit) -> ActivationGroup:
    for ag in counters.activation_groups:
        if ag.id == unit.ag:
            return ag
    raise ValueError(f"unit {unit.id!r}: activation group {unit.ag!r} is not defined ({unit.source})")


def face_jobs(counters: CounterSet, back: BackTreatment = "disordered") -> list[FaceJob]:
    """All faces in a fixed order: units (front, back), commanders, markers (front, back)."""
    jobs: list[FaceJob] = []
    for u in counters.units:
        ag = _ag_for(counters, u)
        jobs.append(FaceJob(f"{u.id}/front", u, "front", ag, back))
        if u.back is not None:
            jobs.append(FaceJob(f"{u.id}/back", u, "back", ag, back))
    for ldr in counters.leaders:
        jobs.append(FaceJob(f"{ldr.id}/front", ldr, "front"))
    for m in counters.markers:
        jobs.append(FaceJob(f"{m.id}/front", m, "front"))
        if m.back_text is not None:
            jobs.append(FaceJob(f"{m.id}/back", m, "back"))
    return jobs


def drawing_job(job: FaceJob, size_px: int, dpi: float | None = None) -> Drawing:
    """The face of ``job`` as a drawing (both backends start here)."""
    if isinstance(job.piece, Unit):
        assert job.ag is not None
        return unit_drawing(job.piece, job.ag, job.face, size_px, dpi=dpi, back=job.back)
    if isinstance(job.piece, Leader):
        return leader_drawing(job.piece, size_px, dpi=dpi)
    return marker_drawing(job.piece, job.face, size_px, dpi=dpi)


def render_job(job: FaceJob, size_px: int, dpi: float | None = None) -> Image.Image:
    return to_image(drawing_job(job, size_px, dpi))


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
    be printed legibly is reported for all faces at once (:class:`FacesDoNotFit`).  With a data
    ``template`` (see :mod:`modulebuilder.render.template`) units are drawn with it, commanders with the
    bundled ``leader`` template and markers with ``marker``.  ``log`` hears of text a coded layout leaves
    out on purpose (the word "Shaken" on a counter too small for it), one line per counter."""
    out: dict[str, Drawing] = {}
    misfits: list[TextDoesNotFit] = []
    data_template = _data_template(template)
    for job in face_jobs(counters, back):
        try:
            if data_template is not None:
                out[job.key] = _templated(job, data_template, size_px, dpi, game)
            else:
                out[job.key] = drawing_job(job, size_px, dpi)
                if log and job.face == "back" and job.back == "shaken" and isinstance(job.piece, Unit):
                    _report_shaken(job.piece, size_px, dpi, log)
                if log and job.face == "front":
                    _report_light_weight(job.piece.id, out[job.key], dpi, log)
        except TextDoesNotFit as exc:
            _note(misfits, exc)
    _raise_misfits(misfits)
    return out


def _report_shaken(unit: Unit, size_px: int, dpi: float | None, log: Callable[[str], None]) -> None:
    from modulebuilder.render.counters import shaken_word_fits
    from modulebuilder.render.text import min_text_px
    min_px = min_text_px(dpi)
    fits, size = shaken_word_fits(size_px * unit.size, size_px, min_px)
    if not fits:
        unit_of = "pt" if dpi else "px"
        k = 72 / dpi if dpi else 1.0
        log(f"note: counter {unit.id!r} back: the word 'Shaken' fits only at {size * k:.1f} {unit_of} "
            f"(minimum {min_px * k:.1f} {unit_of}); printed without it, the amber frame marks the side")


def _report_light_weight(owner: str, drawing: Drawing, dpi: float | None, log: Callable[[str], None]) -> None:
    """The coded layouts print a name that bold cannot fit legibly in the narrower regular weight: say so."""
    from modulebuilder.fonts import REGULAR
    for t in drawing.items:
        if getattr(t, "font", None) == str(REGULAR):
            size = f"{t.size * 72 / dpi:.1f} pt" if dpi else f"{t.size} px"     # type: ignore[attr-defined]
            log(f"note: counter {owner!r}: {t.text!r} is printed in the regular weight at {size} "   # type: ignore[attr-defined]
                "(bold does not fit legibly); a short_name keeps it bold")


def _data_template(template: str | None):  # type: ignore[no-untyped-def]
    if template is None:
        return None
    from modulebuilder.render.template import load_template
    t = load_template(template)
    return None if t.data.get("layout") else t


def _templated(job: FaceJob, t, size_px: int, dpi: float | None, game: object = None) -> Drawing:  # type: ignore[no-untyped-def]
    from modulebuilder.render.template import load_template, piece_fields, template_drawing
    if isinstance(job.piece, Leader):
        t = load_template("leader")
    elif isinstance(job.piece, Marker):
        t = load_template("marker")
    return template_drawing(t, piece_fields(job.piece, job.ag, game), job.face, size_px, dpi=dpi)


def _worker(args: tuple[FaceJob, int, float | None]) -> tuple[str, bytes | TextDoesNotFit]:
    job, size_px, dpi = args
    try:
        # Raw bytes cross the process boundary faster than a pickled Image.
        return job.key, render_job(job, size_px, dpi).tobytes()
    except TextDoesNotFit as exc:         # returned, not raised: the other faces still render and report
        return job.key, exc


def _rendered(jobs: list[FaceJob], size_px: int, dpi: float | None,
              workers: int | None) -> Iterator[tuple[str, Image.Image | TextDoesNotFit]]:
    sizes = {j.key: j.pixel_size(size_px) for j in jobs}
    for key, raw in ordered_map(_worker, [(j, size_px, dpi) for j in jobs], workers):
        yield key, raw if isinstance(raw, TextDoesNotFit) else Image.frombytes("RGB", sizes[key], raw)


def render_faces(counters: CounterSet, size_px: int, *, dpi: float | None = None, workers: int | None = None,
                 progress: Progress | None = None, back: BackTreatment = "disordered",
                 template: str | None = None, game: object = None) -> dict[str, Image.Image]:
    """Every face of ``counters``, keyed ``"<id>/front"`` / ``"<id>/back"``, in :func:`face_jobs` order.
    Faces whose text cannot be printed legibly are all reported at once (:class:`FacesDoNotFit`)."""
    if _data_template(template) is not None:
        drawings = face_drawings(counters, size_px, dpi=dpi, back=back, template=template, game=game)
        if progress:
            progress(len(drawings), len(drawings))
        return {k: to_image(d) for k, d in drawings.items()}
    jobs = face_jobs(counters, back)
    out: dict[str, Image.Image] = {}
    misfits: list[TextDoesNotFit] = []
    for i, (key, img) in enumerate(_rendered(jobs, size_px, dpi, workers)):
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
