"""gunicorn with the service's own worker class (referee/service/worker.py): a thread per kept-alive connection."""
from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any

from live import Gunicorn
from service_play import players_events, submitter
from service_scenario import SMALL


def test_kept_alive_connections_beyond_threads_are_all_served(tmp_path: Path) -> None:
    """Twelve clients each keep one connection busy with a whole game, on a worker started with --threads 2:
    a connection never waits for another to close, and every submission is ruled and stored once."""
    events = players_events(1)
    with Gunicorn(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        failures: list[Any] = []

        def client() -> None:
            conn = server.connection(timeout=60)
            try:
                status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"},
                                              conn=conn)
                assert status == 201
                for i, event in enumerate(events):
                    status, body = server.request("POST", f"/api/v1/games/{game['id']}/events",
                                                  {"expected_index": i, "events": [event]},
                                                  game["tokens"][submitter(event)], conn=conn)
                    if status != 200 or body["next_index"] != i + 1:
                        failures.append((status, body))
                        return
                status, view = server.request("GET", f"/api/v1/games/{game['id']}", conn=conn,
                                              token=game["tokens"]["French"])
                if status != 200 or view["next_index"] != len(events) or view["status"] != "ended":
                    failures.append((status, view))
            except Exception as exc:  # noqa: BLE001 — reported below
                failures.append(exc)
            finally:
                conn.close()

        threads = [threading.Thread(target=client) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not failures, failures[:3]


def test_bad_http_and_closed_connections(tmp_path: Path) -> None:
    with Gunicorn(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 400"), answer[:100]
        for _ in range(5):                      # clients that connect and vanish, mid-request or before one
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"})
        assert status == 201
        status, view = server.request("GET", f"/api/v1/games/{game['id']}", token=game["tokens"]["Russian"])
        assert status == 200 and view["side"] == "Russian"
        status, body = server.request("GET", f"/api/v1/games/{game['id']}", token="wrong")
        assert status == 401 and body["error"]["code"] == "invalid_token"


def test_a_check_through_gunicorn_answers_the_whole_log_the_command_line_would(tmp_path: Path) -> None:
    """The checking worker's answer crosses a socket pair into the server and out through gunicorn, which
    writes only ``bytes``: a 1.1 MB answer must arrive whole, and be what the same request gives in-process."""
    from referee.service import create_app

    sample = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "sample-borodino.json"
    body = json.loads(sample.read_text())
    with Gunicorn(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        status, answer = server.request("POST", "/api/v1/check", body, timeout=300)
    assert status == 200 and len(answer["rulings"]) == len(body["events"])
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'in-process.sqlite'}", "TESTING": True,
                      "CHECK_BUDGET": 300.0})
    assert app.test_client().post("/api/v1/check", json=body).json == answer
