"""Counter templates in data: what a face prints and where, in which fonts and colours, with which images.

A template (YAML or JSON, checked against ``modulebuilder/templates/template.schema.json``) lists the items
of each face in drawing order, in fractions of the counter's side, the face being ``size`` sides wide and
one side high.  Every bundled look is a template, the *Triumph & Glory* and *Musket & Pike* series looks
included; there is no coded layout.

Items:

* ``fill`` (the whole face), ``band`` (a full-width stripe ``y: [top, bottom]``), ``rule`` (a line
  ``thickness`` high, at least one pixel, ending at ``y``), ``rect`` (a box, optionally only an
  ``outline`` of some ``width``), ``stripe`` (a translucent diagonal band from the lower left to the
  upper right, ``width`` its half-width along an edge, kept ``below`` a line: the Disordered mark),
  ``mark`` (a small ``shape``: ``diamond``, ``radius`` in sides);
* ``text`` (a literal ``text``, a ``format`` of fields such as ``"{eff_range}-{max_range}"``, or a
  ``field`` -- a list of fields means the first that has a value -- with a ``default`` when it has none;
  in a ``font`` or a list of fonts tried in turn, at most ``size`` high, shrunk to fit and never below the
  legible minimum; ``fallback``: a field printed instead when the text cannot be printed legibly;
  ``optional``: left out, with a note saying what marks the face instead, when it cannot; ``wrap``: broken
  onto up to ``lines`` lines when one line would be smaller than ``below`` of the side);
* ``factors`` (several fields on one line with a ``separator``, e.g. attack-defence-movement);
* ``symbol`` (a NATO frame and icon from a unit type name or an APP-6/MIL-STD-2525 function code, or with
  ``set: series`` the Napoleonic series symbols) and ``echelon`` (its size mark, with the
  ``reinforced``/``reduced`` modifiers);
* ``image`` (author art: a ``path``, or a ``field`` naming the file per counter).

Where: ``box: [x0, y0, x1, y1]`` (x fractions run over the whole width of a wide face), or ``centre: [x, y]``
and ``extent: [w, h]`` (sides).  A centred item on a face several sides wide keeps its distance from the
nearer edge (left of the middle from the left edge, right of it from the right edge, 0.5 stays in the
middle), so edge values of a two-hex counter hug the same edges as on a single one; ``stretch: true``
scales ``centre`` x and ``extent`` w with the face's width instead (a name across a two-hex band).

Which: ``when`` is a field (drawn when it is set) or a condition: ``{field: F, is: V}``, ``{field: F,
is_not: V}``, ``{field: F, in: [..]}``, ``{field: F, has: V or [V, ..]}`` (a set of flags holding any of
them), ``{all: [..]}``, ``{any: [..]}``, ``{not: C}``.  A symbol's ``type`` may be ``{cases: [{when: C,
then: TYPE}, .., {then: TYPE}]}``: the first case whose condition holds.

Colours are ``#rrggbb``, a name from the template's ``colours``, ``{field: F, map: {...}, default: C}``
(so a side, a group or any field picks the colour), ``{mix: [A, B, t]}`` (A moved the fraction t towards
B), ``{ink_on: C}`` (black or white, whichever reads on C) or ``{front: A, back: B}`` (by face).  Fonts
are ``bundled:bold`` / ``bundled:regular`` or the path of the author's TTF/OTF file, relative to the
template.  A back is a list of its own or ``{like: front, wash: 0.45, insert: {ID: [items]}}`` (the front's
items, values from the counter's ``back`` fields, colours washed towards white, and items inserted after
the front's item of that ``id``).  ``extends: TEMPLATE`` starts from another template (its colours, fonts
and faces, each replaced by name); ``leader`` / ``marker`` name the templates for commanders and markers
drawn beside this one's units (default: the bundled ``leader`` and ``marker``).

Text that does not fit is an error naming the counter, the field (``face_in_messages: false``: without the
face, for looks whose faces print the same names), the size it needs and the size it got, collected over
all faces before the build stops; nothing is dropped without a note and no other font is substituted
except the ones the item lists.

The leading shapes of a face (before its first text, symbol or image) are its *base*: the raster backend
draws each distinct base once and copies it, as many faces share one colour scheme."""
from __future__ import annotations

