"""POST /games/<id>/vassal: VASSAL's steps one at a time, as the referee link sends them (referee/service/live.py).

The steps here are those the real engine wrote into the committed recordings (tests/vassal_logs/fixtures), sent
one by one as the link sends them while the game is played: the hosted game must rule exactly what
``referee check`` rules on the finished .vlog."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modulebuilder.vassal import savecodec
from modulebuilder.vassal.savefile import read_game
from referee.engine.replay import replay
from referee.logs.vassal import read_vassal

FIXTURES = Path(__file__).resolve().parents[1] / "vassal_logs" / "fixtures"
BORODINO = FIXTURES / "borodino-facts.vmod"


def start_text(vlog: Path) -> str:
    """The starting position as the link sends it: the engine's restore command (a .vsav's text)."""
    game = read_game(vlog)
    heads = [n.text if isinstance(n, savecodec.Leaf) else None for n in game.nodes]
    return savecodec.join_top_level(game.nodes[:heads.index("end_save") + 1])


def host(client: FlaskClient, scenario: Any, dice: str = "players") -> tuple[str, dict[str, str]]:
    r = client.post("/api/v1/games", json={"scenario": scenario, "dice": dice})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    return body["id"], body["tokens"]


def send(client: FlaskClient, gid: str, token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/games/{gid}/vassal", json=body, headers={"Authorization": f"Bearer {token}"})


def play(client: FlaskClient, vlog: Path, gid: str, token: str, link: str = "a") -> list[list[str]]:
    """Every step of ``vlog`` sent on its own, as the link does; the chat lines of each answer."""
    lines = []
    for i, step in enumerate(read_game(vlog).steps):
        body: dict[str, Any] = {"link": link, "expected_index": i, "steps": [list(step.commands)]}
        if i == 0:
            body["start"] = start_text(vlog)
        r = send(client, gid, token, body)
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["next_index"] == i + 1
        lines.append(r.get_json()["lines"])
    return lines


def hosted(client: FlaskClient, gid: str, token: str) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/games/{gid}", headers={"Authorization": f"Bearer {token}"}).get_json()["log"]


def without_index(ruling: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ruling.items() if k != "index"}


@pytest.mark.parametrize("name", ["schevardino-game", "schevardino-command"])
def test_a_game_played_live_is_ruled_as_its_vlog_is_checked(client: FlaskClient, name: str) -> None:
    vlog = FIXTURES / f"{name}.vlog"
    gid, tokens = host(client, "schevardino")
    lines = play(client, vlog, gid, tokens["French"])
    log = read_vassal(vlog, BORODINO)
    checked = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)
    # The check rules a line it cannot read as an 'unreadable' event; live, it is a chat line and not stored.
    expected = [(e, r.to_dict()) for e, r in zip(log.events, checked.rulings) if e["type"] != "unreadable"]
    got = hosted(client, gid, tokens["French"])
    assert [(g["event"], without_index(g["ruling"])) for g in got] == \
        [(e, without_index(r)) for e, r in expected]
    unreadable = [r.errors[0].message for e, r in zip(log.events, checked.rulings) if e["type"] == "unreadable"]
    said = [ln for step in lines for ln in step if ln.startswith("✗ step")]
    assert said == [f"✗ {m}" for m in unreadable]


def test_the_schevardino_turn_s_lines_in_the_chat(client: FlaskClient) -> None:
    gid, tokens = host(client, "schevardino")
    lines = play(client, FIXTURES / "schevardino-game.vlog", gid, tokens["French"])
    assert lines[0] == ["[0] activate_command French: legal (SCH-COMMAND)",
                        "→ activated (command morand) [SCH-COMMAND]"]
    assert lines[1] == ["[1] move French Gratien → 4314: legal (7.11)"]          # a plain move: one line
    # The engine's Undo of that move: the hosted game takes the move back, then rules the move made instead.
    assert lines[2] == ["Undo: the referee takes back event [1]; its position is as before"]
    assert lines[3] == ["[1] move French Gratien → 4314 4214: legal (7.11)"]
    assert lines[4] == ["✗ step 5: cannot read '!comand friant': unknown command 'comand'"]
    assert lines[5][0] == "[2] fire French CM Art a → 4006: legal (8.1, 8.5, 8.2, 8.3)"
    assert lines[5][-1] == "… awaiting roll from French [8.1]"
    assert lines[6][0] == "[3] roll French: legal (8.1, 8.2, 8.3, 8.5)"
    assert "d10 5" in lines[6][1] and "→ 6: no effect" in lines[6][1]
    assert lines[7] == ["[4] end_phase French: legal (SCH-COMMAND)"]


def test_steps_sent_late_catch_up_in_order(client: FlaskClient) -> None:
    """A link that was cut off sends what it queued in one request: the same rulings as one by one."""
    vlog = FIXTURES / "schevardino-game.vlog"
    gid, tokens = host(client, "schevardino")
    steps = [list(s.commands) for s in read_game(vlog).steps]
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 0, "start": start_text(vlog),
                                             "steps": steps[:2]})
    assert r.get_json()["next_index"] == 2
    # Sent again from 0 (the answer was lost): refused with the count the referee has, nothing ruled twice.
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 0, "steps": steps[:2]})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "stale_index"
    assert r.get_json()["error"]["next_index"] == 2
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 2, "steps": steps[2:]})
    assert r.status_code == 200 and r.get_json()["next_index"] == len(steps)
    assert [g["ruling"]["verdict"] for g in hosted(client, gid, tokens["French"])] == ["legal"] * 5


def test_identity_comes_from_the_token(client: FlaskClient) -> None:
    vlog = FIXTURES / "schevardino-game.vlog"
    gid, tokens = host(client, "schevardino")
    step = list(read_game(vlog).steps[0].commands)
    r = send(client, gid, "not-a-token", {"link": "a", "expected_index": 0, "start": start_text(vlog),
                                          "steps": [step]})
    assert r.status_code == 401 and r.get_json()["error"]["code"] == "invalid_token"
    # The Russian's link sending the French command: the referee rules it as the Russian's act, and refuses it.
    r = send(client, gid, tokens["Russian"], {"link": "b", "expected_index": 0, "start": start_text(vlog),
                                              "steps": [step]})
    assert r.status_code == 200
    assert r.get_json()["lines"] == ["activate_command French: not ruled — events[0].side: this token plays "
                                     "Russian, not French"]
    assert hosted(client, gid, tokens["French"]) == []


@pytest.mark.parametrize("body, problem", [
    ([], "body: expected an object with link, expected_index and steps"),
    ({"expected_index": -1}, "expected_index: required, the number of steps the referee has from this side (>= 0)"),
    ({"expected_index": 0, "steps": "x"}, "steps: expected a list of at most 2000 steps"),
    ({"expected_index": 0, "steps": [[1]]}, "steps[0]: expected a list of VASSAL commands (strings)"),
    ({"expected_index": 0, "steps": [], "who": 1}, "who: unexpected field"),
    ({"expected_index": 0, "steps": [], "start": "nonsense"},
     "start: start does not contain a begin_save ... end_save game state."),
])
def test_bad_requests_get_one_sentence(client: FlaskClient, body: Any, problem: str) -> None:
    gid, tokens = host(client, "schevardino")
    r = send(client, gid, tokens["French"], body)
    assert r.status_code == 422, r.get_json()
    assert r.get_json()["error"]["problems"] == [problem]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                         lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                         max_leaves=12))
def test_any_body_gets_an_answer_never_a_500(client: FlaskClient, body: Any) -> None:
    gid, tokens = host(client, "schevardino")
    r = send(client, gid, tokens["French"], body)
    assert r.status_code in (200, 409, 415, 422), r.get_data(as_text=True)
    assert "error" in r.get_json() or "lines" in r.get_json()


def test_a_view_before_the_last_seed_does_not_fix_the_dice(client: FlaskClient) -> None:
    """The link looks at the game (GET) before it sends its side's seed.  That view used to cache the game's
    state made with the seeds known then, and every roll of the game came from that state: the rulings were not
    the ones the revealed seed gives (the export did not verify)."""
    from referee.engine import registry
    from referee.logs.jsonlog import load_scenario
    gid, tokens = host(client, "schevardino", dice="referee")
    auth = {k: {"Authorization": f"Bearer {v}"} for k, v in tokens.items()}
    assert client.post(f"/api/v1/games/{gid}/dice", json={"seed": "r"}, headers=auth["Russian"]).status_code == 200
    assert client.get(f"/api/v1/games/{gid}", headers=auth["French"]).status_code == 200
    assert client.post(f"/api/v1/games/{gid}/dice", json={"seed": "f"}, headers=auth["French"]).status_code == 200
    events = [{"type": "activate_command", "side": "French", "command": "morand"},
              {"type": "fire", "side": "French", "units": ["fr-cm-art-a"], "target": "4006"}]
    r = client.post(f"/api/v1/games/{gid}/events", json={"expected_index": 0, "events": events},
                    headers=auth["French"])
    assert r.status_code == 200, r.get_json()
    assert client.post(f"/api/v1/games/{gid}/end", headers=auth["French"]).status_code == 200
    export = client.get(f"/api/v1/games/{gid}/export").get_json()
    scenario = load_scenario("schevardino")
    again = replay(registry.get(scenario.ruleset), scenario, export["log"]["events"], "referee",
                   export["log"]["seed"])
    assert [r.to_dict() for r in again.rulings] == [e["ruling"] for e in export["events"]]
    assert export["events"][1]["ruling"]["rolls"][0]["natural"] is not None


def test_a_strict_dice_game_played_live_refuses_rolls_typed_in_the_chat(client: FlaskClient) -> None:
    r = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players", "strict_dice": True})
    gid, tokens = r.get_json()["id"], r.get_json()["tokens"]
    lines = play(client, FIXTURES / "dice-typed.vlog", gid, tokens["French"])
    assert lines[3] == ["✗ step 4: '!commit anthing 0' types its roll in the chat; this game takes rolls from "
                        "VASSAL's die button only (strict_dice)"]
    assert lines[4] == ["✗ step 5: '!shock 1 9' types its roll in the chat; this game takes rolls from VASSAL's "
                        "die button only (strict_dice)"]
    assert [g["event"]["type"] for g in hosted(client, gid, tokens["French"])] == ["activate_command", "move",
                                                                              "assaults"]


def test_an_undo_after_the_opponent_acted_keeps_what_was_ruled(client: FlaskClient) -> None:
    """The Undo of a move ruled before the other side stored an act: the referee keeps the move (the hosted game
    takes back only a side's own latest events) and rules nothing twice."""
    vlog = FIXTURES / "schevardino-game.vlog"
    gid, tokens = host(client, "schevardino")
    steps = [list(s.commands) for s in read_game(vlog).steps]
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 0, "start": start_text(vlog),
                                             "steps": steps[:2]})          # the command, the move to 4314
    assert r.status_code == 200
    r = client.post(f"/api/v1/games/{gid}/events", json={"expected_index": 2, "events": [
        {"type": "end_phase", "side": "Russian"}]}, headers={"Authorization": f"Bearer {tokens['Russian']}"})
    assert r.status_code == 200, r.get_json()
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 2, "steps": [steps[2]]})   # Undo
    assert r.get_json()["lines"] == ["Undo: another side has acted since: the referee keeps what was ruled",
                                     # VASSAL took the move back, the referee did not: the board differs, said
                                     "on the board: Gratien stands on 4415, the referee has it on 4314"]
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 3, "steps": [steps[3]]})   # to 4214
    assert r.status_code == 200
    got = hosted(client, gid, tokens["French"])
    assert [(g["side"], g.get("event", {}).get("type", g.get("type"))) for g in got] == [
        ("French", "activate_command"), ("French", "move"), ("Russian", "end_phase"), ("French", "move")]


