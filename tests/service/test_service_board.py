"""Board pictures of a Musket & Pike game: two-hex units drawn at their true shape over both their hexes; the
page's board (placements, counter sheet, geometry) and the page's routes (referee/service/replay_view.py)."""
from __future__ import annotations

import io
import json
import pytest
from pathlib import Path

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image

from modulebuilder.hexgrid import add_hours
from referee.engine.replay import replay
from referee.logs import read_log
from referee.report import ruling_lines, words_for
from referee.service import board, scenarios

# (unit, L, R) from scenarios/mp-sample.yaml: R is L's neighbour at hour facing+3 (facing.py right_half).
TWO_HEX = [("sw-yellow-brigade", "0408", "0508"),    # facing 12: R east of L
           ("im-tercio-coronini", "0503", "0403")]   # facing 6: R west of L (the counter turned half round)


def test_mp_board_png_covers_both_halves_of_two_hex_units(client: FlaskClient) -> None:
    created = client.post("/api/v1/games", json={"scenario": "mp-sample", "dice": "players"})
    assert created.status_code == 201, created.json
    game = created.json
    resp = client.get(f"/api/v1/games/{game['id']}/board.png",
                      headers={"Authorization": f"Bearer {game['tokens']['Swedish']}"})
    assert resp.status_code == 200 and resp.mimetype == "image/png"
    picture = Image.open(io.BytesIO(resp.data)).convert("RGB")

    scenario = scenarios.resolve("mp-sample")
    art = board._art_for(scenario)
    assert art.back == "shaken"                     # M&P backs: modulebuilder's back_treatment
    assert picture.size == art.base.size
    layout = art.layout
    for unit, left, right in TWO_HEX:
        placed = next(p for p in scenario.setup if p.unit == unit)
        assert layout.grid.neighbour(left, add_hours(placed.facing, 3)) == right      # the fixture's own claim
        alone = board.render(scenario, [{"id": unit, "hex": left, "facing": placed.facing}])
        for hex_id in (left, right):
            x, y = (int(v) for v in layout.center(hex_id))
            assert alone.getpixel((x, y)) != art.base.getpixel((x, y)), (unit, hex_id)   # covered by it
            assert picture.getpixel((x, y)) != art.base.getpixel((x, y)), (unit, hex_id)


def test_mp_shaken_units_show_their_back() -> None:
    scenario = scenarios.resolve("mp-sample")
    front = board.render(scenario, [{"id": "sw-yellow-brigade", "hex": "0408", "facing": 12, "formation": "normal"}])
    shaken = board.render(scenario, [{"id": "sw-yellow-brigade", "hex": "0408", "facing": 12,
                                      "formation": "shaken"}])
    assert front.tobytes() != shaken.tobytes()


# ------------------------------------------------------------------ the page's board: placements and art

def test_placements_put_each_counter_where_render_pastes_it() -> None:
    """The page draws counters where the server's own picture has them: same centre, stack order, two-hex turn."""
    scenario = scenarios.resolve("mp-sample")
    units = [{"id": p.unit, "hex": p.hex, "facing": p.facing} for p in scenario.setup if getattr(p, "hex", None)]
    placed = board.placements(scenario, units)
    assert {p["id"] for p in placed} == {u["id"] for u in units}
    art = board._art_for(scenario)
    picture = board.render(scenario, units)
    for p in placed:
        x, y = int(p["x"]), int(p["y"])
        assert picture.getpixel((x, y)) != art.base.getpixel((x, y)), p          # a counter covers its centre
    for unit, left, right in TWO_HEX:
        p = next(q for q in placed if q["id"] == unit)
        lx, ly = art.layout.center(left)
        rx, ry = art.layout.center(right)
        assert abs(p["x"] - (lx + rx) / 2) < 0.2 and abs(p["y"] - (ly + ry) / 2) < 0.2     # over both halves
        assert p["w"] == 2 * p["h"]


