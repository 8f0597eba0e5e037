"""``referee new-ruleset NAME`` writes a working skeleton: generated here, pip-installed into a throwaway folder
(no dependencies, no build isolation: fast and offline), its own tests run, its sample game checked and its
scenario validated — as an author would from a fresh clone (docs/writing-a-ruleset.md)."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from referee import cli
from referee.new_ruleset import NAME as NAME_PATTERN, BadName, check_name, names, write_skeleton
from skeleton_dist import install, run_in

NAME = "skeleton-trial"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("new-ruleset")
    game, target = root / NAME, root / "site"
    assert cli.main(["new-ruleset", NAME, "--out", str(game)]) == 0
    install(game, target)
    return {"game": game, "target": target}


def _run(installed: dict[str, Path], *args: str) -> subprocess.CompletedProcess[str]:
    return run_in(installed["game"], installed["target"], *args)


def test_the_skeleton_passes_its_own_tests(installed):
    run = _run(installed, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "8 passed" in run.stdout, run.stdout


def test_the_referee_rules_the_skeletons_sample_game(installed):
    text = _run(installed, "-m", "referee", "check", "sample-game.json", "--format", "text")
    assert text.returncode == 0, text.stderr
    assert "[3] move Blue Blue 1 to 0403: ILLEGAL (3.2)" in text.stdout
    assert text.stdout.rstrip().endswith("8 events ruled, 2 illegal. Now: Turn 3 — game over.")
    body = json.loads(_run(installed, "-m", "referee", "check", "sample-game.json").stdout)
    assert body["rulings"][-1]["results"][-1] == {"effect": "victory", "rule": "4.1", "side": "Blue", "hex": "0303"}
    listed = _run(installed, "-m", "referee", "rulesets").stdout
    assert f"{NAME}\tSkeleton Trial" in listed


def test_the_skeletons_scenario_validates(installed):
    run = _run(installed, "-m", "modulebuilder", "validate", f"scenarios/{NAME}.yaml")
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_files_written(tmp_path):
    written = write_skeleton("my-game", str(tmp_path / "g"))
    rel = sorted(str(Path(p).relative_to(tmp_path / "g")) for p in written)
    assert rel == ["README.md", "counters/blue.yaml", "counters/red.yaml", "maps/my-game.yaml",
                   "my_game/__init__.py", "my_game/definitions.schema.json", "my_game/events.schema.json",
                   "my_game/procedure.py", "my_game/state.py", "my_game/verbs.py", "pyproject.toml",
                   "sample-game.json", "scenarios/my-game.yaml", "tests/test_rules.py"]
    pyproject = (tmp_path / "g" / "pyproject.toml").read_text("utf-8")
    assert 'my-game = "my_game:RULESET"' in pyproject and 'my-game = "my_game:definitions.schema.json"' in pyproject
    init = (tmp_path / "g" / "my_game" / "__init__.py").read_text("utf-8")
    assert "class MyGame(ProcedureRuleset):" in init and 'id = "my-game"' in init
    for p in written:
        text = Path(p).read_text("utf-8")
        assert not re.search(r"\{\{(id|package|Class|title)\}\}", text), p
        if p.endswith(".py"):
            compile(text, p, "exec")
        if p.endswith(".json"):
            json.loads(text)


def test_names():
    assert names("my-game") == {"id": "my-game", "package": "my_game", "Class": "MyGame", "title": "My Game"}


@pytest.mark.parametrize("bad, why", [
    ("My-Game", "is not a ruleset id"), ("my_game", "is not a ruleset id"), ("-x", "is not a ruleset id"),
    ("class", "a Python keyword"), ("json", "can already be imported here"),
    ("triumph-and-glory", "is installed already"), ("", "is not a ruleset id")])
def test_a_name_that_cannot_be_a_new_rulesets_is_refused(bad, why):
    with pytest.raises(BadName, match=why):
        check_name(bad)


def test_the_command_refuses_a_folder_in_use_and_a_bad_name(tmp_path, capsys):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine")
    assert cli.main(["new-ruleset", "my-game", "--out", str(tmp_path / "used")]) == 1
    assert "exists and is not an empty folder" in capsys.readouterr().err
    assert cli.main(["new-ruleset", "Nope!", "--out", str(tmp_path / "n")]) == 1
    assert capsys.readouterr().err.startswith("new-ruleset: 'Nope!' is not a ruleset id")
    assert not (tmp_path / "n").exists()
    assert (tmp_path / "used" / "notes.txt").read_text() == "mine"


@given(st.text(max_size=20))
def test_any_text_is_a_new_ruleset_name_or_a_clear_refusal(text):
    try:
        check_name(text)
    except BadName as exc:
        assert str(exc)
        return
    assert NAME_PATTERN.match(text)