import hashlib
import json
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Callable

from modulebuilder.fonts import BOLD, REGULAR
from modulebuilder.input_files import read_text
from modulebuilder.render import nato
from modulebuilder.render import text as T
from modulebuilder.render.colours import RGB, ink_on, mix, rgb
from modulebuilder.render.drawing import Drawing, Item, Layer, Picture, Recorder
from modulebuilder.render.physical import POINTS_PER_INCH
from modulebuilder.yaml_aliases import AliasBomb, check_aliases
from modulebuilder.render.art import art_fields, hash_files
from modulebuilder.render.symbols import SERIES_SYMBOLS, symbol_layer

TEMPLATE_DIR = Path(__file__).resolve().parents[1] / "templates"
SCHEMA = TEMPLATE_DIR / "template.schema.json"
# Flags a template reads as fields (``hq`` draws the HQ frame, ``reinforced`` the "+" of the echelon mark,
# ``reduced`` its "-", ``task_force`` the bracket): a counter sets them as a field or in its ``flags``.
FLAG_FIELDS = frozenset({"hq", "reinforced", "reduced", "task_force"})
STATIC_KINDS = frozenset({"fill", "band", "rule", "rect", "stripe"})   # may join a face's shared base
LINE_PITCH = 1.2           # wrapped lines are this many text sizes apart
LINE_BUDGET = 1.25         # ... and n lines fit when n times this many sizes fit the height


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

    @property
    def face_in_messages(self) -> bool:
        return bool(self.data.get("face_in_messages", True))

    def font(self, name: str) -> str:
        # bold / regular are the bundled weights unless the template says otherwise
        spec = self.data.get("fonts", {}).get(name, {"bold": "bundled:bold", "regular": "bundled:regular"}.get(name, name))
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
        """(items, wash) of ``face``: a back may reuse the front's items on a paler fill, with insertions."""
        spec = self.data["faces"].get(face)
        if spec is None:
            raise TemplateError(f"{self.source}: the template has no {face} face")
        if isinstance(spec, Mapping):
            items, _ = self.items(spec["like"])
            inserts = spec.get("insert", {})
            missing = set(inserts) - {it.get("id") for it in items}
            if missing:
                raise TemplateError(f"{self.source}: {face}: insert after {', '.join(sorted(missing))}: "
                                    f"no such item id in the {spec['like']} face")
            out: list[Mapping[str, Any]] = []
            for it in items:
                out.append(it)
                out += inserts.get(it.get("id"), [])
            return out, float(spec.get("wash", 0.0))
        return list(spec), 0.0

    def has_face(self, face: str) -> bool:
        return face in self.data["faces"]

    def companion(self, piece: str) -> "Template":
        """The template for ``piece`` (``leader`` or ``marker``) drawn beside this template's units."""
        name = str(self.data.get(piece, piece))
        if Path(name).suffix and not Path(name).is_absolute():
            name = str(self.base_dir / name)
        return load_template(name)


def _validate(data: Any, source: str) -> None:
    import jsonschema
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        raise TemplateError("\n".join(f"{source}: {'/'.join(str(p) for p in e.path) or '(top)'}: {e.message}"
                                      for e in errors))


def _extended(data: Mapping[str, Any], path: Path) -> dict[str, Any]:
    """``data`` on top of the template it ``extends``: colours, fonts and faces replaced by name."""
    parent_name = str(data["extends"])
    if Path(parent_name).suffix and not Path(parent_name).is_absolute():
        parent_name = str(path.parent / parent_name)
    parent = load_template(parent_name).data
    out = {**parent, **{k: v for k, v in data.items() if k != "extends"}}
    for key in ("colours", "fonts", "faces"):
        if key in parent or key in data:
            out[key] = {**parent.get(key, {}), **data.get(key, {})}
    return out


