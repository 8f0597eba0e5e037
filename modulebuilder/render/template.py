"""Counter templates in data: what a face prints and where, in which fonts and colours, with which images.

A template (YAML or JSON, checked against ``modulebuilder/templates/template.schema.json``) lists the items
of each face in drawing order, in fractions of the counter's side (``box: [x0, y0, x1, y1]``, the face
being ``size`` sides wide and one side high):

* ``fill`` (the whole face), ``band`` (a full-width stripe ``y: [top, bottom]``), ``rect`` (a box,
  optionally only an ``outline`` of some ``width``);
* ``text`` (a literal ``text`` or a ``field`` of the counter, in a named font, at most ``size`` high,
  shrunk to fit its box and never below the legible minimum);
* ``factors`` (several fields on one line with a ``separator``, e.g. attack-defence-movement);
* ``symbol`` (a NATO frame and icon from a unit type name or an APP-6/MIL-STD-2525 function code) and
  ``echelon`` (its size mark, with the ``reinforced``/``reduced`` modifiers);
* ``image`` (author art: a ``path``, or a ``field`` naming the file per counter).

Colours are ``#rrggbb``, a name from the template's ``colours``, or ``{field: F, map: {...}, default: C}``
(so a side, a group or any field picks the colour); ``{mix: [A, B, t]}`` blends two.  Fonts are
``bundled:bold`` / ``bundled:regular`` or the path of the author's TTF/OTF file, relative to the template.
A back is a list of its own or ``{like: front, wash: 0.45}`` (the front's items on a paler fill, values
from the counter's ``back`` fields).

Text that does not fit is an error naming the counter, the field, the size it needs and the size it got,
collected over all faces before the build stops; nothing is dropped and no other font is substituted."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from modulebuilder.fonts import BOLD, REGULAR
from modulebuilder.render import nato
from modulebuilder.render import text as T
from modulebuilder.render.colours import RGB, ink_on, mix, rgb
from modulebuilder.render.drawing import Drawing, Item, Picture, Recorder
from modulebuilder.render.physical import POINTS_PER_INCH

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "templates"
SCHEMA = TEMPLATE_DIR / "template.schema.json"


class TemplateError(ValueError):
    pass


@dataclass(frozen=True)
class Template:
    id: str
    source: str                       # the file, for messages and relative paths
    data: Mapping[str, Any]

    @property
    def base_dir(self) -> Path:
        return Path(self.source).parent

    @property
    def size(self) -> int:
        return int(self.data.get("size", 1))

    def font(self, name: str) -> str:
        spec = self.data.get("fonts", {}).get(name, name)
        if spec == "bundled:bold":
            return str(BOLD)
        if spec == "bundled:regular":
            return str(REGULAR)
        path = Path(spec)
        if not path.is_absolute():
            path = self.base_dir / path
        if not path.is_file():
            raise TemplateError(f"{self.source}: font {name!r}: no font file {path}")
        return str(path)

    def items(self, face: str) -> tuple[list[Mapping[str, Any]], float]:
        """(items, wash) of ``face``: a back may reuse the front's items on a paler fill."""
        spec = self.data["faces"].get(face)
        if spec is None:
            raise TemplateError(f"{self.source}: the template has no {face} face")
        if isinstance(spec, Mapping):
            items, _ = self.items(spec["like"])
            return items, float(spec.get("wash", 0.0))
        return list(spec), 0.0

    def has_face(self, face: str) -> bool:
        return face in self.data["faces"]


def _validate(data: Any, source: str) -> None:
    import jsonschema
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        raise TemplateError("\n".join(f"{source}: {'/'.join(str(p) for p in e.path) or '(top)'}: {e.message}"
                                      for e in errors))


@lru_cache(maxsize=32)
def load_template(name_or_path: str) -> Template:
    """A bundled template by id (``nato``, ``leader``, ``marker``, ...) or a template file."""
    from ruamel.yaml import YAML
    path = Path(name_or_path)
    if not path.suffix:
        path = TEMPLATE_DIR / f"{name_or_path}.yaml"
        if not path.is_file():
            known = sorted(p.stem for p in TEMPLATE_DIR.glob("*.yaml"))
            raise TemplateError(f"no bundled counter template {name_or_path!r}; bundled: {', '.join(known)}")
    if not path.is_file():
        raise TemplateError(f"counter template {path}: no such file")
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    _validate(data, str(path))
    return Template(str(data["id"]), str(path), data)


# ----------------------------------------------------------------------------------------- values

def _value(fields: Mapping[str, Any], name: str, face: str) -> Any:
    """A field of the counter on ``face``: a back reads its ``back`` fields first."""
    if face == "back":
        back = fields.get("back")
        if isinstance(back, Mapping) and name in back:
            return back[name]
    return fields.get(name)


