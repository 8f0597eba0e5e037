"""The game's tables (the tables file, e.g. ``tables/borodino.yaml``) drawn as chart images.

One drawing serves the VASSAL module's Charts window and the printed game aids: :func:`charts` turns the
tables mapping into :class:`Chart` grids (title, column heads, rows, footnotes) and :func:`render_chart`
draws one with Pillow at any scale (``px_per_pt`` 1 for the screen, the print DPI / 72 for paper).

Known shapes get a proper grid -- the terrain effects on movement and on shock (terrain rows, hexside
rows), the strength ratios, the shock results, artillery fire's results and DRMs.  Any other section is
drawn as a two-column list of its leaf values, so a game with different tables still gets every one of them
on a chart.  ``note`` fields become footnotes; ``sample_values`` (cells the sources do not give) is a chart
of its own, so a player sees which numbers are placeholders.  The same mapping gives the same PNG bytes.
"""
from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from PIL import Image, ImageDraw

from .text import font

INK = (25, 22, 18)
RULE = (120, 110, 95)
HEAD_BG = (226, 216, 192)
TITLE_BG = (70, 58, 42)
TITLE_INK = (250, 246, 236)
PAPER = (252, 250, 244)
SKIP = {"game", "note"}


@dataclass(frozen=True)
class Chart:
    key: str                              # the tables-file section, e.g. "movement_costs"
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    tab: str = ""                         # a short name (the Charts window's tab); the title when empty

    @property
    def short_name(self) -> str:
        return self.tab or self.title

    @property
    def image_name(self) -> str:
        return f"chart-{self.key.replace('_', '-')}.png"


def _title(key: str) -> str:
    words = str(key).replace("_", " ").capitalize().split()
    return " ".join({"drms": "DRMs", "drm": "DRM", "cinc": "CinC", "dfe": "DFE", "ag": "AG"}.get(w.lower(), w)
                    for w in words)


def _cell(v: Any) -> str:
    """A table value as printed: P = prohibited, a cost that disorders gets "D", signed DRMs."""
    if isinstance(v, Mapping):
        if "cost" in v:
            return f"{v['cost']}{' D' if v.get('disorders') else ''}"
        return ", ".join(f"{_title(k)} {_cell(x)}" for k, x in v.items() if k != "note")
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return ", ".join(_cell(x) for x in v)
    if v is None:
        return "-"
    return str(v)


def _signed(v: Any) -> str:
    return f"{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else _cell(v)


def _terrain_chart(key: str, title: str, short: str, section: Mapping[str, Any]) -> list[Chart]:
    """A ``rows`` / ``hexsides`` section: one chart per part; columns from the value mappings' keys."""
    out = []
    notes = (str(section["note"]),) if "note" in section else ()
    for part, label in (("rows", "Terrain"), ("hexsides", "Hexside")):
        table = section.get(part)
        if not isinstance(table, Mapping):
            continue
        cols: list[str] = []
        for v in table.values():
            if isinstance(v, Mapping):
                cols += [c for c in v if c != "note" and c not in cols]
        row_notes = []
        rows = []
        for name, v in table.items():
            if isinstance(v, Mapping):
                rows.append((_title(name), *(_cell(v.get(c)) for c in cols)))
                if "note" in v:
                    row_notes.append(f"{_title(name)}: {v['note']}")
            else:
                rows.append((_title(name), _signed(v)))
        heads = (label, *(_title(c) for c in cols)) if cols else (label, "Modifier")
        legend = ("P = prohibited; D = the unit is Disordered on entering",) if any(
            "P" in r[1:] or any(str(c).endswith(" D") for c in r[1:]) for r in rows) else ()
        out.append(Chart(f"{key}-{part}", f"{title}, by {label.lower()}", heads, tuple(rows),
                         legend + notes + tuple(row_notes), f"{short}: {label.lower()}s"))
    return out


