"""The heavy routes' bulk bytes stay out of the submissions' way (issue 12: hosted games keep their latency
while ``/check`` is flooded with the largest bodies allowed).

* the body goes from the socket into one buffer, the GIL released (worker.body_reader), unparsed, to the
  checking worker, which makes the upload of it (logs.upload_of_body, multipart included);
* the answer comes back into a buffer the kernel zeroes (buffers.receive_buffer) and goes out in pieces
  (heavy.pieces), never one 33 MB ``bytes`` copy;
* the page's ``POST /replays`` reads and checks its log in the workers too (heavy.read_for_page).

bench/bench_heavy_io.py measures the stalls; these tests pin the behaviour."""
from __future__ import annotations

import json
import mmap
import socket
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import sys

from live import Server
from referee.service import api, buffers, create_app, heavy, logs

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"
SMALL_LOG = ROOT / "tests" / "fixtures" / "logs" / "small-inline.yaml"


def test_a_check_body_is_not_parsed_in_the_servers_process(client: FlaskClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def in_this_process(*args: object) -> None:
        raise AssertionError("the upload was parsed in the server's process")
    monkeypatch.setattr(logs, "upload_from", in_this_process)      # the worker process has its own
    monkeypatch.setattr(logs, "read", in_this_process)
    monkeypatch.setattr(api, "upload_from", in_this_process, raising=False)   # where the route once took it
    plain = client.post("/api/v1/check", data=SMALL_LOG.read_bytes(), content_type="application/yaml")
    assert plain.status_code == 200, plain.json
    form = client.post("/api/v1/check", data={"log": (SMALL_LOG.open("rb"), "small.yaml")},
                       content_type="multipart/form-data")
    assert form.status_code == 200 and form.json == plain.json


def test_a_multipart_check_without_its_file_and_an_unknown_type_answer_as_before(client: FlaskClient) -> None:
    """The errors of an upload made in the worker are the server's own: 400 missing_file, 415."""
    no_file = client.post("/api/v1/check", data={"other": "x"}, content_type="multipart/form-data")
    assert no_file.status_code == 400 and no_file.json["error"]["code"] == "missing_file", no_file.json
    other = client.post("/api/v1/check", data=b"<log/>", content_type="application/xml")
    assert other.status_code == 415 and other.json["error"]["code"] == "unsupported_media_type", other.json


def test_the_page_reads_its_upload_in_the_checking_workers(client: FlaskClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def in_this_process(*args: object) -> None:
        raise AssertionError("the page's upload was read and checked in the server's process")
    monkeypatch.setattr(logs, "parse_document", in_this_process)
    created = client.post("/api/v1/replays", data=SMALL_LOG.read_bytes(), content_type="application/yaml")
    assert created.status_code == 201, created.json
    assert client.get(f"/api/v1/replays/{created.json['id']}").status_code == 200


def test_large_receive_buffers_are_mapped_not_zeroed_bytearrays() -> None:
    small, large = buffers.receive_buffer(10), buffers.receive_buffer(buffers.LARGE)
    assert isinstance(small, bytearray) and len(small) == 10
    assert isinstance(large, mmap.mmap) and len(large) == buffers.LARGE and large[:4] == b"\0\0\0\0"


def test_pieces_give_the_answer_back_whole_in_bytes() -> None:
    body = bytearray(range(256)) * (3 * heavy.ANSWER_PIECE // 256 + 7)
    parts = list(heavy.pieces(body))
    assert all(type(p) is bytes and len(p) <= heavy.ANSWER_PIECE for p in parts)
    assert b"".join(parts) == body and len(parts) == 4
    assert list(heavy.pieces(b"")) == []


def _raw(port: int, request: bytes, shut: bool = False) -> bytes:
    """The server's whole answer to one request on a connection of its own (asked to close after it)."""
    request = request.replace(b"\r\nHost: t\r\n", b"\r\nHost: 127.0.0.1\r\nConnection: close\r\n", 1)
    with socket.create_connection(("127.0.0.1", port), timeout=300) as sock:
        sock.sendall(request)
        if shut:
            sock.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := sock.recv(1 << 16):
            out += chunk
    return out


def test_through_the_server_large_bodies_answer_as_in_process(tmp_path: Path) -> None:
    """Bodies over one receive (a 2.7 MB log, its 1.1 MB answer over buffers.LARGE) and a multipart form
    through ``referee serve``'s server answer as in-process; a body that ends before its Content-Length never
    reaches the application (the server reads requests whole): the connection is closed, with no answer."""
    sample = SAMPLE.read_bytes()
    doc = json.loads(sample)
    doc["note"] = "x" * (2 * buffers.LARGE)              # the body over LARGE too
    big = json.dumps(doc).encode()
    boundary = b"b0undary"
    form = (b"--" + boundary + b'\r\nContent-Disposition: form-data; name="log"; filename="small.yaml"\r\n'
            b"Content-Type: application/yaml\r\n\r\n" + SMALL_LOG.read_bytes() + b"\r\n--" + boundary + b"--\r\n")
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        head = (f"POST /api/v1/check HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(big)}\r\n\r\n").encode()
        answer = _raw(server.port, head + big)
        form_answer = _raw(server.port, (
            f"POST /api/v1/check HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary="
            f"{boundary.decode()}\r\nContent-Length: {len(form)}\r\n\r\n").encode() + form)
        short = _raw(server.port, b"POST /api/v1/check HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                                  b"Content-Length: 5000\r\n\r\n" + sample[:100], shut=True)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'in-process.sqlite'}", "TESTING": True,
                      "CHECK_BUDGET": 300.0})
    local = app.test_client()
    for raw, expected in ((answer, local.post("/api/v1/check", data=big, content_type="application/json")),
                          (form_answer, local.post("/api/v1/check", data=SMALL_LOG.read_bytes(),
                                                   content_type="application/yaml"))):
        status, _, rest = raw.partition(b"\r\n")
        headers, _, body = rest.partition(b"\r\n\r\n")
        assert status.startswith(b"HTTP/1.1 200"), raw[:300]
        assert int(dict(h.lower().split(b": ", 1) for h in headers.split(b"\r\n"))[b"content-length"]) == len(body)
        assert json.loads(body) == expected.json
    assert short == b"", short[:300]


def _chunked_request(port: int, body: bytes, size: int) -> bytes:
    framed = b"".join(b"%x\r\n" % len(body[i:i + size]) + body[i:i + size] + b"\r\n"
                      for i in range(0, len(body), size)) + b"0\r\n\r\n"
    return _raw(port, b"POST /api/v1/check HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n" + framed)


def test_a_chunked_body_in_tiny_chunks_is_refused_within_a_bounded_cpu(tmp_path: Path) -> None:
    """400,000 one-byte chunks cost the server's I/O thread 2.3 s of CPU to read (waitress's chunk parser is
    Python, as gunicorn's was): a 16 MiB body so cut, sent by anyone, would hold the submissions' process for
    about 100 s.  Past limits.CHUNKED_READ_CPU it is a 400; the same body in chunks of 4 KiB is read."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_service
    body = b'{"note": "' + b"y" * 400_000 + b'"}'
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        before = bench_service.server_cpu(server)
        fine = _chunked_request(server.port, body, 1)
        spent = bench_service.server_cpu(server) - before
        coarse = _chunked_request(server.port, body, 4096)
    assert fine.startswith(b"HTTP/1.1 400"), fine[:300]
    assert json.loads(fine.partition(b"\r\n\r\n")[2])["error"]["code"] == "chunks_too_small"
    assert spent < 1.5, spent                     # 0.25 s of reading, then the refusal (about 2.5 s without)
    assert coarse.startswith(b"HTTP/1.1 422"), coarse[:300]        # read whole: no scenario in it
    assert b"scenario: missing" in coarse


def test_a_refusal_before_the_body_is_read_reaches_a_client_still_sending(tmp_path: Path) -> None:
    """413 for a Content-Length over the limit is answered from the headers, and the connection closed with
    the body unread: the kernel then resets it, and a client still sending its 17 MiB saw "connection reset
    by peer" instead of the refusal.  The worker stops sending and drops what comes (worker.linger)."""
    big = b"x" * (17 * 2 ** 20)
    with Server(f"sqlite:///{tmp_path / 'r.sqlite'}", workers=1, threads=2) as server:
        answer = _raw(server.port, b"POST /api/v1/check HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                                   b"Content-Length: %d\r\n\r\n" % len(big) + big)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert json.loads(answer.partition(b"\r\n\r\n")[2])["error"]["code"] == "payload_too_large"
