"""``referee check GAME.vlog [--module M.vmod]`` through the CLI's own dispatch (referee/cli.py)."""
from __future__ import annotations

import json

from referee.cli import main

from .recordings import fixture


def test_check_a_recorded_vlog(capsys):
    code = main(["check", str(fixture("tiny.vlog")), "--module", str(fixture("tiny.vmod"))])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [r["verdict"] for r in out["rulings"]].count("illegal") == 1
    assert out["rulings"][8]["type"] == "move" and out["rulings"][8]["verdict"] == "legal"


def test_strict_and_text_report(capsys):
    assert main(["check", str(fixture("tiny.vlog")), "--strict"]) == 3
    capsys.readouterr()
    assert main(["check", str(fixture("tiny.vlog")), "--format", "text"]) == 0
    assert "tiny.vlog" in capsys.readouterr().out


def test_unreadable_declarations_are_rulings_and_the_rest_is_ruled(capsys):
    # Once, one typo refused the whole log (exit 1, zero rulings).
    assert main(["check", str(fixture("typo.vlog"))]) == 0
    rulings = json.loads(capsys.readouterr().out)["rulings"]
    assert [r["type"] for r in rulings] == ["orders", "unreadable", "unreadable", "end_activation", "roll"]
    unread = [(r["index"], r["errors"][0]["message"]) for r in rulings if r["type"] == "unreadable"]
    assert unread == [(1, "step 3: cannot read '!asault dumon-a dumon-b > 0303': unknown command 'asault'"),
                      (2, "step 4: cannot read '!draw nosuch': no activation marker 'nosuch'")]
    assert all(r["verdict"] == "illegal" and r["errors"][0]["code"] == "unreadable"
               for r in rulings if r["type"] == "unreadable")
    assert main(["check", str(fixture("typo.vlog")), "--format", "text"]) == 0
    assert "unknown command 'asault'" in capsys.readouterr().out


def test_a_corrupt_file_exits_1_with_a_sentence(capsys, tmp_path):
    bad = tmp_path / "bad.vlog"
    bad.write_bytes(fixture("tiny.vlog").read_bytes()[:100])
    assert main(["check", str(bad)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("bad.vlog is not a readable zip archive")


def test_a_vlog_played_with_the_referee_s_dice_is_ruled_with_the_game_s_seed(capsys, tmp_path):
    # A game hosted with the referee's dice leaves no rolls in the players' .vlog files (the referee rolled them):
    # without its seed, `referee check` left the commitment's roll owed.  With the seed the game reveals, the
    # referee's rolls are derived again: the same rolls as the hosted game (tests/link/test_link_borodino.py).
    log = fixture("dice-turn1.vlog")
    vmod = fixture("borodino-cup-facts.vmod")
    assert main(["check", str(log), "--module", str(vmod)]) == 0
    plain = json.loads(capsys.readouterr().out)["rulings"]
    assert plain[3]["rolls"][0]["natural"] is None                   # owed: the d10 button paid it later
    assert main(["check", str(log), "--module", str(vmod), "--dice-seed", "abc"]) == 0
    out = json.loads(capsys.readouterr().out)
    from referee.engine.dice import natural
    assert out["rulings"][3]["rolls"][0]["natural"] == natural("abc", 0, out["rulings"][3]["rolls"][0]["purpose"])
    assert out["state"]["dice"] == {"mode": "referee", "rolls_used": 1, "seed": "abc",
                                    "commitment": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}
    # the die pressed after it is a roll nobody owes any more
    assert out["rulings"][4]["type"] == "roll" and out["rulings"][4]["errors"][0]["code"] == "no_roll_owed"


def test_the_dice_seed_is_for_vassal_files_only(capsys, tmp_path):
    log = tmp_path / "game.json"
    log.write_text(json.dumps({"scenario": "schevardino", "events": []}))
    assert main(["check", str(log), "--dice-seed", "abc"]) == 1
    assert "--dice-seed: " in (err := capsys.readouterr().err) and "is not a VASSAL game" in err, err
