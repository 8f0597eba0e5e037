"""The HTTP server ``referee serve`` runs: waitress, with a deadline and a minimum rate for every request.

waitress reads each request whole — headers and body — in its I/O thread, and only a complete request takes
one of the application's threads; so a client that sends slowly holds a socket and a buffer, never a thread
of the referee (docs/service.md, Slow clients).  What waitress does not bound is how long a request may take
to arrive: its ``channel_timeout`` restarts on every byte, so a byte a second keeps a connection forever.
:class:`GuardedServer` adds that bound, checked every second in the I/O thread's own maintenance pass:

* the headers must be whole within ``REFEREE_HEADER_DEADLINE`` seconds of the request's first byte;
* after ``RATE_GRACE`` seconds the request must have arrived at ``REFEREE_MIN_RATE`` bytes a second or more,
  on average since its first byte;
* the whole request must be in within ``REFEREE_REQUEST_DEADLINE`` seconds.

A request that misses one is dropped with its connection (nothing reached the application).  waitress's own
refusals (a body over the limit, a malformed request) are answered as the service's JSON errors.

For a public deployment put a reverse proxy in front (docs/service.md, Deployment); the bounds here are what
makes the embedded default hold by itself.
"""
from __future__ import annotations

import logging
import socket
import time
from typing import Any, Callable, Mapping

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import Error

from referee.service.encoding import dumps
from referee.service.errors import error_body
from referee.service.limits import CHUNKED_READ_CPU

log = logging.getLogger(__name__)

RATE_GRACE = 5.0          # seconds a request may take before its average rate is held to the minimum
CHECK_EVERY = 1.0         # seconds between two passes over the open connections

_CODES = {400: "bad_request", 413: "payload_too_large", 431: "headers_too_large", 500: "internal_error"}


class Bounds:
    """How long a request may take to arrive (the settings above)."""

    def __init__(self, header_seconds: float, request_seconds: float, min_rate: float) -> None:
        self.header_seconds = header_seconds
        self.request_seconds = request_seconds
        self.min_rate = min_rate

    def overdue(self, elapsed: float, received: int, headers_done: bool) -> str | None:
        """Why a request that began ``elapsed`` seconds ago and has sent ``received`` bytes is dropped, or None."""
        if not headers_done and elapsed > self.header_seconds:
            return f"headers not whole after {self.header_seconds:g} s"
        if elapsed > self.request_seconds:
            return f"request not whole after {self.request_seconds:g} s"
        if elapsed > RATE_GRACE and received < self.min_rate * elapsed:
            return f"{received} bytes in {elapsed:.1f} s, under {self.min_rate:g} bytes/s"
        return None


class _ChunksTooSmall(Error):
    code = 400
    reason = "Bad Request"
    api_code = "chunks_too_small"


class _TimedRequest(HTTPRequestParser):
    """waitress's request parser, remembering when the request's first byte came and how many came since, and
    refusing a chunked body whose decoding takes more than CHUNKED_READ_CPU seconds of the I/O thread's CPU
    (waitress decodes chunks in Python, so a body in tiny chunks costs seconds: docs/service.md, Security)."""

    def __init__(self, adj: Adjustments) -> None:
        super().__init__(adj)
        self.began = time.monotonic()
        self.received_bytes = 0
        self.chunk_cpu = 0.0

    def received(self, data: bytes) -> int:
        if not self.chunked:
            taken = int(super().received(data))
        else:
            started = time.thread_time()
            taken = int(super().received(data))
            self.chunk_cpu += time.thread_time() - started
            if self.chunk_cpu > CHUNKED_READ_CPU and not self.completed:
                self.error = _ChunksTooSmall("the chunked body comes in pieces too small to read within this "
                                             "server's budget; send it with a Content-Length, or in chunks of a few KiB")
                self.completed = True
        self.received_bytes += taken
        return taken


class _JsonErrorTask(ErrorTask):
    """waitress's refusals (413 over the body limit, 400 malformed, 431) as ``{"error": {code, message}}``."""

    def execute(self) -> None:
        e = self.request.error
        code = getattr(e, "api_code", None) or _CODES.get(e.code, "bad_request")
        message = e.body if hasattr(e, "api_code") else f"{e.reason}: {e.body}"
        status, body, _ = error_body(e.code, code, message)
        data = dumps(body) + b"\n"
        self.status = f"{e.code} {e.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(data)
        self.write(data)


