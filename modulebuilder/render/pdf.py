"""A small, deterministic PDF writer for print-shop output: vector paths, text in embedded subset
TrueType/OpenType fonts, Form XObjects (a counter face drawn once, placed many times), raster images only
where the author supplied raster art (and the map), page boxes, optional-content layers (the die line), a
spot colour for the die line, and DeviceCMYK with an ICC output intent.

Why our own writer and not a PDF library (fpdf2, reportlab): fpdf2 alone takes half of the time the whole
sheets build may spend on a face (docs/speed.md, "Figures behind the code"), and neither offers TrimBox /
BleedBox / ArtBox or optional-content layers without reaching into their internals.  The parts that need a
library are a library: fonts are read, measured and subset by fontTools.  Writing the objects ourselves
keeps the bytes a pure function of the input (no timestamps, no random document ids).

Coordinates given to :class:`Canvas` are in points from the TOP-left corner of the page (the way the
layouts are computed); the canvas flips them into PDF's bottom-left system."""
from __future__ import annotations

import hashlib
import io
import os
import pickle
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Union

from PIL import Image

from modulebuilder.fonts import REGULAR, FontFileError


def num(v: float) -> str:
    """A number as PDF text: fixed precision so output never depends on float repr quirks."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pdf_string(text: str) -> str:
    """A PDF literal string of ``text`` (Latin-1 characters; others become '?'), for metadata."""
    raw = text.encode("latin-1", errors="replace").decode("latin-1")
    return "(" + raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


@dataclass(frozen=True)
class EncodedImage:
    """Pixels compressed for a PDF image XObject (8 bits per component, Flate, no predictor)."""
    width: int
    height: int
    colours: int            # 3 = RGB, 1 = grey, 4 = CMYK
    data: bytes
    alpha: bytes | None = None      # Flate-compressed 8-bit soft mask, when the art has transparency


def encode_image(img: Image.Image, level: int = 3) -> EncodedImage:
    """Plain zlib of the raw pixels: on counter art, level 3 without PNG row predictors is both faster and
    smaller than Pillow's PNG encoder with its adaptive filters (docs/speed.md, "Figures behind the code")."""
    alpha = None
    if img.mode in ("RGBA", "LA"):
        alpha = zlib.compress(img.getchannel("A").tobytes(), level)
        img = img.convert("RGB")
    if img.mode not in ("RGB", "L", "CMYK"):
        img = img.convert("RGB")
    colours = {"RGB": 3, "L": 1, "CMYK": 4}[img.mode]
    return EncodedImage(img.width, img.height, colours, zlib.compress(img.tobytes(), level), alpha)


# ----------------------------------------------------------------------------------------- fonts

class MissingGlyph(ValueError):
    """Text asks for a character its font does not have: an error, never a silent substitute."""


@lru_cache(maxsize=32)
def _font_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _open(path: str):  # type: ignore[no-untyped-def]
    """The font with glyphs named by their ids ("g0", "g1", ...): fontTools then never parses the 'post'
    table's names (most of the time of opening a large font) and a name is its glyph id."""
    from fontTools.ttLib import TTFont, TTLibError
    try:
        tt = TTFont(io.BytesIO(_font_bytes(path)), lazy=True, recalcTimestamp=False)
        tt.setGlyphOrder([f"g{i}" for i in range(tt["maxp"].numGlyphs)])
    except (TTLibError, KeyError, ValueError, EOFError) as exc:       # not a font, or one without its tables
        raise FontFileError(path, "unknown file format" if isinstance(exc, TTLibError) else f"{exc!r}") from None
    return tt


CACHE_FORMAT = 1


