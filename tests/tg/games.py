"""Small complete Triumph & Glory games for the sequence-of-play tests: the positional helpers' 8x8 map with
commanders-in-chief, activation groups and a turn track.  Built by hand (model objects), no YAML."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from modulebuilder.model import ActivationGroup, Leader, Scenario, SideDef, TurnTrack
from referee.engine.replay import Game, new_game, step
from referee.rulesets.triumph_and_glory import RULESET
from .helpers import FR, RU, At, art, at, cav, inf, scenario

__all__ = ["FR", "RU", "at", "inf", "cav", "art", "napoleon", "kutuzov", "ag", "game_scenario", "basic",
           "play", "Play"]


def napoleon(ma: int | None = None, command_range: int = 3) -> Leader:
    return Leader(id="napoleon", name="Napoleon", side=FR, orders_rating=3, delay_rating=None, drm=-2,
                  command_range=command_range, ma=ma)


def kutuzov(delay: int | None = 4, orders_rating: int | None = 2, ma: int | None = 4,
            command_range: int = 2, drm: int = -1) -> Leader:
    return Leader(id="kutuzov", name="Kutuzov", side=RU, orders_rating=orders_rating, delay_rating=delay,
                  drm=drm, command_range=command_range, ma=ma)


def ag(id_: str, side: str = FR, io: int | None = 6, army: str | None = None, flags: Iterable[str] = (),
       markers: int = 2) -> ActivationGroup:
    return ActivationGroup(id=id_, name=id_, side=side, colour="#888888", io_rating=io, army=army,
                           flags=frozenset(flags), markers=markers)


def game_scenario(*placed: At, ags: Iterable[ActivationGroup], cincs: Mapping[str, str | None] | None = None,
                  turns: int = 2, special_rules: Iterable[str] = (), options: Mapping[str, Any] | None = None,
                  **kw: Any) -> Scenario:
    sc = scenario(*placed, ags=tuple(ags), special_rules=special_rules, options=options, **kw)
    cincs = cincs if cincs is not None else {FR: "napoleon", RU: "kutuzov"}
    return replace(sc, sides=(SideDef(FR, cinc=cincs.get(FR)), SideDef(RU, cinc=cincs.get(RU))),
                   turns=TurnTrack(1, turns))


def basic(turns: int = 2, **kw: Any) -> Scenario:
    """Two French AGs and one Russian AG facing each other across an open 8x8 map."""
    return game_scenario(
        at(napoleon(ma=8), "0207"), at(kutuzov(), "0702"),
        at(inf("fa1", ag="i-corps"), "0206"), at(inf("fa2", ag="i-corps"), "0306"),
        at(inf("fa3", ag="i-corps"), "0806"),                          # far away: its own order group
        at(cav("fb1", ag="cav"), "0107"), at(art("fc1", ag="i-corps"), "0207"),
        at(inf("r1", side=RU, ag="ru-2"), "0502", facing=6), at(inf("r2", side=RU, ag="ru-2"), "0602", facing=6),
        ags=[ag("i-corps", io=6), ag("cav", io=5), ag("ru-2", RU, io=4)], turns=turns, **kw)


class Play:
    """Feed events one by one and keep every ruling (players' dice unless a seed is given)."""

    def __init__(self, sc: Scenario, seed: str | None = None) -> None:
        self.game: Game = new_game(RULESET, sc, "referee" if seed else "players", seed)
        self.rulings: list = []

    @property
    def state(self):
        return self.game.state

    def __call__(self, type_: str, **fields: Any) -> dict[str, Any]:
        ruling, self.game, _ = step(self.game, len(self.rulings), {"type": type_, **fields})
        self.rulings.append(ruling)
        return ruling.to_dict()

    def ok(self, type_: str, **fields: Any) -> dict[str, Any]:
        r = self(type_, **fields)
        assert r["verdict"] == "legal", r
        return r


def play(sc: Scenario, seed: str | None = None) -> Play:
    return Play(sc, seed)


PREFERRED = ("end_activation", "end_phase", "draw", "first_marker", "go_first", "initiative", "orders",
             "orders_delay", "cinc_move", "cohesion_check", "reserve", "activate_command")


def skip_turn(p: Play, delay_roll: int = 0, initiative: Mapping[str, int] | None = None,
              until: str | None = None) -> None:
    """Play the rest of the current turn (or until phase ``until``) doing as little as possible (no orders, no
    moves); orders-delay rolls use ``delay_roll``, the initiative ``initiative`` (default French 5, Russian 1)."""
    start = p.state.turn
    for _ in range(500):
        if p.state.turn != start or p.state.over or p.state.phase == until:
            return
        actions = RULESET.legal_actions(p.state)
        actions.sort(key=lambda a: (PREFERRED.index(a["type"]) if a["type"] in PREFERRED else 99,
                                    len(a.get("under_orders", ()))))
        a = dict(actions[0])
        if a["type"] == "orders_delay":
            a["roll"] = delay_roll
        if a["type"] == "initiative":
            a["rolls"] = dict(initiative or {FR: 5, RU: 1})
        if a["type"] == "go_first" and "rolls" not in a and "first" not in a:
            a["rolls"] = {FR: 5, RU: 1}
        if a["type"] in ("cinc_move", "cohesion_check") and "roll" not in a:
            a["roll"] = 5
        p.ok(a.pop("type"), **a)
    raise AssertionError("turn did not end")
