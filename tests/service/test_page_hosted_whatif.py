"""A hosted game's "what if" from the caller's seat, at any position (referee/service/replay_view.py): judged
only with what that side knows there — never the other side's hidden orders (T&G 5.23, M&P 6.3.3), never the
events after the position, never a referee roll — and it changes nothing."""
from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings, strategies as st

from service_scenario import SMALL

# SMALL with a second French activation group, so that one French group's orders stay face down while the
# Russian asks (5.23: revealed only when its AG's first marker is drawn).
TWO_CORPS: dict[str, Any] = copy.deepcopy(SMALL)
TWO_CORPS["activation_groups"].append(
    {"id": "iii-corps", "name": "III Corps", "side": "French", "colour": "#3b5cab", "io_rating": 5, "markers": 2})
TWO_CORPS["units"].append(
    {"id": "ney-a", "name": "Ney a", "kind": "infantry", "side": "French", "ag": "iii-corps", "assault": 4,
     "cohesion": 5, "ma": 4, "dfe": 1, "hex": "0108", "facing": 12, "disordered": {"assault": 3, "cohesion": 4}})


def _auth(game: dict[str, Any], side: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][side]}"}


def _play(client: FlaskClient, game: dict[str, Any], moves: list[tuple[str, dict[str, Any]]]) -> None:
    for i, (side, event) in enumerate(moves):
        resp = client.post(f"/api/v1/games/{game['id']}/events", json={"expected_index": i, "events": [event]},
                           headers=_auth(game, side))
        assert resp.status_code == 200 and resp.json["rulings"][0]["verdict"] == "legal", (event, resp.json)


