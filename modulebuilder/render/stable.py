"""Run-independent hashing: Python's ``hash()`` of a str changes between runs, which would make
"random" terrain art and resource names differ from build to build."""
from __future__ import annotations

import random


def stable_hash(text: str) -> int:
    """32-bit FNV-1a of the UTF-8 text."""
    h = 2166136261
    for ch in text.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


def rng_for(text: str) -> random.Random:
    """A random generator seeded by ``text``: the same hex always gets the same trees."""
    return random.Random(stable_hash(text))
