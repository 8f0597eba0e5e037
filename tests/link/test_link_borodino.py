"""A whole Borodino turn played by e-mail in the REAL VASSAL engine, both players linked to the referee.

The Borodino module as users build it (scenarios/borodino.yaml + scenarios/schevardino.yaml), its Schevardino
set-up, a game hosted by ``referee serve`` on 127.0.0.1 with the referee's dice.  The French player plays his
part of turn 1 with the link on and his token (one engine run): the command he activates, moves, a turn of a
unit in place, a move the referee rules illegal (taken back with VASSAL's Undo), a fire, an assault whose
commitment, shock and cohesion check the referee rolls, the end of his step.  The Russian player opens the
French .vlog and steps through it with his own link on (nothing of the French is sent again), then plays his
part from where the French ended (one engine run): moves, an illegal move, a turn, the end of his step, which
ends the turn.

Every act must have its ruling in the chat of the .vlog the engine wrote, as it was made; the hosted game must
hold exactly the acts that stand; ``referee check`` of the two .vlogs (the turn files of a game by e-mail, with
the game's revealed dice seed) must rule them as the hosted game did; ``referee verify`` must verify the
game's export, its dice included.

The dice are the referee's, which nobody can steer; a script plays the same acts whatever they show, so the
test picks the outcome the way only a test can: it reads the server's secret seed from its own database once
the French seed is in, and chooses the Russian seed (sent with the Russian token, as his client would) so that
the rolls take the branch the script plays -- the commitment passes, the shock disorders the attacker, whose
cohesion check holds, and nothing is owed from the Russian in the French step.  The French acts made before the
Russian seed is in are kept by the link and ruled once it is."""
from __future__ import annotations

import json
import re
import sys
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from modulebuilder.vassal import enginecheck
from referee.cli import main
from modulebuilder.vassal.savefile import read_game
from referee.engine import registry
from referee.engine.replay import new_game, step
from referee.logs.jsonlog import load_scenario
from referee.logs.vassal_steps import REFEREE_LINE
from referee.service.dice import game_seed
from referee.storage import open_storage

from .referee_server import ROOT, RefereeServer

sys.path.insert(0, str(ROOT / "tests" / "vassal_logs"))
from pbem_setup import setup_after  # noqa: E402

pytestmark = [pytest.mark.usefixtures("engine"), pytest.mark.vassal, pytest.mark.slow]

F, R = "French", "Russian"

# What the French acts are read into (the hosted game's events; paths as the reader finds them), used to pick
# the Russian seed; the test asserts the hosted game holds exactly these.
FRENCH_EVENTS: list[dict[str, Any]] = [
    {"type": "activate_command", "command": "morand", "side": F},
    {"type": "move", "side": F, "unit": "fr-mr-gratien", "path": ["4314", "4214"]},
    {"type": "face", "side": F, "unit": "fr-mr-dalton", "facing": 11},
    {"type": "fire", "units": ["fr-cm-art-a"], "target": "4006", "side": F},
    {"type": "move", "side": F, "unit": "fr-cm-anthing", "path": ["4211", "4110"]},
    {"type": "assaults", "assaults": [{"attackers": ["fr-cm-anthing"], "target": ["4010"], "charge": False}],
     "side": F},
    {"type": "commitment", "unit": "fr-cm-anthing", "side": F},
    {"type": "shock", "assault": 0, "side": F},
    {"type": "cohesion_check", "unit": "fr-cm-anthing", "side": F},
    {"type": "end_phase", "side": F},
]