def _cache_dir() -> Path | None:
    root = os.environ.get("MODULEBUILDER_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "modulebuilder")
    return None if root == "off" else Path(root) / "fonts"


def _disk_cached(kind: str, key: bytes, compute: Callable[[], Any]) -> Any:
    """``compute()``, kept on disk by a digest of ``key``: reading a large font's tables and subsetting it
    (and importing fontTools to do so) costs more than laying out hundreds of counters, and the fonts of a
    game are the same from one build to the next.  The result depends only on the key, so output bytes
    never depend on the cache; an unwritable cache folder only costs time."""
    from fontTools import version as fonttools_version
    folder = _cache_dir()
    key = f"{fonttools_version}|{CACHE_FORMAT}|".encode() + key      # another fontTools may subset differently
    path = folder / f"{kind}-{hashlib.sha256(key).hexdigest()[:32]}.pickle" if folder else None
    if path is not None and path.is_file():
        try:
            return pickle.loads(path.read_bytes())
        except Exception:                      # noqa: BLE001 - a damaged cache entry is recomputed
            pass
    value = compute()
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(pickle.dumps(value, protocol=4))
            os.replace(tmp, path)
        except OSError:
            pass
    return value


@lru_cache(maxsize=32)
def _metrics(path: str) -> tuple[dict[int, str], dict[str, int], int, dict[str, object]]:
    """(cmap, advance widths, units per em, descriptor values) of a font file, read once per process."""
    return _disk_cached("metrics", _font_bytes(path), lambda: _read_metrics(path))


def _read_metrics(path: str) -> tuple[dict[int, str], dict[str, int], int, dict[str, object]]:
    """(cmap, advance widths, units per em, descriptor values) of a font file, read once per process."""
    tt = _open(path)
    cmap = dict(tt["cmap"].getBestCmap() or {})
    hmtx = {name: adv for name, (adv, _lsb) in tt["hmtx"].metrics.items()}
    upm = tt["head"].unitsPerEm
    head, hhea, os2 = tt["head"], tt["hhea"], tt["OS/2"] if "OS/2" in tt else None
    k = 1000 / upm
    desc = {"ascent": hhea.ascent * k, "descent": hhea.descent * k,
            "cap": (getattr(os2, "sCapHeight", 0) or hhea.ascent * 0.7) * k,
            "bbox": (head.xMin * k, head.yMin * k, head.xMax * k, head.yMax * k),
            "cff": "CFF " in tt, "name": _ps_name(tt)}
    return cmap, hmtx, upm, desc


def _ps_name(tt: object) -> str:
    name = tt["name"].getDebugName(6) or "Font"          # type: ignore[index]
    return "".join(c for c in name if c.isalnum() or c in "-_") or "Font"


class PdfFont:
    """One font file used in a document: measures text, records the characters used, and is embedded
    as a subset (Type0 / Identity-H, so any character of the font can be printed)."""

    def __init__(self, path: str, resource: str):
        self.path, self.resource = path, resource
        self.cmap, self.advances, self.upm, self.desc = _metrics(path)
        self.used: set[str] = set()
        self.gids: dict[str, int] = {}

    def check(self, text: str) -> None:
        missing = sorted({c for c in text if ord(c) not in self.cmap})
        if missing:
            raise MissingGlyph(f"font {self.path}: no glyph for {', '.join(repr(c) for c in missing)} "
                               f"in {text!r}; use a font that has it")

    def width(self, text: str, size: float) -> float:
        """Advance width of ``text`` at ``size`` (no kerning), in the units of ``size``."""
        self.check(text)
        return sum(self.advances[self.cmap[ord(c)]] for c in text) * size / self.upm

    def run(self, text: str) -> "_Run":
        self.check(text)
        self.used.update(text)
        return _Run(self, text)

    def subset(self) -> bytes:
        """The font reduced to the characters used (fontTools), glyph ids renumbered; fills ``gids``."""
        data, self.gids = _subset(self.path, frozenset(self.used))
        return data

    def tag(self) -> str:
        """Six capitals naming this subset (PDF's ABCDEF+Name convention), from the characters used."""
        h = hashlib.sha1("".join(sorted(self.used)).encode()).digest()
        return "".join(chr(65 + b % 26) for b in h[:6])


@lru_cache(maxsize=64)
def _subset(path: str, used: frozenset[str]) -> tuple[bytes, dict[str, int]]:
    """(font file, character -> glyph id) of ``path`` reduced to ``used`` (cached per process and on disk)."""
    key = _font_bytes(path) + "".join(sorted(used)).encode("utf-8", "surrogatepass")
    return _disk_cached("subset", key, lambda: _make_subset(path, used))


def _make_subset(path: str, used: frozenset[str]) -> tuple[bytes, dict[str, int]]:
    from fontTools import subset
    from fontTools.ttLib import TTFont
    tt = TTFont(io.BytesIO(_font_bytes(path)), recalcTimestamp=False, lazy=True)
    for table in ("GSUB", "GPOS", "GDEF", "kern", "FFTM", "DSIG", "hdmx", "LTSH", "VDMX"):
        if table in tt:                # no shaping in the PDF; never decompiled, so subsetting is fast
            del tt[table]
    opts = subset.Options()
    opts.layout_features = []          # no shaping in the PDF: drop GSUB/GPOS
    opts.hinting = False               # printers rasterise at high resolution
    opts.name_IDs = [1, 2, 3, 4, 6]
    opts.notdef_outline = True
    opts.recalc_timestamp = False
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=sorted(ord(c) for c in used))
    sub.subset(tt)
    order = {name: i for i, name in enumerate(tt.getGlyphOrder())}
    cmap = tt.getBestCmap()
    out = io.BytesIO()
    tt.save(out)
    return out.getvalue(), {c: order[cmap[ord(c)]] for c in used}


