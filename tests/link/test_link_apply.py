"""The board follows the referee: the link applies the results the referee rules on the VASSAL board, in the REAL
engine (vrecord.sh) against ``referee serve`` on 127.0.0.1.

Tinyvka with the players' dice, the rolls typed in the declarations so that the outcome is certain: Dumon a
assaults Psk a (0404) and the VI Art (0503, artillery alone: eliminated without a roll, 9.25), commits with a 0
(it needs 5 or less) and shocks with a 9 (+ the odds: Psk a disordered, 9.5).  The French player plays in VASSAL
with the link on, the Russian through the HTTP API.  With REFEREE_APPLY=1 the link puts the VI Art in the
Eliminated box and turns Psk a to its Disorder side as one logged step of its own; the referee reads that step
as no act, the board and the referee then agree, and the .vlog read again gives the hosted game's rulings.
With applying off the board keeps its pieces and the link says how it differs."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from modulebuilder.definitions import resolve
from modulebuilder.vassal import enginecheck, ids
from modulebuilder.vassal.savefile import read_game
from referee.engine import registry
from referee.engine.replay import replay
from referee.logs.jsonlog import load_scenario
from referee.logs.vassal import read_vassal
from referee.logs.vassal_board import from_scenario
from referee.logs.vassal_events import read_events
from referee.logs.vassal_steps import REFEREE_LINE, facts

from .read_again import events_read_again
from .referee_server import ROOT, RefereeServer

pytestmark = pytest.mark.usefixtures("engine")

TINY = ROOT / "examples" / "tiny" / "scenario.yaml"
SHOCK = [{"chat": "!scenario tiny"}, {"chat": "!side French"}, {"wait": 2500},
         {"move": "Dumon a", "to": "0403"}, {"wait": 1500},
         {"key": "Dumon a", "keystroke": "93,130"}, {"wait": 1500},          # faces 4: part of the move (6.12)
         {"chat": "!assault dumon-a > 0404 0503"}, {"wait": 1500},
         {"chat": "!commit dumon-a 0"}, {"wait": 1500},
         {"chat": "!shock 1 9"}, {"wait": 5000}]
PROPS = ("Disorder_Active", "UnitId")


def referee_lines(vlog: Path) -> list[str]:
    return [c[len(REFEREE_LINE):] for s in read_game(vlog).steps for c in s.commands if c.startswith(REFEREE_LINE)]


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from modulebuilder.cli import main
    out = tmp_path_factory.mktemp("tiny")
    assert main(["build", str(TINY), "--out", str(out)]) == 0
    with zipfile.ZipFile(out / "tiny.vmod") as z:
        (out / "tiny.vsav").write_bytes(z.read("tiny.vsav"))
    return out / "tiny.vmod", out / "tiny.vsav"


class Game:
    """A hosted Tinyvka with the players' dice, played up to the French activation through the HTTP API."""

    PRELUDE = [("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
               ("Russian", {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]}),
               ("French", {"type": "initiative"}), ("French", {"type": "roll", "roll": 9}),
               ("Russian", {"type": "roll", "roll": 0}),
               ("French", {"type": "first_marker", "side": "French", "marker": "i-corps"})]

    def __init__(self, server: RefereeServer) -> None:
        self.server = server
        self.scenario = resolve(load_scenario(str(TINY)))
        status, body = server.call("POST", "/api/v1/games", {"scenario": self.scenario, "dice": "players"})
        assert status == 201, body
        self.id, self.tokens = body["id"], body["tokens"]
        for side, event in self.PRELUDE:
            n = len(self.log())
            status, body = server.call("POST", f"/api/v1/games/{self.id}/events",
                                       {"expected_index": n, "events": [event]}, self.tokens[side])
            assert status == 200 and body["rulings"][0]["verdict"] == "legal", body

    def log(self) -> list[dict[str, Any]]:
        status, body = self.server.call("GET", f"/api/v1/games/{self.id}", token=self.tokens["French"])
        assert status == 200, body
        return body["log"]

    def env(self, side: str = "French", **more: str) -> dict[str, str]:
        return {"REFEREE_URL": self.server.url, "REFEREE_GAME": self.id, "REFEREE_TOKEN": self.tokens[side], **more}