FRENCH_ACTS: list[dict[str, Any]] = [
    {"chat": "!side french"}, {"wait": 1000},
    {"chat": "!command morand"}, {"wait": 1000},
    {"move": "Gratien", "to": "4214"},
    {"wait": 14000},                  # the Russian seed comes in here: the two acts above were kept till then
    {"key": "Dalton", "keystroke": "93,130"}, {"wait": 1500},         # a turn in place
    {"move": "Dufour a", "to": "4414"}, {"wait": 1500},                # Friant's division is not active
    {"undo": True}, {"wait": 1500},
    {"chat": "!fire cm-art-a > 4006"}, {"wait": 1500},
    {"move": "Anthing", "to": "4110"}, {"wait": 1500},
    {"chat": "!assault anthing > 4010"}, {"wait": 1500},
    {"chat": "!commit anthing"}, {"wait": 1500},
    {"chat": "!shock 1"}, {"wait": 1500},
    {"chat": "!cohesion anthing"}, {"wait": 1500},
    {"chat": "!endphase french"}, {"wait": 3000},
]

RUSSIAN_EVENTS: list[dict[str, Any]] = [
    {"type": "move", "side": R, "unit": "ru-27d-neverovsky-b", "path": ["3809", "3909"]},
    {"type": "face", "side": R, "unit": "ru-iv-cav-ha", "facing": 5},
    {"type": "end_phase", "side": R},
]

RUSSIAN_ACTS: list[dict[str, Any]] = [
    {"chat": "!side russian"}, {"wait": 2500},
    {"move": "Neverovsky b", "to": "3909"}, {"wait": 1500},
    {"move": "Lithuan Uhl", "to": "4713"}, {"wait": 1500},            # too far
    {"undo": True}, {"wait": 1500},
    {"key": "IV Cav HA", "keystroke": "93,130"}, {"wait": 1500},
    {"chat": "!endphase russian"}, {"wait": 3000},
]


def referee_lines(vlog: Path) -> list[str]:
    """The referee's chat lines in the .vlog, in order, without the prefix."""
    return [c[len(REFEREE_LINE):] for s in read_game(vlog).steps for c in s.commands if c.startswith(REFEREE_LINE)]


def script(path: Path, player: str, actions: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"player": player, "comment": "Schevardino by e-mail, the referee linked",
                                "actions": actions}))
    return path


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from modulebuilder.cli import main
    out = tmp_path_factory.mktemp("borodino")
    assert main(["build", str(ROOT / "scenarios" / "borodino.yaml"), str(ROOT / "scenarios" / "schevardino.yaml"),
                 "--out", str(out)]) == 0
    with zipfile.ZipFile(out / "borodino.vmod") as z:
        (out / "schevardino.vsav").write_bytes(z.read("schevardino.vsav"))
    return out / "borodino.vmod", out / "schevardino.vsav"


def planned(ruling: Any, event: dict[str, Any]) -> bool:
    """The branch the French script plays: every act legal, the fire without effect, the shock disordering the
    attacker only (whose cohesion check then holds)."""
    if not ruling.legal:
        return False
    results = [(r.get("unit"), r["effect"]) for r in ruling.to_dict().get("results", [])]
    if event["type"] == "fire":
        return results == []
    if event["type"] == "shock":
        return results == [("fr-cm-anthing", "disordered")]
    return True


def russian_seed(server_seed: str, french_seed: str) -> str:
    """A Russian seed whose rolls take the branch the French script plays (see the module's docstring)."""
    scenario = load_scenario(str(ROOT / "scenarios" / "schevardino.yaml"))
    ruleset = registry.get(scenario.ruleset)
    for k in range(5000):
        seed = f"the Russian player's seed {k}"
        g = new_game(ruleset, scenario, "referee", game_seed(server_seed, {F: french_seed, R: seed}))
        for i, event in enumerate(FRENCH_EVENTS):
            ruling, g, _ = step(g, i, event)
            if not planned(ruling, event):
                break
        else:
            return seed
    raise AssertionError("no Russian seed in 5000 gives the planned branch")


def step_of(vlog: Path, text: str, after: int = -1) -> int:
    """The index of the first step after ``after`` one of whose commands contains ``text``."""
    steps = read_game(vlog).steps
    return next(i for i, s in enumerate(steps) if i > after and any(text in c for c in s.commands))


