"""Dice read from the engine's own record, typed rolls marked, files of one game read with one context, and
rulings that line up with VASSAL (its step, its file, assaults numbered as typed).

The logs are engine recordings of a Schevardino assault (record.sh): ``dice-typed.vlog`` types the APC and the
shock rolls in the chat (``!commit anthing 0``, ``!shock 1 9``); ``dice-turn1.vlog`` rolls the APC with the
die button (the engine rolled 2) and ``dice-turn2.vlog``, begun where it ended, declares ``!shock 1`` with no
side typed and rolls it.  An edited copy changes one character of the die's chat report, as a player editing
the file would."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from modulebuilder.vassal import savecodec
from referee.cli import main
from referee.logs.pbem import read_parts
from referee.logs.vassal import read_vassal
from referee.service import create_app
from referee.service.extension import ext

from .recordings import fixture

pytestmark = pytest.mark.slow     # loads the Schevardino scenario

MODULE = fixture("borodino-cup-facts.vmod")
TYPED, TURN1, TURN2 = fixture("dice-typed.vlog"), fixture("dice-turn1.vlog"), fixture("dice-turn2.vlog")
RECORDED = "*** d10 = 2 ***"        # the APC's roll in dice-turn1.vlog, as the engine reported it


def edited(tmp_path: Path, old: str = RECORDED, new: str = "*** d10 = 7 ***") -> Path:
    """dice-turn1.vlog with one character of its die report changed; the die's own properties untouched."""
    with zipfile.ZipFile(TURN1) as z:
        entries = [(n, z.read(n)) for n in z.namelist()]
    out = []
    for name, data in entries:
        if name == "savedGame":
            text = savecodec.deobfuscate(data)
            assert text.count(old) == 1
            data = savecodec.obfuscate(text.replace(old, new), int(data[5:7], 16))
        out.append((name, data))
    path = tmp_path / "dice-turn1.vlog"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in out:
            z.writestr(name, data)
    return path


def check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_recordings_are_the_engine_s():
    assert savecodec.deobfuscate(zipfile.ZipFile(TURN1).read("savedGame")).count(RECORDED) == 1
    assert "d10_total\t0\t2\tModule" in savecodec.deobfuscate(zipfile.ZipFile(TURN1).read("savedGame"))


# --------------------------------------------------------------------------------------------- point: dice

def test_an_edited_die_report_is_ruled_on_the_die_s_record_and_both_values_named(tmp_path, capsys):
    vlog = edited(tmp_path)
    log = read_vassal(vlog, MODULE)
    assert log.events[4] == {"type": "roll", "roll": 2, "side": "French"}
    said = "step 5: the chat says d10 = 7, but the die recorded 2: ruled on 2, the die's own record"
    assert log.warnings == [said]
    code, out, err = check(capsys, str(vlog), "--module", str(MODULE))
    assert code == 0 and f"warning: {said}" in err
    roll = json.loads(out)["rulings"][4]
    assert roll["rolls"][0]["natural"] == 2 and roll["rolls"][0]["outcome"] == "pass"
    assert roll["vassal"] == {"file": "dice-turn1.vlog", "step": 5, "roll": {"by": "die", "recorded": 2, "chat": 7}}
    code, out, _ = check(capsys, str(vlog), "--module", str(MODULE), "--format", "text")
    assert "  ⚠ the chat says d10 = 7, but the die recorded 2: ruled on 2, the die's own record\n" in out


def test_an_unedited_die_roll_warns_nothing(capsys):
    log = read_vassal(TURN1, MODULE)
    assert log.warnings == [] and log.sources[4] == {"file": "dice-turn1.vlog", "step": 5,
                                                     "roll": {"by": "die", "recorded": 2}}


def test_an_edited_die_report_is_a_warning_of_the_hosted_vlog_answer(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}", "TESTING": True})
    client: FlaskClient = app.test_client()
    try:
        game = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players"}).json
        vlog = edited(tmp_path)
        resp = client.post(f"/api/v1/games/{game['id']}/vlog",
                           data={"log": (vlog.open("rb"), "dice-turn1.vlog"),
                                 "module": (MODULE.open("rb"), "borodino.vmod")},
                           content_type="multipart/form-data",
                           headers={"Authorization": f"Bearer {game['tokens']['French']}"})
        assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
        assert resp.json["warnings"] == [
            "step 5: the chat says d10 = 7, but the die recorded 2: ruled on 2, the die's own record"]
        assert resp.json["rulings"][4]["rolls"][0]["natural"] == 2
    finally:
        with app.app_context():
            ext().close()


