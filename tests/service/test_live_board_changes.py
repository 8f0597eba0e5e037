"""The live route's board changes (referee/service/board_changes.py): what the referee link may do to the VASSAL
pieces so that the board shows the results ruled, in the module's own terms."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modulebuilder.definitions import resolve
from modulebuilder.vassal import ids
from modulebuilder.vassal.savefile import PieceInfo, read_game
from referee.logs.jsonlog import load_scenario
from referee.service import board_changes
from test_live_steps import FIXTURES, host, send, start_text

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "examples" / "tiny" / "scenario.yaml"
UNDO = FIXTURES / "undo.vlog"           # a Tinyvka recording: its start is the tiny set-up
# Up to the French activation, and Dumon a's move to 0403 facing Psk a (0404) and the VI Art (0503).
PRELUDE = [("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
           ("Russian", {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]}),
           ("French", {"type": "initiative"}), ("French", {"type": "roll", "roll": 9}),
           ("Russian", {"type": "roll", "roll": 0}),
           ("French", {"type": "first_marker", "side": "French", "marker": "i-corps"}),
           ("French", {"type": "move", "side": "French", "unit": "dumon-a", "path": ["0303", "0403"], "facing": 4})]


def chat(text: str) -> list[str]:
    return [f"CHAT&lt;Alice&gt; - {text}"]


def tiny_game(client: FlaskClient) -> tuple[str, dict[str, str]]:
    gid, tokens = host(client, resolve(load_scenario(str(TINY))))
    for n, (side, event) in enumerate(PRELUDE):
        r = client.post(f"/api/v1/games/{gid}/events", json={"expected_index": n, "events": [event]},
                        headers={"Authorization": f"Bearer {tokens[side]}"})
        assert r.status_code == 200 and r.get_json()["rulings"][0]["verdict"] == "legal", r.get_json()
    return gid, tokens


def shock(client: FlaskClient, apply: bool | None) -> tuple[list[dict[str, Any]], str, dict[str, str]]:
    """The French link sends the assault, the commitment (0: passes) and the shock (9): the answers."""
    gid, tokens = tiny_game(client)
    answers = []
    for i, line in enumerate(["!assault dumon-a > 0404 0503", "!commit dumon-a 0", "!shock 1 9"]):
        body: dict[str, Any] = {"link": "a", "expected_index": i, "steps": [chat(line)]}
        if i == 0:
            body["start"] = start_text(UNDO)
        if apply is not None:
            body["apply"] = apply
        r = send(client, gid, tokens["French"], body)
        assert r.status_code == 200, r.get_json()
        answers.append(r.get_json())
    return answers, gid, tokens


ELIMINATED = {"unit": "vi-art", "name": "VI Art", "piece": ids.piece_id("tiny", "vi-art"), "result": "eliminated",
              "rule": "9.25", "do": "box", "box": "Eliminated", "dead": True}
DISORDERED = {"unit": "psk-a", "name": "Psk a", "piece": ids.piece_id("tiny", "psk-a"), "result": "disordered",
              "rule": "9.61", "do": "layer", "layer": "Disorder", "active": True, "key": "70,130"}


@pytest.mark.parametrize("apply", [None, False, True])
def test_the_shock_s_answer_carries_its_board_changes(client: FlaskClient, apply: bool | None) -> None:
    answers, _, _ = shock(client, apply)
    assert [a["changes"] for a in answers] == [[], [], [ELIMINATED, DISORDERED]]
    lines = answers[2]["lines"]
    assert "on the board: VI Art eliminated [9.25]" in lines and "on the board: Psk a disordered [9.61]" in lines
    # Applied by the link: the board will agree, so no difference is said; else the VI Art still stands there.
    stands = "on the board: VI Art stands on 0503, the referee has it off the map (eliminated)"
    assert (stands in lines) is not bool(apply)
    # Psk a's side is said by its result line, never again as a difference.
    assert not any(line.startswith("on the board: Psk a on") for a in answers for line in a["lines"])


def test_a_later_answer_says_nothing_more_and_changes_nothing(client: FlaskClient) -> None:
    answers, gid, tokens = shock(client, False)
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 3, "steps": [chat("the guns are lost")]})
    assert r.get_json()["lines"] == [] and r.get_json()["changes"] == []


def test_the_dumon_a_board_difference_is_said_once(client: FlaskClient) -> None:
    """The prelude moved Dumon a through the API, the VASSAL board did not: said in the first answer only."""
    answers, _, _ = shock(client, True)
    said = [line for a in answers for line in a["lines"] if line.startswith("on the board: Dumon a")]
    assert said == ["on the board: Dumon a stands on 0203, the referee has it on 0403"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(apply=st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.lists(st.booleans(), max_size=2))
def test_apply_is_true_or_false_else_one_sentence(client: FlaskClient, apply: Any) -> None:
    gid, tokens = host(client, "schevardino")
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 0, "apply": apply,
                                             "start": start_text(FIXTURES / "schevardino-game.vlog"), "steps": []})
    if isinstance(apply, bool):
        assert r.status_code == 200 and r.get_json()["changes"] == []
    else:
        assert r.status_code == 422
        assert r.get_json()["error"]["problems"] == [
            "apply: true when the link applies the answer's board changes itself, else false"]


# --------------------------------------------------------------------------------------------- the pure part

def piece(uid: str, pid: str, *, back: str | None = "false", map_: str = "Main Map", layer: str = "Disorder") -> PieceInfo:
    props = {"UnitId": uid}
    if back is not None:
        props[f"{layer}_Active"] = back
    return PieceInfo(pid, "", "", uid, map_, 10, 10, "1", props)


class Scenario:
    class game:
        back_side = None

    class map:
        boxes: dict[str, str] = {}


def tg_back(u: Any) -> bool:
    return u.get("status") == "disordered"


def changes(results: list[dict[str, Any]], units: list[dict[str, Any]], pieces: list[PieceInfo],
            scenario: Any = Scenario) -> list[dict[str, Any]]:
    return board_changes.changes([{"results": results}], {p.id: p for p in pieces}, units, tg_back, scenario,
                                 ["Main Map"], lambda u: u.upper())


def test_rallied_turns_the_back_off_and_a_piece_that_agrees_is_left() -> None:
    got = changes([{"unit": "a", "effect": "rallied", "rule": "10.1"}, {"unit": "b", "effect": "rallied"}],
                  [{"id": "a", "hex": "0101", "status": "good"}, {"id": "b", "hex": "0102", "status": "good"}],
                  [piece("a", "1", back="true"), piece("b", "2", back="false")])
    assert got == [{"unit": "a", "name": "A", "piece": "1", "result": "rallied", "rule": "10.1", "do": "layer",
                    "layer": "Disorder", "active": False, "key": "70,130"}]


def test_routed_goes_to_its_box_destroyed_to_the_dead_pile_a_piece_in_a_box_stays() -> None:
    got = changes([{"unit": "a", "effect": "routed", "rule": "9.66", "to": "withdrawn"},
                   {"unit": "b", "effect": "destroyed", "rule": "9.63"},
                   {"unit": "c", "effect": "eliminated", "rule": "9.25"}],
                  [{"id": "a", "box": "withdrawn"}, {"id": "b", "box": "destroyed"}, {"id": "c", "box": "eliminated"}],
                  [piece("a", "1"), piece("b", "2"), piece("c", "3", map_="Holding")])
    assert [(c["unit"], c["do"], c["box"], c["dead"]) for c in got] == [("a", "box", "Withdrawn", False),
                                                                       ("b", "box", "Eliminated", True)]


def test_retreats_advances_and_leaders_change_nothing() -> None:
    got = changes([{"unit": "a", "effect": "retreated", "rule": "9.62", "to": "0203"},
                   {"unit": "b", "effect": "advanced", "rule": "9.71", "to": "0303"},
                   {"unit": "n", "effect": "eliminated", "rule": "x"}],
                  [{"id": "a", "hex": "0203", "status": "good"}, {"id": "b", "hex": "0303", "status": "good"},
                   {"id": "n", "hex": "0101"}],
                  [piece("a", "1", back="true"), piece("b", "2"), piece("n", "3", back=None)])
    assert got == []


def test_a_game_s_own_back_is_its_layer() -> None:
    class Reduced(Scenario):
        class game:
            back_side = "Reduced"
    got = changes([{"unit": "a", "effect": "reduced", "rule": "7.1"}], [{"id": "a", "hex": "0101", "status": "disordered"}],
                  [piece("a", "1", layer="Reduced")], Reduced)
    assert [(c["layer"], c["active"]) for c in got] == [("Reduced", True)]


def test_a_scenario_s_own_box_label() -> None:
    class Named(Scenario):
        class map:
            boxes = {"eliminated": "Dead pile"}
    assert board_changes.box_name(Named, "destroyed") == "Dead pile"
    assert board_changes.box_name(Scenario, "recovery") == "Recovery"


def test_applied_pieces_and_side_differences() -> None:
    pieces = {"1": piece("a", "1"), "2": piece("b", "2")}
    done = [{"piece": "1", "do": "layer", "layer": "Disorder", "active": True}, {"piece": "2", "do": "box"}]
    after = board_changes.applied(pieces, done)
    assert after["1"].get("Disorder_Active") == "true" and after["2"].map is None
    assert pieces["1"].get("Disorder_Active") == "false"              # the reading's table is left as it was
    units = [{"id": "a", "hex": "0101", "status": "disordered"}, {"id": "b", "hex": "0102", "status": "good"}]
    hexes = {"a": "0101", "b": "0102"}
    assert board_changes.status_differences(pieces, units, tg_back, Scenario, ["Main Map"], str.upper, hexes) == {
        "a side": "on the board: A on 0101 shows its front, the referee has it on its Disorder side"}
    assert board_changes.status_differences(after, units, tg_back, Scenario, ["Main Map"], str.upper, hexes) == {}
    flipped = {"2": replace(pieces["2"], properties={"UnitId": "b", "Disorder_Active": "true"})}
    assert board_changes.status_differences(flipped, units, tg_back, Scenario, ["Main Map"], str.upper, hexes) == {
        "b side": "on the board: B on 0102 shows its Disorder side, the referee has it on its front"}


def test_a_declaration_without_a_side_is_not_taken_back_and_ruled_again_at_the_next_step(client: FlaskClient) -> None:
    """'!shock 1 9' names no side: the hosted game gives it the sender's.  The event as read used to be recorded
    with that side, so the next step's reading (without it) looked changed: the shock was taken back and ruled
    again at every following step (here the link's applied step)."""
    answers, gid, tokens = shock(client, False)
    before = client.get(f"/api/v1/games/{gid}", headers={"Authorization": f"Bearer {tokens['French']}"}).get_json()
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 3, "steps": [chat("well done")]})
    assert r.get_json() == {"rulings": [], "lines": [], "status": "active", "changes": [], "next_index": 4}
    after = client.get(f"/api/v1/games/{gid}", headers={"Authorization": f"Bearer {tokens['French']}"}).get_json()
    assert after["log"] == before["log"]