class _Run:
    """Text in a content stream, encoded as glyph ids once the font subset is made."""

    def __init__(self, font: PdfFont, text: str):
        self.font, self.text = font, text

    def __str__(self) -> str:
        return "<" + "".join(f"{self.font.gids[c]:04X}" for c in self.text) + ">"


Op = Union[str, _Run, list]


def _render(ops: list[Op]) -> str:
    parts: list[str] = []
    for op in ops:
        if isinstance(op, list):
            parts.append("".join(str(p) for p in op))
        else:
            parts.append(str(op))
    return "\n".join(parts) + "\n"


# ----------------------------------------------------------------------------------------- colour

class ColourSpace:
    """How an sRGB colour is written: ``rgb`` as DeviceRGB; ``cmyk`` as DeviceCMYK converted through an ICC
    profile (see :mod:`modulebuilder.render.cmyk`), with the profile as the document's output intent."""

    def __init__(self, convert: Callable[[tuple[int, int, int]], tuple[float, float, float, float]] | None = None,
                 profile: bytes | None = None, condition: str = ""):
        self.convert, self.profile, self.condition = convert, profile, condition

    @property
    def cmyk(self) -> bool:
        return self.convert is not None

    def fill(self, c: tuple[int, ...]) -> str:
        return self._op(c, "rg", "k")

    def stroke(self, c: tuple[int, ...]) -> str:
        return self._op(c, "RG", "K")

    def _op(self, c: tuple[int, ...], rgb_op: str, cmyk_op: str) -> str:
        if self.convert is None:
            return f"{num(c[0] / 255)} {num(c[1] / 255)} {num(c[2] / 255)} {rgb_op}"
        k = self.convert((c[0], c[1], c[2]))
        return f"{num(k[0])} {num(k[1])} {num(k[2])} {num(k[3])} {cmyk_op}"

    def grey_stroke(self, g: float) -> str:
        return f"0 0 0 {num(1 - g)} K" if self.cmyk else f"{num(g)} G"

    def grey_fill(self, g: float) -> str:
        return f"0 0 0 {num(1 - g)} k" if self.cmyk else f"{num(g)} g"


RGB_SPACE = ColourSpace()


# ----------------------------------------------------------------------------------------- pages