def _colour(t: Template, spec: Any, fields: Mapping[str, Any], face: str, wash: float = 0.0, depth: int = 0) -> RGB:
    """A colour spec resolved for one counter; ``wash`` pales every colour the spec names (a reduced
    back), while ``ink_on`` picks black or white for the washed colour and is itself never washed."""
    if depth > 8:
        raise TemplateError(f"{t.source}: colour {spec!r} refers to itself")
    if isinstance(spec, str):
        if spec.startswith("#"):
            return mix(rgb(spec), (255, 255, 255), wash) if wash else rgb(spec)
        named = t.data.get("colours", {})
        if spec in named:
            return _colour(t, named[spec], fields, face, wash, depth + 1)
        raise TemplateError(f"{t.source}: colour {spec!r} is neither #rrggbb nor one of the template's colours")
    if "mix" in spec:
        a, b, k = spec["mix"]
        return mix(_colour(t, a, fields, face, wash, depth + 1), _colour(t, b, fields, face, wash, depth + 1), float(k))
    if "ink_on" in spec:
        return ink_on(_colour(t, spec["ink_on"], fields, face, wash, depth + 1))
    value = _value(fields, spec["field"], face)
    if "map" in spec:
        value = spec["map"].get(str(value), spec.get("default"))
    if value is None:
        value = spec.get("default")
    if value is None:
        raise TemplateError(f"{t.source}: counter {fields.get('id')!r} has no {spec['field']!r} for its colour")
    return _colour(t, value, fields, face, wash, depth + 1)


# ----------------------------------------------------------------------------------------- faces

def _box(item: Mapping[str, Any], s: int, w: int) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = item["box"]
    # Fractions of the side; on a face several sides wide, x fractions run over the whole width.
    return x0 * w, y0 * s, x1 * w, y1 * s


def _fit(t: Template, fields: Mapping[str, Any], field: str, text: str, font: str, width: float,
         max_px: int, min_px: float, dpi: float | None, face: str) -> int:
    size = T.fitted_size(text, width, max_px, font)
    if size < min_px or size == 0:
        raise T.TextDoesNotFit(f"{fields.get('id')}", f"{face} {field}", text, min_px,
                               fit_px=size, dpi=dpi)
    return size


def template_drawing(t: Template, fields: Mapping[str, Any], face: str, size_px: int, *,
                     dpi: float | None = None) -> Drawing:
    """One face of a counter (``fields``: its values by name) drawn with template ``t``."""
    items_spec, wash = t.items(face)
    s = size_px
    w = s * int(fields.get("size") or t.size)
    min_px = T.min_text_px(dpi)
    background: RGB = (255, 255, 255)
    items: list[Item] = []
    problems: list[T.TextDoesNotFit] = []

    for i, it in enumerate(items_spec):
        kind = it["kind"]
        when = it.get("when")
        if when and not _value(fields, when, face):
            continue
        colour = _colour(t, it["colour"], fields, face, wash) if "colour" in it else (0, 0, 0)
        if kind == "fill":
            if i == 0:
                background = colour
            else:
                rec = Recorder()
                rec.rectangle((0, 0, w - 1, s - 1), fill=colour)
                items += rec.take()
        elif kind == "band":
            y0, y1 = it["y"]
            rec = Recorder()
            rec.rectangle((0, int(round(y0 * s)), w - 1, int(round(y1 * s)) - 1), fill=colour)
            items += rec.take()
        elif kind == "rect":
            x0, y0, x1, y1 = _box(it, s, w)
            rec = Recorder()
            if it.get("outline"):
                rec.rectangle((round(x0), round(y0), round(x1) - 1, round(y1) - 1), outline=colour,
                              width=max(1, round(float(it.get("width", 0.03)) * s)))
            else:
                rec.rectangle((round(x0), round(y0), round(x1) - 1, round(y1) - 1), fill=colour)
            items += rec.take()
        elif kind in ("text", "factors", "echelon"):
            if kind == "text":
                value = it.get("text") if "text" in it else _value(fields, it["field"], face)
                field = it.get("field", "text")
                text = "" if value is None else str(value)
            elif kind == "factors":
                values = [_value(fields, f, face) for f in it["fields"]]
                if all(v is None for v in values):
                    continue
                text = str(it.get("separator", "-")).join("" if v is None else str(v) for v in values)
                field = "-".join(it["fields"])
            else:
                field = it.get("field", "echelon")
                text = nato.echelon_mark(_value(fields, field, face),
                                         bool(_value(fields, "reinforced", face)), bool(_value(fields, "reduced", face)))
            if not text:
                continue
            x0, y0, x1, y1 = _box(it, s, w)
            font = t.font(it.get("font", "bold"))
            try:
                size = _fit(t, fields, field, text, font, x1 - x0, int(float(it.get("size", y1 / s - y0 / s)) * s),
                            min_px, dpi, face)
            except T.TextDoesNotFit as exc:
                problems.append(exc)
                continue
            align = it.get("align", "centre")
            cx = {"centre": (x0 + x1) / 2, "left": x0 + T.font(size, font).getlength(text) / 2,
                  "right": x1 - T.font(size, font).getlength(text) / 2}[align]
            items.append(T.centred(text, (cx, (y0 + y1) / 2), size, colour, font))
            if kind == "echelon" and _value(fields, "task_force", face):
                items += _task_force_bracket(cx, (y0 + y1) / 2, T.font(size, font).getlength(text), size, colour)
        elif kind == "symbol":
            value = (_value(fields, it.get("field", "kind"), face) or _value(fields, "kind", face)) \
                if "type" not in it else it["type"]
            if value is None:
                continue
            x0, y0, x1, y1 = _box(it, s, w)
            bw, bh = int(round(x1 - x0)), int(round(y1 - y0))
            fill = _colour(t, it.get("fill", "#ffffff"), fields, face, wash)
            try:
                items.append(nato.symbol_layer(str(value), bw, bh, (int(round(x0)), int(round(y0))), fill,
                                               hq=bool(_value(fields, "hq", face))))
            except nato.UnknownUnitType as exc:
                raise TemplateError(f"counter {fields.get('id')!r}: {exc}") from None
        elif kind == "image":
            path = it.get("path") or _value(fields, it["field"], face)
            if not path:
                continue
            p = Path(str(path))
            if not p.is_absolute():
                p = Path(str(fields.get("_base_dir") or t.base_dir)) / p
            if not p.is_file():
                raise TemplateError(f"counter {fields.get('id')!r}: image {p} not found")
            x0, y0, x1, y1 = _box(it, s, w)
            items.append(Picture(str(p), (int(round(x0)), int(round(y0)), int(round(x1)) - 1, int(round(y1)) - 1)))
    if problems:
        if len(problems) == 1:
            raise problems[0]
        raise T.FacesDoNotFit(problems)
    return Drawing(w, s, background, (), tuple(items))


