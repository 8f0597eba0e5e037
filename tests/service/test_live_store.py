"""A game played live in VASSAL is stored with the game (referee/service/live.py, Storage.commit_live), on SQLite and
on PostgreSQL: a restarted service and a second process carry on where the game is, with no resend; an answer's
steps and events are stored in one transaction; stale and duplicate requests get 409 with the count held; and a
post costs the work of its new steps, however long the game (counted: steps read, events replayed, rows read)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modulebuilder.vassal.savefile import read_game
from storage.raw_db import RawDatabase
from referee.engine import actors
from referee.service import create_app
from referee.service.extension import ext
from referee.service.live import live_games
import live_moves
from live_moves import UNDO, drag
from test_live_steps import FIXTURES, hosted, play, send, start_text

SCHEVARDINO = FIXTURES / "schevardino-game.vlog"


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'referee.sqlite'}"
    return str(request.getfixturevalue("pg_server").new_database_url())


@pytest.fixture
def apps(database_url: str) -> Iterator[Callable[[], Flask]]:
    """Service processes on one database: each call is a new one (its own caches), as a restart or a second
    worker would be."""
    made: list[Flask] = []

    def new() -> Flask:
        app = create_app({"DATABASE_URL": database_url, "TESTING": True})
        made.append(app)
        return app
    yield new
    for app in made:
        with app.app_context():
            ext().close()


def stop(app: Flask) -> None:
    with app.app_context():
        ext().close()


def schevardino(client: FlaskClient) -> tuple[str, dict[str, str]]:
    r = client.post("/api/v1/games", json={"scenario": "schevardino", "dice": "players"})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"], r.get_json()["tokens"]


def one_by_one(clients: list[FlaskClient], gid: str, token: str, steps: list[list[str]], first: int = 0,
               start: str | None = None) -> list[list[str]]:
    """``steps`` sent one per request from index ``first``, the requests going to the clients in turn."""
    lines = []
    for k, step in enumerate(steps):
        body: dict[str, Any] = {"link": "a", "expected_index": first + k, "steps": [step]}
        if first + k == 0:
            body["start"] = start
        r = send(clients[k % len(clients)], gid, token, body)
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["next_index"] == first + k + 1
        lines.append(r.get_json()["lines"])
    return lines


def reference(apps: Callable[[], Flask]) -> tuple[list[list[str]], list[dict[str, Any]]]:
    """The Schevardino turn played by one process without a break: its lines and hosted events."""
    client = apps().test_client()
    gid, tokens = schevardino(client)
    lines = play(client, SCHEVARDINO, gid, tokens["French"])
    return lines, hosted(client, gid, tokens["French"])


def test_a_restarted_service_takes_the_link_s_next_step_with_no_resend(apps: Callable[[], Flask]) -> None:
    want_lines, want_log = reference(apps)
    steps = [list(s.commands) for s in read_game(SCHEVARDINO).steps]
    first = apps()
    gid, tokens = schevardino(first.test_client())
    lines = one_by_one([first.test_client()], gid, tokens["French"], steps[:4], start=start_text(SCHEVARDINO))
    stop(first)                                       # the service stops; a new one starts on the same database
    again = apps().test_client()
    lines += one_by_one([again], gid, tokens["French"], steps[4:], first=4)     # no start, no resend
    assert lines == want_lines
    assert hosted(again, gid, tokens["French"]) == want_log


def test_two_processes_serving_one_game_agree(apps: Callable[[], Flask]) -> None:
    """The link's requests reach two processes in turn (Undo included: step 3): the same lines and the same
    hosted game as one process gives."""
    want_lines, want_log = reference(apps)
    a, b = apps().test_client(), apps().test_client()
    gid, tokens = schevardino(a)
    steps = [list(s.commands) for s in read_game(SCHEVARDINO).steps]
    lines = one_by_one([a, b], gid, tokens["French"], steps, start=start_text(SCHEVARDINO))
    assert lines == want_lines
    assert hosted(a, gid, tokens["French"]) == hosted(b, gid, tokens["French"]) == want_log


def test_a_stale_or_duplicate_request_gets_409_with_the_count_held(apps: Callable[[], Flask],
                                                                    database_url: str) -> None:
    client = apps().test_client()
    gid, tokens = schevardino(client)
    steps = [list(s.commands) for s in read_game(SCHEVARDINO).steps]
    french = tokens["French"]
    assert send(client, gid, french, {"link": "a", "expected_index": 2, "start": start_text(SCHEVARDINO),
                                      "steps": steps[:1]}).get_json()["error"]["next_index"] == 0
    r = send(client, gid, french, {"link": "a", "expected_index": 3, "steps": steps[:1]})   # nothing stored yet
    assert r.status_code == 409 and r.get_json()["error"] == {
        "code": "resend", "next_index": 0, "message": "the referee has no steps of this game: send the starting "
                                                      "position and every step, from index 0"}
    assert send(client, gid, french, {"link": "a", "expected_index": 0, "start": start_text(SCHEVARDINO),
                                      "steps": steps[:2]}).status_code == 200
    for link, expected, held in [("a", 0, 2), ("a", 1, 2), ("a", 5, 2), ("b", 1, 0)]:   # behind, ahead, a new link
        r = send(client, gid, french, {"link": link, "expected_index": expected, "steps": steps[2:3]})
        assert r.status_code == 409, r.get_json()
        assert r.get_json()["error"] == {
            "code": "stale_index", "next_index": held,
            "message": f"the referee has {held} of this link's steps, not {expected}: send them from index {held}"}
    raw = RawDatabase(database_url)
    assert raw.execute("SELECT link, link_index FROM live_steps WHERE game_id = ? ORDER BY seq", (gid,)) == \
        [("a", 0), ("a", 1)]
    assert len(hosted(client, gid, french)) == 2


@pytest.mark.parametrize("table", ["events", "live_reads"])
def test_an_answer_s_steps_and_events_are_stored_together_or_not_at_all(apps: Callable[[], Flask],
                                                                         database_url: str, table: str) -> None:
    """A database failure between storing the events and storing the steps (a trigger refuses one of the two)
    leaves neither: the link sends the same step again and it is ruled once."""
    client = apps().test_client()
    gid, tokens = schevardino(client)
    steps = [list(s.commands) for s in read_game(SCHEVARDINO).steps]
    raw = RawDatabase(database_url)
    if raw.is_sqlite:
        raw.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON {table} BEGIN SELECT RAISE(ABORT, 'refused'); END")
    else:
        raw.execute("CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ "
                    "LANGUAGE plpgsql")
        raw.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION refuse()")
    body = {"link": "a", "expected_index": 0, "start": start_text(SCHEVARDINO), "steps": steps[:2]}
    r = send(client, gid, tokens["French"], body)
    assert r.status_code == 503, r.get_json()
    for name in ("live_games", "live_steps", "live_reads", "events"):
        assert raw.execute(f"SELECT COUNT(*) FROM {name} WHERE game_id = ?", (gid,)) == [(0,)], name
    raw.execute(f"DROP TRIGGER refuse ON {table}" if not raw.is_sqlite else "DROP TRIGGER refuse")
    r = send(client, gid, tokens["French"], body)
    assert r.status_code == 200 and r.get_json()["lines"] == ["[0] activate_command French: legal (SCH-COMMAND)",
                                                              "→ activated (command morand) [SCH-COMMAND]",
                                                              "[1] move French Gratien → 4314: legal (7.11)"]
    assert [g["event"]["type"] for g in hosted(client, gid, tokens["French"])] == ["activate_command", "move"]


# ------------------------------------------------------------------------------------------ work per post

def tiny_game(client: FlaskClient) -> tuple[str, dict[str, str], int]:
    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        r = client.open(path, method=method, json=body,
                        headers={"Authorization": f"Bearer {token}"} if token else {})
        return r.status_code, r.get_json()
    return live_moves.tiny_game(call)


class Work:
    """What one service process does per post, counted: steps read into the reading, events replayed by the
    engine, rows read from storage."""

    def __init__(self, app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
        self.replayed = 0
        self.rows = 0
        step = actors.step

        def counted_step(*args: Any, **kwargs: Any) -> Any:
            self.replayed += 1
            return step(*args, **kwargs)
        monkeypatch.setattr(actors, "step", counted_step)
        with app.app_context():
            storage = ext().storage
        for name in ("list_events", "live_steps", "live_reads"):
            method = getattr(storage, name)

            def counted(*args: Any, _method: Any = method, **kwargs: Any) -> Any:
                out = _method(*args, **kwargs)
                self.rows += len(out)
                return out
            monkeypatch.setattr(storage, name, counted)
        self.app = app

    def steps_read(self, gid: str) -> int:
        with self.app.app_context():
            reading = live_games().get(gid).reading
        return 0 if reading is None else reading.steps_read

    def post(self, client: FlaskClient, gid: str, token: str, body: dict[str, Any]) -> dict[str, int]:
        before = self.replayed, self.rows, self.steps_read(gid)
        r = send(client, gid, token, body)
        assert r.status_code == 200, r.get_json()
        return {"replayed": self.replayed - before[0], "rows": self.rows - before[1],
                "read": self.steps_read(gid) - before[2]}


def test_each_post_costs_its_new_steps_however_long_the_game(apps: Callable[[], Flask],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """300 moves, one per post: from the first to the last, each post reads one step, has the engine rule one
    event and reads a bounded number of rows, where the route used to read every step again at each post.  After
    a restart, the first post reads the game once (the steps, the events replayed), and the next ones are one
    step again."""
    app = apps()
    client = app.test_client()
    gid, tokens, n = tiny_game(client)
    start = start_text(UNDO)
    work = Work(app, monkeypatch)
    costs = []
    for i in range(300):
        body: dict[str, Any] = {"link": "a", "expected_index": i, "steps": [drag(i)]}
        if i == 0:
            body["start"] = start
        costs.append(work.post(client, gid, tokens["French"], body))
    assert costs[0]["read"] == 1
    assert all(c == {"replayed": 1, "rows": 0, "read": 1} for c in costs[1:]), \
        [(i, c) for i, c in enumerate(costs) if c != {"replayed": 1, "rows": 0, "read": 1}][:5]
    log = hosted(client, gid, tokens["French"])
    assert len(log) == n + 300
    assert [e["ruling"]["verdict"] for e in log[n:n + 3]] == ["legal", "illegal", "illegal"]

    stop(app)
    app = apps()                                      # restarted: its reading is rebuilt from storage, once
    client = app.test_client()
    work = Work(app, monkeypatch)
    first = work.post(client, gid, tokens["French"], {"link": "a", "expected_index": 300, "steps": [drag(300)]})
    assert first["read"] == 301 and first["replayed"] == n + 300 + 1
    for i in range(301, 310):
        assert work.post(client, gid, tokens["French"], {"link": "a", "expected_index": i,
                                                         "steps": [drag(i)]}) == {"replayed": 1, "rows": 0, "read": 1}


# ------------------------------------------------------------------------------------------ any request

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(requests=st.lists(st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 6), st.integers(0, 3),
                                   st.booleans()), min_size=1, max_size=8))
def test_any_sequence_of_requests_keeps_one_count_per_link(apps: Callable[[], Flask], database_url: str,
                                                           requests: list[tuple[str, int, int, bool]]) -> None:
    """Requests of two links, each at any index with any number of steps, with or without the starting position:
    every answer is 200 (at the link's count) or 409 naming the count held, never a 500, and storage holds each
    link's accepted steps once, in order."""
    client = apps().test_client()
    gid, tokens = schevardino(client)
    steps = [list(s.commands) for s in read_game(SCHEVARDINO).steps]
    held: dict[str, int] = {"a": 0, "b": 0}
    anything = False
    for link, expected, count, with_start in requests:
        body: dict[str, Any] = {"link": link, "expected_index": expected,
                                "steps": steps[expected:expected + count]}
        if with_start:
            body["start"] = start_text(SCHEVARDINO)
        r = send(client, gid, tokens["French"], body)
        if r.status_code == 200:
            assert expected == held[link] and (anything or with_start)
            held[link] += len(body["steps"])
            anything = True
            assert r.get_json()["next_index"] == held[link]
        else:
            assert r.status_code == 409, r.get_json()
            assert r.get_json()["error"]["next_index"] == (held[link] if anything else 0)
    raw = RawDatabase(database_url)
    rows = raw.execute("SELECT link, link_index FROM live_steps WHERE game_id = ? ORDER BY seq", (gid,))
    for link in held:
        assert [i for lk, i in rows if lk == link] == list(range(held[link]))


COMMAND = st.one_of(
    st.builds(lambda p, t: p + t, st.sampled_from(["M/", "+/", "D/", "-/", "CHAT", "CHAT* UNDO: ", "CHAT<Erin> - !",
                                                   "MutableProperty\t", ""]),
              st.text(alphabet=st.sampled_from(list("/\t;\\0123456789 -*!abdmoruvx")), max_size=30)),
    st.sampled_from([c for s in read_game(UNDO).steps for c in s.commands]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.lists(COMMAND, max_size=4), min_size=1, max_size=6))
def test_any_commands_in_a_step_get_an_answer_never_a_500(apps: Callable[[], Flask],
                                                          steps: list[list[str]]) -> None:
    """Steps of any commands (VASSAL's prefixes with any fields, and real commands out of order), on a game in
    progress: each request is answered 200 with its lines, and the steps are held."""
    client = apps().test_client()
    gid, tokens, _ = tiny_game(client)
    r = send(client, gid, tokens["French"], {"link": "a", "expected_index": 0, "start": start_text(UNDO),
                                             "steps": [drag(0)]})
    assert r.status_code == 200, r.get_json()
    for i, step in enumerate(steps, start=1):
        r = send(client, gid, tokens["French"], {"link": "a", "expected_index": i, "steps": [step]})
        assert r.status_code == 200, r.get_data(as_text=True)
        assert isinstance(r.get_json()["lines"], list)
    status = client.get(f"/api/v1/games/{gid}/vassal", headers={"Authorization": f"Bearer {tokens['French']}"})
    assert status.get_json() == {"steps": len(steps) + 1, "yours": len(steps) + 1}


def test_two_sides_posting_at_once_to_two_processes_lose_and_double_nothing(apps: Callable[[], Flask],
                                                                           database_url: str) -> None:
    """The French link's steps go to one process while the Russian link's chat goes to another, at the same time:
    the commits that meet are worked out again (or, when the other process kept winning, the link is told to send
    the step again), never stored half or twice; the French acts are ruled as one process alone rules them."""
    import threading
    _, want_log = reference(apps)
    a, b = apps().test_client(), apps().test_client()
    gid, tokens = schevardino(a)
    steps = [list(s.commands) for s in read_game(SCHEVARDINO).steps]
    assert send(a, gid, tokens["French"], {"link": "f", "expected_index": 0, "start": start_text(SCHEVARDINO),
                                           "steps": [steps[0]]}).status_code == 200
    errors: list[Any] = []
    retries: list[str] = []

    def link(client: FlaskClient, token: str, name: str, sent: list[list[str]], first: int) -> None:
        """As the link sends: a 409 with next_index sends again from there (the other process kept winning)."""
        i = first
        while i < len(sent):
            r = send(client, gid, token, {"link": name, "expected_index": i, "steps": [sent[i]]})
            if r.status_code == 200:
                i = r.get_json()["next_index"]
            elif r.status_code == 409 and r.get_json()["error"]["next_index"] == i:
                retries.append(name)
            else:
                errors.append(r.get_json())
                return

    def french() -> None:
        link(a, tokens["French"], "f", steps, 1)

    def russian() -> None:
        link(b, tokens["Russian"], "r", [[f"CHAT&lt;Bob&gt; - a word {i}"] for i in range(12)], 0)
    threads = [threading.Thread(target=french), threading.Thread(target=russian)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert errors == [], errors[:3]
    assert len(retries) < 10
    assert hosted(a, gid, tokens["French"]) == want_log
    rows = RawDatabase(database_url).execute("SELECT link, link_index FROM live_steps WHERE game_id = ? ORDER BY seq",
                                             (gid,))
    assert sorted(rows) == sorted([("f", i) for i in range(len(steps))] + [("r", i) for i in range(12)])


def test_events_ruled_on_a_state_another_process_took_back_are_refused_then_ruled_on_the_stored_events(
        apps: Callable[[], Flask]) -> None:
    """Process A keeps the state after its own events; process B takes the last one back (a VASSAL Undo) and
    stores another in its place, so the game holds as many events as before.  A's next submission at that count
    must not be ruled on A's kept state: the store refuses it (409, nothing written) and A's retry rules it on
    the stored events.  Gratien belongs to Morand's division: his move is legal only while Morand is active."""
    a, b = apps().test_client(), apps().test_client()
    gid, tokens = schevardino(a)
    auth = {"Authorization": f"Bearer {tokens['French']}"}

    def post(client: FlaskClient, index: int, event: dict[str, Any]) -> Any:
        return client.post(f"/api/v1/games/{gid}/events", json={"expected_index": index, "events": [event]},
                           headers=auth)

    morand = {"type": "activate_command", "side": "French", "command": "morand"}
    friant = {"type": "activate_command", "side": "French", "command": "friant"}
    gratien = {"type": "move", "side": "French", "unit": "fr-mr-gratien", "path": ["4314", "4214"]}
    assert post(a, 0, morand).status_code == 200                      # A keeps the state after Morand
    with b.application.app_context():
        assert ext().host.storage.take_back_events(gid, "French", 0) == 0
    assert post(b, 0, friant).status_code == 200                      # Friant in Morand's place: still 1 event
    refused = post(a, 1, gratien)
    assert refused.status_code == 409, refused.get_json()
    assert refused.get_json()["error"]["code"] == "stale_index"
    again = post(a, 1, gratien)
    assert again.status_code == 200, again.get_json()
    ruling = again.get_json()["rulings"][0]
    assert ruling["verdict"] == "illegal" and ruling["errors"][0]["code"] == "not_activated"
    assert [(g["event"]["type"], g["event"].get("command")) for g in hosted(a, gid, tokens["French"])] == [
        ("activate_command", "friant"), ("move", None)]
