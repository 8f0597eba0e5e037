"""The committed engine recordings (record.sh) and what the engine itself said about them."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from modulebuilder.vassal.savefile import read_game
from referee.engine.replay import Replay, replay
from referee.logs.jsonlog import Log, load_scenario
from referee.logs.vassal import read_vassal

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parents[2]
TINY_SCENARIO = ROOT / "examples" / "tiny" / "scenario.yaml"
PIECE_LINE = re.compile(r"^  piece (\S+) '(.*)' on (.+?) at (-?\d+),(-?\d+) hex=(.*?) parent=(\S+)")
ROLL_CHAT = re.compile(r"CHAT\*\*\* d10 = (\d*) \*\*\*")
ROLL_TOTAL = re.compile(r"MutableProperty\td10_total\t-?\d*\t(\d+)\tModule")


def fixture(name: str) -> Path:
    return FIXTURES / name


@lru_cache(maxsize=None)
def scenario(ref: str) -> Any:
    return load_scenario(str(TINY_SCENARIO) if ref == "tiny" else ref)


@lru_cache(maxsize=None)
def read(log_name: str, module_name: str | None) -> Log:
    module = None if module_name is None else fixture(module_name)
    return read_vassal(fixture(log_name), module)


@lru_cache(maxsize=None)
def ruled(log_name: str, module_name: str | None) -> Replay:
    log = read(log_name, module_name)
    return replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)


def engine_pieces(vrecord_txt: Path) -> list[tuple[str, str, int, int, str]]:
    """(name, map, x, y, location) of every piece line the engine printed while recording."""
    out = []
    for line in vrecord_txt.read_text().splitlines():
        if m := PIECE_LINE.match(line):
            out.append((m[2], m[3], int(m[4]), int(m[5]), m[6]))
    return out


def reported_rolls(vlog: Path) -> list[str]:
    """The d10 results as the engine reported them in the log's chat (text, as written)."""
    return ROLL_CHAT.findall(read_game(vlog).text)


def recorded_rolls(vlog: Path) -> list[int]:
    """The d10 results as the engine logged them in the button's ``d10_total`` property."""
    return [int(v) for v in ROLL_TOTAL.findall(read_game(vlog).text)]


def engine_final(vrecord_txt: Path, vlog: Path) -> dict[str, str]:
    """Unit id -> the location the engine showed for its piece after the last action (its ``final:`` dump);
    pieces are matched by their engine id to the ``UnitId`` the log's starting position gives them."""
    units = {pid: p.unit_id for pid, p in read_game(vlog).pieces().items() if p.unit_id}
    lines = vrecord_txt.read_text().splitlines()
    tail = lines[len(lines) - 1 - lines[::-1].index("final:"):]
    return {units[m[1]]: m[6] for line in tail if (m := PIECE_LINE.match(line)) and m[1] in units}


def referee_final(result: Replay) -> dict[str, str]:
    """Unit id -> the hex the referee's final position has it on (units on the map only)."""
    return {uid: u.hex for uid, u in result.game.state.board.units.items() if u.hex is not None}
