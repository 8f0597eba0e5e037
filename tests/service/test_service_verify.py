"""Issue 12, points 4 and 5: dice nobody chooses (a commit–reveal between the server and each side), and a
tamper-evident record that ``referee verify`` checks whole: every tampering exits 1 naming what differs."""
from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import cli
from referee.service import chain, create_app, dice
from referee.service.extension import ext
from service_helpers import bearer
from service_play import bare_events, referee_game
from service_scenario import SMALL


@pytest.fixture(scope="module")
def module_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    url = f"sqlite:///{tmp_path_factory.mktemp('verify') / 'referee.sqlite'}"
    app = create_app({"DATABASE_URL": url, "TESTING": True})
    yield app
    with app.app_context():
        ext().close()


def _submit(client: FlaskClient, game: dict[str, Any], index: int, event: dict[str, Any]) -> Any:
    side = event.get("side") or "French"
    return client.post(f"/api/v1/games/{game['id']}/events", headers=bearer(game["tokens"][side]),
                       json={"expected_index": index, "events": [event]})


def _rolls(export: dict[str, Any], key: str) -> bool:
    return any(key in r and r["natural"] is not None for e in export["events"] for r in e["ruling"]["rolls"])


@pytest.fixture(scope="module")
def played(module_app: Flask) -> dict[str, Any]:
    """A whole referee-dice game, ended, with a pass/fail roll and a table roll in it (the server's seed is
    random, so which rolls a game has varies: play until one has both); the heads each answer gave; its export."""
    client = module_app.test_client()
    for seed in range(1, 20):
        game = referee_game(client)
        heads = [game["chain"]]
        for i, event in enumerate(bare_events(seed)):
            resp = _submit(client, game, i, event)
            assert resp.status_code == 200, resp.json
            heads.append(resp.json["chain"])
        client.post(f"/api/v1/games/{game['id']}/end", headers=bearer(game["tokens"]["French"]))
        export = client.get(f"/api/v1/games/{game['id']}/export").json
        if _rolls(export, "pass_max") and _rolls(export, "modified"):
            return {"game": game, "heads": heads, "export": export}
    raise AssertionError("no game with both kinds of roll")


def _verify(tmp_path: Path, export: dict[str, Any], capsys: pytest.CaptureFixture[str], *extra: str,
            command: str = "verify") -> tuple[int, str]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    capsys.readouterr()
    code = cli.main([command, str(path), *extra])
    captured = capsys.readouterr()
    return code, captured.err + captured.out


# ------------------------------------------------------------------ the dice protocol


def test_side_seeds_are_not_taken_at_creation(client: FlaskClient) -> None:
    """Issue 12.6: seeds came only in the creating request, with the server's commitment in its answer."""
    resp = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "referee", "seeds": {"French": "x"}})
    assert resp.status_code == 422 and "POST /games/<id>/dice" in resp.json["error"]["message"]


def test_each_side_contributes_with_its_own_token_before_the_first_event(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "referee"}).json
    url = f"/api/v1/games/{game['id']}/dice"
    first = bare_events(2)[0]
    early = _submit(client, game, 0, first)
    assert early.status_code == 409 and early.json["error"]["code"] == "dice_open"
    french_seed = "vive l'empereur"
    commit = hashlib.sha256(french_seed.encode()).hexdigest()
    assert client.post(url, json={"commitment": commit}, headers=bearer(game["tokens"]["French"])).status_code == 200
    # Revealing before every side has fixed its part is refused; so is a second commitment.
    too_soon = client.post(url, json={"seed": french_seed}, headers=bearer(game["tokens"]["French"]))
    assert too_soon.status_code == 409 and too_soon.json["error"]["code"] == "dice_open"
    again = client.post(url, json={"commitment": commit}, headers=bearer(game["tokens"]["French"]))
    assert again.status_code == 409
    russian = client.post(url, json={"seed": "za rodinu"}, headers=bearer(game["tokens"]["Russian"]))
    assert russian.status_code == 200
    # The French side sees the Russian seed now that both have fixed their parts; a wrong reveal is refused.
    wrong = client.post(url, json={"seed": "vive le roi"}, headers=bearer(game["tokens"]["French"]))
    assert wrong.status_code == 422 and wrong.json["error"]["code"] == "seed_mismatch"
    assert _submit(client, game, 0, first).json["error"]["code"] == "dice_open"
    done = client.post(url, json={"seed": french_seed}, headers=bearer(game["tokens"]["French"])).json
    assert [(c["seq"], c["side"], c["kind"]) for c in done["dice"]["contributions"]] == [
        (0, "French", "commitment"), (1, "Russian", "seed"), (2, "French", "seed")]
    assert done["dice"]["waiting_for"] == []
    assert _submit(client, game, 0, first).status_code == 200
    late = client.post(url, json={"seed": "more"}, headers=bearer(game["tokens"]["Russian"]))
    assert late.status_code == 409 and late.json["error"]["code"] == "dice_fixed"