def play(tmp_path: Path, module: tuple[Path, Path], env: dict[str, str], name: str) -> tuple[Path, Any]:
    vmod, vsav = module
    script = tmp_path / f"{name}.json"
    script.write_text(json.dumps({"player": "Alice", "comment": "the board follows the referee",
                                  "actions": SHOCK}))
    run = enginecheck.vrecord(vmod, vsav, script, tmp_path / f"{name}.vlog", props=PROPS, env=env)
    assert run.ok, run.lines[-20:]
    return tmp_path / f"{name}.vlog", run


def pieces(run: Any, marker: str = "final:") -> dict[str, Any]:
    return {p.props.get("UnitId"): p for p in run.pieces_after(marker) if p.props.get("UnitId")}


def test_the_link_applies_the_shock_s_results_on_the_board(tmp_path: Path, module: tuple[Path, Path]) -> None:
    vmod, vsav = module
    server = RefereeServer(tmp_path / "games.sqlite").start()
    try:
        game = Game(server)
        before = len(game.log())
        start = pieces(enginecheck.vcheck(vmod, vsav, props=PROPS), "loaded")
        assert start["vi-art"].location == "0503" and start["psk-a"].props["Disorder_Active"] == "false"
        assert start["vi-art"].id == ids.piece_id("tiny", "vi-art")
        vlog, run = play(tmp_path, module, game.env(REFEREE_APPLY="1"), "applied")
        said = referee_lines(vlog)
        (tmp_path / "said.txt").write_text("\n".join(said))
        k = before
        shock = next(line for line in said if line.startswith(f"[{k + 3}] shock French"))
        assert "legal" in shock
        assert "on the board: VI Art eliminated [9.25]" in said
        assert any(line.startswith("on the board: Psk a disordered [") for line in said)
        assert "applied on the board: VI Art to Eliminated; Psk a to its Disorder side" in said
        assert said.index(shock) < said.index("applied on the board: VI Art to Eliminated; Psk a to its Disorder "
                                              "side")
        # The board and the referee agree: the link's comparison says nothing of them, before or after.
        assert not [line for line in said if line.startswith(("on the board: VI Art stands",
                                                               "on the board: Psk a on", "on the board: Psk a stands"))]
        assert not any("ILLEGAL" in line or "not ruled" in line or line.startswith("✗") for line in said), said

        # On the board the engine wrote (the recording's last position) and on the board the .vlog gives when
        # the engine replays it (the opponent's): the VI Art in the Eliminated box, Psk a Disordered.
        for board in (pieces(run), pieces(enginecheck.vcheck(vmod, vsav, vlog, props=PROPS))):
            assert (board["vi-art"].map, board["vi-art"].location) == ("Holding", "Eliminated")
            assert board["psk-a"].props["Disorder_Active"] == "true"
            assert board["psk-a"].location == "0404"
            assert board["dumon-a"].location == "0403"          # the advance owed is the player's to make
            assert board["psk-b"].props["Disorder_Active"] == "true"      # set up Disordered, untouched

        # The applied step is one logged step of the link's own, with the shock's lines: the key on Psk a's
        # Disorder layer (the engine's ChangePiece, reported by the piece) and the VI Art moved (MovePiece); no
        # state was written by hand.
        applied = [s for s in read_game(vlog).steps
                   if any(c.startswith(REFEREE_LINE + "applied on the board") for c in s.commands)]
        assert len(applied) == 1
        assert applied[0].commands[0] == REFEREE_LINE + shock
        kinds = [c[:2] for c in applied[0].commands[1:]]
        assert kinds.count("D/") == 1 and kinds.count("M/") == 1
        assert any(c.startswith("CHAT* 0404: Psk a") for c in applied[0].commands)

        # The hosted game holds the four acts and nothing of the applied step; the link sent every step.
        log = game.log()
        assert [e["event"]["type"] for e in log[before:]] == ["move", "assaults", "commitment", "shock"]
        results = [(r.get("unit"), r["effect"]) for r in log[-1]["ruling"]["results"]]
        assert ("vi-art", "eliminated") in results and ("psk-a", "disordered") in results
        status, held = server.call("GET", f"/api/v1/games/{game.id}/vassal", token=game.tokens["French"])
        assert status == 200 and held["yours"] == len(read_game(vlog).steps)

        # By e-mail: the Russian steps through the French .vlog with his link on and applying on: the applied
        # step arrives as a log step, is not applied again and nothing is sent for it.
        count = len(game.log())
        view = enginecheck.probe(vmod, vlog, tmp_path / "shots", "dismiss", "replay", "wait=3", "shot=replayed",
                                 env=game.env("Russian", REFEREE_APPLY="1"))
        assert view.run.ok, view.run.lines[-20:]
        assert len(game.log()) == count
        status, held = server.call("GET", f"/api/v1/games/{game.id}/vassal", token=game.tokens["Russian"])
        assert status == 200 and held["yours"] <= 1          # at most its own "linked" line

        # The .vlog read again (referee check's reader) gives the hosted events and, replayed, the same rulings.
        scenario = load_scenario(str(TINY))
        ruleset = registry.get(scenario.ruleset)
        reading = read_events(facts(read_game(vlog)), scenario, from_scenario(scenario))
        assert server.call("POST", f"/api/v1/games/{game.id}/end", {}, game.tokens["French"])[0] == 200
        status, exported = server.call("GET", f"/api/v1/games/{game.id}/export")
        assert status == 200
        log = exported["events"]                   # both sides' events, now that the game has ended
        events = events_read_again(vlog, ruleset, scenario, [e["event"] for e in log[:before]], "players", None)
        assert events == [e["event"] for e in log]
        again = replay(ruleset, scenario, events, "players", None)
        assert [r.to_dict() for r in again.rulings] == [e["ruling"] for e in log]
        checked = read_vassal(vlog, vmod)
        assert [e for e in checked.events if e["type"] in ("move", "assaults", "commitment", "shock")] == \
            [e["event"] for e in log[before:]]
        assert not checked.warnings
        # The applied step is bookkeeping to the reader: notes, no event.
        assert any("psk-a flipped to disordered" in note for note in reading.notes)
        assert any(note.startswith(f"step {applied[0].index}: vi-art put in") for note in reading.notes)
    finally:
        server.stop()