def test_a_stack_is_drawn_bottom_first_each_unit_shifted() -> None:
    scenario = scenarios.resolve("mp-sample")
    placed = board.placements(scenario, [{"id": "sw-yellow-brigade", "hex": "0408", "facing": 12},
                                         {"id": "im-tercio-coronini", "hex": "0408", "facing": 12}])
    # Views list the top first; the bottom one is drawn first, at the hex centre; the top one shifted up-left.
    assert [p["id"] for p in placed] == ["im-tercio-coronini", "sw-yellow-brigade"]
    assert [p["level"] for p in placed] == [0, 1]


def test_sheet_index_matches_the_sheet_picture() -> None:
    scenario = scenarios.resolve("mp-sample")
    index = board.sheet_index(scenario)
    sheet = Image.open(io.BytesIO(board.sheet_png(scenario)))
    assert sheet.size == (index["width"], index["height"])
    cell = index["cell"]
    for pid, spots in index["faces"].items():
        for x, y in spots.values():
            assert 0 <= x < index["width"] and 0 <= y < index["height"]
            assert sheet.getpixel((x + cell // 2, y + cell // 2))[3] == 255, pid          # a face is drawn there
    geometry = board.geometry(scenario)
    assert (geometry["width"], geometry["height"]) == board._art_for(scenario).base.size
    assert geometry["hexes"]["0408"] == [round(v, 1) for v in board._art_for(scenario).layout.center("0408")]


# ------------------------------------------------------------------ the page's routes (referee/service/replay_view.py)

SMALL_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "small-inline.yaml"


def _replay(client: FlaskClient) -> dict:
    resp = client.post("/api/v1/replays", data=SMALL_LOG.read_bytes(), content_type="application/yaml")
    assert resp.status_code == 201, resp.json
    return resp.json


def test_a_replay_gives_the_rulings_of_check_and_the_words_of_the_text_report(client: FlaskClient) -> None:
    created = _replay(client)
    assert created["steps"] == 13 and created["units"]["guy-a"] == {"name": "Guy a", "side": "French",
                                                                     "kind": "infantry"}
    assert {p["id"] for p in created["board"]["units"]} >= {"dumon-a", "guy-a", "psk-a"}
    body = client.get(f"/api/v1/replays/{created['id']}").json
    check = client.post("/api/v1/check", data=SMALL_LOG.read_bytes(), content_type="application/yaml").json
    assert body["rulings"] == check["rulings"]
    log = read_log(SMALL_LOG)
    out = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)
    words = words_for(log.scenario, log.ruleset)
    assert body["lines"] == [ruling_lines(r, e, words) for r, e in zip(out.rulings, out.played)]
    assert body["lines"][8][0].startswith("[8] move French Guy a → 0805 0804 0803 0802 0801: ILLEGAL")


def test_board_steps_and_where_the_moved_unit_stood(client: FlaskClient) -> None:
    key = _replay(client)["id"]
    before = client.get(f"/api/v1/replays/{key}/board?step=7").json
    after = client.get(f"/api/v1/replays/{key}/board?step=8").json          # event 7: Dumon a → 0205 0204
    assert after["before"] == {"dumon-a": "0206"}
    assert next(p for p in before["units"] if p["id"] == "dumon-a")["hex"] == "0206"
    assert next(p for p in after["units"] if p["id"] == "dumon-a")["hex"] == "0204"
    for bad in ("14", "-1", "x", ""):
        resp = client.get(f"/api/v1/replays/{key}/board?step={bad}")
        assert resp.status_code == 400 and resp.json["error"]["code"] == "bad_step", bad
    assert client.get("/api/v1/replays/nope/board?step=1").json["error"]["code"] == "replay_not_found"


def test_what_if_changes_nothing_and_gives_the_odds(client: FlaskClient) -> None:
    key = _replay(client)["id"]
    board_before = client.get(f"/api/v1/replays/{key}/board?step=6").get_data()
    rulings_before = client.get(f"/api/v1/replays/{key}").get_data()
    # Guy a's individual order after the first marker (event 6 in the log): owed, so its chance comes back.
    resp = client.post(f"/api/v1/replays/{key}/whatif",
                       json={"step": 6, "event": {"type": "individual_order", "side": "French", "unit": "guy-a"}})
    assert resp.status_code == 200, resp.json
    roll = resp.json["ruling"]["rolls"][0]
    assert (roll["natural"], roll["pass_max"], roll["p_success"]) == (None, 6, 0.7)
    assert "pass on 0–6 (70 %) — roll owed" in resp.json["lines"][1]
    # The illegal move of the log, asked before it happened: the same errors as the log's ruling.
    resp = client.post(f"/api/v1/replays/{key}/whatif",
                       json={"step": 8, "event": {"type": "move", "side": "French", "unit": "guy-a",
                                                  "path": ["0805", "0804", "0803", "0802", "0801"]}})
    assert resp.json["ruling"]["verdict"] == "illegal"
    assert resp.json["ruling"]["errors"] == json.loads(rulings_before)["rulings"][8]["errors"]
    # Events in turn: each on the position the previous one left (a unit that has moved may not move again,
    # while the second move alone is legal).
    second = {"type": "move", "side": "French", "unit": "dumon-a", "path": ["0205"]}
    resp = client.post(f"/api/v1/replays/{key}/whatif", json={"step": 7, "events": [
        {"type": "move", "side": "French", "unit": "dumon-a", "path": ["0205", "0204"]}, second]})
    assert [a["ruling"]["verdict"] for a in resp.json["answers"]] == ["legal", "illegal"]
    alone = client.post(f"/api/v1/replays/{key}/whatif", json={"step": 7, "event": second})
    assert alone.json["ruling"]["verdict"] == "legal"
    assert client.get(f"/api/v1/replays/{key}/board?step=6").get_data() == board_before
    assert client.get(f"/api/v1/replays/{key}").get_data() == rulings_before
    bad = client.post(f"/api/v1/replays/{key}/whatif", json={"step": 6, "event": {"type": "move", "unit": "xyz"}})
    assert bad.status_code == 422 and any(p.startswith("event") for p in bad.json["error"]["problems"])


def test_legal_actions_of_a_unit(client: FlaskClient) -> None:
    key = _replay(client)["id"]
    out = client.get(f"/api/v1/replays/{key}/actions?step=8&unit=guy-a").json
    assert out["count"] > 0 and all("Guy a" in a["summary"] for a in out["actions"])
    # The hexes its moves reach are the ones the illegal move's ruling offers instead (7.34), not its goal 0801.
    alternatives = client.get(f"/api/v1/replays/{key}").json["rulings"][8]["errors"][0]["alternatives"]
    normal = sorted({a["event"]["path"][-1] for a in out["actions"]
                     if a["event"]["type"] == "move" and a["event"]["mode"] == "normal"})
    assert normal == sorted(alternatives) and "0801" not in out["reach"]
    # Every legal act of the unit, not random play's bounded list: its extended moves (7.13) and facings too.
    assert set(normal) < set(out["reach"]) and {a["event"]["type"] for a in out["actions"]} >= {"move", "face"}
    assert out["count"] == len(out["actions"])
    resp = client.get(f"/api/v1/replays/{key}/actions?step=8&unit=nobody")
    assert resp.status_code == 400 and resp.json["error"]["code"] == "bad_unit"


def test_hosted_what_if_is_for_the_callers_side_and_draws_no_referee_die(client: FlaskClient) -> None:
    from service_scenario import SMALL
    game = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "referee"}).json
    fr = {"Authorization": f"Bearer {game['tokens']['French']}"}
    ask = {"event": {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}}
    resp = client.post(f"/api/v1/games/{game['id']}/whatif", json=ask, headers=fr)
    assert resp.status_code == 200 and resp.json["ruling"]["verdict"] == "legal"
    other = {"event": {"type": "orders", "side": "Russian", "under_orders": []}}
    assert client.post(f"/api/v1/games/{game['id']}/whatif", json=other, headers=fr).json["error"]["code"] \
        == "wrong_side"
    assert client.post(f"/api/v1/games/{game['id']}/whatif", json=ask).status_code == 401
    assert client.get(f"/api/v1/games/{game['id']}/actions?unit=psk-a", headers=fr).status_code == 400
    view = client.get(f"/api/v1/games/{game['id']}", headers=fr).json
    assert view["next_index"] == 0 and view["log"] == []                                  # nothing stored
    from referee.service.extension import ext
    with client.application.app_context():
        stored = ext().storage.get_game(game["id"])
        assert ext().host.current(stored).game.rolls_used == 0                            # no die drawn
    b = client.get(f"/api/v1/games/{game['id']}/board", headers=fr).json
    assert b["step"] == 0 and b["units"] and b["geometry"]["hexes"]
    # Played events: in words with printed names; the other side's orders (5.23) as type and verdict only.
    game = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"}).json
    fr = {"Authorization": f"Bearer {game['tokens']['French']}"}
    for i, (side, event) in enumerate([("French", {"type": "orders", "side": "French", "under_orders": ["dumon-a"]}),
                                       ("Russian", {"type": "orders", "side": "Russian", "under_orders": []})]):
        token = {"Authorization": f"Bearer {game['tokens'][side]}"}
        assert client.post(f"/api/v1/games/{game['id']}/events", json={"expected_index": i, "events": [event]},
                           headers=token).status_code == 200
    lines = client.get(f"/api/v1/games/{game['id']}/board", headers=fr).json["lines"]
    assert lines[0][0] == "[0] orders French UO: Dumon a: legal (5.21, 5.22)"
    assert lines[1] == ["[1] orders (Russian): legal (the rest is Russian's secret, 5.23)"]     # 5.23: hidden


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(step=st.one_of(st.integers(-5, 30), st.text(max_size=4), st.none(), st.booleans()),
       event=st.one_of(st.none(), st.text(max_size=5), st.dictionaries(
           st.sampled_from(["type", "side", "unit", "path", "units", "target", "roll"]),
           st.one_of(st.text(max_size=6), st.integers(-2, 12), st.lists(st.text(max_size=5), max_size=3)),
           max_size=5)))
