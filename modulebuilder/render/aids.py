"""Printed game aids from the same data as the counters: per scenario a set-up card (hex -> the units that
start there, drawn as their counters), an order-of-battle chart (each side's groups and their counters,
reinforcements with turn and entry hexes), a turn track (one box per turn with its time and what
arrives), and the rules tables as pages (the chart images of :mod:`modulebuilder.render.charts`, the
same drawing the module's Charts window shows, at print resolution).

Counters on the aids are the sheets' vector face forms, so an aid shows exactly the printed counter;
text is in the bundled fonts, embedded.  All pages are Letter or A4 portrait with 1/2" margins."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

from PIL import Image

from modulebuilder.fonts import BOLD
from modulebuilder.model import Scenario
from modulebuilder.render.counters import BackTreatment, back_treatment
from modulebuilder.render.drawing import Drawing
from modulebuilder.render.face_source import FaceSource
from modulebuilder.render.faces import face_drawings
from modulebuilder.render.pdf import Canvas, ColourSpace, PdfDocument, RGB_SPACE
from modulebuilder.render.physical import paper_points

MARGIN = 36.0
COUNTER_PT = 30.0                 # counters on the aids: a little under half an inch
ROW_GAP = 6.0
TITLE_PT, HEAD_PT, BODY_PT, SMALL_PT = 14.0, 10.0, 7.5, 6.0
FACE_PX = 96                      # face drawings for the aids (vector: only the layout depends on it)


@dataclass
class _Pages:
    """A flowing column of rows on portrait pages, starting a new page when a row does not fit."""
    doc: PdfDocument
    paper: str
    title: str
    canvas: Canvas | None = None
    y: float = 0.0

    @property
    def size(self) -> tuple[float, float]:
        return paper_points(self.paper)

    def new_page(self, heading: str) -> Canvas:
        w, h = self.size
        self.canvas = self.doc.new_page(w, h)
        self.canvas.text(MARGIN, MARGIN + TITLE_PT, heading, TITLE_PT, font=str(BOLD))
        self.canvas.text(w - MARGIN, MARGIN + TITLE_PT, self.title, SMALL_PT, align="right")
        self.y = MARGIN + TITLE_PT + 12
        return self.canvas

    def need(self, height: float, heading: str) -> Canvas:
        if self.canvas is None or self.y + height > self.size[1] - MARGIN:
            self.new_page(heading)
        assert self.canvas is not None
        return self.canvas


def _counter(doc: PdfDocument, c: Canvas, src: FaceSource, key: str, x: float, y: float) -> float:
    """Draw face ``key`` with its top-left at (x, y), COUNTER_PT high; returns its width."""
    d = src.drawing(key)
    k = COUNTER_PT / d.height
    c.form(src.form(doc, key), x, y, k)
    c.rect(x, y, d.width * k, COUNTER_PT, width=0.3, grey=0.3)
    return d.width * k


def _names(scenario: Scenario) -> dict[str, str]:
    cs = scenario.counters
    return {p.id: p.name for p in (*cs.units, *cs.leaders)}


def _sides(scenario: Scenario) -> list[str]:
    names = [s.name for s in scenario.sides]
    return names or sorted({u.side for u in scenario.counters.units})


def _side_of(scenario: Scenario) -> dict[str, str]:
    cs = scenario.counters
    return {p.id: p.side for p in (*cs.units, *cs.leaders)}


def setup_card(pages: _Pages, scenario: Scenario, src: FaceSource) -> None:
    """Hex (or box) -> the counters that start there, side by side in hex order."""
    side_of, names = _side_of(scenario), _names(scenario)
    heading = f"{scenario.name}: set-up"
    for side in _sides(scenario):
        where: dict[str, list[str]] = {}
        for p in scenario.setup:
            if side_of.get(p.unit) == side:
                where.setdefault(p.hex or f"box: {p.box}", []).append(p.unit)
        if not where:
            continue
        c = pages.need(HEAD_PT + COUNTER_PT + 20, heading)
        c.text(MARGIN, pages.y + HEAD_PT, f"{side}: {sum(len(v) for v in where.values())} counters", HEAD_PT,
               font=str(BOLD))
        pages.y += HEAD_PT + 6
        for spot in sorted(where, key=lambda s: (s.startswith("box"), s)):
            units = where[spot]
            c = pages.need(COUNTER_PT + ROW_GAP + SMALL_PT + 2, heading)
            c.text(MARGIN, pages.y + COUNTER_PT / 2 + BODY_PT / 3, spot, BODY_PT, font=str(BOLD))
            x = MARGIN + 48
            for u in units:
                key = f"{u}/front"
                if key not in src.drawings:
                    continue
                w = _counter(pages.doc, c, src, key, x, pages.y)
                label = names.get(u, u)
                size = min(SMALL_PT, SMALL_PT * (w + 4) / max(1.0, c.text_width(label, SMALL_PT)))
                c.text(x + w / 2, pages.y + COUNTER_PT + size + 1, label, size, align="centre")
                x += w + 8
                if x + COUNTER_PT > pages.size[0] - MARGIN:      # wrap a crowded hex onto a second row
                    pages.y += COUNTER_PT + SMALL_PT + ROW_GAP
                    c = pages.need(COUNTER_PT + ROW_GAP + SMALL_PT + 2, heading)
                    x = MARGIN + 48
            pages.y += COUNTER_PT + SMALL_PT + ROW_GAP


def order_of_battle(pages: _Pages, scenario: Scenario, src: FaceSource) -> None:
    """Each side's activation groups with their counters; reinforcements with their turn and entry."""
    cs = scenario.counters
    heading = f"{scenario.name}: order of battle"
    arriving = {u: r for r in scenario.reinforcements for u in r.units}
    in_play = {p.unit for p in scenario.setup} | set(arriving)
    for side in _sides(scenario):
        groups = [ag for ag in cs.activation_groups if ag.side == side]
        c = pages.need(HEAD_PT + 20, heading)
        c.text(MARGIN, pages.y + HEAD_PT, side, HEAD_PT, font=str(BOLD))
        pages.y += HEAD_PT + 6
        for ag in groups:
            units = [u for u in cs.units if u.ag == ag.id and u.id in in_play]
            if not units:
                continue
            c = pages.need(BODY_PT + COUNTER_PT + SMALL_PT * 2 + ROW_GAP, heading)
            c.fill_rect(MARGIN, pages.y, 8, 8, tuple(int(ag.colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)))
            plans = {_arrival(arriving.get(u.id)) for u in units}
            shared = plans.pop() if len(plans) == 1 else None       # the whole group arrives together
            c.text(MARGIN + 12, pages.y + BODY_PT, f"{ag.name} ({len(units)})" + (f": {shared}" if shared else ""),
                   BODY_PT, font=str(BOLD))
            pages.y += BODY_PT + 4
            x = MARGIN
            for u in units:
                w = _counter(pages.doc, c, src, f"{u.id}/front", x, pages.y)
                label = _arrival(arriving.get(u.id))
                if label and not shared:
                    size = max(3.5, min(SMALL_PT, SMALL_PT * (w + 3) / max(1.0, c.text_width(label, SMALL_PT))))
                    c.text(x + w / 2, pages.y + COUNTER_PT + SMALL_PT + 1, label, size, align="centre")
                x += w + 4
                if x + COUNTER_PT * max(1, u.size) > pages.size[0] - MARGIN:
                    pages.y += COUNTER_PT + SMALL_PT + ROW_GAP
                    c = pages.need(COUNTER_PT + SMALL_PT + ROW_GAP, heading)
                    x = MARGIN
            pages.y += COUNTER_PT + SMALL_PT + ROW_GAP