class Game:
    def __init__(self, server: RefereeServer, database: Path) -> None:
        self.server = server
        self.database = database
        status, body = server.call("POST", "/api/v1/games", {"scenario": "schevardino", "dice": "referee"})
        assert status == 201, body
        self.id, self.tokens = body["id"], body["tokens"]

    def view(self, side: str = F) -> dict[str, Any]:
        status, body = self.server.call("GET", f"/api/v1/games/{self.id}", token=self.tokens[side])
        assert status == 200, body
        return body

    def env(self, side: str) -> dict[str, str]:
        return {"REFEREE_URL": self.server.url, "REFEREE_GAME": self.id, "REFEREE_TOKEN": self.tokens[side]}

    def send_russian_seed_when_french_is_in(self, log: dict[str, Any]) -> None:
        """The Russian's client: once the French link has sent its seed, a while later, the Russian seed."""
        try:
            self._send_russian_seed(log)
        except BaseException as e:          # said by the test, not lost in the thread
            log["error"] = repr(e)

    def _send_russian_seed(self, log: dict[str, Any]) -> None:
        deadline = time.monotonic() + 180
        while not any(c["side"] == F for c in self.view(R)["dice"]["contributions"]):
            assert time.monotonic() < deadline, "the French link sent no seed"
            time.sleep(0.1)
        seen = time.monotonic()
        storage = open_storage(f"sqlite:///{self.database}")
        french = next(c.value for c in storage.list_contributions(self.id) if c.side == F)
        seed = russian_seed(storage.dice_seed(self.id), french)
        time.sleep(max(0.0, seen + 6.0 - time.monotonic()))
        status, body = self.server.call("POST", f"/api/v1/games/{self.id}/dice", {"seed": seed}, self.tokens[R])
        log["status"], log["at"] = status, time.monotonic()


