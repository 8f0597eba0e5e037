"""Many clients, several server processes or instances, and crashes: no event is lost or stored twice.

Every client submits its own side's events one at a time at the index it believes is next; a 409 tells it
the current index and it tries again.  Afterwards the stored log must be exactly the acknowledged
submissions: indexes 0..n-1, each held by the side that was told it got it.
"""
from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path
from typing import Any, Callable

from flask import Flask

from live import Server
from referee.service import create_app
from referee.service.extension import ext
from referee.storage import open_storage
from service_scenario import SMALL

SIDES = ("French", "Russian")
# Schema-valid and naming real units, so each is ruled on (mostly illegal out of turn: a ruling, stored).
EVENTS = {"French": {"type": "end_phase", "side": "French"}, "Russian": {"type": "end_phase", "side": "Russian"}}

Submit = Callable[[str, int, str], tuple[int, Any]]       # (side, expected_index, token) -> (status, body)


def hammer(submit: Submit, tokens: dict[str, str], per_side: int, clients_per_side: int = 1,
           time_limit: float = 90.0) -> dict[int, str]:
    """Clients submitting concurrently until each has ``per_side // clients_per_side`` acknowledgements.
    Returns {acknowledged index: side}."""
    acked: dict[int, str] = {}
    lock = threading.Lock()
    errors: list[str] = []
    deadline = time.monotonic() + time_limit

    def client(side: str, count: int) -> None:
        expected = 0
        done = 0
        while done < count and time.monotonic() < deadline:
            status, body = submit(side, expected, tokens[side])
            if status == 200:
                with lock:
                    if expected in acked:
                        errors.append(f"index {expected} acknowledged twice")
                    acked[expected] = side
                expected = body["next_index"]
                done += 1
            elif status == 409:
                expected = body["error"]["current_index"]
            elif status != 503:                       # busy: retry the same index
                errors.append(f"{side}: HTTP {status} {body}")
                return

    threads = [threading.Thread(target=client, args=(side, per_side // clients_per_side))
               for side in SIDES for _ in range(clients_per_side)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:5]
    return acked


def assert_log_is(database_url: str, game_id: str, acked: dict[int, str], in_flight: int = 0) -> None:
    with open_storage(database_url) as storage:
        stored = storage.list_events(game_id)
    indexes = [e.index for e in stored]
    assert indexes == list(range(len(stored))), "gap or disorder in the stored log"
    for index, side in acked.items():
        assert stored[index].side == side, f"index {index}: acknowledged to {side}, stored for {stored[index].side}"
    # Submissions whose answer never arrived (the server was killed) may or may not have been stored.
    assert len(acked) <= len(stored) <= len(acked) + in_flight
    assert all(e.ruling["index"] == e.index for e in stored)


def http_submit(server: Server) -> Submit:
    local = threading.local()

    def submit(side: str, expected: int, token: str) -> tuple[int, Any]:
        if not hasattr(local, "conn"):
            local.conn = server.connection()
        try:
            return server.request("POST", f"/api/v1/games/{game_ids[server.port]}/events",
                                  {"expected_index": expected, "events": [EVENTS[side]]}, token, conn=local.conn)
        except OSError:
            local.conn.close()
            local.conn = server.connection()
            return 503, None
    return submit


game_ids: dict[int, str] = {}


def create_game(server: Server) -> dict[str, Any]:
    status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"})
    assert status == 201, game
    game_ids[server.port] = game["id"]
    return game


def test_clients_hammering_one_game_through_gunicorn(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'referee.sqlite'}"
    with Server(url, workers=2, threads=8) as server:
        game = create_game(server)
        acked = hammer(http_submit(server), game["tokens"], per_side=60, clients_per_side=3)
    assert len(acked) == 120
    assert_log_is(url, game["id"], acked)


def test_sigkill_mid_write_leaves_the_database_consistent(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'referee.sqlite'}"
    server = Server(url, workers=2, threads=4).start()
    game = create_game(server)
    acked: dict[int, str] = {}
    stop = threading.Event()

    def writer(side: str) -> None:
        submit = http_submit(server)
        expected = 0
        while not stop.is_set():
            try:
                status, body = submit(side, expected, game["tokens"][side])
            except (OSError, http.client.HTTPException):     # killed mid-answer: never acknowledged
                return
            if status == 200:
                acked[expected] = side
                expected = body["next_index"]
            elif status == 409:
                expected = body["error"]["current_index"]
            elif status == 503 and server.proc is not None and server.proc.poll() is not None:
                return                                   # the server is gone

    threads = [threading.Thread(target=writer, args=(side,)) for side in SIDES]
    try:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while len(acked) < 30 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()                                    # mid-series: requests are in flight
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
        server.stop()
    assert len(acked) >= 30
    assert_log_is(url, game["id"], acked, in_flight=len(SIDES))
    # A new server on the same database carries on from where the log really ends.
    with Server(url, workers=1, threads=2) as again:
        game_ids[again.port] = game["id"]
        with open_storage(url) as storage:
            n = storage.get_game(game["id"]).event_count
        status, body = again.request("POST", f"/api/v1/games/{game['id']}/events",
                                     {"expected_index": n, "events": [EVENTS["French"]]}, game["tokens"]["French"])
        assert status == 200 and body["next_index"] == n + 1


def test_two_app_instances_sharing_postgresql_lose_nothing(pg_server: Any) -> None:
    url = pg_server.new_database_url()
    apps: list[Flask] = [create_app({"DATABASE_URL": url}) for _ in range(2)]
    clients = [a.test_client() for a in apps]
    game = clients[0].post("/api/v1/games", json={"scenario": SMALL, "dice": "players"}).json
    turn = threading.local()

    def submit(side: str, expected: int, token: str) -> tuple[int, Any]:
        # Each thread alternates between the two instances, so both serve every side.
        turn.n = getattr(turn, "n", SIDES.index(side)) + 1
        resp = clients[turn.n % 2].post(f"/api/v1/games/{game['id']}/events",
                                        headers={"Authorization": f"Bearer {token}"},
                                        json={"expected_index": expected, "events": [EVENTS[side]]})
        return resp.status_code, resp.json

    try:
        acked = hammer(submit, game["tokens"], per_side=40, clients_per_side=2)
        assert len(acked) == 80
        assert_log_is(url, game["id"], acked)
    finally:
        for a in apps:
            with a.app_context():
                ext().close()