def _arrival(r: object) -> str:
    """'turn 3, enters 4400' / 'when its command is activated, enters 4400'; '' for a unit set up on the map."""
    if r is None:
        return ""
    when = f"turn {r.turn}" if r.turn is not None else (r.condition or "later").replace("_", " ")  # type: ignore[attr-defined]
    return f"{when}, enters {'/'.join(r.entry)}" if r.entry else when                                # type: ignore[attr-defined]


def turn_track(pages: _Pages, scenario: Scenario) -> None:
    """One box per turn, its number and time, and the reinforcements that arrive in it."""
    t = scenario.turns
    heading = f"{scenario.name}: turn track"
    c = pages.need(100, heading)
    w = pages.size[0] - 2 * MARGIN
    per_row = 6
    box = w / per_row
    names = _names(scenario)
    arrivals: dict[int, list[str]] = {}
    for r in scenario.reinforcements:
        if r.turn is not None:
            arrivals.setdefault(r.turn, []).extend(names.get(u, u) for u in r.units)
    for i, turn in enumerate(range(t.first, t.last + 1)):
        if i % per_row == 0:
            c = pages.need(box * 0.9 + ROW_GAP, heading)
            row_y = pages.y
            pages.y += box * 0.9 + ROW_GAP
        x = MARGIN + (i % per_row) * box
        c.rect(x, row_y, box - 4, box * 0.9, width=0.75)
        c.text(x + 4, row_y + HEAD_PT + 2, str(turn), HEAD_PT * 1.4, font=str(BOLD))
        label = t.label(turn)
        if label != str(turn):
            c.text(x + box - 8, row_y + HEAD_PT, label, BODY_PT, align="right")
        for j, name in enumerate(arrivals.get(turn, [])[:6]):
            c.text(x + 4, row_y + HEAD_PT * 2 + 6 + j * (SMALL_PT + 1), f"+ {name}"[:26], SMALL_PT)
        more = len(arrivals.get(turn, [])) - 6
        if more > 0:
            c.text(x + 4, row_y + HEAD_PT * 2 + 6 + 6 * (SMALL_PT + 1), f"and {more} more", SMALL_PT)


