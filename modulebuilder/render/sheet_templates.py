"""Sheet templates (``modulebuilder/templates/sheets.yaml``): home Letter/A4 and commercial die-cut
layouts, each with the source of its measurements."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from modulebuilder.render.physical import POINTS_PER_INCH, PAPER_POINTS

SHEETS = Path(__file__).resolve().parents[1] / "templates" / "sheets.yaml"


def length(text: str | float | int) -> Fraction:
    """``"5/8"``, ``"0.6in"``, ``"16mm"`` or a number of inches -> inches (:mod:`modulebuilder.measure`)."""
    from modulebuilder.measure import parse_length
    return parse_length(text)


@dataclass(frozen=True)
class SheetTemplate:
    id: str
    paper: str                                   # a paper name, or the template id for a custom trim
    trim_pt: tuple[float, float] | None
    bleed_in: Fraction
    gap_in: Fraction | None
    margin_in: Fraction
    slug_in: Fraction
    source: str


@lru_cache(maxsize=1)
def sheet_templates() -> dict[str, SheetTemplate]:
    from ruamel.yaml import YAML
    data = YAML(typ="safe").load(SHEETS.read_text(encoding="utf-8"))
    out = {}
    for sid, d in data.items():
        trim = d.get("trim")
        out[sid] = SheetTemplate(
            sid, d.get("paper", sid),
            None if trim is None else tuple(float(length(v)) * POINTS_PER_INCH for v in trim),  # type: ignore[arg-type]
            length(d.get("bleed", "1/16")), None if "gap" not in d else length(d["gap"]),
            length(d.get("margin", "1/4")), length(d.get("slug", 0)), str(d.get("source", "")))
    return out


def sheet_template(name: str) -> SheetTemplate:
    sheets = sheet_templates()
    if name.lower() in sheets:
        return sheets[name.lower()]
    if name.lower() in PAPER_POINTS:
        return SheetTemplate(name.lower(), name.lower(), None, Fraction(1, 16), None, Fraction(1, 4), Fraction(0), "")
    raise ValueError(f"unknown sheet {name!r}; choose one of {', '.join(sheets)}")
