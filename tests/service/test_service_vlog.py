"""POST /check of a real engine recording: the Borodino opening played in VASSAL (tests/vassal_logs), uploaded as
multipart with the module's facts file, is ruled on exactly as ``referee check`` rules on the same files."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee import cli

pytestmark = pytest.mark.slow     # loads the Borodino scenario (a few seconds)

FIXTURES = Path(__file__).resolve().parents[1] / "vassal_logs" / "fixtures"
VLOG = FIXTURES / "borodino.vlog"
MODULE = FIXTURES / "borodino-facts.vmod"

# tests/vassal_logs/test_vlog_borodino.py: what the engine recording must be ruled as.
EXPECTED = [("orders", "legal"), ("orders", "legal"), ("first_marker", "legal"), ("move", "legal"),
            ("move", "legal"), ("move", "illegal"), ("end_activation", "legal"), ("draw", "legal"),
            ("individual_order", "legal"), ("roll", "legal"), ("end_activation", "legal")]


def test_check_of_the_borodino_vlog_with_its_module_rules_as_the_cli(client: FlaskClient,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(VLOG), "--module", str(MODULE), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)

    with VLOG.open("rb") as log, MODULE.open("rb") as module:
        resp = client.post("/api/v1/check", data={"log": (log, VLOG.name), "module": (module, MODULE.name)},
                           content_type="multipart/form-data")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    body = resp.json
    assert body == printed
    assert [(r["type"], r["verdict"]) for r in body["rulings"]] == EXPECTED
    assert body["rulings"][1]["results"][-1] == {"effect": "initiative", "rule": "BOR-INITIATIVE", "side": "French"}
    assert "Damas a needs 8 MP but has 2" in body["rulings"][5]["errors"][0]["message"]


def test_the_pages_rulings_of_a_vlog_say_the_vassal_step_and_file_of_each(client: FlaskClient) -> None:
    """The page's replay words each ruling with where it comes from, as ``referee check`` does (VASSAL's Step
    forward counts steps; a series of files names each)."""
    with VLOG.open("rb") as log, MODULE.open("rb") as module:
        created = client.post("/api/v1/replays", data={"log": (log, VLOG.name), "module": (module, MODULE.name)},
                              content_type="multipart/form-data")
    assert created.status_code == 201, created.json
    lines = client.get(f"/api/v1/replays/{created.json['id']}").json["lines"]
    assert len(lines) == len(EXPECTED)
    steps = [int(re.fullmatch(rf"\[{i}\] .* — VASSAL step (\d+) of {re.escape(VLOG.name)}", ls[0])[1])
             for i, ls in enumerate(lines)]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)      # one VASSAL step per ruling, in order


def test_the_page_reads_a_games_turn_files_in_order_and_names_each_rulings_file(
        client: FlaskClient, capsys: pytest.CaptureFixture[str]) -> None:
    """Several .vlog files are the turns of one game, as ``referee check turn1.vlog turn2.vlog`` reads them."""
    turns = [FIXTURES / "pbem-turn1.vlog", FIXTURES / "pbem-turn2.vlog"]
    module = FIXTURES / "tiny.vmod"
    assert cli.main(["check", *map(str, turns), "--module", str(module), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    files = [(t.open("rb"), t.name) for t in turns]
    with module.open("rb") as m:
        created = client.post("/api/v1/replays", data={"log": files, "module": (m, module.name)},
                              content_type="multipart/form-data")
    for f, _ in files:
        f.close()
    assert created.status_code == 201, created.json
    body = client.get(f"/api/v1/replays/{created.json['id']}").json
    strip = [{k: v for k, v in r.items() if k != "vassal"} for r in printed["rulings"]]
    assert [{k: v for k, v in r.items() if k != "vassal"} for r in body["rulings"]] == strip
    named = [re.search(r" of (\S+)$", ls[0])[1] for ls in body["lines"]]
    assert set(named) == {"pbem-turn1.vlog", "pbem-turn2.vlog"}
    assert named == sorted(named)                                   # turn 1's rulings, then turn 2's
    wrong = client.post("/api/v1/replays", data={"log": [(turns[0].open("rb"), "a.vlog"),
                                                         (io.BytesIO(b"{}"), "b.json")]},
                        content_type="multipart/form-data")
    assert wrong.status_code == 422 and "b.json" in wrong.json["error"]["problems"][0]