def test_rolls_typed_in_the_chat_are_marked_typed(capsys):
    code, out, _ = check(capsys, str(TYPED), "--module", str(MODULE))
    rulings = json.loads(out)["rulings"]
    assert code == 0
    assert rulings[3]["vassal"] == {"file": "dice-typed.vlog", "step": 4,
                                    "roll": {"by": "typed", "line": "!commit anthing 0"}}
    assert rulings[4]["vassal"]["roll"] == {"by": "typed", "line": "!shock 1 9"}
    assert "roll" not in rulings[2]["vassal"]
    _, out, _ = check(capsys, str(TYPED), "--module", str(MODULE), "--format", "text")
    assert ("  roll typed in the chat ('!commit anthing 0'), not rolled with VASSAL's die button" in out
            and "  roll typed in the chat ('!shock 1 9'), not rolled with VASSAL's die button" in out)


def test_strict_dice_refuses_rolls_typed_in_the_chat(capsys):
    code, out, err = check(capsys, str(TYPED), "--module", str(MODULE), "--strict-dice")
    assert code == 1 and out == ""
    assert err.splitlines() == [
        "dice-typed.vlog, step 4: '!commit anthing 0' types its roll in the chat; with strict dice every roll must "
        "come from VASSAL's die button",
        "dice-typed.vlog, step 5: '!shock 1 9' types its roll in the chat; with strict dice every roll must come "
        "from VASSAL's die button"]
    code, _, _ = check(capsys, str(TURN1), "--module", str(MODULE), "--strict-dice")
    assert code == 0                                             # rolled with the die button: accepted


# --------------------------------------------------------------------------------------------- files of a game

def test_a_shock_declared_at_the_start_of_the_next_file_is_the_side_that_may_shock():
    log = read_parts([TURN1, TURN2], MODULE)
    assert log.events[5] == {"type": "shock", "assault": 0, "side": "French"}
    assert [s["file"] for s in log.sources] == ["dice-turn1.vlog"] * 5 + ["dice-turn2.vlog"] * 2
    assert [s["step"] for s in log.sources] == [1, 2, 3, 4, 5, 1, 2]


def test_every_ruling_of_a_series_of_files_names_its_vassal_step_and_file(capsys):
    code, out, _ = check(capsys, str(TURN1), str(TURN2), "--module", str(MODULE))
    rulings = json.loads(out)["rulings"]
    assert code == 0 and all(r["verdict"] == "legal" for r in rulings)
    assert [(r["vassal"]["file"], r["vassal"]["step"]) for r in rulings] == [
        ("dice-turn1.vlog", 1), ("dice-turn1.vlog", 2), ("dice-turn1.vlog", 3), ("dice-turn1.vlog", 4),
        ("dice-turn1.vlog", 5), ("dice-turn2.vlog", 1), ("dice-turn2.vlog", 2)]
    _, out, _ = check(capsys, str(TURN1), str(TURN2), "--module", str(MODULE), "--format", "text")
    assert "[5] shock French assault 1: legal (9.5) — VASSAL step 1 of dice-turn2.vlog\n" in out


# --------------------------------------------------------------------------------------------- numbers

def test_assaults_are_numbered_as_typed_and_the_owed_shock_names_its_assault(capsys):
    code, out, _ = check(capsys, str(TYPED), "--module", str(MODULE))
    rulings = json.loads(out)["rulings"]
    assert rulings[3]["awaiting"] == [{"type": "shock", "side": "French", "unit": "fr-cm-anthing", "assault": 0,
                                       "rule": "9.5"}]
    _, out, _ = check(capsys, str(TYPED), "--module", str(MODULE), "--format", "text")
    assert "[2] assaults French [1] Anthing → 4010: legal (9.44)" in out
    assert "  … awaiting shock of assault 1 from French for Anthing [9.5]\n" in out
    assert "[4] shock French assault 1: legal" in out and "assault 0" not in out


# --------------------------------------------------------------------------------------------- which scenario

@pytest.mark.parametrize("name, scenario", [("schevardino-game.vlog", "schevardino"),
                                            ("borodino-game.vlog", "borodino"), ("dice-typed.vlog", "schevardino")])
def test_a_log_without_module_or_scenario_line_is_matched_by_its_module_name_and_version(name, scenario):
    """The Borodino module holds both scenarios: its name and version find them, the starting position picks one."""
    assert read_vassal(fixture(name)).scenario.id == scenario


def test_a_log_of_an_unknown_module_is_refused_naming_the_scenarios_tried():
    from referee.logs.problems import InputError
    vlog = Path(__file__).resolve().parents[1] / "fixtures" / "vassal" / "recorded.vlog"
    with pytest.raises(InputError) as e:
        read_vassal(vlog)
    (problem,) = e.value.problems
    assert problem.startswith("recorded.vlog: this save is from Test map testmap 1.0, which is not a game the "
                              "referee has a scenario for: no bundled scenario is built into that module (tried ")
    assert "borodino (Borodino, 7 September 1812 1.0)" in problem and "tiny (Tinyvka, a test of arms 1.0)" in problem
    assert "schevardino (Borodino, 7 September 1812 1.0)" in problem