def chart_image_for(colours: ColourSpace, img: Image.Image) -> Image.Image:
    """A chart raster in the document's colour space.  CMYK: through the profile like author art
    (:func:`modulebuilder.render.cmyk.image_for`), except that neutral pixels (r = g = b: the text, rules
    and grey shading of a table) go on the black plate alone, as the vector greys do, so that small type
    does not blur when the four plates do not register."""
    if not colours.cmyk:
        return img
    from PIL import ImageChops, ImageOps

    from modulebuilder.render.cmyk import image_for
    rgb = img.convert("RGB")
    r, g, b = rgb.split()
    neutral = ImageChops.lighter(ImageChops.difference(r, g), ImageChops.difference(g, b)).point(
        lambda v: 255 if v == 0 else 0)
    zero = Image.new("L", rgb.size, 0)
    k_only = Image.merge("CMYK", (zero, zero, zero, ImageOps.invert(r)))
    return Image.composite(k_only, image_for(colours, rgb), neutral)


def tables_pages(pages: _Pages, scenario: Scenario, dpi: int) -> None:
    """The rules tables, each the module's chart image at ``dpi``, scaled to the page width if wider."""
    from modulebuilder.render import charts as C
    heading = f"{scenario.name}: tables"
    k = dpi / 72
    for i, chart in enumerate(C.charts(scenario.tables)):
        img = C.render_chart(chart, px_per_pt=k)
        w, h = img.width / k, img.height / k
        room = pages.size[0] - 2 * MARGIN
        if w > room:
            w, h = room, h * room / w
        c = pages.need(h + ROW_GAP, heading)
        name = f"Chart{i}"
        pages.doc.add_image(name, chart_image_for(pages.doc.colours, img))
        c.image(name, MARGIN, pages.y, w, h)
        pages.y += h + ROW_GAP * 2


def aids_pdf(scenario: Scenario, *, paper: str = "letter", dpi: int = 300, template: str | None = None,
             colours: ColourSpace = RGB_SPACE, log: Callable[[str], None] = lambda s: None) -> bytes:
    """All the aids of one scenario as one PDF: set-up card, order of battle, turn track, tables."""
    back: BackTreatment = back_treatment(scenario.ruleset)
    drawings: Mapping[str, Drawing] = face_drawings(scenario.counters, FACE_PX, back=back, template=template,
                                                    game=getattr(scenario, "game", None))
    src = FaceSource(drawings, FACE_PX, 0)
    doc = PdfDocument(colours, title=f"{scenario.name}: game aids")
    pages = _Pages(doc, paper, scenario.name)
    setup_card(pages, scenario, src)
    pages.canvas = None
    order_of_battle(pages, scenario, src)
    pages.canvas = None
    turn_track(pages, scenario)
    pages.canvas = None
    if scenario.tables:
        tables_pages(pages, scenario, dpi)
    return doc.tobytes()


def write_aids(scenarios: list[Scenario], out: Path, **kw: object) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for s in scenarios:
        path = out / f"aids-{s.id}.pdf"
        path.write_bytes(aids_pdf(s, **kw))                 # type: ignore[arg-type]
        written.append(path)
    return written
