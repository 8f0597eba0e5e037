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


def test_unreadable_declarations_exit_1_with_their_steps(capsys):
    assert main(["check", str(fixture("typo.vlog"))]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == ["step 3: cannot read chat '!asault dumon-a dumon-b > 0303': unknown command 'asault'",
                   "step 4: cannot read chat '!draw nosuch': no activation marker 'nosuch'"]


def test_a_corrupt_file_exits_1_with_a_sentence(capsys, tmp_path):
    bad = tmp_path / "bad.vlog"
    bad.write_bytes(fixture("tiny.vlog").read_bytes()[:100])
    assert main(["check", str(bad)]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("bad.vlog is not a readable zip archive")
