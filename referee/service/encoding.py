"""JSON as the service writes it: UTF-8, compact, keys in their order (the rulings keep DESIGN §5's order).

orjson does it much faster than the standard library (docs/service.md); the standard library takes what orjson
refuses (a non-string key, an integer beyond 64 bits).
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
