"""docs/writing-a-ruleset.md is a program that passes: its blocks marked *(tutorial)* are applied, in order, to
a skeleton written by ``referee new-ruleset my-game``; the grown game is installed, its tests (the skeleton's
and the guide's) run, and its sample game is still ruled as before."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee import cli
from skeleton_dist import install, run_in

DOC = Path(__file__).resolve().parents[1] / "docs" / "writing-a-ruleset.md"
BLOCK = re.compile(r'<!-- tutorial: (?P<file>\S+) (?P<how>append|new|merge|replace|after)(?: "(?P<line>[^"]*)")? -->\n'
                   r"```[a-z]*\n(?P<code>.*?)```", re.S)
HOOKS = ("event_schema", "definitions.schema.json", "wording", "notation", "actor", "conceal", "candidates",
         "legal_actions", "Step", "need(", "awaiting", "entry-points", "referee serve", "referee verify")


def blocks() -> list[dict[str, str]]:
    return [m.groupdict() for m in BLOCK.finditer(DOC.read_text("utf-8"))]


def apply(folder: Path, block: dict[str, str]) -> None:
    path = folder / block["file"]
    code = block["code"]
    how = block["how"]
    if how == "new":
        assert not path.exists(), path
        path.write_text(code, encoding="utf-8")
        return
    text = path.read_text("utf-8")
    if how == "append":
        text = text.rstrip("\n") + "\n" + code
    elif how == "merge":
        text = json.dumps(_merge(json.loads(text), json.loads(code)), indent=1, ensure_ascii=False) + "\n"
    elif how == "replace" and block["line"] is None:
        text = code
    else:
        line = block["line"] + "\n"
        assert text.count(line) == 1, (block["file"], block["line"])
        text = text.replace(line, code if how == "replace" else line + code)
    path.write_text(text, encoding="utf-8")


def _merge(into: object, more: object) -> object:
    if isinstance(into, dict) and isinstance(more, dict):
        return {**into, **{k: _merge(into.get(k), v) if k in into else v for k, v in more.items()}}
    return more


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tutorial")
    game, target = root / "my-game", root / "site"
    assert cli.main(["new-ruleset", "my-game", "--out", str(game)]) == 0
    for block in blocks():
        apply(game, block)
    install(game, target)
    return {"game": game, "target": target}


def test_the_guide_marks_every_step_it_takes():
    found = blocks()
    assert [(b["file"], b["how"]) for b in found] == [
        ("README.md", "append"), ("my_game/state.py", "after"), ("my_game/__init__.py", "after"),
        ("my_game/verbs.py", "replace"), ("my_game/verbs.py", "replace"), ("my_game/verbs.py", "append"),
        ("my_game/events.schema.json", "merge"), ("my_game/procedure.py", "replace"),
        ("my_game/wording.py", "new"), ("my_game/notation.py", "new"), ("tests/test_fire.py", "new")]


def test_the_guide_covers_every_hook():
    text = DOC.read_text("utf-8")
    assert [h for h in HOOKS if h not in text] == []


def test_the_grown_game_passes_its_tests(grown):
    run = run_in(grown["game"], grown["target"], "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "14 passed" in run.stdout, run.stdout


def test_the_grown_game_still_rules_its_sample_game(grown):
    run = run_in(grown["game"], grown["target"], "-m", "referee", "check", "sample-game.json", "--format", "text")
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("8 events ruled, 2 illegal. Now: Turn 3 — game over.")
