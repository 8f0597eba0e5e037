"""PDF backend of :mod:`modulebuilder.render.drawing`: a Drawing as a Form XObject of vector paths, fills
and text in embedded fonts, in face pixels (y down), so one matrix places it at any size on a sheet.

Pillow's pixel conventions are translated into continuous coordinates: a rectangle ``(x0, y0, x1, y1)``
covers ``[x0, x1 + 1]``; polygon and line vertices sit on pixel centres (``+ 0.5``); an outline of width
``w`` lies inside its rectangle.  Layers are drawn at full precision (their supersampling exists only
because Pillow does not anti-alias), clipped where the raster backend clips them.

Bleed: the face's background and every rectangle that touches an edge continue ``bleed`` pixels past
it, so a slightly-off cut still shows the counter's colour; the form's BBox clips everything to the
bleed box, so nothing reaches a neighbouring counter."""
from __future__ import annotations

from modulebuilder.render.drawing import Drawing, Item, Layer, Picture, Shape, Text
from modulebuilder.render.pdf import ColourSpace, PdfDocument, num
from modulebuilder.render.stable import stable_hash

K = 0.5523                     # Bezier control distance of a quarter circle


def _fill(doc: PdfDocument, c: tuple[int, ...]) -> str:
    if len(c) > 3 and c[3] < 255:
        return f"/{doc.alpha(c[3] / 255)} gs {doc.colours.fill(c)}"
    return doc.colours.fill(c)


def _stroke(doc: PdfDocument, c: tuple[int, ...]) -> str:
    if len(c) > 3 and c[3] < 255:
        return f"/{doc.alpha(c[3] / 255)} gs {doc.colours.stroke(c)}"
    return doc.colours.stroke(c)


def _rect(x0: float, y0: float, x1: float, y1: float) -> str:
    return f"{num(x0)} {num(y0)} {num(x1 - x0)} {num(y1 - y0)} re"


def _ellipse(x0: float, y0: float, x1: float, y1: float) -> str:
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    kx, ky = K * rx, K * ry
    return (f"{num(cx + rx)} {num(cy)} m "
            f"{num(cx + rx)} {num(cy + ky)} {num(cx + kx)} {num(cy + ry)} {num(cx)} {num(cy + ry)} c "
            f"{num(cx - kx)} {num(cy + ry)} {num(cx - rx)} {num(cy + ky)} {num(cx - rx)} {num(cy)} c "
            f"{num(cx - rx)} {num(cy - ky)} {num(cx - kx)} {num(cy - ry)} {num(cx)} {num(cy - ry)} c "
            f"{num(cx + kx)} {num(cy - ry)} {num(cx + rx)} {num(cy - ky)} {num(cx + rx)} {num(cy)} c h")


def shape_ops(doc: PdfDocument, s: Shape, bleed: float = 0.0, size: tuple[int, int] | None = None) -> str:
    """One recorded ImageDraw call as PDF path operators (``bleed`` > 0: rectangles on an edge of a face
    ``size`` continue past it)."""
    xy = s.xy
    if s.kind == "rectangle":
        x0, y0, x1, y1 = xy[0], xy[1], xy[2] + 1, xy[3] + 1
        ox0, oy0, ox1, oy1 = x0, y0, x1, y1
        if bleed and size:
            w, h = size
            ox0 = x0 - bleed if x0 <= 0 else x0
            oy0 = y0 - bleed if y0 <= 0 else y0
            ox1 = x1 + bleed if x1 >= w else x1
            oy1 = y1 + bleed if y1 >= h else y1
        out = []
        if s.fill is not None:
            out.append(f"q {_fill(doc, s.fill)} {_rect(ox0, oy0, ox1, oy1)} f Q")
        if s.outline is not None:
            lw = float(s.width)
            # Pillow draws an outline inside its rectangle: the ring between the box and the box inset by the
            # width (even-odd fill).  On the edge of a face the ring grows outward into the bleed, as the
            # repeated edge pixels of the raster bleed do.
            if lw * 2 >= min(x1 - x0, y1 - y0):
                out.append(f"q {_fill(doc, s.outline)} {_rect(ox0, oy0, ox1, oy1)} f Q")
            else:
                path = _rect(ox0, oy0, ox1, oy1) + " " + _rect(x0 + lw, y0 + lw, x1 - lw, y1 - lw)
                out.append(f"q {_fill(doc, s.outline)} {path} f* Q")
        return " ".join(out)
    if s.kind == "polygon":
        pts = [(xy[i] + 0.5, xy[i + 1] + 0.5) for i in range(0, len(xy), 2)]
        path = f"{num(pts[0][0])} {num(pts[0][1])} m " + " ".join(f"{num(x)} {num(y)} l" for x, y in pts[1:]) + " h"
        return f"q {_fill(doc, s.fill or (0, 0, 0))} {path} f Q"
    if s.kind == "line":
        pts = [(xy[i] + 0.5, xy[i + 1] + 0.5) for i in range(0, len(xy), 2)]
        path = f"{num(pts[0][0])} {num(pts[0][1])} m " + " ".join(f"{num(x)} {num(y)} l" for x, y in pts[1:])
        return f"q 0 J {num(float(s.width))} w {_stroke(doc, s.fill or (0, 0, 0))} {path} S Q"
    x0, y0, x1, y1 = xy[0], xy[1], xy[2] + 1, xy[3] + 1
    out = []
    if s.fill is not None:
        out.append(f"q {_fill(doc, s.fill)} {_ellipse(x0, y0, x1, y1)} f Q")
    if s.outline is not None:
        lw = float(s.width)
        out.append(f"q {num(lw)} w {_stroke(doc, s.outline)} "
                   f"{_ellipse(x0 + lw / 2, y0 + lw / 2, x1 - lw / 2, y1 - lw / 2)} S Q")
    return " ".join(out)


