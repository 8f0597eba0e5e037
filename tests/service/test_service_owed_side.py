"""A hosted event needs no ``side``: the token says it.  The roll such an event owes still names the side that
pays it (``awaiting``), here for a Bridgehead attack sent without ``side``."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service_helpers import bearer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed() -> None:
    from bridgehead_dist import ensure_installed
    why = ensure_installed()
    if why:
        pytest.skip(why)
    from referee.engine import registry
    registry._entry_points.cache_clear()
    registry.get.cache_clear()


def small_bridgehead() -> dict[str, Any]:
    """An American unit next to a German one (a resolved classic-hex scenario with the game's tables)."""
    import yaml
    tables = yaml.safe_load((ROOT / "examples" / "bridgehead" / "tables" / "bridgehead.yaml").read_text("utf-8"))
    tables.pop("game", None)
    return {"ruleset": "classic-hex",
            "game": {"unit_types": [{"id": "infantry"}],
                     "factors": [{"id": "attack"}, {"id": "defence"}, {"id": "movement"}]},
            "map": {"grid": {"orientation": "flat", "shifted": "even", "first_column": 1, "first_row": 1,
                             "columns": 6, "rows": 6}, "terrain": {"default": "clear", "hexes": {}}},
            "activation_groups": [{"id": "us", "name": "US", "side": "American", "colour": "#2b4c9b"},
                                  {"id": "de", "name": "DE", "side": "German", "colour": "#9b2b2b"}],
            "units": [{"id": "a1", "name": "A1", "kind": "infantry", "side": "American", "ag": "us", "attack": 6,
                       "defence": 4, "movement": 4, "hex": "0203"},
                      {"id": "g1", "name": "G1", "kind": "infantry", "side": "German", "ag": "de", "attack": 2,
                       "defence": 2, "movement": 4, "hex": "0303"}],
            "sides": {"American": {}, "German": {}}, "turns": 2, "tables": tables,
            "victory": {"American": "hold", "hexes": ["0303"]}}


def test_a_hosted_attack_without_side_awaits_the_attackers_roll(installed, client: FlaskClient):
    created = client.post("/api/v1/games", json={"scenario": small_bridgehead(), "dice": "players"})
    assert created.status_code == 201, created.json
    game, tokens = created.json["id"], created.json["tokens"]
    us = bearer(tokens["American"])
    sent = client.post(f"/api/v1/games/{game}/events", headers=us, json={"expected_index": 0, "events": [
        {"type": "end_phase"}, {"type": "attack", "attackers": ["a1"], "target": "0303"}]})
    assert sent.status_code == 200, sent.json
    end, attack = sent.json["rulings"]
    assert end["verdict"] == "legal" and attack["verdict"] == "legal", sent.json
    assert attack["rolls"][0]["die"] == "d6" and attack["rolls"][0]["natural"] is None
    assert attack["awaiting"] == [{"type": "roll", "side": "American", "rule": "6.5"}]
    refused = client.post(f"/api/v1/games/{game}/events", headers=bearer(tokens["German"]),
                          json={"expected_index": 2, "events": [{"type": "roll", "roll": 4}]})
    assert refused.json["rulings"][0]["errors"][0]["code"] == "not_your_act", refused.json
    paid = client.post(f"/api/v1/games/{game}/events", headers=us,
                       json={"expected_index": 3, "events": [{"type": "roll", "roll": 4}]})
    assert paid.status_code == 200, paid.json
    assert paid.json["rulings"][0]["rolls"][0]["natural"] == 4
