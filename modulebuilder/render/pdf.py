"""A small, deterministic PDF writer: raster images placed at exact point coordinates, vector lines and
Helvetica labels.

Why not Pillow's PDF output: it cannot draw vector crop marks or place several images on a page.  Why
our own rather than a library: the sheets need only this much, and writing it ourselves makes the bytes a
pure function of the input (no timestamps, no random document ids).

Coordinates given to :class:`Canvas` are in points from the TOP-left corner of the page (the way the
layouts are computed); the canvas flips them into PDF's bottom-left system."""
from __future__ import annotations

import io
import zlib
from dataclasses import dataclass, field

from PIL import Image


def num(v: float) -> str:
    """A number as PDF text: fixed precision so output never depends on float repr quirks."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def pdf_string(text: str) -> str:
    """A literal string in Helvetica's WinAnsi encoding (characters outside it become '?')."""
    raw = text.encode("cp1252", errors="replace").decode("latin-1")
    return "(" + raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


@dataclass(frozen=True)
class EncodedImage:
    """Pixels compressed for a PDF image XObject (8 bits per component, Flate, no predictor)."""
    width: int
    height: int
    colours: int            # 3 = RGB, 1 = grey
    data: bytes


def encode_image(img: Image.Image, level: int = 3) -> EncodedImage:
    """Plain zlib of the raw pixels.  Measured on counter art, level 3 without PNG row predictors is
    both faster (about 2 ms a face) and smaller than Pillow's PNG encoder with its adaptive filters."""
    if img.mode not in ("RGB", "L"):
        img = img.convert("RGB")
    return EncodedImage(img.width, img.height, 3 if img.mode == "RGB" else 1, zlib.compress(img.tobytes(), level))


@dataclass
class Canvas:
    """The content stream of one page, built from top-left point coordinates."""
    width: float
    height: float
    ops: list[str] = field(default_factory=list)
    images: set[str] = field(default_factory=set)

    def _y(self, y: float) -> float:
        return self.height - y

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

    def line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.25,
             grey: float = 0.0, dash: tuple[float, ...] = ()) -> None:
        d = "[" + " ".join(num(v) for v in dash) + "] 0 d " if dash else ""
        self.ops.append(f"q {d}{num(width)} w {num(grey)} G {num(x0)} {num(self._y(y0))} m "
                        f"{num(x1)} {num(self._y(y1))} l S Q")

    def rect(self, x: float, y: float, w: float, h: float, width: float = 0.25, grey: float = 0.0) -> None:
        self.ops.append(f"q {num(width)} w {num(grey)} G {num(x)} {num(self._y(y + h))} {num(w)} {num(h)} re S Q")

    def circle(self, cx: float, cy: float, r: float, width: float = 0.25) -> None:
        k = 0.5523 * r                                     # Bezier control distance for a quarter circle
        y = self._y(cy)
        self.ops.append(
            f"q {num(width)} w 0 G {num(cx + r)} {num(y)} m "
            f"{num(cx + r)} {num(y + k)} {num(cx + k)} {num(y + r)} {num(cx)} {num(y + r)} c "
            f"{num(cx - k)} {num(y + r)} {num(cx - r)} {num(y + k)} {num(cx - r)} {num(y)} c "
            f"{num(cx - r)} {num(y - k)} {num(cx - k)} {num(y - r)} {num(cx)} {num(y - r)} c "
            f"{num(cx + k)} {num(y - r)} {num(cx + r)} {num(y - k)} {num(cx + r)} {num(y)} c S Q")

    def text(self, x: float, y: float, text: str, size: float = 8.0, align: str = "left") -> None:
        """Helvetica text with its baseline at ``y``; ``align`` centre/right use Helvetica's widths."""
        w = helvetica_width(text, size)
        dx = {"left": 0.0, "centre": -w / 2, "right": -w}[align]
        self.ops.append(f"BT /F1 {num(size)} Tf {num(x + dx)} {num(self._y(y))} Td {pdf_string(text)} Tj ET")

    def content(self) -> bytes:
        return ("\n".join(self.ops) + "\n").encode("latin-1")


# Helvetica advance widths (1/1000 em) for the characters our labels use; others count as 0.556 em.
_HELV = {" ": 278, "-": 333, ".": 278, ",": 278, "/": 278, ":": 278, "(": 333, ")": 333, "\"": 355,
         "0": 556, "1": 556, "2": 556, "3": 556, "4": 556, "5": 556, "6": 556, "7": 556, "8": 556, "9": 556,
         "I": 278, "M": 833, "W": 944, "i": 222, "l": 222, "j": 222, "f": 278, "t": 278, "r": 333,
         "m": 833, "w": 722}


def helvetica_width(text: str, size: float) -> float:
    return sum(_HELV.get(c, 556 if not c.isupper() else 667) for c in text) * size / 1000


class PdfDocument:
    """Pages and shared image XObjects, serialised deterministically by :meth:`tobytes`."""

    def __init__(self) -> None:
        self._images: dict[str, Image.Image | EncodedImage] = {}
        self._pages: list[Canvas] = []

    def add_image(self, name: str, img: Image.Image | EncodedImage) -> str:
        """Register ``img`` under resource ``name`` (once; later pages refer to it by name)."""
        if name not in self._images:
            self._images[name] = img
        return name

    def has_image(self, name: str) -> bool:
        return name in self._images

    def new_page(self, width: float, height: float) -> Canvas:
        page = Canvas(width, height)
        self._pages.append(page)
        return page

    @property
    def pages(self) -> list[Canvas]:
        return list(self._pages)

    def tobytes(self) -> bytes:
        objs: list[bytes] = []

        def add(body: bytes) -> int:
            objs.append(body)
            return len(objs)

        add(b"")                                         # 1: catalog, filled in at the end
        add(b"")                                         # 2: page tree
        font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        image_ids: dict[str, int] = {}
        for name in sorted(self._images):                # sorted: object numbers independent of call order
            item = self._images[name]
            enc = item if isinstance(item, EncodedImage) else encode_image(item)
            cs = "/DeviceRGB" if enc.colours == 3 else "/DeviceGray"
            head = (f"<< /Type /XObject /Subtype /Image /Width {enc.width} /Height {enc.height} "
                    f"/ColorSpace {cs} /BitsPerComponent 8 /Filter /FlateDecode "
                    f"/Length {len(enc.data)} >>\nstream\n").encode()
            image_ids[name] = add(head + enc.data + b"\nendstream")
        kids = []
        for page in self._pages:
            stream = zlib.compress(page.content(), 6)
            content = add(f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode() + stream
                          + b"\nendstream")
            xobjs = " ".join(f"/{n} {image_ids[n]} 0 R" for n in sorted(page.images))
            kids.append(add(
                f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {num(page.width)} {num(page.height)}] "
                f"/Resources << /Font << /F1 {font} 0 R >> /XObject << {xobjs} >> >> "
                f"/Contents {content} 0 R >>".encode()))
        objs[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
        objs[1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>").encode()

        out = io.BytesIO()
        out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(objs, start=1):
            offsets.append(out.tell())
            out.write(f"{i} 0 obj\n".encode() + body + b"\nendobj\n")
        xref = out.tell()
        out.write(f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode())
        for off in offsets:
            out.write(f"{off:010d} 00000 n \n".encode())
        out.write(f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
        return out.getvalue()
