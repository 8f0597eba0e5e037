"""Bounded work per request: what the service refuses before it parses anything (docs/service.md, Security).

* **Bodies are counted as they arrive.**  :class:`BodyLimit` (the outermost WSGI layer) reads a body that has
  no ``Content-Length`` (chunked) up to the limit and answers 413 past it, instead of letting the reader cut
  it short; a body with a ``Content-Length`` over the limit is 413 before a byte is read.
* **YAML has its own, much smaller limit** (``REFEREE_MAX_YAML_LENGTH``, 64 KiB): the pure-Python YAML
  parser costs about a hundred times JSON's CPU per byte (docs/service.md, Security); 64 KiB keeps a YAML log
  under a second.  A whole game belongs in JSON.
* **Nesting and numbers are bounded before parsing** (:func:`prescan`): a cheap scan of the bytes refuses
  integers longer than ``MAX_DIGITS`` digits, and YAML (strings taken out first) nested deeper than
  ``MAX_DEPTH``; JSON nesting is refused by orjson in C at depth 1024, and never reaches the standard library.
  The parsers' own limits are no defence: the standard library's JSON reader recurses (RecursionError) and
  converts a 4,301-digit integer only to raise ValueError; the YAML reader recurses and is slow.  A log needs
  a depth of about 6 and numbers of a few digits.

Hand-written because no library offers a pre-parse bound on nesting for both JSON and YAML; each check is a
``re``/``bytes`` operation in C, so the scan costs milliseconds for the largest body allowed.
"""
from __future__ import annotations

import re
import time
from io import BytesIO
from typing import Any, Callable, Iterable

from referee.service.encoding import dumps
from referee.service.errors import ApiError, error_body

MAX_DEPTH = 64                 # a log's deepest value is ~6 levels (log > events > event > assaults > target)
MAX_DIGITS = 300               # rolls are one digit, indices a few; a seed (a string) at most 256 characters
DEFAULT_MAX_YAML_LENGTH = 64 * 1024
READ_CHUNK = 8 * 1024           # a chunked body is read in these steps, its CPU checked after each
CHUNKED_READ_CPU = 0.25         # seconds of the reading thread's CPU a chunked body may take (BodyLimit)

_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_YAML_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'', re.DOTALL)
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN = b"0" * (MAX_DIGITS + 1)
_YAML_INDENT = re.compile(rb"^[ \t?:-]{%d,}" % (2 * MAX_DEPTH + 1), re.MULTILINE)
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")       # every byte but the brackets: deleted


def nesting_depth_exceeds(brackets: bytes, limit: int) -> bool:
    """Whether a string of brackets nests deeper than ``limit``: remove the innermost pairs ``limit`` times
    (``bytes.replace``, in C); anything still nested went deeper.  Unbalanced brackets are the parser's to
    report."""
    for _ in range(limit):
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            return False
        brackets = shorter
    return b"[]" in brackets or b"{}" in brackets


def long_number(data: bytes) -> bool:
    """Whether ``data`` has a run of more than MAX_DIGITS digits (strings included: ``translate`` and a
    substring search run at memory speed, where a regular expression is far slower on a large body)."""
    return _LONG_RUN in data.translate(_DIGITS_AS_ZERO)