@lru_cache(maxsize=32)
def load_template(name_or_path: str) -> Template:
    """A bundled template by id (``nato``, ``leader``, ``marker``, ``triumph-and-glory``, ...) or a file."""
    from ruamel.yaml import YAML
    path = Path(name_or_path)
    if not path.suffix:
        path = TEMPLATE_DIR / f"{name_or_path}.yaml"
        if not path.is_file():
            known = sorted(p.stem for p in TEMPLATE_DIR.glob("*.yaml") if p.stem != "sheets")
            raise TemplateError(f"no bundled counter template {name_or_path!r}; bundled: {', '.join(known)}")
    if not path.is_file():
        raise TemplateError(f"counter template {path}: no such file")
    text = read_text(path)      # an author's template: a regular file within the size cap, aliases bounded
    try:
        check_aliases(text)
    except AliasBomb as exc:
        raise TemplateError(f"counter template {path}:{exc.line}:{exc.column}: {exc.message}") from None
    data = YAML(typ="safe").load(text)
    # An author's template is checked against the schema on every load; the bundled ones are checked by
    # the tests (tests/test_render_templates.py), which saves every build the schema check (a fifth of a sheets
    # run; docs/speed.md, "Figures behind the code").
    if path.resolve().parent != TEMPLATE_DIR:
        _validate(data, str(path))
    if "extends" in data:
        data = _extended(data, path)
    return Template(str(data["id"]), str(path), data)


def template_files(name_or_path: str) -> list[Path]:
    """The files a template draws with, besides the code: an author's template file, the templates it
    ``extends`` and its ``leader`` / ``marker`` companions, its font files and its literal images (a
    bundled template is part of the code)."""
    t = load_template(name_or_path)
    out: list[Path] = []
    if Path(t.source).resolve().parent != TEMPLATE_DIR:
        out.append(Path(t.source))
        raw = Path(t.source).read_text(encoding="utf-8")
        parent = re.search(r"^extends:\s*['\"]?([^'\"\n#]+?)['\"]?\s*(#.*)?$", raw, re.MULTILINE)
        if parent and Path(parent.group(1)).suffix:
            out += template_files(str(t.base_dir / parent.group(1)))
    for spec in t.data.get("fonts", {}).values():
        if isinstance(spec, str) and not spec.startswith("bundled:"):
            out.append(Path(spec) if Path(spec).is_absolute() else t.base_dir / spec)
    for face in t.data.get("faces", {}).values():
        for it in face if isinstance(face, list) else face.get("insert", {}).values():
            items = it if isinstance(it, list) else [it]
            for item in items:
                path = item.get("path") if isinstance(item, Mapping) else None
                if isinstance(path, str) and "{" not in path:
                    out.append(Path(path) if Path(path).is_absolute() else t.base_dir / path)
    for piece in ("leader", "marker"):
        if piece in t.data and t.data[piece] != t.id:
            out += template_files(str(t.data[piece]) if not Path(str(t.data[piece])).suffix
                                  else str(t.base_dir / str(t.data[piece])))
    return list(dict.fromkeys(p.resolve() for p in out))


def template_key(name_or_path: str) -> str:
    """A digest of everything ``name_or_path`` draws with (:func:`template_files`) and its name: a cache key
    part that changes when the author edits the template, a font or an image it names."""
    h = hashlib.sha256(name_or_path.encode())
    hash_files(h, template_files(name_or_path))
    return h.hexdigest()


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
    if depth > 32:
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
    if "front" in spec:
        return _colour(t, spec["back" if face == "back" else "front"], fields, face, wash, depth + 1)
    value = _value(fields, spec["field"], face)
    if "map" in spec:
        value = spec["map"].get(str(value), spec.get("default"))
    if value is None:
        value = spec.get("default")
    if value is None:
        raise TemplateError(f"{t.source}: counter {fields.get('id')!r} has no {spec['field']!r} for its colour")
    return _colour(t, value, fields, face, wash, depth + 1)