def test_a_seed_stays_hidden_from_the_other_side_until_both_are_fixed(client: FlaskClient) -> None:
    game = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "referee"}).json
    url = f"/api/v1/games/{game['id']}/dice"
    client.post(url, json={"seed": "secret"}, headers=bearer(game["tokens"]["French"]))
    seen = client.get(f"/api/v1/games/{game['id']}", headers=bearer(game["tokens"]["Russian"])).json
    assert seen["dice"]["contributions"] == [{"seq": 0, "side": "French", "kind": "seed"}]
    assert "secret" not in json.dumps(seen)


def test_every_roll_derives_from_the_server_and_both_sides(played: dict[str, Any]) -> None:
    export = played["export"]
    d = export["dice"]
    seeds = {c["side"]: c["value"] for c in d["contributions"] if c["kind"] == "seed"}
    assert set(seeds) == {"French", "Russian"}
    assert d["game_seed"] == export["log"]["seed"] == dice.game_seed(d["seed"], seeds)
    assert dice.game_seed(d["seed"], {**seeds, "Russian": "other"}) != d["game_seed"]
    assert hashlib.sha256(d["seed"].encode()).hexdigest() == d["commitment"] == played["game"]["dice_commitment"]


def test_each_answer_returns_the_chain_head(played: dict[str, Any], module_app: Flask) -> None:
    export = played["export"]
    assert [e["chain"] for e in export["events"]] == played["heads"][1:]
    assert export["chain"]["head"] == played["heads"][-1]
    game = played["game"]
    view = module_app.test_client().get(f"/api/v1/games/{game['id']}", headers=bearer(game["tokens"]["Russian"]))
    assert view.json["chain"] == played["heads"][-1]


# ------------------------------------------------------------------ referee verify


