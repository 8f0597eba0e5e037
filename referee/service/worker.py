"""A gunicorn worker class for the referee: one thread per kept-alive connection.

    gunicorn --worker-class referee.service.worker.ConnectionWorker 'referee.service.wsgi:app'

gunicorn's gthread worker hands every request on a kept-alive connection between two threads: its main thread
polls the idle sockets, gives a readable one to the thread pool (a Future, a queue, a wake-up), and the pool
thread gives it back after the answer (a pipe write, a callback, the socket put back in the poller).  For small
requests that dance is most of the server's CPU: profiled under bench/bench_service.py, gthread's own code
took about half of a submission's CPU once the application's part was lean (docs/service.md, Performance).

Here the main thread only accepts connections; each connection is served start to finish by its own thread,
which reads the next request with a blocking read (the GIL is released while it waits) and answers it, with
gunicorn's own HTTP parser and response writer.  ``--worker-connections`` (default 1000) bounds the open
connections; past it the worker stops accepting, and new connections wait in the listen backlog.
``--threads`` is how many requests are answered at once, in the order they arrived: the others wait their turn at
a first-come, first-served gate (``FairGate``).  Python's GIL is not fair — a thread that wants it back can
lose to others many times running — so 32 busy connections each in its own thread gave a long latency tail
(p99 ≈ 3 × the mean, measured); a few threads at once still let a group commit gather appends while one
thread flushes.  A connection never waits for a thread, so a client that keeps its connection busy cannot
starve another.  A connection idle for longer than ``--keep-alive`` seconds (at least 1 s) is
closed, and the same bound applies to a slow client's bytes, so idle or slow clients do not keep threads for
long.  Right for a service whose clients keep a few connections open (the players' programs, a reverse proxy's
pool); for thousands of mostly idle connections gthread's poller is cheaper in memory.

Only HTTP/1.x (the service speaks nothing else); TLS belongs to the reverse proxy (docs/service.md).
"""
from __future__ import annotations

import errno
import os
import selectors
import socket
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Iterator

from gunicorn import http, util
from gunicorn.http import wsgi
from gunicorn.http.body import LengthReader
from gunicorn.http.errors import NoMoreData
from gunicorn.workers import base

from referee.service import cpus
from referee.service.environ_keys import BODY_READ, CLOSE_CONNECTION, OUTSIDE_GATE
from referee.service.limits import READ_BODY
from referee.service.buffers import receive_buffer


def _parser(cfg: Any, sock: socket.socket, client: Any) -> Any:
    """gunicorn's HTTP/1.x request parser (its C parser, gunicorn_h1c, when installed: ``--http-parser``)."""
    get_parser = getattr(http, "get_parser", None)          # gunicorn >= 25
    return get_parser(cfg, sock, client) if get_parser else http.RequestParser(cfg, sock, client)


class FairGate:
    """A semaphore that lets waiters through in arrival order (``threading.Semaphore`` wakes any of them)."""

    def __init__(self, permits: int) -> None:
        self._free = permits
        self._lock = threading.Lock()
        self._waiters: deque[threading.Lock] = deque()

    def __enter__(self) -> None:
        with self._lock:
            if self._free > 0 and not self._waiters:
                self._free -= 1
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        turn.acquire()                          # released by __exit__ of the thread handing its permit over

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._free += 1


LINGER_SECONDS = 2.0
LINGER_BYTES = 32 * 1024 * 1024


def linger(sock: socket.socket) -> None:
    """Close a connection whose request was refused before its body was read (503 busy, 413, 400) so that
    the client gets the answer: closing with unread bytes makes the kernel send a reset, which can reach the
    client before it has read the refusal (it sees "connection reset" instead of a sentence).  So: stop
    sending, then read and drop what the client still sends, for at most ``LINGER_SECONDS`` and
    ``LINGER_BYTES`` (the GIL is released while waiting; a 16 MiB body costs a few ms of copying)."""
    try:
        sock.shutdown(socket.SHUT_WR)
        deadline = time.monotonic() + LINGER_SECONDS
        sink, got = bytearray(1 << 16), 0
        while got < LINGER_BYTES:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            sock.settimeout(left)
            n = sock.recv_into(sink)
            if not n:
                break
            got += n
    except OSError:
        pass


