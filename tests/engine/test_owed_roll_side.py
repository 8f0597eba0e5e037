"""An owed roll names the side that pays it, whatever the event carried: a hosted event needs no ``side`` (the
token says it), and a local log may leave it out where the ruleset's schema does.  For each ruleset, random
legal play with the players' dice: every event is sent as a hosted side would send it (``side`` left out where
the schema allows) and, locally, as a log would carry it; every ``roll`` it awaits names the side whose act it
is, and that side's roll pays it."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.engine import actors, registry
from referee.engine.dice import faces
from referee.engine.replay import new_game, step
from two_dice import RULESET as TWO_DICE

ROOT = Path(__file__).resolve().parents[2]


def _optional_side(ruleset: Any) -> set[str]:
    """The event types whose ``side`` the schema does not require."""
    events = ruleset.event_schema()["$defs"]["events"]["properties"]
    return {t for t, s in events.items() if "side" in s.get("properties", {}) and "side" not in s.get("required", ())}


def play_owing_rolls(ruleset: Any, scenario: Any, hosted: bool, seed: int, steps: int = 150) -> list[Any]:
    """Random legal play in which every roll is owed and then paid; the awaited rolls, with the side expected."""
    rng = random.Random(seed)
    game = new_game(ruleset, scenario, "players")
    optional = _optional_side(ruleset)
    seen: list[tuple[Any, str | None]] = []
    for i in range(steps):
        if ruleset.is_over(game.state):
            break
        listed = dict(rng.choice(ruleset.legal_actions(game.state)))
        event = {k: v for k, v in listed.items() if k != "side" or listed["type"] not in optional}
        owner = actors.owner(game, event)
        ruling, after, _ = step(game, i, event, owner if hosted else None)
        if not ruling.legal and event != listed:     # a side the rules read (who decides), not only who acts
            event, owner = listed, actors.owner(game, listed)
            ruling, after, _ = step(game, i, event, owner if hosted else None)
        assert ruling.legal, (event, ruling)
        game = after
        while game.pending is not None:
            owed = [a for a in ruling.awaiting if a.type == "roll"]
            assert owed, ruling
            seen += [(a, owner) for a in owed]
            pays = owed[0].side
            slot = next(s for s, _ in game.pending.owed if s == "roll" or s.endswith("." + str(pays)))
            roll = rng.choice(faces(game.pending.dies.get(slot, "d10")))
            ruling, game, _ = step(game, i, {"type": "roll", "roll": roll}, pays if hosted else None)
            assert ruling.legal, ruling
    return seen


def _check(seen: list[Any], sides: set[str]) -> None:
    for awaiting, owner in seen:
        assert awaiting.side in sides, awaiting
        if owner not in (None, actors.BOTH_SIDES):
            assert awaiting.side == owner, (awaiting, owner)


@pytest.mark.parametrize("hosted", [False, True], ids=["local", "hosted"])
def test_the_two_dice_ruleset_names_the_side_of_every_owed_roll(hosted):
    seen = play_owing_rolls(TWO_DICE, None, hosted, seed=1)
    assert len(seen) >= 6
    _check(seen, {"Blue", "Red"})


@pytest.mark.parametrize("hosted", [False, True], ids=["local", "hosted"])
def test_bridgehead_names_the_side_of_every_owed_roll(bridgehead_scenario, hosted):
    ruleset = registry.get("classic-hex")
    assert "attack" in _optional_side(ruleset)          # the attack's side is optional: the token or phase says it
    seen = []
    for seed in range(3):
        seen += play_owing_rolls(ruleset, bridgehead_scenario, hosted, seed, steps=120)
    assert seen, "no attack was played"
    _check(seen, {"American", "German"})


@pytest.mark.parametrize("hosted", [False, True], ids=["local", "hosted"])
def test_triumph_and_glory_names_the_side_of_every_owed_roll(hosted):
    import importlib.util
    from referee.service import scenarios
    spec = importlib.util.spec_from_file_location("small_scenario", ROOT / "tests" / "service" / "service_scenario.py")
    small = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(small)                  # the service tests' small scenario, outside their folder
    scenario = scenarios.resolve(small.SMALL)
    seen = play_owing_rolls(registry.get("triumph-and-glory"), scenario, hosted, seed=2, steps=60)
    assert seen
    _check(seen, {"French", "Russian"})


@pytest.mark.parametrize("hosted", [False, True], ids=["local", "hosted"])
def test_musket_and_pike_owes_no_roll(hosted):
    """Musket & Pike's rules here roll no die (its fire and melee are resolved outside the referee): nothing it
    rules owes a roll, hosted or not, and a ``roll`` is ruled illegal with nothing owed."""
    from referee.logs.jsonlog import load_scenario
    ruleset = registry.get("musket-and-pike")
    scenario = load_scenario("mp-sample")
    rng = random.Random(3)
    game = new_game(ruleset, scenario, "players")
    for i in range(120):
        if ruleset.is_over(game.state):
            break
        event = dict(rng.choice(ruleset.legal_actions(game.state)))
        owner = actors.owner(game, event)
        ruling, game, _ = step(game, i, event, owner if hosted else None)
        assert ruling.legal and game.pending is None
        assert not [a for a in ruling.awaiting if a.type == "roll"], ruling.awaiting
    stray, _, _ = step(game, 120, {"type": "roll", "roll": 3})
    assert stray.errors[0].code == "no_roll_owed"


# ----------------------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def bridgehead_scenario():
    from bridgehead_dist import ensure_installed
    why = ensure_installed()
    if why:
        pytest.skip(why)
    registry._entry_points.cache_clear()
    registry.get.cache_clear()
    from referee.logs.jsonlog import load_scenario
    return load_scenario(str(ROOT / "examples" / "bridgehead" / "scenarios" / "bridgehead.yaml"))