def test_with_applying_off_the_board_is_left_and_the_difference_is_said(tmp_path: Path,
                                                                       module: tuple[Path, Path]) -> None:
    vmod, vsav = module
    server = RefereeServer(tmp_path / "games.sqlite").start()
    try:
        game = Game(server)
        before = len(game.log())
        vlog, run = play(tmp_path, module, game.env(), "off")
        said = referee_lines(vlog)
        assert "on the board: VI Art eliminated [9.25]" in said
        assert "on the board: VI Art stands on 0503, the referee has it off the map (eliminated)" in said
        assert not any(line.startswith("applied on the board") for line in said)
        board = pieces(run)
        assert (board["vi-art"].map, board["vi-art"].location) == ("Main Map", "0503")
        assert board["psk-a"].props["Disorder_Active"] == "false"
        assert not any(c.startswith(REFEREE_LINE + "applied") for s in read_game(vlog).steps for c in s.commands)
        assert [e["event"]["type"] for e in game.log()[before:]] == ["move", "assaults", "commitment", "shock"]
    finally:
        server.stop()


def test_an_undo_takes_back_the_applied_step_and_the_link_says_how_the_board_differs(
        tmp_path: Path, module: tuple[Path, Path]) -> None:
    """The applied step is a logged step like any other: VASSAL's Undo right after it puts the pieces back (the
    referee's ruling stands: no act of the player's was undone, so none is taken back), and the comparison then
    says the board and the referee differ.  The .vlog still reads as the hosted game."""
    vmod, vsav = module
    server = RefereeServer(tmp_path / "games.sqlite").start()
    try:
        game = Game(server)
        before = len(game.log())
        script = tmp_path / "undo.json"
        script.write_text(json.dumps({"player": "Alice", "actions": SHOCK + [{"undo": True}, {"wait": 4000}]}))
        vlog = tmp_path / "undo.vlog"
        run = enginecheck.vrecord(vmod, vsav, script, vlog, props=PROPS, env=game.env(REFEREE_APPLY="1"))
        assert run.ok, run.lines[-20:]
        said = referee_lines(vlog)
        applied = said.index("applied on the board: VI Art to Eliminated; Psk a to its Disorder side")
        after = said[applied + 1:]
        assert set(after) == {"on the board: VI Art stands on 0503, the referee has it off the map (eliminated)",
                                  "on the board: Psk a on 0404 shows its front, the referee has it on its Disorder side"}
        board = pieces(run)
        assert (board["vi-art"].map, board["vi-art"].location) == ("Main Map", "0503")
        assert board["psk-a"].props["Disorder_Active"] == "false"
        assert [e["event"]["type"] for e in game.log()[before:]] == ["move", "assaults", "commitment", "shock"]
        reading = read_events(facts(read_game(vlog)), load_scenario(str(TINY)), from_scenario(load_scenario(str(TINY))))
        assert [r.event["type"] for r in reading.events] == ["move", "assaults", "commitment", "shock"]
    finally:
        server.stop()


