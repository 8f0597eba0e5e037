"""Issue 12.1: the token decides the side.  Every event type of both rulesets is judged as the act of the side
whose token sent it (referee.engine.actors): an event naming the other side is 403, an act that is the other
side's (their unit, their activation, their roll) is an illegal ruling ``not_your_act`` that changes nothing."""
from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from referee.engine import actors, registry
from referee.engine.replay import new_game
from referee.service import scenarios
from service_helpers import bearer
from service_play import players_events
from service_scenario import SMALL

OTHER = {"French": "Russian", "Russian": "French", "Swedish": "Imperial", "Imperial": "Swedish"}

# One schema-valid event per Triumph & Glory type, naming a unit of ``U``'s side where the type names units.
TG_UNIT_EVENTS: dict[str, dict[str, Any]] = {
    "orders": {"under_orders": ["U"]},
    "individual_order": {"unit": "U"},
    "move": {"unit": "U", "path": ["0205"]},
    "face": {"unit": "U", "facing": 2},
    "stack_order": {"hex": "0206", "order": ["U"]},
    "reserve": {"unit": "U"},
    "cohesion_check": {"unit": "U"},
    "fire": {"units": ["U"], "target": "0603"},
    "assaults": {"assaults": [{"attackers": ["U"], "target": "0603"}]},
    "commitment": {"unit": "U"},
    "retreat": {"unit": "U", "to": "0205"},
    "advance": {"units": ["U"], "to": "0205"},
    "rally": {"unit": "U"},
    "recovery": {"unit": "U"},
    "burn_village": {"unit": "U", "village": "0304", "to": "0205"},
    "destroy_bridge": {"unit": "U", "bridge": ["0304", "0305"]},
    "fire_out": {"unit": "U", "village": "0304"},
    "reaction_fire": {"unit": "U", "target": "0603"},
    "counter_battery": {"unit": "U", "target": "0603"},
    "charge": {"unit": "U", "path": ["0205"], "target": "0603"},
    "square": {"unit": "U"},
    "counter_charge": {"unit": "U"},
    "recall": {"unit": "U"},
    "pursuit": {"units": ["U"], "to": "0205"},
    "fall_back": {"unit": "U", "to": "0205"},
    "breakthrough": {"units": ["U"], "target": ["0603"]},
    "counter_shock": {"units": ["U"], "target": ["0603"]},
    "leave_square": {"unit": "U"},
}
# The types that name no unit: their actor is their side (required), or the state's (below).
TG_SIDE_EVENTS: dict[str, dict[str, Any]] = {
    "orders_delay": {}, "first_marker": {"marker": "i-corps"}, "cga": {"ags": ["i-corps", "vi-corps"]}, "end_phase": {},
    "cinc_move": {"path": ["0107"]}, "shock": {"assault": 0}, "go_first": {"first": "French"},
    "draw": {"marker": "i-corps"}, "end_activation": {},
}
TG_UNITS = {"French": "dumon-a", "Russian": "psk-a"}
MP_UNITS = {"Swedish": "sw-yellow-brigade", "Imperial": "im-tercio-coronini"}
MP_UNIT_EVENTS: dict[str, dict[str, Any]] = {
    "move": {"unit": "U", "path": ["0404"]},
    "face": {"unit": "U", "facing": 2},
    "wheel": {"unit": "U", "facing": 2},
    "counter_march": {"unit": "U"},
    "reform": {"unit": "U", "to": "shaken"},
    "change_formation": {"unit": "U", "to": "column"},
    "formation_hit": {"unit": "U", "source": "fire"},
    "attacked": {"unit": "U", "by": "musket"},
    "morale_broken": {"unit": "U"},
    "assaults": {"assaults": [{"attackers": ["U"], "target": "0408"}]},
    "melee": {"attackers": ["U"], "target": "0408"},
    "fire": {"unit": "U", "target": "0408"},
    "enter": {"unit": "U", "hex": "0101", "facing": 2},
    "fire": {"unit": "U", "target": "0408"},
    "melee": {"attackers": ["U"], "target": "0408"},
    "open_order_setup": {"units": ["U"]},
}
MP_SIDE_EVENTS: dict[str, dict[str, Any]] = {"draw": {"wing": "im-left"}, "pass": {}, "end_activation": {},
                                            "order_change": {"to": "rally"}}


