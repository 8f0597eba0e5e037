"""DESIGN §4 ``start: {turn, phase}`` (issue 18, point 6): every phase a scenario may name is a valid starting
point, with what it needs decided — the skipped phases as if nobody did anything in them (no orders, no CGA, no
first pick; the initiative from option ``start_initiative``, BOR-INITIATIVE, or nobody) — and a phase or side
the ruleset does not know is bad input naming the field."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.logs import InputError, parse_log

from .games import FR, RU, ag, at, basic, play


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def starting(phase, turn=1, **options):
    return replace(basic(options=options or None), start={"turn": turn, "phase": phase})


def test_design_4_start_at_the_reserve_phase_begins_there():
    """The issue's case: ``start: {turn: 1, phase: reserve}`` began in the Orders Phase (go_first refused)."""
    p = play(starting("reserve"))
    assert (p.state.turn, p.state.phase) == (1, "reserve")
    assert errors(p("orders", side=FR, under_orders=[]))[0][1] == "wrong_phase"
    p.ok("go_first", side=FR, rolls={FR: 5, RU: 1})         # nobody holds the initiative: a roll decides
    p.ok("reserve", side=FR, unit="fa1")


def test_design_4_start_with_the_initiative_given():
    p = play(starting("reserve", start_initiative=FR))
    assert p.state.initiative == FR
    p.ok("go_first", side=FR, first=RU)


def test_design_4_every_phase_is_a_starting_point():
    for phase in ("orders", "initiative", "activation", "reserve", "morale", "cinc_movement"):
        p = play(starting(phase, turn=2))
        want = "cinc_movement" if phase == "morale" else phase   # nothing to roll in the Morale Phase: it passes
        assert (p.state.turn, p.state.phase) == (2, want), phase
    p = play(starting("initiative", turn=2))
    p.ok("initiative", rolls={FR: 9, RU: 0})                  # orders decided: none given, no delay roll
    assert p.state.orders[FR].given and not p.state.orders[FR].under_orders
    p = play(starting("activation"))
    assert sorted(set(p.state.cup)) == ["cav", "i-corps", "ru-2"]
    p.ok("draw", marker="ru-2")
    p = play(starting("cinc_movement"))
    p.ok("go_first", side=FR, rolls={FR: 5, RU: 1})
    p.ok("cinc_move", side=FR, path=["0206"], roll=3)


def test_design_4_a_phase_the_ruleset_does_not_know_is_bad_input():
    from referee.engine.registry import get
    sc = starting("lunch")
    problems = get("triumph-and-glory").check_scenario(sc)
    assert problems == ["scenario.start.phase: 'lunch' is not a phase this scenario may begin at (orders, "
                        "initiative, activation, reserve, morale, cinc_movement)"]
    sc = replace(starting("reserve", start_initiative="Prussian"), start={"turn": 40, "phase": "reserve"})
    problems = get("triumph-and-glory").check_scenario(sc)
    assert problems == ["scenario.start.turn: 40 is not a turn of the scenario (1–2)",
                        "scenario.options.start_initiative: 'Prussian' is not a side (French, Russian) or none"]


# --------------------------------------------------------------------------------------------- a turn track's start

def schevardino(**start):
    from referee.logs.jsonlog import load_scenario
    return replace(load_scenario("schevardino"), start=start)


def test_design_4_a_schevardino_start_names_whose_side_turn_it_is():
    from referee.engine.registry import get
    ruleset = get("triumph-and-glory")
    state = ruleset.initial_state(schevardino(turn=2, phase="side_turn", side="Russian"))
    assert ruleset.progress(state) == ("Turn 2", "Russian Movement and Combat")
    assert state.side_turn == "Russian" and "ru-27d-neverovsky-a" in state.activation.units
    state = ruleset.initial_state(schevardino(turn=2, phase="side_turn"))      # no side: the first in side_order
    assert ruleset.progress(state) == ("Turn 2", "French Movement and Combat")
    assert ruleset.check_scenario(schevardino(turn=2, phase="side_turn", side="Prussian")) == [
        "scenario.start.side: 'Prussian' names whose side_turn it is (French, Russian)"]
    assert ruleset.check_scenario(replace(starting("orders"), start={"phase": "orders", "side": FR})) == [
        "scenario.start.side: 'French' names whose side_turn it is, which only a Schevardino start has"]


def test_the_start_a_turn_track_shows_is_the_phase_progress_names_with_what_it_takes_as_done():
    from referee.engine.registry import get
    from referee.logs.jsonlog import load_scenario
    ruleset = get("triumph-and-glory")
    sch = load_scenario("schevardino")
    assert ruleset.start_at(sch, 1, "Command Activation") == ({"turn": 1, "phase": "command"}, "")
    start, assumed = ruleset.start_at(sch, 3, "Russian Movement and Combat")
    assert start == {"turn": 3, "phase": "side_turn", "side": "Russian"}
    assert assumed == ("which French commands were activated in earlier turns or this turn is not in a save "
                       "(SCH-COMMAND): only Compans' Division (I Corps) is taken as active; the Russian Movement "
                       "and Combat is ruled as if it had just begun")
    assert ruleset.progress(ruleset.initial_state(replace(sch, start=start))) == ("Turn 3",
                                                                               "Russian Movement and Combat")
    assert ruleset.start_at(sch, 1, "Orders Phase") is None          # not a phase of Schevardino
    start, assumed = ruleset.start_at(basic(), 2, "Reserve Activation Phase")
    assert start == {"turn": 2, "phase": "reserve"}
    assert assumed == ("no orders were given in the Orders Phase (5.2x); the initiative is as the scenario gives it "
                       "(4.0) and every activation marker is in the cup (5.3x); the cup is drawn out; the Reserve "
                       "Activation Phase is ruled as if it had just begun")
