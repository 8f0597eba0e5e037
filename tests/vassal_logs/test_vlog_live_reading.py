"""The .vlog reader a step at a time (referee/logs/vassal_live.py), as the live route reads a game played in VASSAL:
after every step of every committed recording, the events it holds are exactly those ``read_events`` reads from a
file of the same steps (the moves announced and still waiting for their piece excepted: the file reader rules
those unreadable only at the file's end), Undo, turns folded into moves and deck draws included; and each step
is read once, however long the game, unless an Undo sends the reading back over the steps it took back."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modulebuilder.vassal.savefile import GameFile, read_game
from referee.logs.vassal import open_game
from referee.logs.vassal_events import UNREADABLE, read_events
from referee.logs.vassal_live import LiveReading
from referee.logs.vassal_steps import UNDO_REPORT, facts

FIXTURES = Path(__file__).parent / "fixtures"
VLOGS = sorted(p.name for p in FIXTURES.glob("*.vlog"))


def opened(name: str):
    # Without the module: the board from the scenario, as the live route reads it.
    return open_game(FIXTURES / name, None, None, False)


def whole(game: GameFile, count: int, scenario, board) -> list[dict]:
    """What the file reader reads from the first ``count`` steps."""
    part = GameFile(game.text, game.key, game.nodes, game.setup_commands, tuple(game.steps[:count]))
    reading = read_events(facts(part), scenario, board)
    return [r.event for r in reading.events
            if not (r.event["type"] == UNREADABLE and "never did" in r.event["why"])]


@pytest.mark.parametrize("name", VLOGS)
def test_the_reading_after_every_step_is_the_file_reader_s(name: str) -> None:
    game_ = opened(name)
    game, scenario, board = game_.game, game_.scenario, game_.board
    live = LiveReading(game, scenario, board)
    for n, step in enumerate(game.steps, start=1):
        before = [dict(r.event) for r in live.events]
        live.add([step.commands])
        changed = live.take_changes()
        now = [r.event for r in live.events]
        assert now == whole(game, n, scenario, board), f"{name}: after step {n}"
        # Nothing before `changed` differs from what the events were before this step.
        assert now[:changed] == before[:changed]
    undos = sum(1 for s in game.steps if s.commands and s.commands[0].startswith(UNDO_REPORT))
    if not undos:
        assert live.steps_read == len(game.steps)          # each step read once


def test_an_undo_reads_again_only_the_steps_since_the_one_it_takes_back() -> None:
    game_ = opened("undo.vlog")
    live = LiveReading(game_.game, game_.scenario, game_.board)
    counts = []
    for step in game_.game.steps:
        before = live.steps_read
        live.add([step.commands])
        counts.append(live.steps_read - before)
    assert max(counts) <= 4 and sum(counts) < 2 * len(counts), counts


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rewinding_gives_the_reading_of_the_steps_kept(data: st.DataObject) -> None:
    """Steps read and then forgotten (an answer the live route could not store) leave the reading as if never
    read: reading the rest afterwards gives the file reader's events."""
    name = data.draw(st.sampled_from(["undo.vlog", "schevardino-game.vlog", "schevardino-command.vlog",
                                      "tiny.vlog"]))
    game_ = opened(name)
    game, scenario, board = game_.game, game_.scenario, game_.board
    n = len(game.steps)
    live = LiveReading(game, scenario, board)
    done = 0
    while done < n:
        ahead = data.draw(st.integers(1, n - done))
        live.add([s.commands for s in game.steps[done:done + ahead]])
        keep = data.draw(st.integers(done, done + ahead))
        live.rewind(keep)
        assert len(live.steps) == keep
        assert [r.event for r in live.events] == whole(game, keep, scenario, board)
        done = keep if keep > done else done + ahead
        if keep < done:
            live.add([s.commands for s in game.steps[keep:done]])
    assert [r.event for r in live.events] == whole(game, n, scenario, board)
