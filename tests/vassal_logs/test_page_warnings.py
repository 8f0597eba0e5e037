"""The page's ``POST /replays`` answers with the log's warnings: the sentences ``referee check`` prints as
``warning: …`` (a die's chat report that disagrees with the die's own record, a turn file ruled from a save as
it stands, a first act illegal where the save's turn track stands), the reader's one list, each sentence as
``referee check`` prints it.  Before, the answer carried none and the page showed none."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.cli import main

from .recordings import fixture
from .test_vlog_dice import MODULE, edited

pytestmark = pytest.mark.slow     # loads the Schevardino scenario

SAMPLE_JSON = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "small-inline.yaml"
UNMOVED, TURN_UNMOVED = fixture("from-save-t1-unmoved.vsav"), fixture("from-save-russian-unmoved.vlog")


def printed_warnings(capsys, *args: str) -> list[str]:
    """The warnings ``referee check`` prints (stderr's ``warning: …`` lines), without their prefix."""
    assert main(["check", *args]) == 0
    err = capsys.readouterr().err
    assert all(line.startswith("warning: ") for line in err.splitlines()), err
    return [line.removeprefix("warning: ") for line in err.splitlines()]


def post_replay(client: FlaskClient, files: list[tuple[Path, str]]) -> dict:
    opened = [(path.open("rb"), name) for path, name in files]
    try:
        with MODULE.open("rb") as m:
            created = client.post("/api/v1/replays", data={"log": opened, "module": (m, MODULE.name)},
                                  content_type="multipart/form-data")
    finally:
        for f, _ in opened:
            f.close()
    assert created.status_code == 201, created.json
    return created.json


def test_an_edited_die_report_is_a_warning_of_the_page_s_replay(client: FlaskClient, tmp_path: Path, capsys):
    vlog = edited(tmp_path)
    said = "step 5: the chat says d10 = 7, but the die recorded 2: ruled on 2, the die's own record"
    assert printed_warnings(capsys, str(vlog), "--module", str(MODULE)) == [said]
    created = post_replay(client, [(vlog, vlog.name)])
    assert created["warnings"] == [said]
    # The rulings are the die's record, as before.
    got = client.get(f"/api/v1/replays/{created['id']}")
    assert got.status_code == 200 and got.json["rulings"][4]["rolls"][0]["natural"] == 2


def test_a_turn_file_sent_after_its_save_is_warned_of_as_check_from_warns(client: FlaskClient, capsys):
    """The save's track and the file's first act disagree: the two sentences ``referee check --from`` prints,
    in its order, the save named as it was sent."""
    printed = printed_warnings(capsys, "--from", str(UNMOVED), str(TURN_UNMOVED), "--module", str(MODULE))
    assert [w[:60] for w in printed] == [
        "ruled from from-save-t1-unmoved.vsav as it stands: Turn 1: C",
        "the first act (VASSAL step 1 of from-save-russian-unmoved.vl"]
    created = post_replay(client, [(UNMOVED, UNMOVED.name), (TURN_UNMOVED, TURN_UNMOVED.name)])
    assert created["warnings"] == printed


def test_a_file_name_in_a_warning_comes_back_as_sent(client: FlaskClient):
    """A save's name is the player's: it is text in the answer (the page puts it in as text, never markup)."""
    name = "turn<img src=x onerror=alert(1)>.vsav"
    created = post_replay(client, [(UNMOVED, name), (TURN_UNMOVED, TURN_UNMOVED.name)])
    assert created["warnings"][0].startswith(f"ruled from {name} as it stands: Turn 1: Command Activation")


def test_a_log_with_nothing_to_warn_of_answers_an_empty_list(client: FlaskClient):
    created = client.post("/api/v1/replays", data=SAMPLE_JSON.read_bytes(), content_type="application/yaml")
    assert created.status_code == 201, created.json
    assert created.json["warnings"] == []
    assert json.loads(created.get_data())["warnings"] == []
