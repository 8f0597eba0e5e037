"""Knowing the module: the game's own moduledata against --module, other games' saves, and bounded reading."""
from __future__ import annotations

import io
import zipfile

import pytest

from modulebuilder.vassal import savecodec, seqenc
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.zipio import deterministic_zip
from referee.cli import main
from referee.logs import InputError
from referee.logs.vassal import read_vassal

from .recordings import fixture

MODULEDATA = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?><data version="1"><version>{version}'
              '</version><VassalVersion>3.2.17</VassalVersion><name>{name}</name></data>')


def _tiny_text() -> str:
    return read_game(fixture("tiny.vlog")).text


def _game(text: str, name: str | None = None, version: str = "1.0") -> bytes:
    entries = [("savedGame", savecodec.obfuscate(text, 0x21))]
    if name is not None:
        entries.append(("moduledata", MODULEDATA.format(name=name, version=version).encode()))
    return deterministic_zip(entries)


def _problems(data, module=None, **kw) -> list[str]:
    with pytest.raises(InputError) as err:
        read_vassal(data, module, **kw)
    return err.value.problems


def test_another_game_s_log_with_our_module_is_refused_in_one_sentence():
    # Once: accepted silently, the log's moves vanished and the command exited 0.
    data = _game(_tiny_text(), "Paths of Glory", "9.1")
    assert _problems(data, fixture("tiny.vmod")) == [
        "the uploaded game is a game of Paths of Glory 9.1, but tiny.vmod is Tinyvka, a test of arms 1.0: check it "
        "with the module it was played with"]


def test_our_log_with_another_game_s_module_is_refused(capsys):
    # borodino-facts.vmod is the Borodino module: the Tinyvka log was not played with it.
    assert main(["check", str(fixture("tiny.vlog")), "--module", str(fixture("borodino-facts.vmod"))]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line == ("tiny.vlog is a game of Tinyvka, a test of arms 1.0, but borodino-facts.vmod is "
                    "Borodino, 7 September 1812 1.0: check it with the module it was played with")


def test_another_version_of_the_module_is_ruled_with_a_warning(capsys):
    data = _game(_tiny_text(), "Tinyvka, a test of arms", "0.9")
    log = read_vassal(data, fixture("tiny.vmod"))
    assert log.warnings == ["the uploaded game was played with Tinyvka, a test of arms 0.9; ruled with tiny.vmod, "
                            "version 1.0"]
    assert log.events == read_vassal(fixture("tiny.vlog"), fixture("tiny.vmod")).events


def test_the_cli_prints_the_warning_and_rules(tmp_path, capsys):
    old = tmp_path / "old.vlog"
    old.write_bytes(_game(_tiny_text(), "Tinyvka, a test of arms", "0.9"))
    assert main(["check", str(old), "--module", str(fixture("tiny.vmod"))]) == 0
    captured = capsys.readouterr()
    assert captured.err == ("warning: old.vlog was played with Tinyvka, a test of arms 0.9; ruled with tiny.vmod, "
                            "version 1.0\n")
    assert '"rulings"' in captured.out


DECK = ("+/900/deck;true;0,0,0;58;58;Never;Always;false;true;false;;;;Cards;;false;;;;;;/Board;55;319;false;901,902")
CARD = "+/901/piece;;;card.png;Ace of Spades/Board;55;319;901;0"


def _foreign_save() -> str:
    # A real module's save: a deck of cards, a card, a layer state an older engine wrote ('-1;'), no unit ids.
    layer = "emb2;Flip;128;;;128;;;128;;;;1;false;0;0;back.png;Flipped;true;Flip;;;false;;1;1;false;70,130;;;;1.0"
    ptype = seqenc.chain([layer, "piece;;;front.png;Cavalry"])
    piece = "+/" + seqenc.encode(["903", ptype, seqenc.chain(["-1;", "Map;100;100;903;0"])], "/")
    return "begin_save\x1b\x1b" + "\x1b".join([DECK, CARD, piece]) + "\x1bend_save"


def test_other_games_saves_are_named_by_their_module_not_called_malformed():
    problems = _problems(_game(_foreign_save(), "Paths of Glory", "9.1"))
    (problem,) = problems                  # and which bundled scenarios were tried, with the module of each
    assert problem.startswith("the uploaded game: this save is from Paths of Glory 9.1, which is not a game the "
                              "referee has a scenario for: no bundled scenario is built into that module (tried "
                              "borodino (Borodino, 7 September 1812 1.0); ")
    assert problem.endswith("give the scenario with '!scenario ID' in the chat")


def test_decks_and_older_layer_states_are_read_not_refused():
    game = read_game(_game(_foreign_save()))
    pieces = game.pieces()
    assert set(pieces) == {"901", "903"}                     # the deck is a container, not a piece
    assert pieces["903"].properties["Flip_Level"] == "1"    # '-1;' read as -1 (VASSAL 3.2), no Python text


def test_no_python_text_and_the_module_hint_only_when_no_module_was_given():
    text = _tiny_text().replace("!scenario tiny", "hello")
    (problem,) = _problems(_game(text))
    assert problem.endswith("or give the module (--module) it was played with")
    for problem in _problems(_game(_foreign_save()), fixture("tiny.vmod")):
        assert "--module" not in problem and "invalid literal" not in problem
    bad = _game("begin_save\x1b+/1/piece;;;a.png;A/Map;x;y;1;0\x1bend_save")
    (problem,) = _problems(bad)
    assert "invalid literal" not in problem and "base 10" not in problem


def test_a_module_with_many_entries_loads():
    # Genuine large modules hold tens of thousands of images: the 10,000-entry cap of a save is not theirs.
    with zipfile.ZipFile(fixture("tiny.vmod")) as z:
        entries = [(n, z.read(n)) for n in z.namelist()]
    big = deterministic_zip(entries + [(f"images/extra-{i}.png", b"") for i in range(12_000)])
    log = read_vassal(fixture("tiny.vlog"), big)
    assert log.events == read_vassal(fixture("tiny.vlog"), fixture("tiny.vmod")).events


def test_a_declared_zip_bomb_is_refused_before_inflating(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", b"0" * (80 * 1024 * 1024))
    path = tmp_path / "bomb.vlog"
    path.write_bytes(buf.getvalue())
    (problem,) = _problems(path)
    assert "decompresses to more than 16 MiB" in problem


def test_a_huge_file_is_read_as_a_stream(tmp_path):
    # A 1 GiB file (sparse: no disk) is refused by its end record, without reading it into memory.
    path = tmp_path / "huge.vlog"
    with open(path, "wb") as f:
        f.truncate(1024 ** 3)
    (problem,) = _problems(path)
    assert problem.startswith("huge.vlog is not a readable zip archive")
