"""Two games played in the real engine on the module as built today (record.sh): Borodino with the activation
cup (borodino-game-script.json) and Schevardino with its commands (schevardino-game-script.json).  Each has a
draw from the cup or a '!command', moves, an Undo, a typo and a d10 roll, and is ruled from the .vlog alone."""
from __future__ import annotations

import re

import pytest

from .recordings import engine_final, fixture, read, recorded_rolls, referee_final, ruled

pytestmark = pytest.mark.slow     # loads the Borodino scenario (a few seconds)
MODULE = "borodino-cup-facts.vmod"   # the module's buildFile, moduledata and set-ups (record.sh)
DRAW_REPORT = re.compile(r"CHAT\* (AM .+?) moves Activation cup -> ")


def _drawn_at_random() -> str:
    """The AG of the AM the engine drew at random last (its report names the piece: 'AM VIII Corps ... 1')."""
    names = DRAW_REPORT.findall(fixture("borodino-game.vrecord.txt").read_text())
    from modulebuilder.vassal.savefile import read_game
    pieces = read_game(fixture("borodino-game.vlog")).pieces().values()
    return next(p.properties["AG"] for p in pieces if p.name == names[-1])


def test_borodino_draws_from_the_cup_are_read_with_no_typing():
    events = read("borodino-game.vlog", MODULE).events
    # The initiative holder's chosen AM (Initiative Phase) is the first marker; later draws are draws.
    assert events[2] == {"type": "first_marker", "side": "French", "marker": "fr-viii-corps"}
    assert [e for e in events if e["type"] == "draw"] == [{"type": "draw", "marker": "ru-ii-corps"},
                                                          {"type": "draw", "marker": _drawn_at_random()}]
    assert not any(e.get("type") == "move" and e["unit"] == "fr-th-damas-a" for e in events)   # undone


def test_borodino_game_is_ruled_from_the_vlog():
    (roll,) = recorded_rolls(fixture("borodino-game.vlog"))
    result = ruled("borodino-game.vlog", MODULE)
    assert [(r.type, r.verdict) for r in result.rulings] == [
        ("orders", "legal"), ("orders", "legal"), ("first_marker", "legal"), ("move", "legal"), ("move", "legal"),
        ("unreadable", "illegal"), ("end_activation", "legal"), ("draw", "legal"), ("individual_order", "legal"),
        ("roll", "legal"), ("end_activation", "legal"), ("draw", "legal")]
    assert result.rulings[5].errors[0].message == "step 8: cannot read '!endd': unknown command 'endd'"
    assert result.rulings[9].to_dict()["rolls"][0]["natural"] == roll          # the d10 paid the 5.28 roll
    board = engine_final(fixture("borodino-game.vrecord.txt"), fixture("borodino-game.vlog"))
    mine = referee_final(result)
    assert mine == {uid: hex_ for uid, hex_ in board.items() if uid in mine}
    assert (mine["fr-th-damas-a"], mine["fr-th-damas-b"], mine["fr-oc-legras"]) == ("3810", "3808", "3913")


def test_schevardino_game_is_ruled_from_the_vlog():
    (roll,) = recorded_rolls(fixture("schevardino-game.vlog"))
    log = read("schevardino-game.vlog", MODULE)
    assert log.scenario.id == "schevardino"
    result = ruled("schevardino-game.vlog", MODULE)
    assert [(r.type, r.verdict) for r in result.rulings] == [
        ("activate_command", "legal"), ("move", "legal"), ("unreadable", "illegal"), ("fire", "legal"),
        ("roll", "legal"), ("end_phase", "legal")]
    assert log.events[1]["path"] == ["4314", "4214"]                  # the undone move is not ruled
    fire = result.rulings[4].to_dict()["rolls"][0]
    assert fire["purpose"] == "fire" and fire["natural"] == roll
    board = engine_final(fixture("schevardino-game.vrecord.txt"), fixture("schevardino-game.vlog"))
    mine = referee_final(result)
    assert mine == {uid: hex_ for uid, hex_ in board.items() if uid in mine}


def test_an_am_put_back_in_the_cup_is_a_note_and_comes_out_again_as_a_draw():
    from modulebuilder.vassal.savefile import parse_text, read_game
    from referee.logs.vassal_steps import Drawn, Returned, facts
    game = read_game(fixture("borodino-game.vlog"))
    am = "306252084684078"                                   # AM II Corps (Baggovut) 1, drawn at step 10
    back = f"LOG\tM/{am}/Holding/55/319/null/Holding/273/429/null/Alice"
    again = f"LOG\tM/{am}/Holding/273/429/null/Holding/55/319/null/Alice"
    found = [f for f in facts(parse_text(game.text + "\x1b" + back + "\x1b" + again))
             if isinstance(f, (Drawn, Returned))]
    assert [(type(f).__name__, f.step, f.piece.name) for f in found][-2:] == [
        ("Returned", 15, "AM II Corps (Baggovut) 1"), ("Drawn", 16, "AM II Corps (Baggovut) 1")]