def _types(ruleset: str) -> set[str]:
    return set(registry.get(ruleset).event_schema()["$defs"]["events"]["properties"])


def test_every_event_type_of_both_rulesets_is_audited() -> None:
    """A new event type fails here until its actor is decided and tested."""
    tg = set(TG_UNIT_EVENTS) | set(TG_SIDE_EVENTS) | {"initiative", "activate_command"}
    assert tg == _types("triumph-and-glory")
    assert set(MP_UNIT_EVENTS) | set(MP_SIDE_EVENTS) == _types("musket-and-pike")
    for rs in ("triumph-and-glory", "musket-and-pike"):
        assert actors.hostable(registry.get(rs))


def _game(client: FlaskClient, scenario: Any) -> dict[str, Any]:
    resp = client.post("/api/v1/games", json={"scenario": scenario, "dice": "players"})
    assert resp.status_code == 201, resp.json
    return resp.json


def _submit(client: FlaskClient, game: dict[str, Any], side: str, index: int, events: list[dict[str, Any]]) -> Any:
    return client.post(f"/api/v1/games/{game['id']}/events", headers=bearer(game["tokens"][side]),
                       json={"expected_index": index, "events": events})


def _fill(template: dict[str, Any], unit: str) -> dict[str, Any]:
    return json.loads(json.dumps(template).replace('"U"', json.dumps(unit)))


def _refused(resp: Any, code: str = "not_your_act") -> None:
    assert resp.status_code == 200, resp.json
    ruling = resp.json["rulings"][0]
    assert ruling["verdict"] == "illegal" and [e["code"] for e in ruling["errors"]] == [code], ruling
    assert ruling["rules"] == [actors.RULE] and resp.json["next_index"] == 1


@pytest.mark.parametrize("type_", sorted(TG_UNIT_EVENTS))
def test_tg_an_act_with_the_other_sides_unit_is_not_yours(client: FlaskClient, type_: str) -> None:
    """The Russian token, naming its own side (every one of these types requires it), with a French unit."""
    game = _game(client, SMALL)
    event = {"type": type_, "side": "Russian", **_fill(TG_UNIT_EVENTS[type_], TG_UNITS["French"])}
    _refused(_submit(client, game, "Russian", 0, [event]))
    view = client.get(f"/api/v1/games/{game['id']}", headers=bearer(game["tokens"]["French"])).json
    assert view["log"][0]["verdict"] == "illegal"


@pytest.mark.parametrize("type_", sorted(set(TG_UNIT_EVENTS) | set(TG_SIDE_EVENTS) - {"draw", "end_activation"}))
def test_tg_an_event_naming_the_other_side_is_403(client: FlaskClient, type_: str) -> None:
    game = _game(client, SMALL)
    template = {**TG_UNIT_EVENTS, **TG_SIDE_EVENTS}[type_]
    event = {"type": type_, "side": "French", **_fill(template, TG_UNITS["French"])}
    resp = _submit(client, game, "Russian", 0, [event])
    assert resp.status_code == 403 and resp.json["error"]["code"] == "wrong_side", resp.json


def test_tg_activate_command_naming_the_other_side_is_403(client: FlaskClient) -> None:
    game = _game(client, "schevardino")
    sides = game["sides"]
    resp = _submit(client, game, sides[1], 0, [{"type": "activate_command", "side": sides[0],
                                                "command": "x"}])
    # The reference check (no such command) or the side: both refuse the whole submission before ruling.
    assert resp.status_code in (403, 422)
    event = {"type": "activate_command", "side": sides[0], "command": "x"}
    scenario = scenarios.resolve("schevardino")
    rs = registry.get(scenario.ruleset)
    g = new_game(rs, scenario, "players")
    assert actors.refusal(g, event, sides[1]).code == "wrong_side"
    assert actors.owner(g, event) == sides[0]


