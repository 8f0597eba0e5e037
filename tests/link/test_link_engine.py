"""The referee link in the REAL VASSAL engine (vrecord.sh), against ``referee serve`` on 127.0.0.1.

Tinyvka with the referee's dice.  The French player plays in VASSAL with the link on; the Russian player's acts
come through the HTTP API (his own client).  Session 1: the link sends the French seed for the dice and the
French orders typed in the chat.  Session 2 (a new VASSAL run on the game in progress): a move and a turn, an
illegal move, a move taken back with VASSAL's Undo, the service stopped and started again while the player goes
on (it carries on from its database: the link sends only what it queued), an assault whose commitment (and shock) the referee rolls.  Every ruling must be in the chat of the .vlog the
engine wrote, the hosted game must hold exactly the acts that stand, and the .vlog read again must give the same
events and, with the game's revealed dice, the same rulings."""
from __future__ import annotations

import json
import re
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from modulebuilder.definitions import resolve
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.savefile import read_game
from referee.engine.replay import replay
from referee.logs.jsonlog import load_scenario
from referee.logs.vassal import read_vassal
from referee.logs.vassal_steps import REFEREE_LINE

from .read_again import events_read_again
from .referee_server import ROOT, RefereeServer

pytestmark = pytest.mark.usefixtures("engine")


def referee_lines(vlog: Path) -> list[str]:
    """The referee's chat lines in the .vlog, in order, without the prefix."""
    return [c[len(REFEREE_LINE):] for s in read_game(vlog).steps for c in s.commands if c.startswith(REFEREE_LINE)]


def script(path: Path, actions: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"player": "Alice", "comment": "the referee link, live", "actions": actions}))
    return path


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from modulebuilder.cli import main
    out = tmp_path_factory.mktemp("tiny")
    assert main(["build", str(ROOT / "examples" / "tiny" / "scenario.yaml"), "--out", str(out)]) == 0
    with zipfile.ZipFile(out / "tiny.vmod") as z:
        (out / "tiny.vsav").write_bytes(z.read("tiny.vsav"))
    return out / "tiny.vmod", out / "tiny.vsav"


class Game:
    def __init__(self, server: RefereeServer) -> None:
        self.server = server
        self.scenario = resolve(load_scenario(str(ROOT / "examples" / "tiny" / "scenario.yaml")))
        status, body = server.call("POST", "/api/v1/games", {"scenario": self.scenario, "dice": "referee"})
        assert status == 201, body
        self.id, self.tokens = body["id"], body["tokens"]

    def act(self, side: str, event: dict[str, Any]) -> dict[str, Any]:
        n = self.view()["next_index"]
        status, body = self.server.call("POST", f"/api/v1/games/{self.id}/events",
                                        {"expected_index": n, "events": [event]}, self.tokens[side])
        assert status == 200, body
        return body["rulings"][0]

    def view(self) -> dict[str, Any]:
        status, body = self.server.call("GET", f"/api/v1/games/{self.id}", token=self.tokens["French"])
        assert status == 200, body
        return body

    def log(self) -> list[dict[str, Any]]:
        return self.view()["log"]

    def env(self) -> dict[str, str]:
        return {"REFEREE_URL": self.server.url, "REFEREE_GAME": self.id, "REFEREE_TOKEN": self.tokens["French"]}