# --------------------------------------------------------------------------------------------- a game under way

TURN3 = fixture("dice-turn3.vlog")      # recorded from the position dice-turn1.vlog ended on: Anthing back to 4310


def save_after(tmp_path: Path, vlog: Path = TURN1, steps: int | None = None) -> Path:
    from .pbem_setup import setup_after
    path = tmp_path / "after.vsav"
    path.write_bytes(setup_after(vlog, steps))
    return path


@pytest.mark.parametrize("name, module, moved", [
    ("dice-turn2.vlog", None, "The Battle for the Schevardino Redoubt: 1 unit stands elsewhere (Anthing on 4110, "
                              "set up on 4310)"),
    ("pbem-turn2.vlog", "tiny.vmod", "Tinyvka: 1 unit stands elsewhere (Dumon a on 0303, set up on 0203)")])
def test_a_later_file_checked_alone_is_refused_saying_it_starts_mid_game_and_what_to_give(capsys, name, module,
                                                                                          moved):
    code, out, err = check(capsys, str(fixture(name)), *(["--module", str(fixture(module))] if module else []))
    assert code == 1 and out == ""
    assert err == (f"{name} does not start at the set-up of {moved}, so it is a later file of a longer game. Give "
                   f"the earlier files first, in order (referee check TURN1.vlog ... {name}), or the save it starts "
                   f"from (referee check --from SAVE.vsav {name})\n")


def test_check_from_a_save_rules_the_file_on_the_save_s_position(tmp_path, capsys):
    save = save_after(tmp_path)
    code, out, err = check(capsys, "--from", str(save), str(TURN3), "--module", str(MODULE), "--format", "text")
    assert code == 0
    assert "[1] move French Anthing → 4210 4310: legal (7.11, 6.34) — VASSAL step 2 of dice-turn3.vlog\n" in out
    # The save is the set-up's with dice-turn1.vlog's moves applied: its turn track is still where the set-up put
    # it, which is where the file's first act (a command activated) is legal.
    assert err == ("warning: ruled from after.vsav as it stands: Turn 1: Command Activation on its turn track, each "
                   "unit on its hex, with its facing and disorder\n")


def test_check_from_a_save_the_file_does_not_start_from_is_refused(tmp_path, capsys):
    save = save_after(tmp_path, steps=0)                 # the set-up: Anthing still on 4310
    code, out, err = check(capsys, "--from", str(save), str(TURN3), "--module", str(MODULE))
    assert code == 1 and out == ""
    assert err.startswith("dice-turn3.vlog does not start where after.vsav ended (step 0), nor from any earlier "
                          "position of it: it forks the game. Anthing is on 4310")
    code, _, err = check(capsys, "--from", str(TURN1), str(TURN3))
    assert code == 1 and err.startswith("--from ")


def test_a_hosted_game_with_strict_dice_refuses_a_turn_with_typed_rolls(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'referee.sqlite'}", "TESTING": True})
    client: FlaskClient = app.test_client()
    try:
        def send(game, vlog: Path) -> Any:
            return client.post(f"/api/v1/games/{game['id']}/vlog",
                               data={"log": (vlog.open("rb"), vlog.name),
                                     "module": (MODULE.open("rb"), "borodino.vmod")},
                               content_type="multipart/form-data",
                               headers={"Authorization": f"Bearer {game['tokens']['French']}"})
        strict = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players",
                                                    "strict_dice": True}).json
        assert strict["strict_dice"] is True
        resp = send(strict, TYPED)
        assert resp.status_code == 422 and resp.json["error"] == {
            "code": "typed_roll",
            "message": "this game takes rolls from VASSAL's die button only (strict_dice): dice-typed.vlog, step 4: "
                       "'!commit anthing 0' types its roll in the chat; with strict dice every roll must come from "
                       "VASSAL's die button (and 1 more)"}
        view = client.get(f"/api/v1/games/{strict['id']}",
                          headers={"Authorization": f"Bearer {strict['tokens']['French']}"})
        assert view.json["strict_dice"] is True and view.json["next_index"] == 0      # nothing stored
        assert send(strict, TURN1).status_code == 200                                 # the die button's rolls
        plain = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players"}).json
        assert "strict_dice" not in plain and send(plain, TYPED).status_code == 200
        bad = client.post("/api/v1/games", json={"scenario": "schevardino", "strict_dice": "yes"})
        assert bad.status_code == 422 and "strict_dice: true" in bad.json["error"]["message"]
    finally:
        with app.app_context():
            ext().close()