def _always() -> bool:
    return True


def _never() -> bool:
    return False


LINGER_SECONDS = 2.0
LINGER_BYTES = 32 * 1024 * 1024


class _Channel(HTTPChannel):
    """waitress's connection, which lingers before it closes: closing a socket with unread bytes makes the
    kernel reset it, and a client still sending a refused body (413 from its headers, 400) would see
    "connection reset" instead of the refusal.  So: stop sending (FIN), then read and drop what comes for at
    most LINGER_SECONDS and LINGER_BYTES, in the I/O loop like any read."""
    parser_class = _TimedRequest
    error_task_class = _JsonErrorTask
    linger_until = 0.0
    lingered = 0

    def handle_close(self) -> None:
        if self.linger_until or not self.connected or self.socket is None:
            super().handle_close()
            return
        try:
            self.socket.shutdown(socket.SHUT_WR)
        except OSError:
            super().handle_close()
            return
        self.linger_until = time.monotonic() + LINGER_SECONDS
        self.will_close = self.close_when_flushed = False
        # Set on the lingering channel alone: the I/O loop asks every channel readable() and writable() on every
        # pass, and an override on the class cost a quarter of the loop's time with 32 clients kept alive.
        self.readable = _always     # type: ignore[method-assign]
        self.writable = _never      # type: ignore[method-assign]

    def handle_read(self) -> None:
        if not self.linger_until:
            super().handle_read()
            return
        try:
            got = self.socket.recv(1 << 20)
        except OSError:
            got = b""
        self.lingered += len(got)
        if not got or self.lingered >= LINGER_BYTES or time.monotonic() > self.linger_until:
            super().handle_close()


class GuardedServer(TcpWSGIServer):
    """waitress's TCP server, which also drops requests that arrive too slowly (:class:`Bounds`)."""

    channel_class = _Channel
    bounds = Bounds(10.0, 120.0, 1024.0)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)                      # idle kept-alive connections (channel_timeout)
        clock = time.monotonic()
        for channel in list(self.active_channels.values()):
            if channel.linger_until:
                if clock > channel.linger_until:
                    HTTPChannel.handle_close(channel)
                continue
            request = channel.request                 # a request still arriving (None between requests)
            if request is None or channel.will_close:
                continue
            why = self.bounds.overdue(clock - request.began, request.received_bytes, request.headers_finished)
            if why is not None:
                log.info("dropped a slow request from %s: %s", channel.addr, why)
                channel.will_close = True


def make_servers(app: Callable[..., Any], host: str, port: int, *, threads: int, config: Mapping[str, Any],
                 _sock: Any = None) -> list[GuardedServer]:
    """The listening servers (one per address ``host`` resolves to), sharing one socket map and thread pool;
    ``servers[0].run()`` serves them all."""
    adj = Adjustments(host=host, port=port, threads=threads,
                      connection_limit=int(config["CONNECTION_LIMIT"]),
                      channel_timeout=int(config["IDLE_SECONDS"]),
                      cleanup_interval=CHECK_EVERY,
                      max_request_body_size=int(config["MAX_CONTENT_LENGTH"]),
                      asyncore_use_poll=True,              # select() stops at 1,024 descriptors
                      recv_bytes=256 * 1024,               # large bodies in a few reads, not thousands
                      ident="referee")
    bounds = Bounds(float(config["HEADER_DEADLINE"]), float(config["REQUEST_DEADLINE"]), float(config["MIN_RATE"]))
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(threads)
    socket_map: dict[int, Any] = {}
    servers = []
    for sockinfo in adj.listen:
        server = GuardedServer(app, socket_map, _sock=_sock, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo)
        server.bounds = bounds
        servers.append(server)
        if _sock is not None:
            break
    return servers


def serve(app: Any, host: str, port: int, threads: int) -> None:
    """Serve ``app`` (the Flask app, whose config holds the bounds) until interrupted."""
    servers = make_servers(app, host, port, threads=threads, config=app.config)
    for s in servers:
        log.warning("referee: serving on http://%s:%s", s.effective_host, s.effective_port)
    servers[0].run()