def test_an_untouched_export_verifies(played: dict[str, Any], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("verify", "verify-dice"):
        code, out = _verify(tmp_path, played["export"], capsys, "--head", played["heads"][20], command=command)
        assert code == 0 and "verified" in out, out


def _first(export: dict[str, Any], test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return next(e for e in export["events"] if test(e))


def _modified_total(x: dict[str, Any]) -> str:
    e = _first(x, lambda e: any("modified" in r and r["natural"] is not None for r in e["ruling"]["rolls"]))
    roll = next(r for r in e["ruling"]["rolls"] if "modified" in r)
    roll["modified"] += 1
    return f"events[{e['index']}]"


def _pass_max(x: dict[str, Any]) -> str:
    e = _first(x, lambda e: any("pass_max" in r for r in e["ruling"]["rolls"]))
    next(r for r in e["ruling"]["rolls"] if "pass_max" in r)["pass_max"] += 1
    return f"events[{e['index']}]"


def _results(x: dict[str, Any]) -> str:
    e = _first(x, lambda e: bool(e["ruling"]["results"]))
    e["ruling"]["results"][0]["effect"] = "eliminated"
    return f"events[{e['index']}]"


def _illegal(x: dict[str, Any]) -> str:
    e = _first(x, lambda e: e["ruling"]["verdict"] == "legal" and e["index"] > 3)
    e["ruling"]["verdict"] = "illegal"
    return f"events[{e['index']}]"


def _drop_ruling(x: dict[str, Any]) -> str:
    del x["events"][5]
    return "events[5]"


def _edit_log(x: dict[str, Any]) -> str:
    x["log"]["events"][3] = {**x["log"]["events"][3], "note": "edited"}
    return "log"


def _edit_event(x: dict[str, Any]) -> str:
    e = _first(x, lambda e: e["event"]["type"] == "move")
    e["event"]["note"] = "moved elsewhere"
    return f"events[{e['index']}]"


def _reorder(x: dict[str, Any]) -> str:
    x["events"][6], x["events"][7] = x["events"][7], x["events"][6]
    return "events[6]"


def _truncate(x: dict[str, Any]) -> str:
    del x["events"][-5:]
    del x["log"]["events"][-5:]
    return "chain"


def _natural(x: dict[str, Any]) -> str:
    e = _first(x, lambda e: any(r["natural"] is not None for r in e["ruling"]["rolls"]))
    roll = next(r for r in e["ruling"]["rolls"] if r["natural"] is not None)
    roll["natural"] = (roll["natural"] + 1) % 10
    return f"events[{e['index']}]"


def _server_seed(x: dict[str, Any]) -> str:
    x["dice"]["seed"] = "0" * 64
    return "dice.seed"


def _side_seed(x: dict[str, Any]) -> str:
    next(c for c in x["dice"]["contributions"] if c["kind"] == "seed" and c["side"] == "Russian")["value"] = "x"
    return "dice"


@pytest.mark.parametrize("tamper", [_modified_total, _pass_max, _results, _illegal, _drop_ruling, _edit_log,
                                    _edit_event, _reorder, _truncate, _natural, _server_seed, _side_seed],
                         ids=lambda f: f.__name__.strip("_"))
def test_each_tampering_is_named(played: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 tamper: Callable[[dict[str, Any]], str]) -> None:
    """Issue 12.7: a changed modified total, rewritten results, a ruling dropped or marked illegal, a cut-short
    export, edited events in the log all passed verify-dice with exit 0; reordered and truncated too."""
    export = copy.deepcopy(played["export"])
    where = tamper(export)
    code, out = _verify(tmp_path, export, capsys)
    assert code == 1, out
    assert where in out.splitlines()[0], out


def test_a_cut_short_export_with_its_chain_recomputed_fails_against_the_kept_head(
        played: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = copy.deepcopy(played["export"])
    del export["events"][30:]
    export["log"]["events"] = export["log"]["events"][:30]
    head = export["events"][-1]["chain"]
    export["chain"] = {"head": head, "events": 30, "end": chain.end_link(head, 30)}
    assert _verify(tmp_path, export, capsys)[0] == 0          # consistent in itself ...
    code, out = _verify(tmp_path, export, capsys, "--head", played["heads"][35])
    assert code == 1 and "--head" in out                     # ... but not the record the side was given


def test_a_players_dice_export_verifies(client: FlaskClient, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from service_play import players_events
    game = client.post("/api/v1/games", json={"scenario": SMALL, "dice": "players"}).json
    for i, event in enumerate(players_events(1)[:12]):
        assert _submit(client, game, i, event).status_code == 200
    client.post(f"/api/v1/games/{game['id']}/end", headers=bearer(game["tokens"]["Russian"]))
    export = client.get(f"/api/v1/games/{game['id']}/export").json
    code, out = _verify(tmp_path, export, capsys)
    assert code == 0
    # says what it verified of players' dice, and does not claim seeds for dice nobody committed to
    assert "the dice seeds match" not in out and "the seed" not in out.split(": dice: ")[0]
    assert out.splitlines()[-1] == (
        f"{tmp_path / 'export.json'}: dice: the players rolled them (VASSAL's die button, or typed) and the referee "
        "took each roll as sent: the rulings were re-run with those rolls, but no seed or commitment exists to "
        "check the rolls themselves (a .vlog's rolls are checked against the die's own record when it is read, "
        "referee check)")


def test_verify_says_what_it_checked_of_the_referee_s_dice(played: dict[str, Any], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _verify(tmp_path, played["export"], capsys)
    assert code == 0 and out.splitlines()[-1] == (
        f"{tmp_path / 'export.json'}: dice: the referee rolled them: the server's seed matches the commitment "
        "published when the game was created, every side's seed matches the commitment it sent before any was "
        "revealed, and every roll is the one those seeds give")
