"""The board's art on disk (referee/service/board.py): a fresh process serves a scenario's map and counter
sheet drawn before without drawing anything (the cold first picture, issue #16), byte for byte what drawing
gives; a damaged file is drawn again; the key is the same in every process and changes with what is drawn."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.service import board, scenarios

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def art_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(board.ART_CACHE_ENV, str(tmp_path / "art"))
    board._art.clear()
    yield tmp_path / "art"
    board._art.clear()


def _fresh() -> None:
    """What a new process has: no art in memory."""
    board._art.clear()


def test_a_fresh_process_serves_the_map_and_sheet_from_disk_without_drawing(art_dir: Path) -> None:
    scenario = scenarios.resolve("mp-sample")
    drawn_map, drawn_sheet = board.map_png(scenario), board.sheet_png(scenario)
    assert len(list(art_dir.glob("*.png"))) == 2
    _fresh()
    assert board.map_png(scenario) == drawn_map and board.sheet_png(scenario) == drawn_sheet
    art = board._art_for(scenario)
    assert art._base is None and art.faces == {}                  # nothing was drawn
    geometry = board.geometry(scenario)                           # from the layout alone
    assert art._base is None
    assert (geometry["width"], geometry["height"]) == art.base.size   # ... which is the drawn map's


def test_a_damaged_art_file_is_drawn_again(art_dir: Path) -> None:
    scenario = scenarios.resolve("mp-sample")
    drawn = board.map_png(scenario)
    (path,) = [p for p in art_dir.glob("*.png") if p.read_bytes() == drawn]
    path.write_bytes(drawn[: len(drawn) // 2])                    # half a file: a crash mid-write elsewhere
    _fresh()
    assert board.map_png(scenario) == drawn
    assert path.read_bytes() == drawn                             # and put right
    assert not list(art_dir.glob(".*.tmp"))                       # no temporary file left behind


def test_no_art_on_disk_when_turned_off_or_unwritable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = scenarios.resolve("mp-sample")
    monkeypatch.setenv(board.ART_CACHE_ENV, "off")
    _fresh()
    drawn = board.map_png(scenario)
    assert board.art_cache_dir() is None
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache directory should be")
    monkeypatch.setenv(board.ART_CACHE_ENV, str(blocked / "art"))
    _fresh()
    assert board.map_png(scenario) == drawn                       # served all the same
    _fresh()


def _key_in_a_new_process(seed: str) -> str:
    code = ("from referee.service import board, scenarios; s = scenarios.resolve('mp-sample'); "
            "print(board.art_key('sheet', [board._canonical(s.counters), 'shaken']), "
            "board.art_key('map', board._canonical(s.map)))")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT,
                         capture_output=True, text=True, check=True, timeout=120)
    return out.stdout


def test_the_art_key_is_the_same_in_every_process_and_changes_with_the_map() -> None:
    """Sets in the definitions (a frozenset's order follows this process's string hashes) are sorted first."""
    assert _key_in_a_new_process("1") == _key_in_a_new_process("2")
    mp = scenarios.resolve("mp-sample")
    assert board.art_key("map", board._canonical(mp.map)) != board.art_key("sheet", board._canonical(mp.map))
    moved = board._canonical(mp.map)
    moved[1]["grid"][1]["columns"] = 99
    assert board.art_key("map", moved) != board.art_key("map", board._canonical(mp.map))


def test_the_art_cache_keeps_the_newest_pictures_only(art_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board, "ART_CACHE_FILES", 3)
    for i in range(5):
        board._disk_put(f"{i:064x}", b"\x89PNG\r\n\x1a\n" + bytes([i]) + b"IEND\xaeB`\x82")
        os.utime(art_dir / f"{i:064x}.png", (1000 + i, 1000 + i))
    assert sorted(p.stem[-1] for p in art_dir.glob("*.png")) == ["2", "3", "4"]
    assert board._disk_get(f"{4:064x}") is not None and board._disk_get(f"{0:064x}") is None