def test_an_undo_of_the_opponent_s_act_keeps_it_and_says_whose_act_it_was(client: FlaskClient) -> None:
    """Online, VASSAL's Undo takes back the latest act logged, which may be the opponent's (received from the
    server): the Russian's Undo of the French move.  The referee keeps the French move and says so in the
    Russian's terms.  Before, the line said "another side has acted since", as if the act were the Russian's."""
    vlog = FIXTURES / "schevardino-game.vlog"
    gid, tokens = host(client, "schevardino")
    steps = [list(s.commands) for s in read_game(vlog).steps]
    r = send(client, gid, tokens["French"], {"link": "f", "expected_index": 0, "start": start_text(vlog),
                                             "steps": steps[:2]})          # the command, the move to 4314
    assert r.status_code == 200
    r = send(client, gid, tokens["Russian"], {"link": "r", "expected_index": 0, "steps": [steps[2]]})  # Undo
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["lines"] == [
        "Undo: VASSAL took back French's act on your board; the referee keeps what was ruled (only French can "
        "take back French's acts)",
        "on the board: Gratien stands on 4415, the referee has it on 4314"]
    got = hosted(client, gid, tokens["French"])
    assert [(g["side"], g["event"]["type"], g["event"].get("path")) for g in got] == [
        ("French", "activate_command", None), ("French", "move", ["4314"])]


