"""A turn file ruled from the save it starts from (``referee check --from SAVE.vsav TURN.vlog``): the units where
the save has them, and the sequence of play where the save's turn track stands.

The saves are the engine's own (its *Save Game*, ``modulebuilder/vassal/probe`` ``save=``), made as the opponent
makes them: ``dice-turn1.vlog`` (the French's first file of Schevardino) loaded and stepped to its end, then the
turn track moved on twice with the tracker's own *Next* (``from-save-t1-russian.vsav``: Turn 1, Russian Movement
and Combat) or left where the set-up put it (``from-save-t1-unmoved.vsav``: Turn 1, Command Activation).  The
Russian's file was recorded from each (``from-save-russian.vlog``, ``from-save-russian-unmoved.vlog``): Neverovsky a
moves, then ``!endphase russian`` (record.sh)."""
from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from modulebuilder.definitions import load_scenario
from modulebuilder.vassal import enginecheck
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.turns import track_shown, tracker_state
from referee.cli import main
from referee.logs.jsonlog import load_scenario as referee_scenario

from .recordings import ROOT, fixture

pytestmark = pytest.mark.slow     # loads the Schevardino scenario

MODULE = fixture("borodino-cup-facts.vmod")
SAVE, UNMOVED = fixture("from-save-t1-russian.vsav"), fixture("from-save-t1-unmoved.vsav")
TURN, TURN_UNMOVED = fixture("from-save-russian.vlog"), fixture("from-save-russian-unmoved.vlog")
FROM_SAVE = ("warning: ruled from from-save-t1-russian.vsav as it stands: Turn 1: Russian Movement and Combat on "
             "its turn track, each unit on its hex, with its facing and disorder; which French commands were "
             "activated this turn is not in a save (SCH-COMMAND): only Compans' Division (I Corps) is taken as "
             "active; the Russian Movement and Combat is ruled as if it had just begun\n")


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_engine_s_save_holds_its_turn_track_which_reads_as_the_scenario_s_turn_and_phase():
    schevardino = referee_scenario("schevardino")
    shown = [str(track_shown(tracker_state(read_game(s).setup_commands), schevardino, s.name)) for s in (SAVE, UNMOVED)]
    assert shown == ["Turn 1: Russian Movement and Combat", "Turn 1: Command Activation"]
    # the files recorded from them begin with the engine's own copy of that state
    assert tracker_state(read_game(TURN).setup_commands) == tracker_state(read_game(SAVE).setup_commands)


@pytest.mark.parametrize("module", [[], ["--module", str(MODULE)]])
def test_check_from_a_save_rules_the_file_from_the_turn_and_phase_its_track_shows(capsys, module):
    """Ruled from the set-up's turn and phase (Command Activation), Neverovsky a's move was illegal (3.0
    no_activation) and the Russian could not end a phase; from the save's track, both are legal."""
    code, out, err = check(capsys, "--from", str(SAVE), str(TURN), *module, "--format", "text")
    assert code == 0
    assert out.splitlines()[-4:] == [
        "[0] move Russian Neverovsky a → 3707: legal (7.11) — VASSAL step 1 of from-save-russian.vlog",
        "[1] end_phase Russian: legal (SCH-COMMAND) — VASSAL step 2 of from-save-russian.vlog",
        "",
        "2 events ruled, 0 illegal. Now: Turn 2 — Command Activation."]
    assert "== Turn 1 — Russian Movement and Combat ==" in out
    assert err == FROM_SAVE
    code, out, _ = check(capsys, "--from", str(SAVE), str(TURN), *module)
    assert code == 0
    assert [(r["type"], r["verdict"], r["rules"]) for r in json.loads(out)["rulings"]] == [
        ("move", "legal", ["7.11"]), ("end_phase", "legal", ["SCH-COMMAND"])]


def test_a_track_moved_between_the_save_and_the_file_s_start_is_refused_naming_both(capsys):
    code, out, err = check(capsys, "--from", str(UNMOVED), str(TURN), "--module", str(MODULE))
    assert (code, out) == (1, "")
    assert err == ("from-save-russian.vlog starts with the turn track at Turn 1: Russian Movement and Combat, but "
                   "from-save-t1-unmoved.vsav has it at Turn 1: Command Activation: give the save the file was begun "
                   "from\n")


