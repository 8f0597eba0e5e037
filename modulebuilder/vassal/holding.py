"""The off-map "Holding" board: labelled boxes for reinforcements by turn, Withdrawn, Recovery, Eliminated.

Each box is a VASSAL Zone, so the engine names a piece in it by the box label (``Withdrawn``) just as it
names a hex on the main map, and the referee can read a unit's box from a save.  A box is a row of
cells, one stack each (a reinforcement group, or one side's units), so nothing piles up unreadably.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Mapping

from PIL import Image, ImageDraw

from .buildfile import Zone
from ..render.text import font

STANDARD_BOXES = (("withdrawn", "Withdrawn"), ("recovery", "Recovery"), ("eliminated", "Eliminated"))
REINFORCEMENT = "reinforcement-"
LATER = REINFORCEMENT + "later"          # reinforcements whose turn a condition decides
LABEL_PX = 22
PAD = 12


@dataclass(frozen=True)
class Box:
    key: str          # "withdrawn", "reinforcement-3", ...
    label: str        # the zone name VASSAL reports
    cells: int        # how many stacks it holds side by side


@dataclass(frozen=True)
class HoldingLayout:
    width: int
    height: int
    rects: dict[str, tuple[int, int, int, int]]          # key -> (x0, y0, x1, y1)
    cells: dict[str, tuple[tuple[int, int], ...]]        # key -> centres of its cells, left to right

    def zones(self, boxes: tuple[Box, ...]) -> tuple[Zone, ...]:
        out = []
        for b in boxes:
            x0, y0, x1, y1 = self.rects[b.key]
            out.append(Zone(b.label, ((x0, y0), (x1, y0), (x1, y1), (x0, y1))))
        return tuple(out)


def reinforcement_key(turn: int | None) -> str:
    return LATER if turn is None else f"{REINFORCEMENT}{turn}"


def box_label(key: str, labels: Mapping[str, str]) -> str:
    """The zone name of a box: ``Reinforcements, turn 3``, ``Reinforcements, later``, or its label."""
    if key == LATER:
        return "Reinforcements, later"
    if key.startswith(REINFORCEMENT):
        return f"Reinforcements, turn {key[len(REINFORCEMENT):]}"
    return labels.get(key, key.replace("-", " ").capitalize())


def boxes(cells: Mapping[str, int], labels: Mapping[str, str]) -> tuple[Box, ...]:
    """Reinforcement boxes by turn, then the later ones, then the rest in ``cells`` order."""
    turns = sorted(int(k[len(REINFORCEMENT):]) for k in cells
                   if k.startswith(REINFORCEMENT) and k[len(REINFORCEMENT):].isdigit())
    order = [reinforcement_key(t) for t in turns] + [k for k in cells if k == LATER]
    order += [k for k in cells if k not in order]
    return tuple(Box(k, box_label(k, labels), cells[k]) for k in order)


def _label_font():
    return font(LABEL_PX - 8)


def layout(boxes: tuple[Box, ...], counter_px: int) -> HoldingLayout:
    """Boxes stacked vertically, all as wide as the widest need (its cells, or its label)."""
    cell = int(counter_px * 1.5)
    f = _label_font()
    inner = max(max(max(1, b.cells) * cell, int(f.getlength(b.label)) + 12) for b in boxes)
    rects, cells, y = {}, {}, PAD
    for b in boxes:
        h = LABEL_PX + cell
        rects[b.key] = (PAD, y, PAD + inner, y + h)
        cy = y + LABEL_PX + cell // 2
        cells[b.key] = tuple((PAD + i * cell + cell // 2, cy) for i in range(max(1, b.cells)))
        y += h + PAD
    return HoldingLayout(inner + 2 * PAD, y, rects, cells)


def render(boxes: tuple[Box, ...], lay: HoldingLayout) -> bytes:
    """The board image (PNG bytes): a light background, each box outlined and labelled."""
    img = Image.new("RGB", (lay.width, lay.height), (236, 230, 214))
    draw = ImageDraw.Draw(img)
    f = _label_font()
    for b in boxes:
        x0, y0, x1, y1 = lay.rects[b.key]
        draw.rectangle((x0, y0, x1, y1), fill=(250, 247, 238), outline=(60, 50, 40), width=2)
        draw.text((x0 + 6, y0 + 4), b.label, fill=(30, 25, 20), font=f)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()