class _Face:
    """One face being drawn: the template, the counter's fields, the sizes, and what went wrong."""

    def __init__(self, t: Template, fields: Mapping[str, Any], face: str, s: int, dpi: float | None, wash: float):
        self.t, self.fields, self.face, self.s, self.dpi, self.wash = t, fields, face, s, dpi, wash
        self.w = s * int(fields.get("size") or t.size)
        self.min_px = T.min_text_px(dpi)
        self.problems: list[T.TextDoesNotFit] = []
        self.notes: list[str] = []
        self._colours: dict[int, RGB] = {}

    @property
    def owner(self) -> str:
        return f"{self.fields.get('id')}"

    def value(self, name: str) -> Any:
        v = _value(self.fields, name, self.face)
        if v is None and name in FLAG_FIELDS and name in (self.fields.get("flags") or ()):
            return True          # the flag in the counter's flags (flags: [hq, reinforced]) reads as the field
        return v

    def colour(self, spec: Any, default: RGB = (0, 0, 0)) -> RGB:
        if spec is None:
            return default
        # A face names the same few colours many times: each is resolved once.
        key = id(spec)
        if key not in self._colours:
            self._colours[key] = _colour(self.t, spec, self.fields, self.face, self.wash)
        return self._colours[key]

    def label(self, field: str) -> str:
        return f"{self.face} {field}" if self.t.face_in_messages else field

    def holds(self, cond: Any) -> bool:
        """Whether a ``when`` condition holds for this counter on this face."""
        if cond is None:
            return True
        if isinstance(cond, str):
            return bool(self.value(cond))
        if "all" in cond:
            return all(self.holds(c) for c in cond["all"])
        if "any" in cond:
            return any(self.holds(c) for c in cond["any"])
        if "field" not in cond:
            return not self.holds(cond["not"])
        v = self.value(cond["field"])
        if "is" in cond:
            return bool(v == cond["is"])
        if "is_not" in cond:
            return bool(v != cond["is_not"])
        if "in" in cond:
            return v in cond["in"]
        if "has" in cond:
            wanted = cond["has"] if isinstance(cond["has"], list) else [cond["has"]]
            return any(x in (v or ()) for x in wanted)
        return bool(v)

    def centre_x(self, fx: float, stretch: bool = False) -> float:
        """Horizontal position of the single-counter fraction ``fx``: see the module docstring.  On a single
        counter (``w == s``) this is exactly ``s * fx``."""
        if stretch:
            return fx * self.w
        shift = 0.0 if fx < 0.5 else (0.5 if fx == 0.5 else 1.0)
        return self.s * fx + (self.w - self.s) * shift

    def box(self, item: Mapping[str, Any]) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = item["box"]
        # Fractions of the side; on a face several sides wide, x fractions run over the whole width.
        return x0 * self.w, y0 * self.s, x1 * self.w, y1 * self.s


# ----------------------------------------------------------------------------------------- items