def _opening(french_orders: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Both sides' orders, the initiative, and the French I Corps activated first and ended: III Corps's order
    status is still face down."""
    return [("French", {"type": "orders", "side": "French", "under_orders": french_orders}),
            ("Russian", {"type": "orders", "side": "Russian", "under_orders": []}),
            ("French", {"type": "initiative", "rolls": {"French": 6}}),
            ("Russian", {"type": "roll", "side": "Russian", "roll": 1}),
            ("French", {"type": "first_marker", "side": "French", "marker": "i-corps"}),
            ("French", {"type": "end_activation", "side": "French"})]


def _game(client: FlaskClient, french_orders: list[str]) -> dict[str, Any]:
    game = client.post("/api/v1/games", json={"scenario": TWO_CORPS, "dice": "players"}).json
    _play(client, game, _opening(french_orders))
    return game


# Questions the Russian might put at that position: the first would reveal III Corps's orders (the draw of its
# marker turns them face up), the initiative total is public, the others need nothing hidden.
PROBES = [{"event": {"type": "draw", "marker": "iii-corps"}},
          {"events": [{"type": "draw", "marker": "iii-corps"}, {"type": "end_activation"}]},
          {"event": {"type": "draw", "marker": "vi-corps"}},
          {"events": [{"type": "draw", "marker": "vi-corps"},
                      {"type": "individual_order", "side": "Russian", "unit": "psk-a"}]},
          {"event": {"type": "draw", "marker": "i-corps"}},
          {"step": 2, "event": {"type": "initiative", "rolls": {"Russian": 9}}}]


def test_5_23_a_hosted_what_if_never_depends_on_the_opponents_face_down_orders(client: FlaskClient) -> None:
    """Two games alike in everything the Russian may know, differing only in the French orders of a group not
    yet activated: every Russian what-if must get the same answer in both (5.23; seed 000: «Статус … должен
    оставаться для противника тайным до того момента, когда она непосредственно активизируется»).  The old
    what-if ruled on the true state: the draw of III Corps's marker answered "under_orders" in one game and
    "no_orders" in the other."""
    ordered, unordered = _game(client, ["dumon-a", "ney-a"]), _game(client, ["dumon-a"])
    ru = [_auth(ordered, "Russian"), _auth(unordered, "Russian")]
    views = [client.get(f"/api/v1/games/{g['id']}", headers=h).json for g, h in zip((ordered, unordered), ru)]
    assert views[0]["state"] == views[1]["state"] and views[0]["next_index"] == 6      # the premise
    boards = [client.get(f"/api/v1/games/{g['id']}/board", headers=h).json for g, h in zip((ordered, unordered), ru)]
    assert {k: v for k, v in boards[0].items()} == boards[1]
    for probe in PROBES:
        answers = [client.post(f"/api/v1/games/{g['id']}/whatif", json=probe, headers=h)
                   for g, h in zip((ordered, unordered), ru)]
        assert answers[0].status_code == answers[1].status_code, probe
        assert answers[0].get_data() == answers[1].get_data(), probe
    # The draw that would turn III Corps's orders face up is refused, in words, in both games alike.
    refused = client.post(f"/api/v1/games/{ordered['id']}/whatif", json=PROBES[0], headers=ru[0])
    assert refused.status_code == 409 and refused.json["error"]["code"] == "hidden_information"
    assert "5.23" in refused.json["error"]["message"]
    # What the Russian may know is answered: its own marker's draw and its group's individual order with odds.
    own = client.post(f"/api/v1/games/{ordered['id']}/whatif", json=PROBES[3], headers=ru[0]).json
    assert [a["ruling"]["verdict"] for a in own["answers"]] == ["legal", "legal"]
    assert own["answers"][1]["ruling"]["rolls"][0]["natural"] is None                # owed: its chance, no roll
    # The French, whose secret it is, see their own orders in the same what-if.
    fr = client.post(f"/api/v1/games/{ordered['id']}/whatif", json=PROBES[0], headers=_auth(ordered, "French")).json
    assert [r["effect"] for r in fr["ruling"]["results"]] == ["under_orders"]


def test_5_23_legal_actions_from_the_callers_seat_read_no_hidden_orders(client: FlaskClient) -> None:
    ordered, unordered = _game(client, ["dumon-a", "ney-a"]), _game(client, ["dumon-a"])
    got = [client.get(f"/api/v1/games/{g['id']}/actions?unit=psk-a&step={n}", headers=_auth(g, "Russian")).get_data()
           for g in (ordered, unordered) for n in (0, 1, 6)]
    assert got[:3] == got[3:]


def test_a_hosted_what_if_at_an_earlier_position_sees_no_later_event_and_draws_no_die(client: FlaskClient) -> None:
    """Referee dice: the what-if at step 2 (before the initiative roll) is ruled with the roll owed — not with
    the roll the referee later drew — and consumes nothing; the stored game is unchanged."""
    game = client.post("/api/v1/games", json={"scenario": TWO_CORPS, "dice": "referee"}).json
    for side in ("French", "Russian"):
        assert client.post(f"/api/v1/games/{game['id']}/dice", json={"seed": f"{side} seed"},
                           headers=_auth(game, side)).status_code == 200
    moves = [("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
             ("Russian", {"type": "orders", "side": "Russian", "under_orders": []}),
             ("French", {"type": "initiative"})]
    for i, (side, event) in enumerate(moves):
        resp = client.post(f"/api/v1/games/{game['id']}/events", json={"expected_index": i, "events": [event]},
                           headers=_auth(game, side))
        assert resp.status_code == 200, resp.json
    stored_view = client.get(f"/api/v1/games/{game['id']}", headers=_auth(game, "French")).get_data()
    ask = {"step": 2, "event": {"type": "initiative"}}
    resp = client.post(f"/api/v1/games/{game['id']}/whatif", json=ask, headers=_auth(game, "French"))
    assert resp.status_code == 200 and resp.json["step"] == 2, resp.json
    assert all(r["natural"] is None for r in resp.json["ruling"]["rolls"])           # owed, not the real roll
    # At step 1 the Russian orders are not given yet: the French ask about their own event only.
    early = client.post(f"/api/v1/games/{game['id']}/whatif", headers=_auth(game, "Russian"),
                        json={"step": 1, "event": {"type": "orders", "side": "Russian", "under_orders": ["psk-a"]}})
    assert early.status_code == 200 and early.json["ruling"]["verdict"] == "legal"
    b = client.get(f"/api/v1/games/{game['id']}/board?step=1", headers=_auth(game, "Russian")).json
    assert (b["step"], b["steps"]) == (1, 3) and "geometry" not in b
    assert client.get(f"/api/v1/games/{game['id']}", headers=_auth(game, "French")).get_data() == stored_view
    from referee.service.extension import ext
    with client.application.app_context():
        stored = ext().storage.get_game(game["id"])
        assert ext().host.current(stored).game.rolls_used == 2             # the initiative's two real dice only
    for bad in (4, -1, "2", True):
        r = client.post(f"/api/v1/games/{game['id']}/whatif", json={"step": bad, "event": ask["event"]},
                        headers=_auth(game, "French"))
        assert r.status_code == 400 and r.json["error"]["code"] == "bad_step", bad
    assert client.get(f"/api/v1/games/{game['id']}/board?step=9", headers=_auth(game, "French")).status_code == 400


def test_a_what_if_cannot_pay_the_other_sides_owed_roll(client: FlaskClient) -> None:
    """Players' dice: the Russian owes its initiative die; the French cannot pay it in a what-if (it would
    rule on the Russian's part of the act)."""
    game = client.post("/api/v1/games", json={"scenario": TWO_CORPS, "dice": "players"}).json
    _play(client, game, _opening(["dumon-a"])[:3])
    resp = client.post(f"/api/v1/games/{game['id']}/whatif", json={"event": {"type": "roll", "roll": 1}},
                       headers=_auth(game, "French"))
    assert resp.status_code == 200 and resp.json["ruling"]["verdict"] == "illegal"
    assert resp.json["ruling"]["errors"][0]["code"] == "not_your_act"


def test_6_3_3_a_what_if_does_not_reveal_the_other_sides_open_order_choice(client: FlaskClient) -> None:
    """M&P 6.3.3: the Open Order choices are revealed all at once when the last side has chosen.  The Imperial
    asking "what if I choose now" after the Swedish chose would have read the Swedish picks in the results."""
    answers = []
    for swedish in (["sw-yellow-brigade"], []):
        game = client.post("/api/v1/games", json={"scenario": "mp-sample", "dice": "players"}).json
        _play(client, game, [("Swedish", {"type": "open_order_setup", "side": "Swedish", "units": swedish})])
        answers.append(client.post(f"/api/v1/games/{game['id']}/whatif", headers=_auth(game, "Imperial"),
                                   json={"event": {"type": "open_order_setup", "side": "Imperial", "units": []}}))
    assert answers[0].get_data() == answers[1].get_data()
    assert answers[0].status_code == 409 and "6.3.3" in answers[0].json["error"]["message"]


def test_the_board_at_each_step_is_the_callers_view_of_the_game_after_that_many_events(client: FlaskClient) -> None:
    """Steps on both sides of the snapshots (every 32 events), asked out of order: each is the caller's view of a
    game replayed from scratch over the first ``n`` stored events, the opponent's hidden orders hidden."""
    from service_play import players_events, submitter

    from referee.engine import actors, registry
    from referee.engine.replay import new_game
    from referee.service import board, scenarios

    events = players_events(1)
    game = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"}).json
    for i, event in enumerate(events):
        resp = client.post(f"/api/v1/games/{game['id']}/events", json={"expected_index": i, "events": [event]},
                           headers=_auth(game, submitter(event)))
        assert resp.status_code == 200, resp.json
    scenario = scenarios.resolve(SMALL)
    ruleset = registry.get(scenario.ruleset)
    for n in (40, 0, 33, 32, 31, 64, 1, len(events)):
        replayed = new_game(ruleset, scenario)
        for i, event in enumerate(events[:n]):
            _, replayed, _ = actors.step(replayed, i, event, submitter(event))
        want = board.placements(scenario, ruleset.view(replayed.state, "Russian")["units"])
        got = client.get(f"/api/v1/games/{game['id']}/board?step={n}", headers=_auth(game, "Russian")).json
        assert (got["step"], got["units"]) == (n, want), n


MARKERS = ["i-corps", "iii-corps", "vi-corps", "barrage:French", "barrage:Russian", "cga:French", "destruction"]
HEXES = ["0603", "0604", "0602", "0503", "0703", "0108", "0206"]
RUSSIAN_EVENTS = st.one_of(
    st.builds(lambda m: {"type": "draw", "marker": m}, st.sampled_from(MARKERS)),
    st.just({"type": "end_activation"}),
    st.builds(lambda r: {"type": "roll", "roll": r}, st.integers(0, 9)),
    st.builds(lambda r: {"type": "initiative", "rolls": {"Russian": r}}, st.integers(0, 9)),
    st.builds(lambda u, p: {"type": "move", "side": "Russian", "unit": u, "path": p},
              st.sampled_from(["psk-a", "psk-b"]), st.lists(st.sampled_from(HEXES), min_size=1, max_size=3)),
    st.builds(lambda u: {"type": "individual_order", "side": "Russian", "unit": u}, st.sampled_from(["psk-a", "psk-b"])),
    st.builds(lambda g: {"type": "orders", "side": "Russian", "under_orders": g},
              st.lists(st.sampled_from(["psk-a", "psk-b"]), max_size=2)))


@pytest.fixture(scope="module")
def twin_games(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The two games of the 5.23 test, made once for the property test below."""
    from referee.service import create_app
    from referee.service.extension import ext
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('twins') / 'r.sqlite'}",
                      "TESTING": True})
    client = app.test_client()
    yield client, _game(client, ["dumon-a", "ney-a"]), _game(client, ["dumon-a"])
    with app.app_context():
        ext().close()


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(step=st.one_of(st.just(6), st.integers(0, 6)), events=st.lists(RUSSIAN_EVENTS, min_size=1, max_size=4))
def test_5_23_no_russian_what_if_at_any_step_tells_the_two_games_apart(twin_games: Any, step: int,
                                                                       events: list[dict[str, Any]]) -> None:
    """Any Russian what-if, at any position, gets byte-identical answers in two games that differ only in French
    orders the Russian may not know — and never a 500."""
    client, ordered, unordered = twin_games
    body = {"step": step, "events": events}
    answers = [client.post(f"/api/v1/games/{g['id']}/whatif", json=body, headers=_auth(g, "Russian"))
               for g in (ordered, unordered)]
    assert answers[0].status_code in (200, 403, 409, 422), answers[0].get_data()[:300]
    assert (answers[0].status_code, answers[0].get_data()) == (answers[1].status_code, answers[1].get_data())