def test_tg_the_russian_token_cannot_end_a_french_activation(client: FlaskClient) -> None:
    """The exploit of issue 12.1: {"type": "end_activation"} from the Russian token ended the French
    activation, and the next French move was then ruled no_activation."""
    game = _game(client, SMALL)
    events = players_events(1)
    for i, event in enumerate(events[:6]):                 # orders, initiative, first marker: I Corps active
        assert _submit(client, game, event.get("side") or "French", i, [event]).status_code == 200
    resp = _submit(client, game, "Russian", 6, [{"type": "end_activation"}])
    assert resp.status_code == 200
    assert resp.json["rulings"][0]["errors"][0]["code"] == "not_your_act"
    move = _submit(client, game, "French", 7, [events[6]])
    assert move.json["rulings"][0]["verdict"] == "legal", move.json
    # The French side may end its own activation without naming itself.
    done = _submit(client, game, "French", 8, [{"type": "end_activation"}])
    assert done.json["rulings"][0]["verdict"] == "legal", done.json


def test_tg_either_side_may_draw_and_roll_its_own_initiative_die(client: FlaskClient) -> None:
    game = _game(client, SMALL)
    events = players_events(1)
    for i, event in enumerate(events[:2]):
        assert _submit(client, game, event["side"], i, [event]).status_code == 200
    assert _submit(client, game, "Russian", 2, [{"type": "initiative"}]).json["rulings"][0]["verdict"] == "legal"
    # Both rolls are owed: the French token cannot roll the Russian die, in a `rolls` field or a roll event.
    _both = _submit(client, game, "French", 3, [{"type": "initiative", "rolls": {"Russian": 3}}])
    assert _both.json["rulings"][0]["verdict"] == "illegal"
    r = _submit(client, game, "French", 4, [{"type": "roll", "roll": 4}])
    assert r.json["rulings"][0]["verdict"] == "legal", r.json
    again = _submit(client, game, "French", 5, [{"type": "roll", "roll": 9}])        # Russia's die
    assert again.json["rulings"][0]["errors"][0]["code"] == "not_your_act", again.json
    own = _submit(client, game, "Russian", 6, [{"type": "roll", "roll": 2}])
    assert own.json["rulings"][0]["verdict"] == "legal", own.json


def test_tg_a_roll_field_for_the_other_side_is_not_yours(client: FlaskClient) -> None:
    game = _game(client, SMALL)
    resp = _submit(client, game, "French", 0, [{"type": "initiative", "rolls": {"French": 1, "Russian": 9}}])
    _refused(resp, "not_your_roll")


def test_tg_go_first_is_the_initiative_holders_choice() -> None:
    scenario = scenarios.resolve(SMALL)
    rs = registry.get(scenario.ruleset)
    g = new_game(rs, scenario, "players")
    from dataclasses import replace
    g = replace(g, state=replace(g.state, initiative="French"))
    assert actors.owner(g, {"type": "go_first", "first": "Russian"}) == "French"
    assert actors.refusal(g, {"type": "go_first", "first": "Russian"}, "Russian").code == "not_your_act"
    assert actors.owner(g, {"type": "go_first"}) is None          # the rolls when nobody holds it: each its own


# ------------------------------------------------------------------ Musket & Pike


@pytest.mark.parametrize("type_", sorted(MP_UNIT_EVENTS))
def test_mp_an_act_with_the_other_sides_unit_is_not_yours(client: FlaskClient, type_: str) -> None:
    game = _game(client, "mp-sample")
    event = {"type": type_, **_fill(MP_UNIT_EVENTS[type_], MP_UNITS["Imperial"])}
    if type_ == "open_order_setup":
        event["side"] = "Swedish"            # required: the Swedish side choosing Imperial units
    _refused(_submit(client, game, "Swedish", 0, [event]))