def body_reader(req: Any, sock: socket.socket, environ: dict[str, Any]) -> Any:
    """``read(length)``: a request's body of ``length`` bytes read straight from the socket into one buffer,
    for the heavy routes' large uploads (docs/service.md, Performance: the flood).

    gunicorn's reader and werkzeug's stream copy a body several times over, in C while holding the GIL:
    a 16 MiB log cost the submissions' threads ~0.1 s of GIL in pieces of several milliseconds each, which is
    where their latency tail under a flood of ``/check`` came from.  Here the bytes that came with the
    headers are taken from gunicorn's read-ahead once, the rest goes from the kernel into the buffer
    (``recv_into``, the GIL released), and the connection is closed after the answer (its reader's state is
    no longer gunicorn's to resume).  A body that ends early is returned short, as the stream would."""
    if not isinstance(getattr(req.body, "reader", None), LengthReader) or not hasattr(req.unreader, "take_buffered"):
        return None                                  # chunked, or a gunicorn that reads otherwise: its own path

    def read(length: int) -> Any:
        environ[CLOSE_CONNECTION] = True
        environ[BODY_READ] = True
        buf = receive_buffer(length)
        view = memoryview(buf)
        held = req.unreader.take_buffered()
        got = min(len(held), length)
        view[:got] = held[:got]
        try:
            while got < length:
                k = sock.recv_into(view[got:])
                if not k:
                    break
                got += k
        except OSError:
            pass                                     # a client gone or too slow: a short body, as below
        finally:
            view.release()
        return buf if got == length else bytes(buf[:got])
    return read


