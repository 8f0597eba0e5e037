"""Reading a log from a request: a JSON/YAML body (DESIGN §5) or a multipart upload (.json/.yaml/.vlog/.vsav).

The result is a checked :class:`referee.logs.Log`; every problem becomes one 4xx with one line per problem.
"""
from __future__ import annotations

import hashlib
import importlib.util
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import orjson
from flask import Request
from werkzeug.wrappers import Request as WerkzeugRequest

from referee.logs import Log, parse_log
from referee.logs.jsonlog import parse_text
from referee.logs.problems import InputError
from referee.service import limits, scenarios
from referee.service.errors import ApiError

VASSAL_SUFFIXES = (".vlog", ".vsav")
TEXT_SUFFIXES = (".json", ".yaml", ".yml")
JSON_TYPES = ("application/json", "application/yaml", "application/x-yaml", "text/yaml", "text/plain")


@dataclass(frozen=True)
class Upload:
    """A log as received: its bytes (what the replay cache is keyed on) and how to read them."""
    data: bytes
    filename: str                 # "" for a plain body
    module: bytes | None = None   # the .vmod sent with a VASSAL log, if any
    more: tuple[tuple[str, bytes], ...] = ()   # the later turn files of a game played by e-mail, in order

    @property
    def digest(self) -> str:
        h = hashlib.sha256(self.filename.encode() + b"\0" + self.data)
        if self.module is not None:
            h.update(b"\0module\0" + self.module)
        for name, data in self.more:
            h.update(b"\0more\0" + name.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()


def upload_from(request: Request) -> Upload:
    """The log of a request, without reading it yet.  415 for a body that is neither JSON/YAML nor multipart."""
    mimetype = request.mimetype or ""
    if mimetype == "multipart/form-data":
        files = request.files.getlist("log")
        if not files:
            raise ApiError(400, "missing_file", "multipart upload without a 'log' file field")
        file, later = files[0], files[1:]          # several: the turn files of one game, in order
        name = Path(file.filename or "log.json").name
        module = request.files.get("module")
        more = tuple((Path(f.filename or f"part{i + 2}.vlog").name, f.read()) for i, f in enumerate(later))
        return Upload(file.read(), name, module.read() if module is not None else None, more)
    if mimetype in JSON_TYPES or mimetype.endswith("+json"):
        return Upload(request_body(request), "")
    raise ApiError(415, "unsupported_media_type",
                   f"send the log as application/json (or YAML), or as multipart/form-data with a 'log' file; "
                   f"got {mimetype or 'no content type'!r}")


def upload_of_body(content_type: str, data: bytes) -> Upload:
    """:func:`upload_from` of a request's raw body and Content-Type, as the checking workers see it: the
    server's process forwards a heavy route's body unread (heavy.Job.content_type), so that parsing it, a
    multipart form above all, costs the submissions' process nothing.  The same uploads and the same errors
    as :func:`upload_from` (werkzeug's form limits are Flask's defaults)."""
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": content_type, "CONTENT_LENGTH": str(len(data)),
               "wsgi.input": io.BytesIO(data), "SERVER_NAME": "checking-worker", "SERVER_PORT": "0",
               "wsgi.url_scheme": "http"}
    return upload_from(WerkzeugRequest(environ))  # type: ignore[arg-type]