def _task_force_bracket(cx: float, cy: float, text_w: float, size: int, ink: RGB) -> tuple:
    """APP-6 task force: a bracket open at the bottom over the echelon mark."""
    half = text_w / 2 + size * 0.3
    top, bottom = cy - size * 0.55, cy + size * 0.45
    lw = max(1, round(size * 0.09))
    rec = Recorder()
    rec.rectangle((round(cx - half), round(top), round(cx + half), round(top) + lw - 1), fill=ink)
    rec.rectangle((round(cx - half), round(top), round(cx - half) + lw - 1, round(bottom)), fill=ink)
    rec.rectangle((round(cx + half) - lw + 1, round(top), round(cx + half), round(bottom)), fill=ink)
    return rec.take()


def piece_fields(piece: Any, ag: Any = None, game: Any = None) -> dict[str, Any]:
    """A model counter (unit, leader, marker) as the flat field mapping templates read: its attributes,
    the values of its front face, ``back`` (the back face's values and ``back_fields``), the group's
    ``colour``, the game-declared ``fields``, and from the game's declarations the unit type's NATO
    ``symbol`` and the side's ``side_colour`` / ``side_text_colour``."""
    from dataclasses import asdict, is_dataclass
    out: dict[str, Any] = {}
    if is_dataclass(piece):
        for k, v in asdict(piece).items():
            if k in ("front", "back", "fields", "back_fields") and (isinstance(v, Mapping) or v is None):
                continue
            out[k] = v
    front = getattr(piece, "front", None)
    if is_dataclass(front):
        out.update({k: v for k, v in asdict(front).items() if v is not None})
    back = getattr(piece, "back", None)
    if is_dataclass(back):
        out["back"] = {k: v for k, v in asdict(back).items() if v is not None}
    extra = getattr(piece, "fields", None)
    if isinstance(extra, Mapping):
        out.update(extra)
    back_extra = getattr(piece, "back_fields", None)
    if isinstance(back_extra, Mapping) and back_extra:
        out["back"] = {**out.get("back", {}), **back_extra}
    if ag is not None:
        out.setdefault("colour", ag.colour)
        out.setdefault("parent", ag.label or ag.name)
    kind = out.get("kind")
    if game is not None:
        ut = game.unit_type(kind) if kind else None
        if ut is not None and ut.symbol:
            out["symbol"] = ut.symbol
        style = game.sides.get(out.get("side")) if out.get("side") else None
        if style is not None:
            if style.colour:
                out["side_colour"] = style.colour
            if style.text_colour:
                out["side_text_colour"] = style.text_colour
    if kind and "symbol" not in out:
        out["symbol"] = kind
    return out


def point_size(px: float, dpi: float) -> float:
    return px / dpi * POINTS_PER_INCH
