"""What goes on the sheets: each physical counter is one *print item* (its front face key, its back face
key, or a plain back in the counter's colour when it has none so a cut counter looks finished) times
its number of copies.  Items keep a fixed order, so the same definitions always give the same sheets.

A two-hex unit's item spans two slots of a row.  Slots are filled row by row in item order; a two-slot
item that would straddle the end of a row (or of a page) starts the next row instead, leaving one slot
empty, so a counter is never split and the order of the sheets stays the order of the definitions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping

from PIL import Image

from modulebuilder.model import CounterSet
from modulebuilder.render.colours import RGB
from modulebuilder.render.drawing import Drawing

if TYPE_CHECKING:
    from modulebuilder.render.sheet_layout import SheetGeometry

BLANK = "blank:"


def blank_key(colour: str | RGB) -> str:
    """Face key of a plain back in ``colour``."""
    if isinstance(colour, tuple):
        colour = "#%02x%02x%02x" % colour
    return BLANK + colour


@dataclass(frozen=True)
class PrintItem:
    """One counter design as printed: face keys into the rendered faces, and copies."""
    id: str
    front: str
    back: str                # a face key, or blank_key(colour) for a plain back
    copies: int = 1
    span: int = 1            # slots side by side in one row: 2 for a two-hex unit


@dataclass(frozen=True)
class SlotItem:
    """A print item at its slot on a page: row, first column, and the item (which knows its span)."""
    item: PrintItem
    row: int
    col: int


def _body(face: "Drawing | Image.Image") -> RGB:
    """The colour a one-sided counter's plain back takes: its front's background (for a face given as
    pixels, the lower-left corner's, which every bundled look leaves as the body colour)."""
    if isinstance(face, Drawing):
        return face.background[:3]            # type: ignore[return-value]
    return face.convert("RGB").getpixel((0, face.height - 1))  # type: ignore[return-value]


def print_items(counters: CounterSet, faces: "Mapping[str, Drawing | Image.Image]",
                copies: Mapping[str, int] | None = None) -> list[PrintItem]:
    """Items for every unit, commander and marker, each printed its ``count`` times (markers always had
    one; units and commanders have one when the definitions carry it, else 1); ``copies`` (id -> n)
    overrides the count of any counter."""
    copies = copies or {}
    items: list[PrintItem] = []

    def back_of(pid: str) -> str:
        key = f"{pid}/back"
        return key if key in faces else blank_key(_body(faces[f"{pid}/front"]))

    for u in counters.units:
        items.append(PrintItem(u.id, f"{u.id}/front", back_of(u.id), copies.get(u.id, getattr(u, "count", 1)), u.size))
    for ldr in counters.leaders:
        items.append(PrintItem(ldr.id, f"{ldr.id}/front", back_of(ldr.id), copies.get(ldr.id, getattr(ldr, "count", 1))))
    for m in counters.markers:
        key = f"{m.id}/back"
        items.append(PrintItem(m.id, f"{m.id}/front", key if key in faces else blank_key(m.colour),
                               copies.get(m.id, m.count)))
    return items


def slots_in_order(items: Iterable[PrintItem]) -> Iterator[PrintItem]:
    """Each item repeated ``copies`` times, in order: one entry per physical counter."""
    for item in items:
        for _ in range(max(0, item.copies)):
            yield item


def slot_positions(spans: Iterable[int], cols: int) -> Iterator[tuple[int, int]]:
    """(row, column) of each item in turn, counting rows on from page to page: fill rows left to right,
    moving a wide item that does not fit in what is left of a row to the start of the next row."""
    row, col = 0, 0
    for span in spans:
        if span > cols:
            raise ValueError(f"a counter {span} slots wide does not fit a sheet {cols} slots wide")
        if col + span > cols:
            row, col = row + 1, 0
        yield row, col
        col += span


def paginate_by_span(items: list[PrintItem], geo: "SheetGeometry") -> list[tuple["SheetGeometry", list[PrintItem]]]:
    """(grid, counters) page by page: one-hex counters on the sheet's grid, then two-hex counters on a
    grid of double-width cells (so every counter's edges have their own crop marks)."""
    out: list[tuple[SheetGeometry, list[PrintItem]]] = []
    spans = sorted({i.span for i in items}) or [1]
    for span in spans:
        g = geo.for_span(span)
        if g.per_page <= 0:
            raise ValueError(f"a counter {span} sides wide does not fit the paper: use a smaller counter size, "
                             "bleed or margin")
        group = [i for i in items if i.span == span]
        if group or span == 1 and len(spans) == 1:
            out += [(g, page) for page in paginate([PrintItem(i.id, i.front, i.back, i.copies, 1) for i in group],
                                                    g.per_page)]
    return out


def paginate(items: list[PrintItem], per_page: int, cols: int | None = None) -> list[list[PrintItem]]:
    """Physical counters page by page.  ``cols`` (the sheet's columns) is needed only when some item spans
    several slots: then pages break by rows, so a two-hex counter never straddles two pages."""
    flat = list(slots_in_order(items))
    if per_page <= 0:
        raise ValueError("the counters do not fit on the paper: use a smaller counter size, bleed or margin")
    if cols is None or all(i.span == 1 for i in flat):
        return [flat[i:i + per_page] for i in range(0, len(flat), per_page)] or [[]]
    rows = per_page // cols
    pages: list[list[PrintItem]] = []
    for item, (row, _) in zip(flat, slot_positions((i.span for i in flat), cols)):
        while len(pages) <= row // rows:
            pages.append([])
        pages[row // rows].append(item)
    return pages or [[]]


def page_slots(page: list[PrintItem], cols: int) -> list[SlotItem]:
    """Where each counter of one page goes (the same flow as :func:`paginate`, restarted at row 0)."""
    return [SlotItem(item, row, col) for item, (row, col) in zip(page, slot_positions((i.span for i in page), cols))]