@dataclass
class Canvas:
    """The content stream of one page, built from top-left point coordinates."""
    width: float
    height: float
    doc: "PdfDocument | None" = None
    ops: list[Op] = field(default_factory=list)
    images: set[str] = field(default_factory=set)
    boxes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)

    def _y(self, y: float) -> float:
        return self.height - y

    @property
    def colours(self) -> ColourSpace:
        return self.doc.colours if self.doc is not None else RGB_SPACE

    def set_box(self, name: str, x: float, y: float, w: float, h: float) -> None:
        """A page box (``TrimBox``, ``BleedBox``, ``ArtBox``) from top-left coordinates."""
        self.boxes[name] = (x, self._y(y + h), x + w, self._y(y))

    def image(self, name: str, x: float, y: float, w: float, h: float) -> None:
        """Draw image resource ``name`` into the box with top-left (x, y), size w x h points."""
        self.images.add(name)
        self.ops.append(f"q {num(w)} 0 0 {num(h)} {num(x)} {num(self._y(y + h))} cm /{name} Do Q")

    def image_clipped(self, name: str, clip: tuple[float, float, float, float],
                      x: float, y: float, w: float, h: float) -> None:
        """Draw an image but show only the part inside ``clip`` (x, y, w, h): used for map tiles."""
        cx, cy, cw, ch = clip
        self.images.add(name)
        self.ops.append(f"q {num(cx)} {num(self._y(cy + ch))} {num(cw)} {num(ch)} re W n "
                        f"{num(w)} 0 0 {num(h)} {num(x)} {num(self._y(y + h))} cm /{name} Do Q")

    def form(self, name: str, x: float, y: float, scale: float) -> None:
        """Place Form XObject ``name`` (drawn in y-down units, origin top-left) with its origin at (x, y),
        ``scale`` points per unit."""
        self.images.add(name)
        self.ops.append(f"q {num(scale)} 0 0 {num(-scale)} {num(x)} {num(self._y(y))} cm /{name} Do Q")

    def raw(self, ops: str) -> None:
        self.ops.append(ops)

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.25,
             grey: float = 0.0, dash: tuple[float, ...] = ()) -> None:
        d = "[" + " ".join(num(v) for v in dash) + "] 0 d " if dash else ""
        self.ops.append(f"q {d}{num(width)} w {self.colours.grey_stroke(grey)} {num(x0)} {num(self._y(y0))} m "
                        f"{num(x1)} {num(self._y(y1))} l S Q")

    def rect(self, x: float, y: float, w: float, h: float, width: float = 0.25, grey: float = 0.0) -> None:
        self.ops.append(f"q {num(width)} w {self.colours.grey_stroke(grey)} {num(x)} {num(self._y(y + h))} "
                        f"{num(w)} {num(h)} re S Q")

    def fill_rect(self, x: float, y: float, w: float, h: float, colour: tuple[int, ...]) -> None:
        self.ops.append(f"q {self.colours.fill(colour)} {num(x)} {num(self._y(y + h))} {num(w)} {num(h)} re f Q")

    def circle(self, cx: float, cy: float, r: float, width: float = 0.25) -> None:
        k = 0.5523 * r                                     # Bezier control distance for a quarter circle
        y = self._y(cy)
        self.ops.append(
            f"q {num(width)} w {self.colours.grey_stroke(0)} {num(cx + r)} {num(y)} m "
            f"{num(cx + r)} {num(y + k)} {num(cx + k)} {num(y + r)} {num(cx)} {num(y + r)} c "
            f"{num(cx - k)} {num(y + r)} {num(cx - r)} {num(y + k)} {num(cx - r)} {num(y)} c "
            f"{num(cx - r)} {num(y - k)} {num(cx - k)} {num(y - r)} {num(cx)} {num(y - r)} c "
            f"{num(cx + k)} {num(y - r)} {num(cx + r)} {num(y - k)} {num(cx + r)} {num(y)} c S Q")

    def text(self, x: float, y: float, text: str, size: float = 8.0, align: str = "left",
             font: str | None = None, grey: float = 0.0) -> None:
        """Text in an embedded font (the bundled regular by default) with its baseline at ``y``."""
        f = self._font(font)
        w = f.width(text, size)
        dx = {"left": 0.0, "centre": -w / 2, "right": -w}[align]
        self.ops.append([f"BT {self.colours.grey_fill(grey)} /{f.resource} {num(size)} Tf {num(x + dx)} "
                         f"{num(self._y(y))} Td ", f.run(text), " Tj ET"])

    def text_width(self, text: str, size: float, font: str | None = None) -> float:
        return self._font(font).width(text, size)

    def _font(self, font: str | None) -> PdfFont:
        if self.doc is None:
            raise RuntimeError("a canvas made outside a PdfDocument cannot print text")
        return self.doc.font(font or str(REGULAR))

    def begin_layer(self, name: str) -> None:
        """Start optional content (a layer a viewer or RIP can switch off), e.g. the die line."""
        assert self.doc is not None
        self.ops.append(f"/OC /{self.doc.layer(name)} BDC")

    def end_layer(self) -> None:
        self.ops.append("EMC")

    def content(self) -> bytes:
        return _render(self.ops).encode("latin-1")