def _text_ops(doc: PdfDocument, t: Text) -> list:
    f = doc.font(t.font)
    x = t.x - f.width(t.text, t.size) / 2
    # The form is drawn y-down: flip the text matrix back so glyphs stand upright.
    return [f"BT {doc.colours.fill(t.fill)} /{f.resource} 1 Tf {num(t.size)} 0 0 {num(-t.size)} {num(x)} "
            f"{num(t.y)} Tm ", f.run(t.text), " Tj ET"]


def _layer_form(doc: PdfDocument, layer: Layer) -> str:
    """The layer's shapes as a Form XObject in its own (supersampled) units, made once per document:
    every unit of a type shows the same symbol, so the sheets hold each symbol once."""
    forms = doc.__dict__.setdefault("_layer_forms", {})
    name = forms.get(layer)
    if name is None:
        name = forms[layer] = f"L{len(forms) + 1}"
        ops: list = []
        if layer.clip is not None:
            x0, y0, x1, y1 = layer.clip
            ops.append(f"q {_rect(x0, y0, x1 + 1, y1 + 1)} W n")
            ops += [shape_ops(doc, s) for s in layer.items]
            ops.append("Q")
        else:
            ops += [shape_ops(doc, s) for s in layer.items]
        ops += [shape_ops(doc, s) for s in layer.over]
        big = 10 * max(layer.width, layer.height) * layer.scale
        doc.add_form(name, ops, (-big, -big, big, big))
    return name


def _layer_ops(doc: PdfDocument, layer: Layer, bleed: float, face: tuple[int, int]) -> str:
    k = 1 / layer.scale
    clip = ""
    if layer.keep_from_row:
        # Only from that row down (face units), and past every other edge into the bleed.
        b = bleed + 1
        clip = f"{_rect(-b, layer.keep_from_row, face[0] + b, face[1] + b)} W n "
    return (f"q {clip}{num(k)} 0 0 {num(k)} {num(layer.at[0])} {num(layer.at[1])} cm "
            f"/{_layer_form(doc, layer)} Do Q")


def _picture_ops(doc: PdfDocument, p: Picture) -> str:
    from PIL import Image

    from modulebuilder.render.cmyk import image_for
    x0, y0, x1, y1 = p.box
    w, h = x1 - x0 + 1, y1 - y0 + 1
    with Image.open(p.path) as src:
        # Art with more pixels than its box prints (face pixels are print pixels) is embedded at the print
        # resolution: a 50 MB scan would otherwise go into every sheet at full size.
        oversized = src.width > w or src.height > h
        name = f"P{stable_hash(f'{p.path}|{w}x{h}' if oversized else p.path) % 10**8}"
        if not doc.has_image(name):
            art = src.convert("RGBA")
            if oversized:
                art = art.resize((w, h), Image.Resampling.LANCZOS)
            doc.add_image(name, image_for(doc.colours, art))
    return f"q {num(w)} 0 0 {num(-h)} {num(x0)} {num(y0 + h)} cm /{name} Do Q"


def drawing_ops(doc: PdfDocument, d: Drawing, bleed: float = 0.0) -> list:
    """The content of a face form: background over the bleed box, then base and items in order."""
    size = (d.width, d.height)
    ops: list = [f"q {_fill(doc, d.background)} {_rect(-bleed, -bleed, d.width + bleed, d.height + bleed)} f Q"]

    def emit(item: Item) -> None:
        if isinstance(item, Shape):
            ops.append(shape_ops(doc, item, bleed, size))
        elif isinstance(item, Text):
            ops.append(_text_ops(doc, item))
        elif isinstance(item, Layer):
            ops.append(_layer_ops(doc, item, bleed, size))
        elif isinstance(item, Picture):
            ops.append(_picture_ops(doc, item))

    for item in (*d.base, *d.items):
        emit(item)
    return ops


def add_face_form(doc: PdfDocument, name: str, d: Drawing, bleed: float) -> str:
    """Register the drawing as Form XObject ``name`` (face pixels, y down, origin at the cut's top left,
    BBox = the cut box plus ``bleed`` pixels)."""
    if not doc.has_image(name):
        doc.add_form(name, drawing_ops(doc, d, bleed), (-bleed, -bleed, d.width + bleed, d.height + bleed))
    return name


__all__ = ["ColourSpace", "add_face_form", "drawing_ops", "shape_ops"]
