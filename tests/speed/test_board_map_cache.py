"""T&G's static map (``board.BoardMap``) kept with the scenario's parsed-scenario cache entry
(``modulebuilder.definitions.cache.derived``, docs/speed.md §1): a later process reads it back instead of
building it (~11 ms of every check); what it reads equals a fresh build; another version of the package's code
builds it again; its memos are never kept; without the cache nothing is kept."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from modulebuilder.definitions import cache
from referee.engine.replay import replay
from referee.logs import read_log
from referee.rulesets.triumph_and_glory import board

from .checks import check, private_cache_env, short_sample

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"
NAME = "triumph-and-glory.BoardMap"


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXWARGAME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HEXWARGAME_CACHE", raising=False)
    monkeypatch.setattr(board, "_MAPS", {})
    return tmp_path / "cache"


def same_map(kept: board.BoardMap, built: board.BoardMap) -> None:
    for name in board.BoardMap.__slots__:
        if name not in ("grid", "table", "rules", "memo", "_around"):
            assert getattr(kept, name) == getattr(built, name), name
    assert (kept.table.rows, kept.table.hexsides) == (built.table.rows, built.table.hexsides)
    assert kept.rules == built.rules
    assert vars(kept.grid) == vars(built.grid)
    for h in built.grid.hexes():
        assert kept.grid.neighbours(h) == built.grid.neighbours(h)
        assert set(kept.grid.within(h, 2)) == set(built.grid.within(h, 2))


def test_a_second_read_of_the_scenario_brings_its_board_map(fresh_cache):
    first = read_log(SAMPLE).scenario                      # a miss: parsed, entry written
    built = board._board_map(first)                        # built, and the entry written again with it
    assert NAME in first.__dict__[cache.DERIVED]
    board._MAPS.clear()
    again = read_log(SAMPLE).scenario                      # a hit: unpickled with its map
    assert again is not first and again == first
    kept = again.__dict__[cache.DERIVED][NAME][1]
    assert board._board_map(again) is kept
    assert kept.scenario is again and kept.map is again.map    # one object graph: identity-keyed memos hold
    same_map(kept, built)
    same_map(kept, board._build_map(again))


def test_another_version_of_the_package_builds_it_again(fresh_cache, monkeypatch):
    first = read_log(SAMPLE).scenario
    board._board_map(first)
    board._MAPS.clear()
    monkeypatch.setattr(board, "_STAMP", [b"another version of board.py"])
    again = read_log(SAMPLE).scenario
    kept = again.__dict__[cache.DERIVED][NAME][1]
    rebuilt = board._board_map(again)
    assert rebuilt is not kept and rebuilt.scenario is again
    assert again.__dict__[cache.DERIVED][NAME][0] == b"another version of board.py"
    board._MAPS.clear()
    third = read_log(SAMPLE).scenario                       # the entry was written again with the new stamp
    assert board._board_map(third) is third.__dict__[cache.DERIVED][NAME][1]


def test_the_code_stamp_follows_the_package_s_files(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    one = cache.code_stamp(tmp_path)
    (tmp_path / "notes.txt").write_text("not code\n")
    assert cache.code_stamp(tmp_path) == one
    (tmp_path / "a.py").write_text("x = 22\n")
    assert cache.code_stamp(tmp_path) != one
    assert cache.code_stamp(Path(board.__file__).parent) == board._code_stamp()


def test_its_memos_are_not_kept(fresh_cache):
    log = read_log(SAMPLE)
    static = board._board_map(log.scenario)
    replay(log.ruleset, log.scenario, log.events[:300], log.dice, log.seed, places=False)
    assert static.memo and static._around                  # filled by the game
    copy = pickle.loads(cache._pickle(static))          # the cache's pickler (it writes mappingproxies)
    assert copy.memo == {} and copy._around == {}
    assert copy.adjacent == static.adjacent


def test_without_the_cache_nothing_is_kept(fresh_cache, monkeypatch):
    monkeypatch.setenv("HEXWARGAME_CACHE", "off")
    scenario = read_log(SAMPLE).scenario
    board._board_map(scenario)
    assert cache.DERIVED not in scenario.__dict__


def test_a_check_gives_the_same_bytes_with_the_map_built_and_kept(tmp_path):
    log, env = short_sample(tmp_path, 300), private_cache_env(tmp_path)
    runs = [check(log, *extra, env=env)
            for extra in ((), (), (), ("--no-cache",))]        # parsed, map kept, map read back, neither
    assert runs[0] == runs[1] == runs[2] == runs[3]
