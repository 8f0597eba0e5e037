"""A unit put in a holding box tells nothing of its mover's side (referee.logs.vassal_events).

A player puts the enemy's eliminated units on the dead pile (and the referee link its results): the side of a
later declaration that names none was read from that piece, the enemy's (``!endphase`` ruled as the other
side's end of phase).  A unit moved on the map still tells it."""
from __future__ import annotations

from pathlib import Path

from modulebuilder.vassal import ids
from modulebuilder.vassal.savefile import GameFile, Step, read_game
from referee.logs.jsonlog import load_scenario
from referee.logs.vassal_board import from_scenario
from referee.logs.vassal_events import read_events
from referee.logs.vassal_steps import facts

ROOT = Path(__file__).resolve().parents[2]
START = read_game(Path(__file__).parent / "fixtures" / "undo.vlog")      # a Tinyvka recording: the set-up


def events_after(*commands: str) -> list[dict]:
    scenario = load_scenario(str(ROOT / "examples" / "tiny" / "scenario.yaml"))
    steps = tuple(Step(i + 1, (c,)) for i, c in enumerate(commands + ("CHAT&lt;Alice&gt; - !endphase",)))
    game = GameFile("", None, [], START.setup_commands, steps)
    return [r.event for r in read_events(facts(game), scenario, from_scenario(scenario)).events]


def moved(unit: str, to: tuple[str, int, int]) -> str:
    p = START.pieces()[ids.piece_id("tiny", unit)]
    return f"M/{p.id}/{to[0]}/{to[1]}/{to[2]}/null/{p.map}/{p.x}/{p.y}/null/Alice"


def test_the_enemy_s_unit_put_on_the_dead_pile_does_not_make_the_mover_its_side() -> None:
    assert events_after(moved("vi-art", ("Holding", 55, 700)))[-1] == {"type": "end_phase"}


def test_a_unit_moved_on_the_map_still_tells_its_mover_s_side() -> None:
    lepic = START.pieces()[ids.piece_id("tiny", "lepic")]
    got = events_after(moved("lepic", (lepic.map or "", lepic.x, lepic.y - 70)),
                       moved("vi-art", ("Holding", 55, 700)))
    assert got[-1] == {"type": "end_phase", "side": "French"}
