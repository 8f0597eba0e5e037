"""JSON as the service writes it: UTF-8, compact, keys in their order (the rulings keep DESIGN §5's order).

orjson does it several times faster than the standard library (a whole game's rulings: 0.01 s instead of
0.065 s); the standard library takes what orjson refuses (a non-string key, an integer beyond 64 bits).
"""
from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
