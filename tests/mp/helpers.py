"""Small Musket & Pike situations as inline resolved scenarios, and a replay helper.

Grid: pointy, 10x10, rows shifted even.  Hour conventions: facing 12 = north (the digest's k = 5 on a
pointy grid), 2 = the digest's k = 0.  The Swedish wing ``sw`` and the Imperial wing ``im``.
"""
from __future__ import annotations

from typing import Any

from modulebuilder.definitions import load_resolved
from referee.engine.replay import replay
from referee.rulesets.musket_and_pike import RULESET

GRID = {"orientation": "pointy", "shifted": "even", "first_column": 1, "first_row": 1, "columns": 10, "rows": 10}

KINDS: dict[str, dict[str, Any]] = {
    "cav": {"kind": "cavalry", "cav_type": "H", "assault": 4, "cohesion": 5, "ma": 6},
    "li": {"kind": "infantry", "assault": 2, "cohesion": 4, "ma": 4, "dfe": 2, "flags": ["light"]},
    "hi": {"kind": "infantry", "assault": 4, "cohesion": 5, "ma": 4, "dfe": 1, "flags": ["heavy"]},
    "pike": {"kind": "infantry", "assault": 5, "cohesion": 6, "ma": 4, "dfe": 1, "flags": ["heavy", "pikes"]},
    "art": {"kind": "artillery", "fire": 3, "eff_range": 3, "max_range": 6, "cohesion": 4, "ma": 2},
}


def unit(uid: str, kind: str, hex_: str | None, facing: int | None = 12, *, side: str = "Swedish",
         **extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": uid, "name": uid, "side": side, "ag": "sw" if side == "Swedish" else "im",
                         **KINDS[kind]}
    if "flags" in extra:
        d["flags"] = sorted(set(d.get("flags", [])) | set(extra.pop("flags")))
    d.update(extra)
    if hex_ is not None:
        d["hex"] = hex_
        if facing is not None:
            d["facing"] = facing
    elif "box" not in d:
        d["box"] = "reinforcement"
    return d


def scenario(*units: dict[str, Any], terrain: dict[str, str] | None = None, hexsides: list | None = None,
             leaders: list | None = None, options: dict | None = None, turns: int = 3, **more: Any) -> Any:
    doc: dict[str, Any] = {
        "ruleset": "musket-and-pike",
        "map": {"grid": GRID, "terrain": {"default": "clear", "hexes": terrain or {}},
                "hexsides": hexsides or []},
        "activation_groups": [
            {"id": "sw", "name": "Swedish right wing", "side": "Swedish", "colour": "#1f4fa0", "io_rating": 4},
            {"id": "im", "name": "Imperial left wing", "side": "Imperial", "colour": "#8a1c1c", "io_rating": 4}],
        "units": list(units),
        "leaders": leaders or [],
        "sides": {"Swedish": {}, "Imperial": {}},
        "turns": turns,
        "options": {"default_order": "attack", **(options or {})},
    }
    doc.update(more)
    return load_resolved(doc)


def leader(lid: str, hex_: str, side: str = "Swedish") -> dict[str, Any]:
    return {"id": lid, "name": lid, "side": side, "orders_rating": 3, "delay_rating": None, "drm": 0,
            "command_range": 3, "ma": 8, "hex": hex_}


def run(scn: Any, *events: dict[str, Any]):
    """Replay events; returns (rulings as dicts, final state)."""
    r = replay(RULESET, scn, events)
    return [x.to_dict() for x in r.rulings], r.game.state


def last(scn: Any, *events: dict[str, Any]) -> dict[str, Any]:
    """The ruling of the last event, every earlier one asserted legal."""
    rulings, _ = run(scn, *events)
    for x in rulings[:-1]:
        assert x["verdict"] == "legal", x
    return rulings[-1]


def unit_view(state: Any, uid: str) -> dict[str, Any]:
    """One unit of the ruleset's full view."""
    return next(u for u in RULESET.view(state, None)["units"] if u["id"] == uid)


def draw(wing: str = "sw") -> dict[str, Any]:
    return {"type": "draw", "wing": wing}
