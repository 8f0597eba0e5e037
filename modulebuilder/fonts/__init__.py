"""Font files bundled with modulebuilder.

The renderers load fonts from this folder by path, never from the system, so the same definitions give
the same pixels on every machine (see LICENSE.txt for the font's terms)."""
from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"