def test_a_borodino_turn_by_e_mail_ruled_in_the_chat(tmp_path: Path, module: tuple[Path, Path],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    vmod, vsav = module
    database = tmp_path / "games.sqlite"
    server = RefereeServer(database).start()
    try:
        game = Game(server, database)

        # ------------------------------------------------------------ the French player's part of turn 1
        seeded: dict[str, Any] = {}
        russian_client = threading.Thread(target=game.send_russian_seed_when_french_is_in, args=(seeded,))
        russian_client.start()
        french_vlog = tmp_path / "turn1-french.vlog"
        run = enginecheck.vrecord(vmod, vsav, script(tmp_path / "french.json", "Michel", FRENCH_ACTS), french_vlog,
                                  env=game.env(F))
        russian_client.join()
        assert run.ok, run.lines[-20:]
        assert seeded.get("status") == 200, seeded
        said = referee_lines(french_vlog)
        (tmp_path / "french-said.txt").write_text("\n".join(said))
        log = game.view()["log"]
        assert [e["event"] for e in log] == FRENCH_EVENTS
        ruled = {e["index"]: e["ruling"] for e in log}
        natural = {i: r["rolls"][0]["natural"] for i, r in ruled.items() if r.get("rolls")}
        assert sorted(natural) == [3, 6, 7, 8]                  # fire, commitment, shock, cohesion check

        assert said[0] == f"linked to game {game.id} at {server.url}"
        assert said[1] == "your seed for the referee dice is sent (French): no one can steer the rolls"
        assert said[2] == ("the referee's dice wait for Russian's seed or commitment: your acts are kept and sent "
                           "once it is in")
        assert not any(game.tokens[F] in line for line in said)
        # Every act and its ruling, in the chat, in order: one line for a plain legal act, the detail where it
        # is needed (the illegal move's reason and rule, each roll with its target, modifiers and chance, the
        # die the referee rolled and the chain head, what is awaited from whom).
        fire, commit, shock, cohesion = natural[3], natural[6], natural[7], natural[8]
        expected = [
            "[0] activate_command French: legal (SCH-COMMAND)",
            "→ activated (command morand) [SCH-COMMAND]",
            "[1] move French Gratien → 4314 4214: legal (7.11)",
            "[2] face French Dalton: legal (6.12)",
            "[3] move French Dufour a → 4514 4414: ILLEGAL (SCH-COMMAND)",
            "✗ SCH-COMMAND not_activated: Dufour a is not in one of French's active commands",
            "on the board: Dufour a stands on 4414, the referee has it on 4515",
            "Undo: the referee takes back event [3]; its position is as before",
            "[3] fire French CM Art a → 4006: legal (8.1, 8.2, 8.3, 8.5)",
            f"Fire (8.x): CM Art a: d10 {fire}, +3 fire strength of CM Art a (8.2), −2 range 3 (8.3) → {fire + 1}: "
            "no effect",
            None,
            "[4] move French Anthing → 4211 4110: legal (7.11, 6.33)",
            "[5] assaults French [1] Anthing → 4010: legal (9.44)",
            "… awaiting commitment from French for Anthing [9.41]",
            "[6] commitment French Anthing: legal (9.41, 9.42, 9.43)",
            f"Commitment (9.41): Anthing needs 5 or less (cohesion of Anthing, 9.43) on a d10 (40 %): {commit}, "
            f"+2 DFE of Gogel Jgr b (front) (9.42) → {commit + 2}: passes — the declared units of that hex must "
            "assault",
            "… awaiting shock of assault 1 from French for Anthing [9.5]",
            None,
            "[7] shock French assault 1: legal (9.5, 9.51, 9.6, 9.61)",
            f"Shock (9.5): French: d10 {shock} → {shock}: every attacker Disordered and checks for retreat",
            "→ Anthing: disordered [9.61]",
            "… awaiting cohesion_check from French for Anthing [9.62]",
            "on the board: Anthing disordered [9.61]",
            None,
            "[8] cohesion_check French Anthing: legal (9.62)",
            f"Cohesion check: Anthing needs 4 or less (cohesion of Anthing, 9.62) on a d10 (50 %): {cohesion} → "
            f"{cohesion}: passes — the unit holds",
            None,
            "[9] end_phase French: legal (SCH-COMMAND)",
        ]
        rest = said[3:]
        assert len(rest) == len(expected), rest
        heads = []
        for line, want in zip(rest, expected):
            if want is None:
                assert re.fullmatch(r"dice chain head [0-9a-f]{16}", line), line
                heads.append(line.rsplit(" ", 1)[1])
            else:
                assert line == want
        assert len(heads) == 4                # one after each roll: the head of the chain once it is stored

        # As they go: each act's ruling is in the chat before the player's next act (once the dice are fixed;
        # the two acts made before the Russian seed was in were kept and ruled together once it was).
        held = step_of(french_vlog, "your acts are kept")
        first_ruling = step_of(french_vlog, "[0] activate_command French")
        assert held < first_ruling
        assert step_of(french_vlog, "!command morand") < step_of(french_vlog, "Gratien moves") < first_ruling
        acts = ["Dalton", "Dufour a moves", "UNDO:", "!fire cm-art-a", "Anthing moves", "!assault anthing",
                "!commit anthing", "!shock 1", "!cohesion anthing", "!endphase french"]
        rulings = ["[2] face", "[3] move French Dufour", "Undo: the referee", "[3] fire", "[4] move", "[5] assaults",
                   "[6] commitment", "[7] shock", "[8] cohesion_check", "[9] end_phase"]
        at = first_ruling
        for n, (act, ruling) in enumerate(zip(acts, rulings)):
            made = step_of(french_vlog, act, at)
            answered = step_of(french_vlog, REFEREE_LINE + ruling, made)
            if n + 1 < len(acts):
                assert answered < step_of(french_vlog, acts[n + 1], made), (act, ruling)
            at = answered

        # ------------------------------------------------------------ the Russian player opens the French file
        # He steps through it in his VASSAL, his link on: the French acts arrive as log steps and are not sent
        # again (the French link sent them as they were made).
        count = len(game.view()["log"])
        view = enginecheck.probe(vmod, french_vlog, tmp_path / "shots", "dismiss", "replay", "chat=560",
                                 "view=0.6,2300,1150", "wait=3", "shot=replayed", env=game.env(R))
        assert view.run.ok, view.run.lines[-20:]
        assert view.values("replayed") == [f"{len(read_game(french_vlog).steps)} steps"]
        time.sleep(1)
        assert len(game.view()["log"]) == count
        status, held = server.call("GET", f"/api/v1/games/{game.id}/vassal", token=game.tokens[R])
        assert status == 200 and held["yours"] <= 1, held

        # ------------------------------------------------------------ the Russian player's part, where French ended
        russian_start = tmp_path / "turn1-russian-start.vsav"
        russian_start.write_bytes(setup_after(french_vlog))
        russian_vlog = tmp_path / "turn1-russian.vlog"
        run = enginecheck.vrecord(vmod, russian_start, script(tmp_path / "russian.json", "Pyotr", RUSSIAN_ACTS),
                                  russian_vlog, env=game.env(R))
        assert run.ok, run.lines[-20:]
        rsaid = referee_lines(russian_vlog)
        (tmp_path / "russian-said.txt").write_text("\n".join(rsaid))
        view = game.view(R)
        log = view["log"]
        assert [e["event"] for e in log[:len(FRENCH_EVENTS)]] == FRENCH_EVENTS       # the French acts, once
        assert [e["event"] for e in log[len(FRENCH_EVENTS):]] == RUSSIAN_EVENTS, [e["event"] for e in log]
        assert (view["state"]["turn"], view["state"]["phase"]) == (2, "command")        # the turn is over
        assert rsaid[0] == f"linked to game {game.id} at {server.url}"
        assert rsaid[1:5] == [
            "[10] move Russian Neverovsky b → 3809 3909: legal (7.11)",
            "[11] move Russian Lithuan Uhl → 3911 4011 4111 4212 4312 4413 4512 4613 4713: ILLEGAL (7.11, 7.22, "
            "7.34)",
            "✗ 7.34 not_enough_mp: Lithuan Uhl needs 13 MP but has 8",
            rsaid[4]]
        assert rsaid[4].startswith("legal instead: 3114, 3115, ")
        assert rsaid[5:] == [
            "on the board: Lithuan Uhl stands on 4713, the referee has it on 3812",
            "Undo: the referee takes back event [11]; its position is as before",
            "[11] face Russian IV Cav HA: legal (6.12)",
            "[12] end_phase Russian: legal (SCH-COMMAND)"]
        assert not any(game.tokens[R] in line for line in rsaid)

        # The hosted game's rulings are the ones in the chat, word for word.
        chat = said + rsaid
        for e in log:
            assert all(line.strip() in chat for line in e["lines"]), e["lines"]

        # ------------------------------------------------------------ checked afterwards, from the files alone
        assert server.call("POST", f"/api/v1/games/{game.id}/end", {}, game.tokens[F])[0] == 200
        status, exported = server.call("GET", f"/api/v1/games/{game.id}/export")
        assert status == 200
        assert [e["event"] for e in exported["events"]] == FRENCH_EVENTS + RUSSIAN_EVENTS
        for line in heads:
            assert any(e["chain"].startswith(line) for e in exported["events"])
        (tmp_path / "export.json").write_text(json.dumps(exported))
        assert main(["verify", str(tmp_path / "export.json")]) == 0
        verified = capsys.readouterr().out
        # The two turn files, in order, as a game by e-mail; the referee's rolls from the seed the game revealed.
        assert main(["check", str(french_vlog), str(russian_vlog), "--module", str(vmod),
                     "--dice-seed", exported["log"]["seed"]]) == 0
        checked = json.loads(capsys.readouterr().out)["rulings"]
        assert [{k: v for k, v in r.items() if k != "vassal"} for r in checked] == \
            [e["ruling"] for e in exported["events"]]
        assert [r["vassal"]["file"] for r in checked] == ["turn1-french.vlog"] * 10 + ["turn1-russian.vlog"] * 3
        assert "verified: 13 events and 4 rolls ruled again identically, the hash chain is whole" in verified
        assert "dice: the referee rolled them: the server's seed matches the commitment" in verified
    finally:
        server.stop()