def test_online_the_opponent_s_board_gets_the_applied_step_and_his_link_sends_none_of_it(
        tmp_path: Path, module: tuple[Path, Path]) -> None:
    """A live VASSAL server session (tests/link/live_session.py): the French link applies the shock's results,
    the Russian client receives that step through the server (his board shows it) and his link, applying too,
    neither applies it again nor sends it."""
    from .live_session import VassalServer, play_both
    vmod, vsav = module
    server = RefereeServer(tmp_path / "games.sqlite").start()
    vassal = VassalServer().start()
    try:
        game = Game(server)
        before = len(game.log())
        applied = "* Referee: applied on the board: VI Art to Eliminated; Psk a to its Disorder side"
        props = {"VCHECK_PROPS": ",".join(PROPS)}
        french, russian = play_both(
            vmod, vsav, tmp_path, {"port": vassal.port, "room": "Tinyvka"},
            [a for a in SHOCK if "wait" not in a and "scenario" not in a.get("chat", "")]
            + [{"await": "chat", "text": applied}],
            [{"await": "chat", "text": applied}, {"wait": 2000}],
            lambda side: game.env(side, REFEREE_APPLY="1", **props))
        for player in (french, russian):
            board = {p.props.get("UnitId"): p for p in player.pieces() if p.props.get("UnitId")}
            assert (board["vi-art"].map, board["vi-art"].location) == ("Holding", "Eliminated"), player.name
            assert board["psk-a"].props["Disorder_Active"] == "true", player.name
            assert player.referee().count(applied[len("* Referee: "):]) == 1, player.name
            # no step reached the referee between the ruling and its results on the board: nothing differs
            assert not [line for line in player.referee() if " stands on " in line or " shows its " in line]
        assert [e["event"]["type"] for e in game.log()[before:]] == ["move", "assaults", "commitment", "shock"]
        # The Russian link sent only its own steps ("linked", "ready", "good game" and at most the lines it said):
        # the applied step is not among them (it would be a step with a piece change, read by the referee).
        status, held = server.call("GET", f"/api/v1/games/{game.id}/vassal", token=game.tokens["Russian"])
        assert status == 200 and held["yours"] <= 3, held
    finally:
        vassal.stop()
        server.stop()