def _fill(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    rec = Recorder()
    rec.rectangle((0, 0, f.w - 1, f.s - 1), fill=f.colour(it.get("colour")))
    return rec.take()


def _band(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    y0, y1 = it["y"]
    rec = Recorder()
    rec.rectangle((0, int(round(y0 * f.s)), f.w - 1, int(round(y1 * f.s)) - 1), fill=f.colour(it.get("colour")))
    return rec.take()


def _rule(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    bottom = int(round(f.s * it["y"]))
    thick = max(1, round(f.s * it["thickness"]))
    rec = Recorder()
    rec.rectangle((0, bottom - thick, f.w - 1, bottom - 1), fill=f.colour(it.get("colour")))
    return rec.take()


def _rect(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    x0, y0, x1, y1 = f.box(it)
    colour = f.colour(it.get("colour"))
    rec = Recorder()
    if it.get("outline"):
        rec.rectangle((round(x0), round(y0), round(x1) - 1, round(y1) - 1), outline=colour,
                      width=max(1, round(float(it.get("width", 0.03)) * f.s)))
    else:
        rec.rectangle((round(x0), round(y0), round(x1) - 1, round(y1) - 1), fill=colour)
    return rec.take()


def _stripe(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    """Drawn at twice the resolution and reduced (Pillow does not anti-alias polygons)."""
    ss = 2
    s, w = f.s * ss, f.w * ss
    half = s * it["width"]
    rec = Recorder()
    alpha = int(round(float(it.get("opacity", 1.0)) * 255))
    rec.polygon([(-half, s), (half, s), (w + half, 0), (w - half, 0)], fill=f.colour(it.get("colour")) + (alpha,))
    keep = int(round(f.s * it["below"])) if "below" in it else None
    return (Layer(rec.take(), f.w, f.s, ss, "box", keep_from_row=keep, blend="composite"),)


def _mark(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    fx, fy = it["centre"]
    cx, cy, r = f.centre_x(fx), f.s * fy, f.s * it["radius"]
    rec = Recorder()
    rec.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=f.colour(it.get("colour")))
    return rec.take()


def _text_of(f: _Face, it: Mapping[str, Any], field: Any) -> str:
    """The text an item prints (empty: nothing to print)."""
    if "text" in it:
        return str(it["text"])
    if "format" in it:
        names = [n for _, n, _, _ in string.Formatter().parse(it["format"]) if n]
        values = {n: f.value(n) for n in names}
        if any(v is None for v in values.values()):
            return ""
        return str(it["format"]).format(**values)
    for name in ([field] if isinstance(field, str) else field):
        v = f.value(name)
        if v is not None and v != "":
            return str(v)
    return "" if it.get("default") is None else str(it["default"])


def _fonts(f: _Face, it: Mapping[str, Any], text: str | None = None, label: str = "") -> list[tuple[str, str]]:
    """The item's fonts in the order it tries them; with ``text``, only those that have every character of
    it (:class:`~modulebuilder.render.text.MissingGlyph` when none has)."""
    names = it.get("font", "bold")
    fonts = [(n, f.t.font(n)) for n in ([names] if isinstance(names, str) else names)]
    if text is None:
        return fonts
    usable = [(n, p) for n, p in fonts if not T.lacks(text, p)]
    if not usable:
        raise T.MissingGlyph(f.owner, f.label(label), text, T.lacks(text, fonts[-1][1]),
                             tuple(Path(p).name for _, p in fonts))
    return usable


def _fit(f: _Face, label: str, text: str, fonts: list[tuple[str, str]], width: float, max_px: int) -> tuple[int, str, str]:
    """(size, font name, font file): the first of ``fonts`` in which ``text`` fits legibly."""
    sizes = []
    for name, path in fonts:
        size = T.fitted_size(text, float(width), int(max_px), path)
        if size >= f.min_px and size > 0:
            return size, name, path
        sizes.append(size)
    raise T.TextDoesNotFit(f.owner, f.label(label), text, f.min_px, fit_px=max(sizes), dpi=T.print_dpi(f.min_px))


def _wrapped(f: _Face, text: str, font: str, width: float, max_px: int, height: float, wrap: Mapping[str, Any]) -> tuple[list[str], int]:
    """(lines, size): one line as large as fits, wrapped onto up to ``lines`` lines only when one line would
    be smaller than ``below`` of the side and wrapping gives larger text."""
    lines, size = [text], T.fitted_size(text, float(width), int(max_px), font)
    for n in range(2, int(wrap.get("lines", 3)) + 1):
        if size >= f.s * float(wrap.get("below", 0.2)) or len(text.split()) < n:
            break
        candidate = _split_lines(text, n)
        candidate_size = min(T.fitted_size(c, float(width), int(height / n / LINE_BUDGET), font) for c in candidate)
        if candidate_size > size:
            lines, size = candidate, candidate_size
    return lines, size


def _text(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    field = it.get("field", "text")
    label = it.get("label") or (field if isinstance(field, str) else field[0])
    text = _text_of(f, it, field)
    if not text:
        return ()
    if "box" in it:
        return _boxed_text(f, it, label, text)
    (fx, fy), (ew, eh) = it["centre"], it["extent"]
    stretch = bool(it.get("stretch"))
    cx, cy = f.centre_x(fx, stretch), f.s * fy
    width = ew * f.w if stretch else f.s * ew
    if "inset" in it:
        width = width - 2 * f.s * it["inset"]
    max_px = int(f.s * it.get("size", eh))
    fonts = _fonts(f, it, text, label)
    if "wrap" in it:
        name, path = fonts[0]
        lines, size = _wrapped(f, text, path, width, max_px, f.s * eh, it["wrap"])
        if size < f.min_px or size == 0:
            raise T.TextDoesNotFit(f.owner, f.label(label), text, f.min_px, size, T.print_dpi(f.min_px))
        pitch = size * LINE_PITCH
        top = cy - pitch * (len(lines) - 1) / 2
        ink = f.colour(it.get("colour"))
        return tuple(T.centred(line, (cx, top + i * pitch), size, ink, path) for i, line in enumerate(lines))
    try:
        size, name, path = _fit(f, label, text, fonts, width, max_px)
    except T.TextDoesNotFit as exc:
        if it.get("fallback") and f.value(it["fallback"]):
            other = str(f.value(it["fallback"]))
            size, name, path = _fit(f, it["fallback"], other, _fonts(f, it, other, it["fallback"]), width, max_px)
            text = other
        elif it.get("optional"):
            k, unit = (72 / f.dpi, "pt") if f.dpi else (1.0, "px")
            what = f"the word {text!r}" if "text" in it else f"{label} {text!r}"
            f.notes.append(f"note: counter {f.owner!r} {f.face}: {what} fits only at {(exc.fit_px or 0) * k:.1f} "
                           f"{unit} (minimum {f.min_px * k:.1f} {unit}); printed without it, {it['optional']}")
            return ()
        else:
            raise
    if name != fonts[0][0]:
        shown = f"{size * 72 / f.dpi:.1f} pt" if f.dpi else f"{size} px"
        f.notes.append(f"note: counter {f.owner!r}: {text!r} is printed in the {name} weight at {shown} "
                       f"({fonts[0][0]} does not fit legibly); a short_name keeps it {fonts[0][0]}")
    return (T.centred(text, (cx, cy), size, f.colour(it.get("colour")), path),)


def _boxed_text(f: _Face, it: Mapping[str, Any], label: str, text: str) -> tuple[Item, ...]:
    x0, y0, x1, y1 = f.box(it)
    (name, font), *_ = _fonts(f, it, text, label)
    size = T.fitted_size(text, x1 - x0, int(float(it.get("size", y1 / f.s - y0 / f.s)) * f.s), font)
    if size < f.min_px or size == 0:
        raise T.TextDoesNotFit(f.owner, f.label(label), text, f.min_px, fit_px=size, dpi=f.dpi)
    align = it.get("align", "centre")
    cx = {"centre": (x0 + x1) / 2, "left": x0 + T.font(size, font).getlength(text) / 2,
          "right": x1 - T.font(size, font).getlength(text) / 2}[align]
    colour = f.colour(it.get("colour"))
    out: tuple[Item, ...] = (T.centred(text, (cx, (y0 + y1) / 2), size, colour, font),)
    if it["kind"] == "echelon" and f.value("task_force"):
        out += _task_force_bracket(cx, (y0 + y1) / 2, T.font(size, font).getlength(text), size, colour)
    return out


def _first_value(f: _Face, names: Any) -> Any:
    """The value of a field, or of the first of a list of fields that is set."""
    for name in ([names] if isinstance(names, str) else names):
        v = f.value(name)
        if v is not None:
            return v
    return None


def _factors(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    values = [_first_value(f, name) for name in it["fields"]]
    if all(v is None for v in values):
        return ()
    text = str(it.get("separator", "-")).join("" if v is None else str(v) for v in values)
    label = "-".join(n if isinstance(n, str) else n[0] for n in it["fields"])
    return _boxed_text(f, it, label, text)


def _echelon(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    field = it.get("field", "echelon")
    text = nato.echelon_mark(f.value(field), bool(f.value("reinforced")), bool(f.value("reduced")))
    return _boxed_text(f, it, field, text) if text else ()


def _symbol(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    if "type" in it:
        value = it["type"]
        if isinstance(value, Mapping):
            value = next((c["then"] for c in value["cases"] if f.holds(c.get("when"))), None)
    else:
        value = f.value(it.get("field", "kind")) or f.value("kind")
    if value is None:
        return ()
    if "box" in it:
        x0, y0, x1, y1 = f.box(it)
        bw, bh = int(round(x1 - x0)), int(round(y1 - y0))
        at = (int(round(x0)), int(round(y0)))
    else:
        (fx, fy), (ew, eh) = it["centre"], it["extent"]
        bw, bh = int(round(f.s * ew)), int(round(f.s * eh))
        at = (int(round(f.centre_x(fx) - bw / 2)), int(round(f.s * fy - bh / 2)))
    if it.get("set") == "series":
        if value not in SERIES_SYMBOLS:
            raise TemplateError(f"counter {f.owner!r}: no series symbol {value!r}; known: {', '.join(SERIES_SYMBOLS)}")
        return (symbol_layer(value, bw, bh, at),)
    fill = f.colour(it.get("fill", "#ffffff"))
    try:
        return (nato.symbol_layer(str(value), bw, bh, at, fill, hq=bool(f.value("hq"))),)
    except nato.UnknownUnitType as exc:
        raise TemplateError(f"counter {f.owner!r}: {exc}") from None


def _image(f: _Face, it: Mapping[str, Any]) -> tuple[Item, ...]:
    path = it.get("path") or f.value(it["field"])
    if not path:
        return ()
    if "path" in it and "{" in str(path):         # a pattern: art/{id}.png, art/{id}-{face}.png
        names = [n for _, n, _, _ in string.Formatter().parse(str(path)) if n]
        values = {n: f.face if n == "face" else f.value(n) for n in names}
        if any(v is None for v in values.values()):
            return ()
        path = str(path).format(**values)
    p = Path(str(path))
    if not p.is_absolute():
        p = Path(str(f.fields.get("_base_dir") or f.t.base_dir)) / p
    if not p.is_file():
        where = f"{f.fields.get('source')}: " if f.fields.get("source") else ""
        raise TemplateError(f"{where}counter {f.owner!r}: image {p} not found (template {f.t.source})")
    x0, y0, x1, y1 = f.box(it)
    box = (int(round(x0)), int(round(y0)), int(round(x1)) - 1, int(round(y1)) - 1)
    if f.dpi:
        _note_oversized(f, p, box)
    return (Picture(str(p), box),)


def _note_oversized(f: _Face, path: Path, box: tuple[int, int, int, int]) -> None:
    """A note when the art has more pixels than print uses: the sheets embed it at the print resolution
    (render/vector.py), not at its full size."""
    from PIL import Image
    need = (box[2] - box[0] + 1, box[3] - box[1] + 1)
    with Image.open(path) as src:
        size = src.size
    if size[0] > need[0] or size[1] > need[1]:
        f.notes.append(f"note: counter {f.owner!r}: image {path} is {size[0]} x {size[1]} px; printed "
                       f"{need[0]} x {need[1]} px at {f.dpi:g} dpi, so the sheets embed it downsampled to that")


_KINDS: dict[str, Callable[[_Face, Mapping[str, Any]], tuple[Item, ...]]] = {
    "fill": _fill, "band": _band, "rule": _rule, "rect": _rect, "stripe": _stripe, "mark": _mark,
    "text": _text, "factors": _factors, "echelon": _echelon, "symbol": _symbol, "image": _image,
}


def template_drawing(t: Template, fields: Mapping[str, Any], face: str, size_px: int, *,
                     dpi: float | None = None, notes: list[str] | None = None) -> Drawing:
    """One face of a counter (``fields``: its values by name) drawn with template ``t``.  ``notes`` hears
    of text printed in a fallback font or left out as ``optional`` (only when the face is drawn)."""
    items_spec, wash = t.items(face)
    f = _Face(t, fields, face, size_px, dpi, wash)
    background: RGB = (255, 255, 255)
    base: list[Item] = []
    items: list[Item] = []
    for i, it in enumerate(items_spec):
        if not f.holds(it.get("when")):
            continue
        kind = it["kind"]
        if kind == "fill" and i == 0:
            background = f.colour(it.get("colour"))
            continue
        try:
            drawn = _KINDS[kind](f, it)
        except T.TextDoesNotFit as exc:
            f.problems.append(exc)
            continue
        (base if kind in STATIC_KINDS and not items else items).extend(drawn)
    if f.problems:
        if len(f.problems) == 1:
            raise f.problems[0]
        raise T.FacesDoNotFit(f.problems)
    if notes is not None:
        notes += f.notes
    return Drawing(f.w, f.s, background, tuple(base), tuple(items))


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


def _splits(words: list[str], k: int) -> list[list[str]]:
    """Every way to break ``words`` into ``k`` non-empty lines (markers have few words: this is cheap)."""
    if k == 1:
        return [[" ".join(words)]]
    return [[" ".join(words[:i])] + rest for i in range(1, len(words) - k + 2) for rest in _splits(words[i:], k - 1)]


def _split_lines(text: str, lines: int) -> list[str]:
    """``text`` broken at spaces into ``lines`` lines, the longest line as short as possible."""
    words = text.split()
    lines = min(lines, len(words))
    if lines <= 1:
        return [text]
    return min(_splits(words, lines), key=lambda c: max(len(line) for line in c))


def _attributes(obj: Any) -> dict[str, Any]:
    """A dataclass's fields, shallow (``dataclasses.asdict`` deep-copies, a large share of drawing a face)."""
    from dataclasses import fields
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


@lru_cache(maxsize=64)
def _properties(cls: type) -> tuple[str, ...]:
    return tuple(n for n in dir(cls) if not n.startswith("_") and isinstance(getattr(cls, n), property))


def piece_fields(piece: Any, ag: Any = None, game: Any = None) -> dict[str, Any]:
    """A model counter (unit, leader, marker) as the flat field mapping templates read: its attributes and
    properties, the values of its front face, ``back`` (the back face's values, unset ones included so that a back
    never shows a front value, and ``back_fields``), the group's ``colour``, ``parent``, ``group_label``
    and ``group_text_colour``, the game-declared ``fields``, and from the game's declarations the unit
    type's NATO ``symbol`` and the side's ``side_colour`` / ``side_text_colour``."""
    from dataclasses import is_dataclass
    out: dict[str, Any] = {}
    if is_dataclass(piece):
        for k, v in _attributes(piece).items():
            if k in ("front", "back", "fields", "back_fields") and (isinstance(v, Mapping) or v is None or is_dataclass(v)):
                continue
            out[k] = v
        # Properties the model derives from the rules (``Unit.horse_artillery``: artillery with MA >= 8).
        for name in _properties(type(piece)):
            if name not in out:
                out[name] = getattr(piece, name)
    front = getattr(piece, "front", None)
    if is_dataclass(front):
        out.update({k: v for k, v in _attributes(front).items() if v is not None})
    back = getattr(piece, "back", None)
    if is_dataclass(back):
        out["back"] = _attributes(back)
    extra = getattr(piece, "fields", None)
    if isinstance(extra, Mapping):
        out.update(extra)
    back_extra = getattr(piece, "back_fields", None)
    if isinstance(back_extra, Mapping) and back_extra:
        out["back"] = {**out.get("back", {}), **back_extra}
    if ag is not None:
        out.setdefault("colour", ag.colour)
        out.setdefault("parent", ag.label or ag.name)
        out.setdefault("group_label", ag.label)
        out.setdefault("group_text_colour", ag.text_colour)
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
    if game is not None and getattr(game, "art", None) and kind is not None and hasattr(piece, "two_sided") \
            and not getattr(piece, "art", None):            # the unit's own art: comes before the pattern
        art = art_fields(game, piece)
        out["art"] = art["art"]
        if "back_art" in art:
            out["back"] = {**out.get("back", {}), "art": art["back_art"]}
    if ag is None and getattr(piece, "ag", None) == "":
        # A unit of a game without activation groups takes its side's colours where a group's are read.
        out.setdefault("colour", out.get("side_colour", UNGROUPED_COLOUR))
        out.setdefault("group_text_colour", out.get("side_text_colour", "#000000"))
    return out


UNGROUPED_COLOUR = "#d9d4c7"      # a unit with neither a group nor a side colour: a neutral card


def point_size(px: float, dpi: float) -> float:
    return px / dpi * POINTS_PER_INCH
