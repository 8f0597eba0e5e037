"""`referee serve`'s server (waitress): kept-alive connections, bad HTTP, large answers, slow clients."""
from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from live import Server
from referee.service import server as http_server
from service_play import players_events, submitter
from service_scenario import SMALL


def test_kept_alive_connections_beyond_threads_are_all_served(tmp_path: Path) -> None:
    """Twelve clients each keep one connection busy with a whole game, on a worker started with --threads 2:
    a connection never waits for another to close, and every submission is ruled and stored once."""
    events = players_events(1)
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
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
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            answer = b""
            while chunk := sock.recv(4096):             # the refusal, then the server closes
                answer += chunk
        assert answer.split(b" ", 2)[1] == b"400" and b'"code":"bad_request"' in answer, answer[:300]
        for _ in range(5):                      # clients that connect and vanish, mid-request or before one
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
                sock.sendall(b"POST /api/v1/games HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
        status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"})
        assert status == 201
        status, view = server.request("GET", f"/api/v1/games/{game['id']}", token=game["tokens"]["Russian"])
        assert status == 200 and view["side"] == "Russian"
        status, body = server.request("GET", f"/api/v1/games/{game['id']}", token="wrong")
        assert status == 401 and body["error"]["code"] == "invalid_token"


def test_a_check_through_the_server_answers_the_whole_log_the_command_line_would(tmp_path: Path) -> None:
    """The checking worker's answer crosses a socket pair into the server and out through the server, which
    writes only ``bytes``: a 1.1 MB answer must arrive whole, and be what the same request gives in-process."""
    from referee.service import create_app

    sample = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "sample-borodino.json"
    body = json.loads(sample.read_text())
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        status, answer = server.request("POST", "/api/v1/check", body, timeout=300)
    assert status == 200 and len(answer["rulings"]) == len(body["events"])
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'in-process.sqlite'}", "TESTING": True,
                      "CHECK_BUDGET": 300.0})
    assert app.test_client().post("/api/v1/check", json=body).json == answer


def _slow_clients(port: int, each: int) -> list[socket.socket]:
    """``each`` clients that sent a body's headers (Content-Length 1000) and ``each`` that sent half a header."""
    out = []
    for i in range(2 * each):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if i < each:
            sock.sendall(b"POST /api/v1/games/slow/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                         b"\r\nAuthorization: Bearer x\r\nContent-Length: 1000\r\n\r\n{")
        else:
            sock.sendall(b"POST /api/v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        out.append(sock)
    return out


def test_slow_clients_hold_no_thread_of_the_application(tmp_path: Path) -> None:
    """Eight clients sending a body a byte at a time held all eight request slots of the earlier server (the
    body was read inside the slot): players timed out.  Now 32 slow-body and 32 slow-header clients, on a server
    with two threads, leave every player's request answered at once."""
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", threads=2) as server:
        status, game = server.request("POST", "/api/v1/games", {"scenario": SMALL, "dice": "players"})
        assert status == 201
        slow = _slow_clients(server.port, 32)
        try:
            for _ in range(4):
                for sock in slow:
                    sock.sendall(b"a")
                started = time.monotonic()
                status, view = server.request("GET", f"/api/v1/games/{game['id']}", token=game["tokens"]["French"],
                                              timeout=5)
                assert status == 200 and view["side"] == "French"
                assert time.monotonic() - started < 1.0
                time.sleep(0.5)
        finally:
            for sock in slow:
                sock.close()


def test_a_request_trickling_under_the_minimum_rate_is_dropped(tmp_path: Path) -> None:
    """waitress's idle timeout restarts on every byte: a byte a second kept a connection forever.  The whole
    request now has a deadline and a minimum rate (server.Bounds): a trickle is dropped after the grace."""
    env = {"REFEREE_MIN_RATE": "100", "REFEREE_HEADER_DEADLINE": "3", "REFEREE_REQUEST_DEADLINE": "60"}
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", threads=2, env=env) as server:
        body_sock, header_sock = _slow_clients(server.port, 1)
        closed: dict[str, float] = {}
        started = time.monotonic()
        while len(closed) < 2 and time.monotonic() - started < 20:
            for name, sock in (("body", body_sock), ("header", header_sock)):
                if name in closed:
                    continue
                try:
                    sock.sendall(b"a")
                    sock.settimeout(0.01)
                    if sock.recv(1) == b"":
                        closed[name] = time.monotonic() - started
                except socket.timeout:
                    pass
                except OSError:
                    closed[name] = time.monotonic() - started
            time.sleep(0.5)
        body_sock.close()
        header_sock.close()
    assert set(closed) == {"body", "header"}, closed
    assert closed["header"] < 6.5                    # the header deadline (3 s) and the maintenance pass (1 s)
    assert closed["body"] < 8.5                      # the rate's grace (5 s), then 100 bytes/s


@given(st.floats(0, 1000), st.integers(0, 10 ** 9), st.booleans())
def test_bounds_drop_exactly_what_is_late_or_slow(elapsed: float, received: int, headers_done: bool) -> None:
    bounds = http_server.Bounds(10.0, 120.0, 4096.0)
    why = bounds.overdue(elapsed, received, headers_done)
    late = (not headers_done and elapsed > 10.0) or elapsed > 120.0
    slow = elapsed > http_server.RATE_GRACE and received < 4096.0 * elapsed
    assert (why is not None) == (late or slow)


def test_the_io_loop_asks_a_channel_that_is_not_lingering_waitress_own_readable_and_writable() -> None:
    """The I/O loop asks every open channel readable() and writable() on every pass: an override on the channel's
    class (a Python call through super() for each of 32 kept-alive clients, several passes a request) took the
    closed-loop submissions from about 1,000/s to about 400/s.  Only a lingering channel answers otherwise."""
    from waitress.channel import HTTPChannel

    from referee.service.server import _Channel

    assert _Channel.readable is HTTPChannel.readable and _Channel.writable is HTTPChannel.writable