def test_a_turn_after_the_opponent_acted_does_not_rule_the_move_twice(client: FlaskClient) -> None:
    """A turn folded into the move before it (6.12) changes an act already ruled; when the other side has acted
    since, the referee keeps the move as ruled.  Before, the move was ruled a second time (already moved)."""
    from referee.logs.jsonlog import load_scenario
    from modulebuilder.definitions import resolve
    vlog = FIXTURES / "undo.vlog"          # Erin's Tinyvka: ... step 9 Dumon a to 0303, step 10 turned
    gid, tokens = host(client, resolve(load_scenario(str(FIXTURES.parents[2] / "examples" / "tiny" /
                                                         "scenario.yaml"))))
    auth = {k: {"Authorization": f"Bearer {v}"} for k, v in tokens.items()}
    n = 0
    for side, event in [("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
                        ("Russian", {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]}),
                        ("French", {"type": "initiative"}), ("French", {"type": "roll", "roll": 9}),
                        ("Russian", {"type": "roll", "roll": 0}),
                        ("French", {"type": "first_marker", "side": "French", "marker": "i-corps"})]:
        r = client.post(f"/api/v1/games/{gid}/events", json={"expected_index": n, "events": [event]},
                        headers=auth[side])
        n = r.get_json()["next_index"]
    steps = {s.index: list(s.commands) for s in read_game(vlog).steps}
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 0, "start": start_text(vlog),
                                             "steps": [steps[1], steps[2], steps[9]]})
    assert r.get_json()["lines"] == [f"[{n}] move French Dumon a → 0303: legal (7.11)"]
    client.post(f"/api/v1/games/{gid}/events", json={"expected_index": n + 1, "events": [
        {"type": "end_phase", "side": "Russian"}]}, headers=auth["Russian"])
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 3, "steps": [steps[10]]})
    assert r.get_json()["lines"][0] == ("step 4 changes an act already ruled: another side has acted since: the "
                                        "referee keeps what was ruled")
    got = hosted(client, gid, tokens["French"])
    assert [g.get("event", {}).get("type", g.get("type")) for g in got[n:]] == ["move", "end_phase"]