class ConnectionWorker(base.Worker):
    """gunicorn worker: the main thread accepts, one thread serves each connection (at most
    ``--worker-connections``)."""

    def init_process(self) -> None:
        self._slots = threading.BoundedSemaphore(max(1, int(self.cfg.worker_connections)))
        self._gate = FairGate(max(1, int(self.cfg.threads)))
        self._connections: set[threading.Thread] = set()
        self._connections_lock = threading.Lock()
        super().init_process()

    def run(self) -> None:
        self._keep_off_the_checking_cpus()
        selector = selectors.DefaultSelector()
        for listener in self.sockets:
            listener.setblocking(False)
            selector.register(listener, selectors.EVENT_READ)
        while self.alive:
            self.notify()
            if self.ppid != os.getppid():
                self.log.info("Parent changed, shutting down: %s", self)
                break
            if not self._slots.acquire(timeout=1.0):     # at the limit: leave new connections in the backlog
                continue
            accepted = False
            try:
                for key, _ in selector.select(1.0):
                    accepted = self._accept(key.fileobj)  # type: ignore[arg-type]
                    if accepted:
                        break
            finally:
                if not accepted:
                    self._slots.release()
        selector.close()
        for listener in self.sockets:
            listener.close()
        self._wait_for_connections()

    def _keep_off_the_checking_cpus(self) -> None:
        """Run this process on the CPUs the checking workers leave (referee/service/cpus.py), when the
        server's processes fit there."""
        config = getattr(self.wsgi, "config", None)
        if config is None:
            return
        try:
            placed = cpus.of_config(config)
        except ValueError as exc:
            self.log.warning("%s; the server's processes are not placed", exc)
            return
        if placed and placed[0] and int(self.cfg.workers) <= len(placed[0]):
            cpus.place(placed[0])

    @contextmanager
    def _outside_gate(self) -> Iterator[None]:
        """Give this request's place at the gate back while it waits on something that is not this process's
        CPU, and queue for it again after."""
        self._gate.__exit__(None, None, None)
        try:
            yield
        finally:
            self._gate.__enter__()

    def _accept(self, listener: socket.socket) -> bool:
        try:
            sock, client = listener.accept()
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return False
            raise
        thread = threading.Thread(target=self._serve, args=(sock, client, listener.getsockname()),
                                  name="referee-connection", daemon=True)
        with self._connections_lock:
            self._connections.add(thread)
        thread.start()
        return True

    def _wait_for_connections(self) -> None:
        """Graceful stop: the connection threads finish the request they are answering (each closes its
        connection after it), within gunicorn's graceful timeout."""
        deadline = datetime.now().timestamp() + float(self.cfg.graceful_timeout)
        while True:
            with self._connections_lock:
                left = list(self._connections)
            if not left:
                return
            remaining = deadline - datetime.now().timestamp()
            if remaining <= 0:
                return
            self.notify()
            left[0].join(min(1.0, remaining))

    def _serve(self, sock: socket.socket, client: Any, server: Any) -> None:
        req = None
        try:
            sock.setblocking(True)
            # Bounds the wait for the next request on an idle connection, and for a slow client's bytes.
            sock.settimeout(max(1.0, float(self.cfg.keepalive or 0)))
            parser = _parser(self.cfg, sock, client)
            while self.alive:
                req = next(parser)
                if not req:
                    break
                with self._gate:
                    keep, unread = self._handle(req, sock, client, server)
                if not keep:
                    if unread:
                        linger(sock)
                    break
        except (StopIteration, NoMoreData, socket.timeout):
            pass                                             # the client closed, or stayed idle too long
        except OSError as exc:
            if exc.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN):
                self.log.exception("Socket error processing request.")
        except Exception as exc:  # noqa: BLE001 — gunicorn answers a bad request (400, 431, ...) itself
            try:
                self.handle_error(req, sock, client, exc)
            except Exception:  # noqa: BLE001
                pass
        finally:
            util.close(sock)
            self._slots.release()
            with self._connections_lock:
                self._connections.discard(threading.current_thread())

    def _handle(self, req: Any, sock: socket.socket, client: Any, server: Any) -> tuple[bool, bool]:
        """Answer one request (as gunicorn's gthread worker does): whether the connection stays open, and
        whether it was refused with its body unread."""
        environ: dict[str, Any] = {}
        resp = None
        try:
            self.cfg.pre_request(self, req)
            request_start = datetime.now()
            resp, environ = wsgi.create(req, sock, client, server, self.cfg)
            environ["wsgi.multithread"] = True
            # The heavy routes wait for their worker process and read large bodies: no CPU of this process,
            # so they give their place at the gate to the requests that need it meanwhile (heavy.py).
            environ[OUTSIDE_GATE] = self._outside_gate
            reader = body_reader(req, sock, environ)
            if reader is not None:
                environ[READ_BODY] = reader
            self.nr += 1
            if self.nr >= self.max_requests:
                if self.alive:
                    self.log.info("Autorestarting worker after current request.")
                    self.alive = False
                resp.force_close()
            if not self.alive or not self.cfg.keepalive:
                resp.force_close()
            respiter = self.wsgi(environ, resp.start_response)
            if environ.get(CLOSE_CONNECTION):
                resp.force_close()                  # say so in the answer's headers: "Connection: close"
            try:
                if isinstance(respiter, environ["wsgi.file_wrapper"]):
                    resp.write_file(respiter)
                else:
                    for item in respiter:
                        resp.write(item)
                resp.close()
            finally:
                self.log.access(resp, req, environ, datetime.now() - request_start)
                if hasattr(respiter, "close"):
                    respiter.close()
            # A refusal that left the body unread (503 busy, 413) closes the connection instead of reading it.
            refused = bool(environ.get(CLOSE_CONNECTION)) and not environ.get(BODY_READ)
            return not resp.should_close() and not environ.get(CLOSE_CONNECTION), refused
        except OSError:
            util.reraise(*sys.exc_info())
        except (Exception, SystemExit):
            if resp is not None and resp.headers_sent:
                # The answer has begun: a 500 written now would corrupt it.  Close the connection instead.
                self.log.exception("Error handling request")
                return False, False
            raise
        finally:
            try:
                self.cfg.post_request(self, req, environ, resp)
            except Exception:  # noqa: BLE001
                self.log.exception("Exception in post_request hook")
        return False, False