@pytest.mark.parametrize("type_", sorted(set(MP_UNIT_EVENTS) | set(MP_SIDE_EVENTS)))
def test_mp_an_event_naming_the_other_side_is_403(client: FlaskClient, type_: str) -> None:
    game = _game(client, "mp-sample")
    event = {"type": type_, "side": "Imperial",
             **_fill({**MP_UNIT_EVENTS, **MP_SIDE_EVENTS}[type_], MP_UNITS["Imperial"])}
    resp = _submit(client, game, "Swedish", 0, [event])
    assert resp.status_code == 403 and resp.json["error"]["code"] == "wrong_side", resp.json


def _mp_imperial_activation(client: FlaskClient) -> dict[str, Any]:
    game = _game(client, "mp-sample")
    for i, (side, event) in enumerate([("Swedish", {"type": "open_order_setup", "side": "Swedish", "units": []}),
                                       ("Imperial", {"type": "open_order_setup", "side": "Imperial", "units": []}),
                                       ("Imperial", {"type": "draw", "wing": "im-centre"})]):
        resp = _submit(client, game, side, i, [event])
        assert resp.json["rulings"][0]["verdict"] == "legal", resp.json
    return game


@pytest.mark.parametrize("event", [
    {"type": "move", "unit": "im-tercio-coronini", "path": ["0404"]},
    {"type": "face", "unit": "im-tercio-coronini", "facing": 2},
    {"type": "end_activation"},
    {"type": "pass"},
    {"type": "order_change", "to": "rally"},
], ids=lambda e: e["type"])
def test_mp_the_swedish_token_cannot_act_in_the_imperial_activation(client: FlaskClient,
                                                                     event: dict[str, Any]) -> None:
    """The exploit of issue 12.1: the Swedish token moved, faced and ended the activation of Imperial units."""
    game = _mp_imperial_activation(client)
    _resp = _submit(client, game, "Swedish", 3, [event])
    assert _resp.json["rulings"][0]["errors"][0]["code"] == "not_your_act", _resp.json
    view = client.get(f"/api/v1/games/{game['id']}", headers=bearer(game["tokens"]["Imperial"])).json
    unit = next(u for u in view["state"]["units"] if u["id"] == "im-tercio-coronini")
    assert unit["hex"] == "0503" and view["progress"]["phase"].startswith("activation of im-centre")


def test_mp_a_draw_is_the_wings_side(client: FlaskClient) -> None:
    game = _game(client, "mp-sample")
    for i, side in enumerate(("Swedish", "Imperial")):
        _submit(client, game, side, i, [{"type": "open_order_setup", "side": side, "units": []}])
    _resp = _submit(client, game, "Swedish", 2, [{"type": "draw", "wing": "im-centre"}])
    assert _resp.json["rulings"][0]["errors"][0]["code"] == "not_your_act"


def test_a_ruleset_without_the_hook_is_refused(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The safe default: a ruleset that cannot say whose act an event is rules no hosted event, and the
    service will not host its games (its logs are still checked)."""
    real = registry.get("triumph-and-glory")

    class WithoutHook:                      # the real ruleset, minus its actor hook
        def __getattr__(self, name: str) -> Any:
            if name == "actor":
                raise AttributeError(name)
            return getattr(real, name)

    scenario = scenarios.resolve(SMALL)
    g = new_game(WithoutHook(), scenario, "players")            # type: ignore[arg-type]
    ruling, after, _ = actors.step(g, 0, {"type": "orders", "side": "French", "under_orders": []}, "French")
    assert ruling.errors[0].code == "no_actor_hook" and after is g
    monkeypatch.setattr(registry, "get", lambda rid: WithoutHook())
    resp = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"})
    assert resp.status_code == 422 and "actor hook" in resp.json["error"]["message"]
