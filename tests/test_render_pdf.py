"""The PDF writer: a well-formed file (xref offsets point at their objects), shared images, exact
placement numbers, and bytes that depend only on the input."""
from __future__ import annotations

import re

from PIL import Image

from modulebuilder.render.pdf import PdfDocument, num, pdf_string


def _doc() -> bytes:
    doc = PdfDocument()
    doc.add_image("Red", Image.new("RGB", (4, 3), (255, 0, 0)))
    doc.add_image("Grey", Image.new("L", (2, 2), 128))
    for _ in range(2):
        c = doc.new_page(612, 792)
        c.image("Red", 10, 20, 40, 30)
        c.line(0, 0, 10, 10)
        c.text(5, 5, "Sheet (1) \\ a")
    return doc.tobytes()


def test_xref_offsets_point_at_objects() -> None:
    data = _doc()
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))
    assert data[start:start + 4] == b"xref"
    count = int(re.search(rb"xref\n0 (\d+)", data).group(1))
    offsets = [int(m) for m in re.findall(rb"(\d{10}) 00000 n", data)]
    assert len(offsets) == count - 1
    for i, off in enumerate(offsets, start=1):
        assert data[off:].startswith(f"{i} 0 obj".encode())


def test_images_are_embedded_once_and_placed_exactly() -> None:
    data = _doc()
    assert data.count(b"/Subtype /Image") == 2
    assert b"/Width 4 /Height 3" in data and b"/DeviceGray" in data
    # 40 x 30 pt box at top-left (10, 20) on a 792 pt page -> PDF origin y = 792 - 20 - 30.
    import zlib
    pages = re.findall(rb"/Contents (\d+) 0 R", data)
    obj = re.search(rb"\n" + pages[0] + rb" 0 obj\n.*?stream\n(.*?)\nendstream", data, re.S)
    content = zlib.decompress(obj.group(1)).decode()
    assert "q 40 0 0 30 10 742 cm /Red Do Q" in content


def test_output_is_deterministic_and_has_no_timestamp() -> None:
    assert _doc() == _doc()
    # The document id PDF/X asks for is a digest of the content, never a random number or a clock.
    assert b"CreationDate" not in _doc() and b"ModDate" not in _doc()
    assert re.search(rb"/ID \[<([0-9a-f]{32})> <\1>\]", _doc())


def test_number_and_string_formatting() -> None:
    assert num(1.0) == "1" and num(0.12345) == "0.1235" and num(-0.00001) == "0" and num(595.2756) == "595.2756"
    assert pdf_string("a(b)\\") == "(a\\(b\\)\\\\)"
