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
