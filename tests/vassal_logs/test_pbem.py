"""Play by e-mail (referee.logs.pbem): a game sent as one .vlog per turn, each recorded by the real engine
from where the last one ended (pbem_setup.py makes that set-up); rewinding and forking files are refused."""
from __future__ import annotations

import json

import pytest

from modulebuilder.vassal import savecodec
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.zipio import deterministic_zip
from referee.cli import main
from referee.logs import InputError
from referee.logs.pbem import read_parts

from .pbem_setup import setup_after
from .recordings import fixture, read

TURNS = [fixture("pbem-turn1.vlog"), fixture("pbem-turn2.vlog")]


def test_each_turn_file_is_ruled_on_the_state_the_last_one_left():
    log = read_parts(TURNS, fixture("tiny.vmod"))
    first = read("pbem-turn1.vlog", "tiny.vmod").events
    assert log.events[:len(first)] == first                    # turn 1 as read alone
    assert log.events[len(first):] == [
        {"type": "draw", "marker": "vi-corps"},
        {"type": "move", "side": "Russian", "unit": "psk-a", "path": ["0503", "0402", "0302"]},
        {"type": "move", "side": "Russian", "unit": "psk-b", "path": ["0503", "0402", "0401", "0301", "0201", "0101"]},
        {"type": "end_activation", "side": "Russian"}]


def test_the_cli_rules_the_turns_as_one_game(capsys):
    assert main(["check", *map(str, TURNS), "--module", str(fixture("tiny.vmod"))]) == 0
    rulings = json.loads(capsys.readouterr().out)["rulings"]
    assert [(r["index"], r["type"], r["verdict"]) for r in rulings][-4:] == [
        (6, "draw", "legal"), (7, "move", "legal"), (8, "move", "illegal"), (9, "end_activation", "legal")]
    # Read alone, turn 2 does not start at the set-up: refused, saying so and what to give (it used to be ruled
    # from the scenario's start, its draw illegal before anyone's orders).
    assert main(["check", str(TURNS[1]), "--module", str(fixture("tiny.vmod"))]) == 1
    assert capsys.readouterr().err.startswith("pbem-turn2.vlog does not start at the set-up of Tinyvka: 1 unit "
                                              "stands elsewhere (Dumon a on 0303, set up on 0203)")


def test_a_file_that_starts_from_an_earlier_position_rewinds_the_game(capsys):
    rewound = fixture("pbem-turn2-rewound.vlog")          # recorded from the scenario's set-up again
    assert main(["check", str(TURNS[0]), str(rewound)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "pbem-turn2-rewound.vlog starts from the position of pbem-turn1.vlog at step 5, not where it ended "
        "(step 9): it rewinds steps 6-9"]


def test_a_file_from_a_position_the_game_never_had_forks_it(tmp_path):
    game = read_game(setup_after(TURNS[0]))
    text = game.text.replace("Main Map;444;348;", "Main Map;444;492;", 1)      # Psk b two hexes south
    fork = tmp_path / "fork.vlog"
    fork.write_bytes(deterministic_zip([("savedGame", savecodec.obfuscate(text, 7))]))
    with pytest.raises(InputError) as err:
        read_parts([TURNS[0], fork], fixture("tiny.vmod"))
    (problem,) = err.value.problems
    assert problem.startswith("fork.vlog does not start where pbem-turn1.vlog ended (step 9), nor from any earlier "
                              "position of it: it forks the game. Psk b is on 0504")


def test_the_set_up_after_a_log_is_where_the_engine_ended_it():
    # pbem_setup applies the log's board commands; the engine, loading it, saved the same position again.
    from referee.logs.pbem import position, positions
    from referee.logs.vassal_board import from_build_file, module_build_file
    board = from_build_file(module_build_file(fixture("tiny.vmod")))
    ended = positions(read_game(TURNS[0]), board, "pointy")[-1]
    assert position(read_game(TURNS[1]).pieces().values(), board, "pointy") == ended
    assert ended["dumon-a"][0] == "0303" and ended["lepic"][0] == "0105"       # Lepic's move was undone


def test_only_vlogs_make_a_game_of_several_files(capsys, tmp_path):
    other = tmp_path / "game.json"
    other.write_text("{}")
    assert main(["check", str(TURNS[0]), str(other)]) == 1
    assert capsys.readouterr().err.startswith(f"{other}: several logs are the turns of one VASSAL game")
