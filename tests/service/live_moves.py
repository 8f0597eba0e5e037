"""A long game played live, for the tests and the bench of the live route (test_live_store.py,
bench/bench_live_route.py): Tinyvka in the French activation, and Dumon a dragged back and forth as VASSAL logs
it (the first drag is legal, every later one a full ruling of 7.31, already moved)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from modulebuilder.definitions import resolve
from referee.logs.jsonlog import load_scenario

ROOT = Path(__file__).resolve().parents[2]
UNDO = ROOT / "tests" / "vassal_logs" / "fixtures" / "undo.vlog"    # Erin's Tinyvka: the set-up, Dumon a on 0203
DUMON_A = "549853847477049"
HEXES = {"0203": (154, 276), "0303": (236, 276)}
SET_UP = [("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
          ("Russian", {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]}),
          ("French", {"type": "initiative"}), ("French", {"type": "roll", "roll": 9}),
          ("Russian", {"type": "roll", "roll": 0}),
          ("French", {"type": "first_marker", "side": "French", "marker": "i-corps"})]

Call = Callable[[str, str, Any, "str | None"], "tuple[int, Any]"]


def tiny_game(call: Call) -> tuple[str, dict[str, str], int]:
    """A players'-dice Tinyvka game in the French activation (the orders, the initiative and the first marker
    played through the API); ``call(method, path, body, token)`` -> (status, answer)."""
    scenario = resolve(load_scenario(str(ROOT / "examples" / "tiny" / "scenario.yaml")))
    status, body = call("POST", "/api/v1/games", {"scenario": scenario, "dice": "players"}, None)
    assert status == 201, body
    gid, tokens = body["id"], body["tokens"]
    n = 0
    for side, event in SET_UP:
        status, body = call("POST", f"/api/v1/games/{gid}/events", {"expected_index": n, "events": [event]},
                            tokens[side])
        assert status == 200, body
        n = body["next_index"]
    return gid, tokens, n


def drag(i: int) -> list[str]:
    """The i-th drag of Dumon a, between 0203 and 0303, as the link sends the step VASSAL logged."""
    src, dst = ("0203", "0303") if i % 2 == 0 else ("0303", "0203")
    (x0, y0), (x1, y1) = HEXES[src], HEXES[dst]
    return [f"M/{DUMON_A}/Main Map/{x1}/{y1}/null/Main Map/{x0}/{y0}/null/Erin",
            f"CHAT* Dumon a moves {src} -> {dst} *"]