def request_body(request: Request) -> bytes:
    """The raw body, in one read: ``request.get_data`` reads 64 KiB at a time, which for the largest log costs
    the server's process many times the CPU of one read.  400 when the client sent less than its
    Content-Length."""
    length = request.content_length
    if length is None or getattr(request, "_cached_data", None) is not None:
        return request.get_data(cache=True)
    limit = request.max_content_length
    if limit is not None and length > limit:
        raise ApiError(413, "payload_too_large", f"the body is over the limit of {limit} bytes "
                                                 "(REFEREE_MAX_CONTENT_LENGTH)")
    stream, parts, got = request.stream, [], 0
    while got < length:
        part = stream.read(length - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    data = b"".join(parts)
    if len(data) < length:
        raise ApiError(400, "bad_request", "the body ended before its Content-Length")
    request._cached_data = data          # what get_data(cache=True) keeps: later readers get the same bytes
    return data  # type: ignore[return-value]   # a bytearray from the direct read: read-only from here on


def read(upload: Upload, max_yaml_length: int = limits.DEFAULT_MAX_YAML_LENGTH) -> Log:
    """The checked log of an upload.  JSON is read by orjson (bounded nesting, C speed); anything else is
    YAML, read only within its own, smaller limit and after limits.prescan."""
    suffix = Path(upload.filename).suffix.lower()
    if suffix in VASSAL_SUFFIXES:
        return _read_vassal(upload)
    if upload.filename and suffix not in TEXT_SUFFIXES:
        raise ApiError(415, "unsupported_format",
                       f"{upload.filename}: expected a .json or .yaml log, or a VASSAL .vlog/.vsav")
    where = upload.filename or "body"
    limits.prescan(upload.data, yaml=False, where=where)
    if suffix != ".yaml" and suffix != ".yml":
        try:          # the common case, at orjson's speed; anything else gets the full reader and its messages
            return parse_document(orjson.loads(upload.data))
        except orjson.JSONDecodeError as exc:
            if limits.json_depth_error(exc):
                raise InputError([f"{where}: nested deeper than 1024 levels (a log needs about 6)"]) from None
            if limits.lone_surrogate(upload.data):
                raise InputError([f"{where}: a lone surrogate escape (\\ud800-\\udfff without its pair) is not "
                                  "a character"]) from None
            if upload.data.lstrip()[:1] in (b"{", b"[") and len(upload.data) > max_yaml_length:
                # JSON that is broken: its message, without handing megabytes to the slow reader.
                raise InputError([f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})"]) from None
    limits.check_yaml_length(upload.data, max_yaml_length, where)
    limits.prescan(upload.data, yaml=True, where=where)
    try:
        text = upload.data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError([f"{where}: not UTF-8 text (a JSON or YAML log expected)"]) from None
    try:
        return parse_document(parse_text(text, where))
    except (RecursionError, ValueError) as exc:       # what the prescan did not foresee: still bad input
        raise InputError([f"{where}: cannot be read ({type(exc).__name__})"]) from None


def parse_document(doc: Any) -> Log:
    """Check a parsed log document, with the scenario from the per-process cache."""
    if not isinstance(doc, Mapping):
        raise InputError(["log: expected an object with scenario, dice and events"])
    if "scenario" not in doc:
        raise InputError(["scenario: missing (a scenario id or a resolved scenario)"])
    events = doc.get("events")
    if isinstance(events, list):
        # A type that is not a string (a list, an object) would reach the reader's schema lookup unhashable.
        bad = [f"events[{i}].type: expected the event type, a string" for i, e in enumerate(events)
               if isinstance(e, Mapping) and "type" in e and not isinstance(e["type"], str)]
        if bad:
            raise InputError(bad)
    return parse_log(doc, scenario=scenarios.resolve(doc["scenario"]))


def vassal_reader() -> Any | None:
    """``referee.logs.vassal`` once that reader is installed, else None."""
    if importlib.util.find_spec("referee.logs.vassal") is None:
        return None
    from referee.logs import vassal  # type: ignore[attr-defined]
    return vassal


def _read_series(upload: Upload) -> Log:
    """The turn files of one game played by e-mail, in the order sent (``referee check turn1.vlog turn2.vlog``):
    each part ruled on the state the earlier ones left, each ruling naming its file.  A save (.vsav) sent first is
    where they start (``referee check --from SAVE.vsav TURN.vlog``)."""
    import tempfile
    from referee.logs.pbem import read_from_save, read_parts
    parts = [(upload.filename or "part1.vlog", upload.data), *upload.more]
    names = [n for n, _ in parts]
    save = Path(names[0]).suffix.lower() == ".vsav"
    wrong = [n for n in names[1 if save else 0:] if Path(n).suffix.lower() != ".vlog"]
    if wrong:
        raise InputError([f"{n}: several logs are the turns of one VASSAL game: send only .vlog files (a .vsav "
                          "first: the save they start from)" for n in wrong])
    if len(set(names)) != len(names):
        raise InputError(["the turn files must have different names (each ruling names its file)"])
    with tempfile.TemporaryDirectory(prefix="referee-series-") as tmp:
        paths = []
        for n, data in parts:
            path = Path(tmp) / n
            path.write_bytes(data)
            paths.append(path)
        module = None
        if upload.module is not None:
            module = Path(tmp) / "module.vmod"
            module.write_bytes(upload.module)
        return read_from_save(paths[0], paths[1:], module) if save else read_parts(paths, module)


def _read_vassal(upload: Upload) -> Log:
    vassal = vassal_reader()
    if vassal is None:
        raise ApiError(415, "unsupported_format",
                       "VASSAL .vlog/.vsav logs cannot be read yet on this server; export the game as a JSON log "
                       "(DESIGN §5) and send that")
    try:
        if upload.more:
            return _read_series(upload)
        return vassal.read_vassal(upload.data, module=upload.module, file=upload.filename or None)
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 — a damaged upload is bad input, never a 500
        raise InputError([f"{upload.filename}: cannot read this VASSAL file ({type(exc).__name__}: {exc})"]) \
            from None