def test_with_the_referee_s_dice_the_fire_is_rolled_at_once_and_vassal_s_die_is_not_used(
        client: FlaskClient) -> None:
    vlog = FIXTURES / "schevardino-game.vlog"
    gid, tokens = host(client, "schevardino", dice="referee")
    for side, token in tokens.items():
        assert client.post(f"/api/v1/games/{gid}/dice", json={"seed": f"{side}'s seed"},
                           headers={"Authorization": f"Bearer {token}"}).status_code == 200
    lines = play(client, vlog, gid, tokens["French"])
    fire, die = lines[5], lines[6]                  # '!fire cm-art-a > 4006', then the d10 button
    assert fire[0] == "[2] fire French CM Art a → 4006: legal (8.1, 8.2, 8.3, 8.5)"
    assert fire[1].startswith("Fire (8.x): CM Art a: d10 ") and "roll owed" not in fire[1]
    assert fire[-1].startswith("dice chain head ")
    assert die == ["VASSAL's die is not used in this game: the referee rolls every die the rules owe, with the act "
                   "that owes it (see its line above)"]
    got = hosted(client, gid, tokens["French"])
    assert [g["event"]["type"] for g in got] == ["activate_command", "move", "fire", "end_phase"]
    assert isinstance(got[2]["ruling"]["rolls"][0]["natural"], int)
