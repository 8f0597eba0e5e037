"""Font files bundled with modulebuilder.

The renderers load fonts from this folder by path, never from the system, so the same definitions give
the same pixels on every machine (see LICENSE.txt for the font's terms)."""
from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"


class FontFileError(OSError):
    """A font file that cannot be read as a font; the message names the file (FreeType's and fontTools' own
    messages do not)."""

    def __init__(self, path: str, reason: str):
        super().__init__(22, f"not a font FreeType can read ({reason}); a counter template's fonts must be "
                             "TrueType or OpenType files (.ttf, .otf)", path)
        self.reason = reason

    def __reduce__(self) -> tuple[type, tuple[str, str]]:
        return (type(self), (str(self.filename), self.reason))      # it crosses from the render workers