def _ranges(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]]:
    out = []
    for r in rows:
        lo, hi = r.get("min"), r.get("max")
        span = f"{lo}-{hi}" if lo is not None and hi is not None else (f"{hi} or less" if lo is None else f"{lo} or more")
        out.append((span, _title(str(r.get("result", ""))), str(r.get("note", ""))))
    return out


def _is_records(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _leaves(v: Any, prefix: str = "") -> Iterable[tuple[str, str]]:
    """(label, value) of every leaf, labels joined down the nesting ("charge: heavy cavalry charging")."""
    if isinstance(v, Mapping):
        for k, x in v.items():
            if k == "note":
                continue
            label = prefix + k.replace("_", " ")
            if isinstance(x, Mapping) or _is_records(x):
                yield from _leaves(x, label + ": ")
            else:
                yield label, _signed(x)
    elif _is_records(v):
        for i, x in enumerate(v, 1):
            yield from _leaves(x, f"{prefix}{i}. ")
    else:
        yield prefix.rstrip(": "), _cell(v)


def _list_chart(key: str, title: str, v: Any) -> Chart:
    notes = (str(v["note"]),) if isinstance(v, Mapping) and "note" in v else ()
    rows = tuple(_leaves(v)) if isinstance(v, Mapping) or _is_records(v) else ((title, _cell(v)),)
    return Chart(key, title, ("", "Value"), rows, notes)


def charts(tables: Mapping[str, Any]) -> list[Chart]:
    """Every section of a tables file as charts, in file order."""
    out: list[Chart] = []
    for key, v in tables.items():
        if key in SKIP:
            continue
        title = _title(key)
        if isinstance(v, Mapping) and isinstance(v.get("columns"), (list, tuple)) and isinstance(v.get("rows"), Mapping):
            # a results table read by a roll (a CRT): one row per die face, one column per odds column
            rows = tuple((str(face), *(_cell(c) for c in cells)) for face, cells in v["rows"].items()
                         if isinstance(cells, (list, tuple)))
            rest = {k: x for k, x in v.items() if k not in ("columns", "rows")}
            notes = tuple(f"{k.replace('_', ' ')}: " + (", ".join(f"{a} {_cell(b)}" for a, b in x.items())
                                                       if isinstance(x, Mapping) else _cell(x))
                          for k, x in rest.items() if k != "note")
            out.append(Chart(key, {"crt": "Combat results table"}.get(key, title),
                             ("Roll", *(str(c) for c in v["columns"])), rows, notes, key.upper() if len(key) <= 4 else ""))
        elif isinstance(v, Mapping) and ("rows" in v or "hexsides" in v):
            title = {"movement_costs": "Movement costs (MP)", "shock_terrain": "Shock terrain DRM"}.get(key, title)
            short = {"movement_costs": "Movement", "shock_terrain": "Shock"}.get(key, _title(key))
            out += _terrain_chart(key, title, short, v)
        elif key == "odds" and isinstance(v, (list, tuple)):
            rows = tuple((f"{a}:{b}", _signed(d)) for a, b, d in v)
            out.append(Chart(key, "Strength ratio (DRM)", ("Ratio", "DRM"), rows,
                             ("the best row the attack reaches, rounding in the defender's favour",), "Odds"))
        elif isinstance(v, (list, tuple)) and v and all(isinstance(r, Mapping) and "result" in r for r in v):
            out.append(Chart(key, title, ("Roll", "Result", "Note"), tuple(_ranges(v))))
        elif key == "fire" and isinstance(v, Mapping):
            results = v.get("results")
            if isinstance(results, (list, tuple)):
                out.append(Chart("fire-results", "Artillery fire results", ("Roll", "Result", "Note"),
                                 tuple(_ranges(results)), tab="Fire results"))
            rest = {k: x for k, x in v.items() if k != "results"}
            out.append(dataclasses.replace(_list_chart("fire-drms", "Artillery fire modifiers", rest), tab="Fire DRMs"))
        elif key == "sample_values" and isinstance(v, (list, tuple)):
            rows = tuple((str(r.get("path", "")), _cell(r.get("value")), str(r.get("note", ""))) for r in v
                         if isinstance(r, Mapping))
            out.append(Chart(key, "Sample values (not in the sources)", ("Cell", "Value", "Note"), rows,
                             tab="Sample values"))
        else:
            out.append(dataclasses.replace(_list_chart(key, {"other_drms": "Other modifiers (DRM)"}.get(key, title), v),
                                           tab={"other_drms": "Other DRMs"}.get(key, "")))
    return out


# --------------------------------------------------------------------------------------------- drawing

def _wrap(text: str, width: float, f) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        candidate = f"{line} {w}".strip()
        if line and f.getlength(candidate) > width:
            lines.append(line)
            line = w
        else:
            line = candidate
    return lines + ([line] if line else [])


def render_chart(chart: Chart, px_per_pt: float = 1.6, max_col_pt: float = 260) -> Image.Image:
    """The chart as an RGB image: a title bar, a ruled grid (long cells wrap), then the footnotes."""
    s = px_per_pt
    body, head, title_f = font(round(9 * s), bold=False), font(round(9 * s)), font(round(11 * s))
    pad, line_h = round(4 * s), round(12 * s)
    max_w = max_col_pt * s
    ncols = max(len(chart.columns), max((len(r) for r in chart.rows), default=0))
    cols = [list(chart.columns) + [""] * (ncols - len(chart.columns))]
    cells = [list(r) + [""] * (ncols - len(r)) for r in chart.rows]
    widths = []
    for c in range(ncols):
        w = max([head.getlength(cols[0][c])] + [body.getlength(r[c]) for r in cells])
        widths.append(min(max_w, w) + 2 * pad)
    wrapped = [[_wrap(r[c], widths[c] - 2 * pad, body) or [""] for c in range(ncols)] for r in cells]
    table_w = round(sum(widths))
    width = max(table_w, round(320 * s)) + 2 * pad
    notes = [ln for n in chart.notes for ln in _wrap(n, width - 4 * pad, body)]
    title_h = round(18 * s)
    head_h = line_h + 2 * pad
    row_hs = [max(len(x) for x in r) * line_h + 2 * pad for r in wrapped]
    height = title_h + head_h + sum(row_hs) + (len(notes) * line_h + 2 * pad if notes else 0) + 2 * pad
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width, title_h), fill=TITLE_BG)
    d.text((pad * 2, title_h / 2), chart.title, font=title_f, fill=TITLE_INK, anchor="lm")
    x0, y = pad, title_h + pad
    d.rectangle((x0, y, x0 + table_w, y + head_h), fill=HEAD_BG)
    x = x0
    for c in range(ncols):
        d.text((x + pad, y + pad), cols[0][c], font=head, fill=INK)
        x += widths[c]
    y += head_h
    for r, h in zip(wrapped, row_hs):
        d.line((x0, y, x0 + table_w, y), fill=RULE)
        x = x0
        for c in range(ncols):
            for i, ln in enumerate(r[c]):
                d.text((x + pad, y + pad + i * line_h), ln, font=body, fill=INK)
            x += widths[c]
        y += h
    d.rectangle((x0, title_h + pad, x0 + table_w, y), outline=RULE)
    x = x0
    for c in range(ncols - 1):
        x += widths[c]
        d.line((x, title_h + pad, x, y), fill=RULE)
    y += pad
    for i, ln in enumerate(notes):
        d.text((pad * 2, y + i * line_h), ln, font=body, fill=INK)
    return img


def chart_pngs(tables: Mapping[str, Any], px_per_pt: float = 1.6) -> list[tuple[Chart, bytes]]:
    """Every chart with its PNG bytes (no timestamps in PNGs: the same tables give the same bytes)."""
    out = []
    for chart in charts(tables):
        buf = io.BytesIO()
        render_chart(chart, px_per_pt).save(buf, "PNG")
        out.append((chart, buf.getvalue()))
    return out