def test_what_if_never_fails_with_a_500(client: FlaskClient, step: object, event: object) -> None:
    key = _replay(client)["id"]
    resp = client.post(f"/api/v1/replays/{key}/whatif", json={"step": step, "event": event})
    assert resp.status_code in (200, 400, 422), resp.json
    assert set(resp.json) == {"error"} or "ruling" in resp.json


@pytest.mark.parametrize("type_", [["move"], {"a": 1}, 7, None])
def test_what_if_with_an_event_type_that_is_not_a_string_is_a_422_not_a_500(client: FlaskClient, type_: object) -> None:
    key = _replay(client)["id"]
    resp = client.post(f"/api/v1/replays/{key}/whatif", json={"step": 3, "event": {"type": type_, "unit": "guy-a"}})
    assert resp.status_code == 422, resp.get_data()[:300]
    assert any("type" in p for p in resp.json["error"]["problems"])


def test_luck_sums_the_referees_own_chances(client: FlaskClient) -> None:
    key = _replay(client)["id"]
    luck = client.get(f"/api/v1/replays/{key}/luck").json
    rulings = client.get(f"/api/v1/replays/{key}").json["rulings"]
    rolls = [r for ruling in rulings for r in ruling["rolls"] if r.get("p_success") is not None and
             r["natural"] is not None]
    assert sum(t["rolls"] for t in luck["sides"].values()) == len(rolls)
    assert round(sum(t["expected"] for t in luck["sides"].values()), 2) == round(sum(r["p_success"] for r in rolls), 2)
    assert sum(t["actual"] for t in luck["sides"].values()) == sum(r["outcome"] == "pass" for r in rolls)
    for side, per in luck["by_purpose"].items():
        assert sum(t["rolls"] for t in per.values()) == luck["sides"][side]["rolls"]
    assert luck["table_rolls"]["French"]["rolls"] == 1 and luck["table_rolls"]["French"]["mean_natural"] == 4
