"""A set-up (.vsav) at the position a .vlog reached after N steps, for recording the next turn of a game played
by e-mail (record.sh): the log's own starting position with the board commands of its first N steps applied
while it loads (+/ -/ D/ M/, as the engine applies them when it steps through the log; chat and dice are left
out).  The engine then saves that position again itself when the next logfile begins."""
from __future__ import annotations

import sys
import zipfile
from pathlib import Path

from modulebuilder.vassal import savecodec
from modulebuilder.vassal.savefile import read_game
from modulebuilder.vassal.zipio import deterministic_zip

BOARD_COMMANDS = ("+/", "-/", "D/", "M/")


def setup_after(vlog: Path, steps: int | None = None) -> bytes:
    game = read_game(vlog)
    heads = [n.text if isinstance(n, savecodec.Leaf) else None for n in game.nodes]
    end = heads.index("end_save")
    undone = [c for s in game.steps[:steps] for c in s.commands if c.startswith(BOARD_COMMANDS)]
    nodes = game.nodes[:end] + [savecodec.Leaf(c) for c in undone] + [game.nodes[end]]
    with zipfile.ZipFile(vlog) as z:
        extra = [(n, z.read(n)) for n in ("moduledata",) if n in z.namelist()]
    return deterministic_zip([("savedGame", savecodec.obfuscate(savecodec.join_top_level(nodes), 0x4d))] + extra)


if __name__ == "__main__":
    Path(sys.argv[2]).write_bytes(setup_after(Path(sys.argv[1]), int(sys.argv[3]) if len(sys.argv) > 3 else None))
