"""Random legal play: both sides choose uniformly (seeded) among the listed legal actions with referee dice.
Every listed action must be ruled legal, nothing may crash or get stuck, and every game reaches its end.

Hundreds of short games on the small hand-made positions; a few truncated games of the real scenarios
(their YAML takes seconds to load, so they are loaded once)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.replay import replay
from referee.play import play_game, truncate
from referee.rulesets.triumph_and_glory import RULESET

from .games import FR, RU, ag, art, at, basic, cav, game_scenario, inf, kutuzov, napoleon

ROOT = Path(__file__).resolve().parents[2]


def skirmish(seed: int, turns: int = 1):
    """A busier position: two corps a side, cavalry, guns, Borodino's command rules on."""
    return game_scenario(
        at(napoleon(), "0207"), at(kutuzov(orders_rating=None), "0702"),
        at(inf("f1", ag="i-corps"), "0206"), at(inf("f2", ag="i-corps"), "0306"), at(art("f3", ag="i-corps"), "0206"),
        at(cav("f4", ag="cav"), "0107"), at(cav("f5", ag="cav"), "0508"), at(inf("f6", ag="guard"), "0308"),
        at(inf("r1", side=RU, ag="ru-1"), "0502", facing=6), at(inf("r2", side=RU, ag="ru-1"), "0602", facing=6),
        at(cav("r3", side=RU, ag="ru-2"), "0801", facing=6), at(inf("r4", side=RU, ag="ru-res"), "0701", facing=6),
        ags=[ag("i-corps"), ag("cav", io=5, flags=["cavalry_reserve"]), ag("guard", io=None, flags=["guard"]),
             ag("ru-1", RU, army="1st"), ag("ru-2", RU, army="2nd"), ag("ru-res", RU, army="reserve")],
        special_rules=["BOR-1", "BOR-2", "BOR-3", "BOR-4", "BOR-5", "BOR-6", "BOR-7", "BOR-8", "BOR-INITIATIVE"],
        options={"cga_uses": {FR: 1, RU: 2}}, turns=turns)


@pytest.mark.parametrize("batch", range(4))
def test_hundreds_of_small_games_play_to_the_end(batch):
    for seed in range(batch * 50, batch * 50 + 50):
        sc = basic(turns=1) if seed % 2 else skirmish(seed)
        g = play_game(RULESET, sc, seed)
        assert RULESET.is_over(g.game.state)
        assert all(r.legal for r in g.rulings)


def test_random_play_fights_fire_and_shock_to_the_end():
    """Three-turn skirmishes: the listed actions include fire, the assault declaration, the APCs, the shocks and
    every act they owe (checks, retreats, advances), and the games still end."""
    seen: set[str] = set()
    wanted = {"fire", "assaults", "commitment", "shock", "cohesion_check", "retreat", "advance", "rally"}
    for seed in range(24):                   # combat is rare in these games: play until each act has been seen
        g = play_game(RULESET, skirmish(seed, turns=3), seed)
        assert RULESET.is_over(g.game.state)
        seen |= {e["type"] for e in g.events}
        assert any(x.effect == "victory" for x in g.rulings[-1].results)
        if seed >= 11 and wanted <= seen:
            break
    assert wanted <= seen


def test_a_played_game_replays_identically_from_its_log():
    sc = skirmish(7, turns=2)
    g = play_game(RULESET, sc, 7)
    log = g.log()
    again = replay(RULESET, sc, log["events"], log["dice"], log["seed"])
    assert [r.to_dict() for r in again.rulings] == [r.to_dict() for r in g.rulings]


@pytest.fixture(scope="module")
def real_scenarios():
    from referee.logs.jsonlog import load_scenario
    return {name: load_scenario(name, ROOT) for name in ("schevardino", "borodino")}


def test_schevardino_whole_games(real_scenarios):
    for seed in range(3):
        g = play_game(RULESET, real_scenarios["schevardino"], seed)
        assert RULESET.is_over(g.game.state) and g.game.state.turn == 5
        v = g.game.state.victory
        assert v["condition"] == "schevardino_redoubt" and v["winner"] in ("French", "Russian", None)


def test_borodino_first_turn(real_scenarios):
    g = play_game(RULESET, truncate(real_scenarios["borodino"], 1), 11)
    assert RULESET.is_over(g.game.state)
    types = {e["type"] for e in g.events}
    assert {"orders", "first_marker", "draw", "move", "end_activation", "go_first", "end_phase"} <= types
