"""A two-page duplex calibration sheet that measures how far the printer moves the back side.

Print it duplex (long-edge flip) and hold it against the light.  The front carries millimetre scales
around five targets; the back carries plain crosses at the mirrored positions.  Where a back cross
falls on a front scale is the correction to pass as ``--back-offset X,Y`` (the scales are labelled with
the correction itself, so no sign arithmetic is left to the user)."""
from __future__ import annotations

from modulebuilder.render.pdf import Canvas, PdfDocument
from modulebuilder.render.physical import mm_to_points, paper_points

SCALE_MM = 10         # ticks every millimetre from -10 to +10, labelled every 5
TARGET_INSET_PT = 90.0


def targets(paper: str) -> list[tuple[float, float]]:
    """Target centres (points, top-left origin): four near the corners and one in the middle."""
    w, h = paper_points(paper)
    i = TARGET_INSET_PT
    return [(i, i), (w - i, i), (w / 2, h / 2), (i, h - i), (w - i, h - i)]


def _scales(c: Canvas, x: float, y: float) -> None:
    mm = mm_to_points(1)
    c.line(x - SCALE_MM * mm, y, x + SCALE_MM * mm, y, width=0.25)
    c.line(x, y - SCALE_MM * mm, x, y + SCALE_MM * mm, width=0.25)
    for k in range(-SCALE_MM, SCALE_MM + 1):
        t = 4.0 if k % 5 == 0 else 2.0
        c.line(x + k * mm, y - t, x + k * mm, y + t, width=0.25)
        c.line(x - t, y + k * mm, x + t, y + k * mm, width=0.25)
        if k and k % 5 == 0:
            # Seen from the front, a back drift of +d (right) shows at -d: the correction is the reading.
            c.text(x + k * mm, y - 6, f"{k:+d}", size=5, align="centre")
            # Vertical drift shows unmirrored: the correction is minus the reading.
            c.text(x + 6, y + k * mm + 1.8, f"{-k:+d}", size=5)


def _ruler(c: Canvas, w: float, h: float) -> None:
    """A 4-inch and a 10-centimetre ruler with the "print at 100%" warning: measure them on the printout;
    if they are short the printer scaled the page and every counter is off by as much."""
    x0, y = w / 2 - 144, h - 150
    c.text(w / 2, y - 28, "PRINT AT 100% (\"actual size\"), never \"fit to page\": each ruler must measure "
           "exactly its length on paper.", 8, "centre")
    c.line(x0, y, x0 + 4 * 72, y, width=0.5)
    for i in range(0, 4 * 16 + 1):
        t = 10.0 if i % 16 == 0 else (6.0 if i % 8 == 0 else (4.0 if i % 4 == 0 else 2.0))
        c.line(x0 + i * 4.5, y, x0 + i * 4.5, y - t, width=0.25)
        if i % 16 == 0:
            c.text(x0 + i * 4.5, y - 12, f"{i // 16} in", 6, "centre")
    y2 = y + 30
    mm = mm_to_points(1)
    c.line(x0, y2, x0 + 100 * mm, y2, width=0.5)
    for i in range(0, 101):
        t = 8.0 if i % 10 == 0 else (5.0 if i % 5 == 0 else 2.5)
        c.line(x0 + i * mm, y2, x0 + i * mm, y2 + t, width=0.25)
        if i % 10 == 0:
            c.text(x0 + i * mm, y2 + 16, f"{i // 10} cm", 6, "centre")


def calibration_pdf(paper: str, back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """Front: scales at each target.  Back: crosses at the mirrored targets, shifted by the offset
    under test, so printing again with the chosen offset should show every cross on zero."""
    w, h = paper_points(paper)
    doc = PdfDocument()
    front = doc.new_page(w, h)
    for x, y in targets(paper):
        _scales(front, x, y)
    front.text(w / 2, 40, "Duplex calibration - front. Print both pages duplex, flip on the long edge.", 9, "centre")
    front.text(w / 2, 54, "Hold against the light: where each back cross meets the scales, read X (horizontal "
               "scale) and Y (vertical scale) in mm,", 7, "centre")
    front.text(w / 2, 64, "then print sheets with  --back-offset X,Y  (current offset "
               f"{back_offset_mm[0]:g},{back_offset_mm[1]:g} mm).", 7, "centre")
    _ruler(front, w, h)
    back = doc.new_page(w, h)
    dx, dy = (mm_to_points(v) for v in back_offset_mm)
    arm = mm_to_points(SCALE_MM + 3)
    for x, y in targets(paper):
        bx, by = w - x + dx, y + dy                    # the back page is mirrored about the vertical centre line
        back.line(bx - arm, by, bx + arm, by, width=0.5)
        back.line(bx, by - arm, bx, by + arm, width=0.5)
        back.circle(bx, by, mm_to_points(1.5), width=0.5)
    back.text(w / 2, 40, "Duplex calibration - back", 9, "centre")
    return doc.tobytes()
