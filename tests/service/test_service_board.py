"""Board pictures of a Musket & Pike game: two-hex units drawn at their true shape over both their hexes."""
from __future__ import annotations

import io

from flask.testing import FlaskClient
from PIL import Image

from modulebuilder.hexgrid import add_hours
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
