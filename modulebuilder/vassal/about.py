"""What the module says about itself: the Help menu's About screen and page, and each set-up's Notes.

The About screen (Help > About <module>) is an image the engine shows as it is, so the module's name,
version, scenarios, rules and sources are drawn onto it (Pillow, the bundled font); the same text is an
HTML page in the module (Help > <module> sources).  The version is the game data's
(``Scenario.game.version``, when the definitions give one), else :data:`DEFAULT_VERSION`.
"""
from __future__ import annotations

import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PIL import Image, ImageDraw

from ..model import Scenario
from . import seqenc

DEFAULT_VERSION = "1.0"
RULES = {
    "triumph-and-glory": "Triumph & Glory v2.2 (GMT's Borodino), Russian rule text and the project's digests",
    "musket-and-pike": "Musket & Pike: facing and formation rules",
}


def module_version(scenarios: Sequence[Scenario]) -> str:
    """The game data's version (the first scenario that declares one), else DEFAULT_VERSION."""
    for s in scenarios:
        for holder in (s, getattr(s, "game", None)):
            v = getattr(holder, "version", None) if holder is not None else None
            if isinstance(v, (str, int, float)) and str(v).strip():
                return str(v).strip()
    return DEFAULT_VERSION


def rules_text(scenario: Scenario) -> str:
    """What the About box says the rules are: the game file's ``about``, else its ruleset's name, else the
    game's own rules (a game that names no ruleset)."""
    if scenario.game.about:
        return scenario.game.about
    if scenario.ruleset:
        return RULES.get(scenario.ruleset, scenario.ruleset)
    return f"{scenario.game.title or scenario.map.title or scenario.name}: the game's own rules"


def _source_file(src: str) -> str:
    path = src.split(":")[0]
    if not path:
        return ""
    p = Path(path)
    parts = p.parts
    for anchor in ("scenarios", "maps", "counters", "tables", "examples"):
        if anchor in parts:
            return "/".join(parts[parts.index(anchor):])
    return p.name


@dataclass(frozen=True)
class AboutText:
    title: str
    version: str
    lines: tuple[tuple[str, str], ...]      # (heading, text)


def about_text(name: str, version: str, vassal_version: str, scenarios: Sequence[Scenario]) -> AboutText:
    files: list[str] = []
    for s in scenarios:
        c = s.counters
        for src in (s.source, s.map.source, *(x.source for x in (*c.units, *c.leaders, *c.markers))):
            f = _source_file(src or "")
            if f and f not in files:
                files.append(f)
    rules = list(dict.fromkeys(rules_text(s) for s in scenarios))
    lines = [("Scenarios", "; ".join(s.name for s in scenarios)),
             ("Rules", "; ".join(rules)),
             ("Game data", ", ".join(files)),
             ("Module", f"version {version}, written for VASSAL {vassal_version} by modulebuilder "
                        "(same data, byte-identical module)")]
    return AboutText(name, version, tuple(lines))


def about_png(text: AboutText, width: int = 720) -> bytes:
    from ..render.text import font
    title_f, head_f, body_f = font(26), font(14), font(14, bold=False)
    pad = 24
    blocks: list[tuple[str, list[str]]] = []
    for head, body in text.lines:
        blocks.append((head, _wrap(body, width - 2 * pad, body_f)))
    height = pad + 40 + 26 + sum(22 + 19 * len(b) + 10 for _, b in blocks) + pad
    img = Image.new("RGB", (width, height), (247, 242, 230))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width - 1, height - 1), outline=(70, 58, 42), width=3)
    y = pad
    d.text((pad, y), text.title, font=title_f, fill=(40, 32, 24))
    y += 40
    d.text((pad, y), f"Module version {text.version}", font=head_f, fill=(110, 40, 30))
    y += 26
    for head, body in blocks:
        d.text((pad, y), head, font=head_f, fill=(40, 32, 24))
        y += 22
        for ln in body:
            d.text((pad, y), ln, font=body_f, fill=(40, 32, 24))
            y += 19
        y += 10
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _wrap(text: str, width: float, f) -> list[str]:
    out, line = [], ""
    for w in text.split():
        cand = f"{line} {w}".strip()
        if line and f.getlength(cand) > width:
            out.append(line)
            line = w
        else:
            line = cand
    return out + ([line] if line else [])


def about_html(text: AboutText) -> bytes:
    rows = "".join(f"<h2>{html.escape(h)}</h2><p>{html.escape(b)}</p>" for h, b in text.lines)
    page = (f"<html><head><meta charset=\"utf-8\"><title>{html.escape(text.title)}</title></head><body>"
            f"<h1>{html.escape(text.title)}</h1><p>Module version {html.escape(text.version)}</p>{rows}</body></html>")
    return page.encode("utf-8")


def scenario_notes(scenario: Scenario) -> str:
    """The set-up's scenario notes (Notes window): description, special rules, options, as the engine
    stores multi-line notes (lines joined with ``|``, TextConfigurer.escapeNewlines)."""
    lines = [scenario.name, ""]
    if scenario.description:
        lines += [scenario.description, ""]
    if scenario.special_rules:
        lines.append("Special rules: " + ", ".join(scenario.special_rules))
    t = scenario.turns
    lines.append(f"Turns {t.first} to {t.last}" + (f", from {t.start}, {t.minutes} minutes each" if t.start else ""))
    return seqenc.encode(lines, "|")
