"""The referee link in a live VASSAL server session, in the REAL engine: VASSAL's own server on a local port,
two engine processes (the French player and the Russian player, each with the link on and its OWN token) in one
room, and ``referee serve`` on 127.0.0.1 hosting a Schevardino game with the referee's dice.

Each client sends only its own player's acts: the acts made in the other client reach it through the server
and are executed there (the piece moves on its board) but its link does not post them; each link's ruling lines
reach the other client through the server too.  Each link sends its side's seed for the dice from its own
client.  The hosted game must hold each act once, with its player's side, and ``referee check`` of either
player's .vlog must rule what the hosted game ruled."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from modulebuilder.vassal.savefile import read_game

from .live_session import VassalServer, play_both
from .referee_server import ROOT, RefereeServer

pytestmark = pytest.mark.usefixtures("engine")

ROOM = "Schevardino"


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    import zipfile

    from modulebuilder.cli import main
    out = tmp_path_factory.mktemp("schevardino")
    assert main(["build", str(ROOT / "scenarios" / "schevardino.yaml"), "--out", str(out)]) == 0
    with zipfile.ZipFile(out / "borodino.vmod") as z:
        (out / "schevardino.vsav").write_bytes(z.read("schevardino.vsav"))
    return out / "borodino.vmod", out / "schevardino.vsav"


def test_two_players_on_a_vassal_server(tmp_path: Path, module: tuple[Path, Path]) -> None:
    vmod, vsav = module
    referee = RefereeServer(tmp_path / "games.sqlite").start()
    vassal = VassalServer().start()
    try:
        status, body = referee.call("POST", "/api/v1/games", {"scenario": "schevardino", "dice": "referee"})
        assert status == 201, body
        gid, tokens = body["id"], body["tokens"]

        def env(side: str) -> dict[str, str]:
            return {"REFEREE_URL": referee.url, "REFEREE_GAME": gid, "REFEREE_TOKEN": tokens[side]}

        french, russian = play_both(vmod, vsav, tmp_path, {"port": vassal.port, "room": ROOM}, [
            {"chat": "!command morand"},
            {"await": "chat", "text": "* Referee: [0] activate_command French"},
            {"move": "Gratien", "to": "4314"},
            {"await": "chat", "text": "* Referee: [1] move French Gratien"},
            {"chat": "!endphase french"},
            {"await": "chat", "text": "* Referee: [2] end_phase French"},
            # the Russian act, made in the other client, and its ruling, written by the other link
            {"await": "piece", "piece": "Neverovsky a", "at": "3707"},
            {"await": "chat", "text": "* Referee: [3] move Russian Neverovsky a"},
        ], [
            {"await": "piece", "piece": "Gratien", "at": "4314"},
            {"await": "chat", "text": "* Referee: [1] move French Gratien"},
            {"await": "chat", "text": "* Referee: [2] end_phase French"},
            {"move": "Neverovsky a", "to": "3707"},
            {"await": "chat", "text": "* Referee: [3] move Russian Neverovsky a"},
            {"shot": "russian"},
        ], env)

        assert (tmp_path / "russian.png").stat().st_size > 10_000       # the Russian player's window

        # The French acts moved the piece on the Russian board, and the Russian act on the French board.
        assert next(p for p in russian.pieces() if p.name == "Gratien").location == "4314"
        assert next(p for p in french.pieces() if p.name == "Neverovsky a").location == "3707"

        # The hosted game: each act once, with its player's side (no act of the opponent sent again by the
        # link that received it, which the token's side would have refused or misattributed).
        status, view = referee.call("GET", f"/api/v1/games/{gid}", token=tokens["French"])
        assert status == 200
        assert [(e["event"], e["ruling"]["verdict"]) for e in view["log"]] == [
            ({"type": "activate_command", "side": "French", "command": "morand"}, "legal"),
            ({"type": "move", "side": "French", "unit": "fr-mr-gratien", "path": ["4314"]}, "legal"),
            ({"type": "end_phase", "side": "French"}, "legal"),
            ({"type": "move", "side": "Russian", "unit": "ru-27d-neverovsky-a", "path": ["3707"]}, "legal")]
        # The referee's dice: each side's seed came from its own client.
        assert sorted(c["side"] for c in view["dice"]["contributions"]) == ["French", "Russian"]

        # The steps each link sent: only its own player's.  French: the "linked" and seed lines, its three acts,
        # the ruling lines of each and "good game"; Russian: the "linked" and seed lines, "ready", its move, its
        # ruling lines and "good game" (a link sends its referee lines along with its player's next act: the
        # last chat line makes sure they are all sent); and each link's line saying that the dice wait for the
        # other side's seed, if it had to wait.  A step received from the server and sent again would be
        # counted here (and ruled for the wrong side, or read as a second move).
        other = {"French": "Russian", "Russian": "French"}
        waits = {side: f"the referee's dice wait for {other[side]}'s seed or commitment: your acts are kept and "
                       "sent once it is in" for side in other}
        waited = {side: int(waits[side] in player.referee()) for side, player in (("French", french),
                                                                                   ("Russian", russian))}
        held = {side: referee.call("GET", f"/api/v1/games/{gid}/vassal", token=tokens[side])[1]
                for side in ("French", "Russian")}
        steps = 15 + waited["French"] + waited["Russian"]
        assert held == {"French": {"steps": steps, "yours": 9 + waited["French"]},
                        "Russian": {"steps": steps, "yours": 6 + waited["Russian"]}}

        # The rulings are in both players' chats, in the same order: each link's lines reach the other client.
        rulings = ["[0] activate_command French: legal (SCH-COMMAND)",
                   "→ activated (command morand) [SCH-COMMAND]",
                   "[1] move French Gratien → 4314: legal (7.11)",
                   "[2] end_phase French: legal (SCH-COMMAND)",
                   "[3] move Russian Neverovsky a → 3707: legal (7.11)"]
        linked = f"linked to game {gid} at {referee.url}"
        seeds = {side: f"your seed for the referee dice is sent ({side}): no one can steer the rolls"
                 for side in ("French", "Russian")}
        status_lines = (linked, *seeds.values(), *waits.values())
        for player, side in ((french, "French"), (russian, "Russian")):
            # its own "linked" and seed lines (the other's status lines too, when they were said in the server's
            # main room, where both players meet before entering the game's room)
            assert linked in player.referee() and seeds[side] in player.referee(), player.name
            assert [line for line in player.referee() if line not in status_lines] == rulings, player.name
        for player in (french, russian):
            assert not any(tokens["French"] in line or tokens["Russian"] in line for line in player.chat)
            assert tokens["French"] not in read_game(player.vlog).text
            assert tokens["Russian"] not in read_game(player.vlog).text

        # Either player's .vlog, checked afterwards (`referee check`), is ruled as the hosted game was live.
        for player in (french, russian):
            check = subprocess.run(
                [sys.executable, "-m", "referee", "check", str(player.vlog), "--module", str(vmod)],
                capture_output=True, text=True, cwd=ROOT, timeout=300)
            assert check.returncode == 0, check.stderr
            checked = json.loads(check.stdout)["rulings"]
            assert [{k: v for k, v in r.items() if k != "vassal"} for r in checked] == \
                [e["ruling"] for e in view["log"]], player.name
    finally:
        vassal.stop()
        referee.stop()


def test_an_undo_after_the_other_player_s_act_takes_back_that_act_not_its_ruling(
        tmp_path: Path, module: tuple[Path, Path]) -> None:
    """VASSAL's Undo takes back the latest step logged with an undo: the French move, received with its ruling,
    not the ruling line (a referee line is never undone, in either client), which is what the referee reads the
    Undo as.  The referee keeps the French move (the Russian cannot take back a French act) and says where the
    board and the referee now differ, truly."""
    vmod, vsav = module
    referee = RefereeServer(tmp_path / "games.sqlite").start()
    vassal = VassalServer().start()
    try:
        status, body = referee.call("POST", "/api/v1/games", {"scenario": "schevardino", "dice": "players"})
        assert status == 201, body
        gid, tokens = body["id"], body["tokens"]

        def env(side: str) -> dict[str, str]:
            return {"REFEREE_URL": referee.url, "REFEREE_GAME": gid, "REFEREE_TOKEN": tokens[side]}

        french, russian = play_both(vmod, vsav, tmp_path, {"port": vassal.port, "room": ROOM}, [
            {"chat": "!command morand"},
            {"await": "chat", "text": "* Referee: [0] activate_command French"},
            {"move": "Gratien", "to": "4314"},
            {"await": "chat", "text": "* Referee: [1] move French Gratien"},
            {"await": "chat", "text": "* Referee: Undo: "},
        ], [
            {"await": "chat", "text": "* Referee: [1] move French Gratien"},
            {"undo": True},
            {"await": "chat", "text": "* Referee: Undo: "},
        ], env)

        # VASSAL took the French move back on both boards; the referee keeps it and says so, once, in both chats.
        assert "* UNDO: * Gratien moves 4415 -> 4314 *" in russian.chat
        for player in (french, russian):
            assert next(p for p in player.pieces() if p.name == "Gratien").location == "4415", player.name
            said = player.referee()
            undo = [line for line in said if line.startswith("Undo: ")]
            assert len(undo) == 1 and "the referee keeps what was ruled" in undo[0], said
            assert said[said.index(undo[0]) + 1] == "on the board: Gratien stands on 4415, the referee has it on 4314"
        status, view = referee.call("GET", f"/api/v1/games/{gid}", token=tokens["French"])
        assert [e["event"]["type"] for e in view["log"]] == ["activate_command", "move"]
    finally:
        vassal.stop()
        referee.stop()
