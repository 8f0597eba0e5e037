"""A small resolved scenario (DESIGN §4) for the service tests: an 8x8 map, one corps a side, two turns.

Loading the Borodino scenario takes seconds; this one loads in milliseconds, so every test can create games.
"""
from __future__ import annotations

from typing import Any

SMALL: dict[str, Any] = {
    "ruleset": "triumph-and-glory",
    "map": {
        "grid": {"orientation": "pointy", "shifted": "even", "first_column": 1, "first_row": 1,
                 "columns": 8, "rows": 8},
        "terrain": {"default": "clear", "hexes": {"0304": "village", "0506": "woods"}},
        "names": {"0304": "Borodino"},
    },
    "leaders": [
        {"id": "napoleon", "name": "Napoleon", "side": "French", "orders_rating": 3, "delay_rating": None,
         "drm": -2, "command_range": 3, "ma": 8, "hex": "0108"},
        {"id": "kutuzov", "name": "Kutuzov", "side": "Russian", "orders_rating": 2, "delay_rating": None,
         "drm": -1, "command_range": 3, "ma": 6, "hex": "0801"},
    ],
    "activation_groups": [
        {"id": "i-corps", "name": "I Corps", "side": "French", "colour": "#2b4c9b", "io_rating": 6, "markers": 2},
        {"id": "vi-corps", "name": "VI Corps", "side": "Russian", "colour": "#2e7d32", "io_rating": 5,
         "markers": 2},
    ],
    "units": [
        {"id": "dumon-a", "name": "Dumon a", "kind": "infantry", "side": "French", "ag": "i-corps",
         "assault": 4, "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0206", "facing": 12,
         "disordered": {"assault": 3, "cohesion": 4}},
        {"id": "dumon-b", "name": "Dumon b", "kind": "infantry", "side": "French", "ag": "i-corps",
         "assault": 4, "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0306", "facing": 12,
         "disordered": {"assault": 3, "cohesion": 4}},
        {"id": "psk-a", "name": "Psk a", "kind": "infantry", "side": "Russian", "ag": "vi-corps",
         "assault": 4, "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0603", "facing": 6,
         "disordered": {"assault": 3, "cohesion": 4}},
        {"id": "psk-b", "name": "Psk b", "kind": "infantry", "side": "Russian", "ag": "vi-corps",
         "assault": 4, "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0703", "facing": 6,
         "disordered": {"assault": 3, "cohesion": 4}},
    ],
    "sides": {"French": {"cinc": "napoleon"}, "Russian": {"cinc": "kutuzov"}},
    "turns": 2,
}