def prescan(data: bytes, *, yaml: bool, where: str = "body") -> None:
    """Refuse (422) a body with an integer of more than MAX_DIGITS digits, or a YAML body nested deeper than
    MAX_DEPTH, before any parser sees it.  JSON nesting is bounded by orjson, which stops at depth 1024 in C
    (see :func:`json_depth_error`); YAML bodies are small (their own limit), so the scan below costs a few
    milliseconds.  YAML aliases are bounded by what they expand to, in the one YAML reader every log goes
    through (modulebuilder.yaml_aliases, from referee.logs.jsonlog.parse_text): counting them did not bound
    them (61 aliases, three per level, are 10^10 leaves)."""
    problems = []
    if long_number(data):
        problems.append(f"{where}: a number of more than {MAX_DIGITS} digits")
    if yaml:
        bare = _YAML_STRING.sub(b'""', data)
        if nesting_depth_exceeds(bare.translate(None, _BRACKETS), MAX_DEPTH) or _YAML_INDENT.search(bare):
            problems.append(f"{where}: nested deeper than {MAX_DEPTH} levels (a log needs about 6)")
    if problems:
        raise ApiError(422, "invalid_input", "; ".join(problems), problems=problems)


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def lone_surrogate(data: bytes) -> bool:
    """Whether a JSON text that orjson refused escapes a surrogate (orjson reads valid pairs itself, so after
    its refusal any surrogate escape is one the standard library would turn into an unencodable string)."""
    return _SURROGATE_ESCAPE.search(data) is not None


def json_depth_error(exc: Exception) -> bool:
    """Whether orjson refused a document for its nesting (it stops at depth 1024, before recursing)."""
    return "depth limit" in str(exc) or "recursion" in str(exc).lower()


def check_yaml_length(data: bytes, limit: int, where: str = "body") -> None:
    if len(data) > limit:
        raise ApiError(413, "payload_too_large",
                       f"{where}: a YAML log may be at most {limit // 1024} KiB ({len(data)} bytes sent): reading "
                       "YAML costs about a second per 100 KiB; send the log as JSON (up to the body limit)")


StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class BodyLimit:
    """WSGI middleware: a body without ``Content-Length`` (chunked) is read here, counted, and refused with
    413 past ``limit``; within it, the app sees an ordinary body with its length.

    Reading a chunked body costs the server's process CPU per chunk (gunicorn's chunk parser is Python), so a
    large body in one-byte chunks would take minutes of the submissions' CPU, from anyone (docs/service.md).  Past ``chunked_cpu`` seconds of this thread's CPU the body is refused
    (400); a body in chunks of a few KiB or more needs a few milliseconds per MiB."""

    def __init__(self, inner: WSGIApp, limit: int, chunked_cpu: float = CHUNKED_READ_CPU) -> None:
        self.inner = inner
        self.limit = limit
        self.chunked_cpu = chunked_cpu

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        length = environ.get("CONTENT_LENGTH", "")
        if length and not chunked:               # with chunked, a Content-Length means nothing (RFC 9112 6.3)
            if length.isdigit() and int(length) > self.limit:
                return _refuse(start_response, self.limit)
            return self.inner(environ, start_response)
        if chunked or environ.get("wsgi.input_terminated"):
            stream, data = environ["wsgi.input"], bytearray()
            started = time.thread_time()
            while True:
                part = stream.read(READ_CHUNK)
                if not part:
                    break
                data += part
                if len(data) > self.limit:
                    return _refuse(start_response, self.limit)
                if time.thread_time() - started > self.chunked_cpu:
                    return _refuse_fine_chunks(start_response)
            environ["wsgi.input"] = BytesIO(bytes(data))
            environ["CONTENT_LENGTH"] = str(len(data))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.inner(environ, start_response)


def _refuse_fine_chunks(start_response: StartResponse) -> Iterable[bytes]:
    status, body, _ = error_body(400, "chunks_too_small",
                                 "the chunked body comes in pieces too small to read within this server's budget; "
                                 "send it with a Content-Length, or in chunks of a few KiB")
    data = dumps(body) + b"\n"
    start_response("400 BAD REQUEST", [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
    return [data]


def _refuse(start_response: StartResponse, limit: int) -> Iterable[bytes]:
    status, body, _ = error_body(413, "payload_too_large",
                                 f"the body is over the limit of {limit} bytes (REFEREE_MAX_CONTENT_LENGTH)")
    data = dumps(body) + b"\n"
    start_response("413 REQUEST ENTITY TOO LARGE", [("Content-Type", "application/json"),
                                                    ("Content-Length", str(len(data)))])
    return [data]