def test_a_turn_played_live_in_vassal(tmp_path: Path, module: tuple[Path, Path]) -> None:
    vmod, vsav = module
    server = RefereeServer(tmp_path / "games.sqlite").start()
    try:
        game = Game(server)
        assert server.call("POST", f"/api/v1/games/{game.id}/dice", {"seed": "the Russian's own seed"},
                           game.tokens["Russian"])[0] == 200

        # ---------------------------------------------------------------- session 1: the seed and the orders
        s1 = script(tmp_path / "s1.json", [{"chat": "!scenario tiny"}, {"chat": "!side French"},
                                           {"wait": 3000}, {"chat": "!orders dumon-a"}, {"wait": 3000}])
        run = enginecheck.vrecord(vmod, vsav, s1, tmp_path / "s1.vlog", env=game.env())
        assert run.ok, run.lines[-20:]
        said = referee_lines(tmp_path / "s1.vlog")
        assert said[0] == f"linked to game {game.id} at {server.url}"
        assert "your seed for the referee dice is sent (French): no one can steer the rolls" in said
        assert "[0] orders French UO: Dumon a: legal (5.21, 5.22)" in said
        assert not any(game.tokens["French"] in line for line in said)
        assert game.tokens["French"] not in read_game(tmp_path / "s1.vlog").text       # the log's whole text
        contributions = game.view()["dice"]["contributions"]
        assert {c["side"] for c in contributions} == {"French", "Russian"}

        # The Russian player, from his own client: his orders; then the referee rolls the initiative.
        game.act("Russian", {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]})
        initiative = game.act("French", {"type": "initiative"})
        if initiative["results"][0]["side"] == "French":
            game.act("French", {"type": "first_marker", "side": "French", "marker": "i-corps"})
        else:
            game.act("Russian", {"type": "first_marker", "side": "Russian", "marker": "vi-corps"})
            game.act("Russian", {"type": "end_activation", "side": "Russian"})
            game.act("French", {"type": "draw", "marker": "i-corps"})
        before = len(game.log())

        # ---------------------------------------------------------------- session 2: the French activation
        s2 = script(tmp_path / "s2.json", [
            {"chat": "!scenario tiny"}, {"chat": "!side French"}, {"wait": 2000},
            {"move": "Dumon a", "to": "0403"}, {"wait": 1500},
            {"key": "Dumon a", "keystroke": "93,130"}, {"wait": 1500},        # a turn: part of the move (6.12)
            {"move": "Lepic", "to": "0705"}, {"wait": 1500},                 # too far, through a ZOC
            {"move": "Dumon b", "to": "0304"}, {"wait": 1500},
            {"undo": True}, {"wait": 4000},                                  # the service is stopped here
            {"chat": "!assault dumon-a > 0404"}, {"wait": 12000},             # ... and started again here
            {"chat": "!commit dumon-a"}, {"wait": 3000},
            {"chat": "!shock 1"}, {"wait": 5000},
        ])
        outage: dict[str, float] = {}

        def stop_after_the_undo() -> None:
            # The Undo takes the Dumon b move back: the game is at `before + 2` events again.
            deadline = time.monotonic() + 120
            seen_three = False
            while time.monotonic() < deadline:
                n = len(game.log())
                seen_three |= n == before + 3
                if seen_three and n == before + 2:
                    server.stop()
                    outage["stopped"] = time.monotonic()
                    time.sleep(4)
                    server.start()
                    outage["started"] = time.monotonic()
                    return
                time.sleep(0.05)
        watcher = threading.Thread(target=stop_after_the_undo)
        watcher.start()
        run = enginecheck.vrecord(vmod, vsav, s2, tmp_path / "s2.vlog", env=game.env())
        watcher.join()
        assert run.ok, run.lines[-20:]
        assert "stopped" in outage and "started" in outage
        said = referee_lines(tmp_path / "s2.vlog")
        (tmp_path / "said.txt").write_text("\n".join(said))
        k = before
        assert f"[{k}] move French Dumon a → 0303 0403: legal (7.11, 6.33)" in said
        # The turn after the move is read into the move: the move is taken back and ruled again with it.
        assert any(re.fullmatch(rf"step \d+ changes an act already ruled: the referee takes back event \[{k}\] "
                                "to rule it again", line) for line in said)
        assert f"[{k}] move French Dumon a → 0303 0403: legal (7.11, 6.33, 6.12)" in said
        lepic = next(line for line in said if line.startswith(f"[{k + 1}] move French Lepic"))
        assert "ILLEGAL" in lepic
        assert said[said.index(lepic) + 1].startswith("✗ ")
        assert said[said.index(lepic) + 2].startswith("legal instead: ")
        # VASSAL leaves Lepic where the player dropped it: the link says the board and the referee differ.
        assert said[said.index(lepic) + 3] == "on the board: Lepic stands on 0705, the referee has it on 0105"
        before_outage = said[:said.index(next(x for x in said if x.startswith("the referee cannot be reached")))]
        assert sum(line.startswith("on the board: Lepic") for line in before_outage) == 1   # said once
        assert f"[{k + 2}] move French Dumon b → 0304: legal (7.11, 6.33)" in said
        assert f"Undo: the referee takes back event [{k + 2}]; its position is as before" in said
        # Down once, back once; the assault made while it was down is ruled when it is back, in order.
        down = [line for line in said if line.startswith("the referee cannot be reached")]
        back = [line for line in said if line.startswith("the link is back")]
        assert len(down) == 1 and len(back) == 1
        assault = f"[{k + 2}] assaults French [1] Dumon a → 0404: legal (9.44)"
        assert said.index(down[0]) < said.index(back[0]) < said.index(assault)
        # The restarted service read the game from its database and took the link's next step as it came: only the
        # steps made while it was down were sent, not every step of the session again (a resend from 0).
        caught_up = int(re.fullmatch(r"the link is back: (\d+) step\(s\) caught up", back[0])[1])
        made_before = next(s.index for s in read_game(tmp_path / "s2.vlog").steps
                           if any("the referee cannot be reached" in c for c in s.commands))
        assert caught_up <= 4 < made_before, (caught_up, made_before)
        commit = next(line for line in said if line.startswith(f"[{k + 3}] commitment French Dumon a: legal"))
        roll = said[said.index(commit) + 1]
        assert roll.startswith("Commitment (9.41): Dumon a needs 5 or less (cohesion of Dumon a, 9.43) on a d10 "
                               "(70 %): "), roll

        # The hosted game holds the acts that stand: not the Dumon b move taken back.
        log = game.log()[before:]
        assert [(e["event"]["type"], e["event"].get("unit")) for e in log][:4] == [
            ("move", "dumon-a"), ("move", "lepic"), ("assaults", None), ("commitment", "dumon-a")]
        assert log[0]["event"]["facing"] == 4 and log[0]["event"]["path"] == ["0303", "0403"]
        committed = log[3]["ruling"]["rolls"][0]
        assert isinstance(committed["natural"], int) and committed["pass_max"] is not None
        assert any(line.startswith("dice chain head ") for line in said)
        if committed["outcome"] == "pass":
            assert log[4]["event"]["type"] == "shock" and log[4]["ruling"]["verdict"] == "legal"
            names = {"dumon-a": "Dumon a", "psk-a": "Psk a"}
            for res in log[4]["ruling"]["results"]:
                if res.get("unit") in names and "disorder" in res["effect"]:
                    assert f"on the board: {names[res['unit']]} disordered [{res['rule']}]" in said

        # ------------------------------------------------------------ by e-mail: the opponent opens the log
        # The Russian player steps through the French .vlog in his VASSAL, his link on: the French acts arrive as
        # log steps and are not sent again (the French link sent them as they were made).
        count = len(game.log())
        russian = {**game.env(), "REFEREE_TOKEN": game.tokens["Russian"]}
        view = enginecheck.probe(vmod, tmp_path / "s2.vlog", tmp_path / "shots", "dismiss", "replay", "wait=3",
                                 "shot=replayed", env=russian)
        assert view.run.ok, view.run.lines[-20:]
        assert view.values("replayed") == [f"{len(read_game(tmp_path / 's2.vlog').steps)} steps"]
        time.sleep(1)
        assert len(game.log()) == count
        status, held = server.call("GET", f"/api/v1/games/{game.id}/vassal", token=game.tokens["Russian"])
        assert status == 200
        assert held["yours"] <= 1          # at most its own "linked" line: none of the 20 French steps
        assert (tmp_path / "shots" / "replayed.png").stat().st_size > 10_000

        # ------------------------------------------------------------ the same game, read again from its .vlogs
        # The events the .vlog reader finds in session 2's log, completed on the game's position before them,
        # are the hosted events; ruled with the dice the game reveals when it ends, they give the same rulings.
        scenario = load_scenario(str(ROOT / "examples" / "tiny" / "scenario.yaml"))
        assert server.call("POST", f"/api/v1/games/{game.id}/end", {}, game.tokens["French"])[0] == 200
        status, exported = server.call("GET", f"/api/v1/games/{game.id}/export")
        assert status == 200
        seed = exported["log"]["seed"]
        full = exported["events"]                   # both sides' events, now that the game has ended
        from referee.engine import registry
        ruleset = registry.get(scenario.ruleset)
        events = events_read_again(tmp_path / "s2.vlog", ruleset, scenario, [e["event"] for e in full[:before]],
                                   "referee", seed)
        assert events == [e["event"] for e in full]
        again = replay(ruleset, scenario, events, "referee", seed)
        assert [r.to_dict() for r in again.rulings] == [e["ruling"] for e in full]
        assert read_vassal(tmp_path / "s2.vlog", vmod).scenario.id == "tiny"
    finally:
        server.stop()


def test_a_wrong_token_is_one_line_and_nothing_is_sent(tmp_path: Path, module: tuple[Path, Path]) -> None:
    vmod, vsav = module
    server = RefereeServer(tmp_path / "games.sqlite").start()
    try:
        game = Game(server)
        s = script(tmp_path / "s.json", [{"chat": "!scenario tiny"}, {"chat": "!side French"}, {"wait": 2500},
                                         {"chat": "!orders dumon-a"}, {"wait": 2500}])
        wrong = {**game.env(), "REFEREE_TOKEN": "not-the-french-token"}
        run = enginecheck.vrecord(vmod, vsav, s, tmp_path / "s.vlog", env=wrong)
        assert run.ok, run.lines[-20:]
        assert referee_lines(tmp_path / "s.vlog") == [
            f"linked to game {game.id} at {server.url}",
            "the referee refuses this link (this token belongs to no side of this game): check the game id and "
            "your token in Preferences > Referee; acts are not sent"]
        assert "not-the-french-token" not in read_game(tmp_path / "s.vlog").text
        assert game.log() == []
        assert server.call("GET", f"/api/v1/games/{game.id}/vassal", token=game.tokens["French"])[1]["steps"] == 0
    finally:
        server.stop()