def test_a_first_act_illegal_where_the_track_stands_is_reported_with_the_track_not_guessed_past(capsys):
    """The Russian forgot to move the track on: the save says Command Activation, the file's first act is a
    Russian move.  Ruled where the track stands, and a warning says the two disagree."""
    code, out, err = check(capsys, "--from", str(UNMOVED), str(TURN_UNMOVED), "--module", str(MODULE),
                           "--format", "text")
    assert code == 0
    assert ("[0] move Russian Neverovsky a → 3707: ILLEGAL (3.0) — VASSAL step 1 of from-save-russian-unmoved.vlog"
            in out)
    assert err.splitlines() == [
        "warning: ruled from from-save-t1-unmoved.vsav as it stands: Turn 1: Command Activation on its turn track, "
        "each unit on its hex, with its facing and disorder",
        "warning: the first act (VASSAL step 1 of from-save-russian-unmoved.vlog), move, is illegal at Turn 1: "
        "Command Activation, where the turn track of from-save-t1-unmoved.vsav stands: no side is moving now: units "
        "move and fight in their side's Movement and Combat step, after the Command Activation step (SCH-COMMAND); "
        "if the game stood elsewhere in its sequence of play, move the track there in VASSAL and save again"]


def test_the_page_reads_a_save_sent_with_the_turn_files_as_their_start(client: FlaskClient, capsys):
    """The page sends a .vsav among the turn files first: ruled as ``referee check --from`` rules them."""
    code, printed, _ = check(capsys, "--from", str(SAVE), str(TURN), "--module", str(MODULE))
    assert code == 0
    files = [(f.open("rb"), f.name) for f in (SAVE, TURN)]
    with MODULE.open("rb") as m:
        created = client.post("/api/v1/replays", data={"log": files, "module": (m, MODULE.name)},
                              content_type="multipart/form-data")
    for f, _ in files:
        f.close()
    assert created.status_code == 201, created.json
    assert created.json["board"]["place"] == {"turn": "Turn 1", "phase": "Russian Movement and Combat"}
    got = client.get(f"/api/v1/replays/{created.json['id']}")
    assert got.status_code == 200, got.json
    body = got.json
    assert body["rulings"] == json.loads(printed)["rulings"]
    assert body["lines"][0] == ["[0] move Russian Neverovsky a → 3707: legal (7.11) — VASSAL step 1 of "
                                "from-save-russian.vlog"]


# --------------------------------------------------------------------------------------------- the engine now

@pytest.mark.vassal
def test_the_engine_saves_its_turn_track_where_its_next_left_it_and_check_from_rules_there(engine, tmp_path,
                                                                                          capsys):
    """The real engine, now: dice-turn1.vlog stepped through, the track moved on twice with the tracker's own
    Next, the game saved with Save Game; the saved track is what the engine showed, and the Russian's file
    (recorded from that save, by the engine too) is ruled from it."""
    vmod = build([load_scenario(ROOT / "scenarios" / p) for p in ("borodino.yaml", "schevardino.yaml")],
                 tmp_path).path
    save = tmp_path / "turn1.vsav"
    view = enginecheck.probe(vmod, fixture("dice-turn1.vlog"), tmp_path, "dismiss", "replay", "next=2",
                             f"save={save}")
    assert view.run.ok, view.run.lines[-10:]
    assert view.value("turns").split(" ; ") == ["Turn 1: French Movement and Combat",
                                                "Turn 1: Russian Movement and Combat"]
    state = tracker_state(read_game(save).setup_commands)
    assert state == tracker_state(read_game(SAVE).setup_commands)            # the committed save is the same
    assert str(track_shown(state, referee_scenario("schevardino"), save.name)) == "Turn 1: Russian Movement and Combat"
    turn = tmp_path / "russian.vlog"
    run = enginecheck.vrecord(vmod, save, fixture("from-save-russian-script.json"), turn)
    assert run.ok, run.lines[-10:]
    code, out, err = check(capsys, "--from", str(save), str(turn), "--format", "text")
    assert code == 0
    assert "[0] move Russian Neverovsky a → 3707: legal (7.11) — VASSAL step 1 of russian.vlog" in out
    assert err == FROM_SAVE.replace("from-save-t1-russian.vsav", "turn1.vsav")


def test_a_hosted_turn_whose_track_is_not_where_the_game_is_is_ruled_where_the_game_is_with_a_warning(client):
    """The hosted game's own sequence of play rules an uploaded turn; the turn file's track (the same reading as
    a save's) is named when it disagrees: dice-turn2.vlog begins with the track still at Command Activation while
    the game is in the French Movement and Combat."""
    game = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players"}).json

    def send(name: str) -> dict:
        with fixture(name).open("rb") as f:
            resp = client.post(f"/api/v1/games/{game['id']}/vlog", data={"log": (f, name)},
                               content_type="multipart/form-data",
                               headers={"Authorization": f"Bearer {game['tokens']['French']}"})
        assert resp.status_code == 200, resp.json
        return resp.json

    assert send("dice-turn1.vlog")["warnings"] == []          # the track and the game at Command Activation
    assert send("dice-turn2.vlog")["warnings"] == [
        "dice-turn2.vlog begins with the turn track at Turn 1: Command Activation, but the game is at Turn 1: "
        "French Movement and Combat: ruled where the game is"]
