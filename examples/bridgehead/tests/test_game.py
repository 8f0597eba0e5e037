"""The sample game, the rule numbers every ruling cites, random legal play and the command line."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from conftest import HERE, RULESET
from referee.engine.replay import replay
from referee.play import play_game

# The numbered rules of the README's "The rules" section: "**2.0 Sequence of play.** 2.1 A game turn ..."
_RULES_TEXT = (HERE / "README.md").read_text("utf-8").split("## The rules", 1)[1].split("### Log events", 1)[0]
README_RULES = set(re.findall(r"(?<![\d.])(\d\.\d)(?![\d.])", _RULES_TEXT))


@pytest.fixture(scope="module")
def sample(bridgehead):
    from referee.logs.jsonlog import parse_log
    doc = json.loads((HERE / "sample-game.json").read_text("utf-8"))
    log = parse_log(doc, base_dir=HERE)
    return log, replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)


def test_the_sample_game_is_ruled_as_its_note_says(sample):
    log, out = sample
    rulings = [r.to_dict() for r in out.rulings]
    illegal = {r["index"]: (r["errors"][0]["rule"], r["errors"][0]["code"]) for r in rulings
               if r["verdict"] == "illegal"}
    assert illegal == {2: ("5.4", "prohibited"), 5: ("2.2", "not_your_turn"), 11: ("7.4", "overstacked"),
                       14: ("6.2", "unit_already_attacked")}
    assert rulings[9]["rolls"][0]["natural"] is None                       # the roll came later
    assert rulings[10]["rolls"][0]["result"] == "AR" and rulings[10]["results"][0]["column"] == "1:2"
    assert {"unit": "us-b-89", "effect": "eliminated", "rule": "7.1"} in rulings[15]["results"]
    view = RULESET.view(out.game.state, None)
    assert view["turn"] == 2 and view["player"] == "American"
    where = {u["id"]: u.get("hex", u.get("box")) for u in view["units"]}
    assert where["us-b-89"] == "eliminated" and where["us-52-aib"] == "0605" and where["de-ii-1040"] == "0806"


def test_every_ruling_cites_only_rules_written_in_the_readme(sample):
    _, out = sample
    assert {"2.2", "5.4", "6.4", "7.3"} <= README_RULES
    for r in out.rulings:
        assert r.rules, r
        assert set(r.rules) - {"roll"} <= README_RULES, r.rules


@pytest.mark.parametrize("seed", [0, 1])
def test_random_legal_play_reaches_the_end_of_turn_6(bridgehead, seed):
    played = play_game(RULESET, bridgehead, seed)
    state = played.game.state
    assert state.over and state.turn == 6 and state.winner in ("American", "German")
    assert all(r.legal for r in played.rulings)
    assert sum(e["type"] == "end_phase" for e in played.events) == 24


def test_referee_check_rules_the_sample_from_this_folder(bridgehead):
    out = subprocess.run([sys.executable, "-m", "referee.cli", "check", "sample-game.json", "--format", "json"],
                         cwd=HERE, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    body = json.loads(out.stdout)
    assert len(body["rulings"]) == 24 and body["state"]["ruleset"] == "classic-hex"
    strict = subprocess.run([sys.executable, "-m", "referee.cli", "check", "sample-game.json", "--strict"],
                            cwd=HERE, capture_output=True, text=True, timeout=300)
    assert strict.returncode == 3


def test_a_log_naming_a_unit_the_game_does_not_have_is_bad_input(bridgehead, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"scenario": str(HERE / "scenarios" / "bridgehead.yaml"), "events": [
        {"type": "move", "side": "American", "unit": "us-99", "path": ["0404"]},
        {"type": "attack", "side": "American", "attackers": ["us-1-27"], "target": "9999", "roll": 7}]}))
    out = subprocess.run([sys.executable, "-m", "referee.cli", "check", str(bad)], cwd=HERE,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 1
    assert "events[0].unit: no unit 'us-99' in the scenario" in out.stderr
    assert "events[1]" in out.stderr and "Traceback" not in out.stderr


def test_a_hosted_game_answers_what_if_at_an_earlier_position(bridgehead, tmp_path):
    """The service hosts a classic-hex game and answers a side's "what if" at any earlier position: this
    ruleset hides nothing (its ``conceal`` hook), so the answer is the rules' own; without the hook the service
    refused every what-if (409 no_conceal_hook)."""
    from modulebuilder.definitions import resolve
    from referee.service import create_app
    from referee.service.extension import ext

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}", "TESTING": True})
    try:
        client = app.test_client()
        game = client.post("/api/v1/games", json={"scenario": resolve(bridgehead), "dice": "players"}).json
        auth = {"Authorization": f"Bearer {game['tokens']['American']}"}
        moved = {"type": "move", "side": "American", "unit": "us-14-tk", "path": ["0405", "0505", "0605"]}
        resp = client.post(f"/api/v1/games/{game['id']}/events", json={"expected_index": 0, "events": [moved]},
                           headers=auth)
        assert resp.status_code == 200 and resp.json["rulings"][0]["verdict"] == "legal", resp.json
        # At step 0 the tank has not moved yet, so the same move is legal there; now it has moved, and is not.
        before = client.post(f"/api/v1/games/{game['id']}/whatif", json={"step": 0, "event": moved}, headers=auth)
        assert before.status_code == 200, before.json
        assert before.json["step"] == 0 and before.json["ruling"]["verdict"] == "legal"
        now = client.post(f"/api/v1/games/{game['id']}/whatif", json={"event": moved}, headers=auth)
        assert now.status_code == 200 and now.json["ruling"]["verdict"] == "illegal", now.json
        board = client.get(f"/api/v1/games/{game['id']}/board?step=0", headers=auth)
        assert board.status_code == 200, board.json
    finally:
        with app.app_context():
            ext().close()