@dataclass
class _Form:
    ops: list[Op]
    bbox: tuple[float, float, float, float]


class PdfDocument:
    """Pages, shared images, Form XObjects, fonts and layers, serialised deterministically by :meth:`tobytes`."""

    def __init__(self, colours: ColourSpace = RGB_SPACE, title: str = "") -> None:
        self.colours = colours
        self.title = title
        self._images: dict[str, Image.Image | EncodedImage] = {}
        self._forms: dict[str, _Form] = {}
        self._pages: list[Canvas] = []
        self._fonts: dict[str, PdfFont] = {}
        self._alphas: dict[str, float] = {}
        self._layers: dict[str, str] = {}          # layer title -> resource name
        self._spots: dict[str, tuple[float, float, float, float]] = {}

    # resources ------------------------------------------------------------------------------------
    def add_image(self, name: str, img: Image.Image | EncodedImage) -> str:
        """Register ``img`` under resource ``name`` (once; later pages refer to it by name)."""
        if name not in self._images:
            self._images[name] = img
        return name

    def has_image(self, name: str) -> bool:
        return name in self._images or name in self._forms

    def add_form(self, name: str, ops: list[Op], bbox: tuple[float, float, float, float]) -> str:
        """Register a Form XObject: content ``ops`` drawn in its own units, clipped to ``bbox``."""
        if name not in self._forms:
            self._forms[name] = _Form(ops, bbox)
        return name

    def font(self, path: str) -> PdfFont:
        path = str(path)
        if path not in self._fonts:
            self._fonts[path] = PdfFont(path, f"F{len(self._fonts) + 1}")
        return self._fonts[path]

    def alpha(self, a: float) -> str:
        """ExtGState resource for fill/stroke opacity ``a``."""
        name = f"GA{int(round(a * 1000)):04d}"
        self._alphas[name] = a
        return name

    def layer(self, title: str) -> str:
        if title not in self._layers:
            self._layers[title] = f"OC{len(self._layers) + 1}"
        return self._layers[title]

    def spot(self, name: str, cmyk: tuple[float, float, float, float]) -> str:
        """A Separation colour space (a named spot ink, e.g. the die line), resource ``CS<name>``."""
        self._spots[name] = cmyk
        return f"CS{name}"

    def new_page(self, width: float, height: float) -> Canvas:
        page = Canvas(width, height, self)
        self._pages.append(page)
        return page

    @property
    def pages(self) -> list[Canvas]:
        return list(self._pages)

    # serialisation --------------------------------------------------------------------------------
    def tobytes(self) -> bytes:
        objs: list[bytes] = []

        def add(body: bytes) -> int:
            objs.append(body)
            return len(objs)

        def stream(head: str, data: bytes) -> bytes:
            return f"<< {head} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"

        add(b"")                                         # 1: catalog, filled in at the end
        add(b"")                                         # 2: page tree
        add(b"")                                         # 3: the shared resource dictionary
        font_ids = {f.resource: self._embed_font(f, add, stream) for f in self._fonts.values() if f.used}
        xobj_ids: dict[str, int] = {}
        for name in sorted(self._images):                # sorted: object numbers independent of call order
            item = self._images[name]
            enc = item if isinstance(item, EncodedImage) else encode_image(item)
            cs = {3: "/DeviceRGB", 1: "/DeviceGray", 4: "/DeviceCMYK"}[enc.colours]
            smask = ""
            if enc.alpha is not None:
                sid = add(stream(f"/Type /XObject /Subtype /Image /Width {enc.width} /Height {enc.height} "
                                 "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode", enc.alpha))
                smask = f" /SMask {sid} 0 R"
            xobj_ids[name] = add(stream(f"/Type /XObject /Subtype /Image /Width {enc.width} /Height {enc.height} "
                                        f"/ColorSpace {cs} /BitsPerComponent 8 /Filter /FlateDecode{smask}",
                                        enc.data))
        for name in sorted(self._forms):
            form = self._forms[name]
            data = zlib.compress(_render(form.ops).encode("latin-1"), 6)
            xobj_ids[name] = add(stream(f"/Type /XObject /Subtype /Form /BBox [{' '.join(num(v) for v in form.bbox)}] "
                                        "/Resources 3 0 R /Filter /FlateDecode", data))
        layer_ids = {res: add(f"<< /Type /OCG /Name {pdf_string(title)} >>".encode())
                     for title, res in sorted(self._layers.items(), key=lambda kv: kv[1])}
        spot_ids = {}
        for name, (c, m, y, k) in sorted(self._spots.items()):
            spot_ids[name] = add(f"[/Separation /{name} /DeviceCMYK << /FunctionType 2 /Domain [0 1] "
                                 f"/C0 [0 0 0 0] /C1 [{num(c)} {num(m)} {num(y)} {num(k)}] /N 1 >>]".encode())
        resources = ["/ProcSet [/PDF /Text /ImageC /ImageB]"]
        if font_ids:
            resources.append("/Font << " + " ".join(f"/{r} {i} 0 R" for r, i in sorted(font_ids.items())) + " >>")
        if xobj_ids:
            resources.append("/XObject << " + " ".join(f"/{n} {i} 0 R" for n, i in sorted(xobj_ids.items())) + " >>")
        states = [f"/{n} << /Type /ExtGState /ca {num(a)} /CA {num(a)} >>" for n, a in sorted(self._alphas.items())]
        states.append("/GOP << /Type /ExtGState /OP true /op true /OPM 1 >>")       # overprint (die line)
        resources.append("/ExtGState << " + " ".join(states) + " >>")
        if layer_ids:
            resources.append("/Properties << " + " ".join(f"/{r} {i} 0 R" for r, i in sorted(layer_ids.items())) + " >>")
        if spot_ids:
            resources.append("/ColorSpace << " + " ".join(f"/CS{n} {i} 0 R" for n, i in sorted(spot_ids.items())) + " >>")
        objs[2] = ("<< " + " ".join(resources) + " >>").encode()
        kids = []
        for page in self._pages:
            data = zlib.compress(page.content(), 6)
            content = add(stream("/Filter /FlateDecode", data))
            media = (0.0, 0.0, page.width, page.height)
            boxes = {"TrimBox": media, "BleedBox": media, "ArtBox": media, **page.boxes}
            box_text = " ".join(f"/{k} [{' '.join(num(v) for v in boxes[k])}]" for k in ("TrimBox", "BleedBox", "ArtBox"))
            kids.append(add(
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {num(page.width)} {num(page.height)}] {box_text} "
                f"/Resources 3 0 R /Contents {content} 0 R >>".encode()))
        catalog = ["/Type /Catalog /Pages 2 0 R"]
        if layer_ids:
            refs = " ".join(f"{i} 0 R" for i in layer_ids.values())
            catalog.append(f"/OCProperties << /OCGs [{refs}] /D << /Order [{refs}] /ON [{refs}] >> >>")
        if self.colours.profile is not None:
            icc = add(stream("/N 4 /Filter /FlateDecode", zlib.compress(self.colours.profile, 6)))
            cond = pdf_string(self.colours.condition)
            catalog.append(f"/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier {cond} "
                           f"/Info {cond} /DestOutputProfile {icc} 0 R >>]")
        objs[0] = ("<< " + " ".join(catalog) + " >>").encode()
        objs[1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>").encode()
        info = add(f"<< /Producer (modulebuilder) /Title {pdf_string(self.title)} >>".encode())

        out = io.BytesIO()
        out.write(b"%PDF-1.6\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(objs, start=1):
            offsets.append(out.tell())
            out.write(f"{i} 0 obj\n".encode() + body + b"\nendobj\n")
        xref = out.tell()
        out.write(f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode())
        for off in offsets:
            out.write(f"{off:010d} 00000 n \n".encode())
        # A document id is required by PDF/X; derived from the content so the bytes stay reproducible.
        doc_id = hashlib.md5(b"".join(objs)).hexdigest()
        out.write(f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R /Info {info} 0 R /ID [<{doc_id}> <{doc_id}>] >>\n"
                  f"startxref\n{xref}\n%%EOF\n".encode())
        return out.getvalue()

    def _embed_font(self, f: PdfFont, add: Callable[[bytes], int],
                    stream: Callable[[str, bytes], bytes]) -> int:
        data = f.subset()
        base = f"{f.tag()}+{f.desc['name']}"
        cff = bool(f.desc["cff"])
        file_id = add(stream("/Subtype /OpenType /Filter /FlateDecode" if cff else
                             f"/Length1 {len(data)} /Filter /FlateDecode", zlib.compress(data, 6)))
        x0, y0, x1, y1 = f.desc["bbox"]                  # type: ignore[misc]
        descriptor = add(
            (f"<< /Type /FontDescriptor /FontName /{base} /Flags 32 /FontBBox [{num(x0)} {num(y0)} {num(x1)} {num(y1)}] "
             f"/ItalicAngle 0 /Ascent {num(f.desc['ascent'])} /Descent {num(f.desc['descent'])} "
             f"/CapHeight {num(f.desc['cap'])} /StemV 80 /{'FontFile3' if cff else 'FontFile2'} {file_id} 0 R >>").encode())
        k = 1000 / f.upm
        widths = " ".join(f"{f.gids[c]} [{num(f.advances[f.cmap[ord(c)]] * k)}]"
                          for c in sorted(f.used, key=lambda c: f.gids[c]))
        cid = add((f"<< /Type /Font /Subtype /{'CIDFontType0' if cff else 'CIDFontType2'} /BaseFont /{base} "
                   "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
                   f"/FontDescriptor {descriptor} 0 R /W [{widths}]"
                   f"{'' if cff else ' /CIDToGIDMap /Identity'} >>").encode())
        pairs = [f"<{f.gids[c]:04X}> <{''.join(f'{b:02X}' for b in c.encode('utf-16-be'))}>"
                 for c in sorted(f.used, key=lambda c: f.gids[c])]
        blocks = "\n".join(f"{len(pairs[i:i + 100])} beginbfchar\n" + "\n".join(pairs[i:i + 100]) + "\nendbfchar"
                           for i in range(0, len(pairs), 100))      # at most 100 entries a block
        cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo << /Registry (Adobe) "
                "/Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def "
                "1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
                f"{blocks}\nendcmap CMapName currentdict /CMap defineresource pop end end")
        to_unicode = add(stream("/Filter /FlateDecode", zlib.compress(cmap.encode(), 6)))
        return add((f"<< /Type /Font /Subtype /Type0 /BaseFont /{base} /Encoding /Identity-H "
                    f"/DescendantFonts [{cid} 0 R] /ToUnicode {to_unicode} 0 R >>").encode())
