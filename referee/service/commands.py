"""``referee serve`` and ``referee verify`` (alias ``verify-dice``) (wired into referee.cli through ``register``)."""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from typing import Any, Mapping


WORKER_CLASSES = {"connection": "referee.service.worker.ConnectionWorker", "gthread": "gthread"}


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="run the HTTP service (gunicorn if installed, else werkzeug)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=int, default=None,
                       help="gunicorn worker processes (default: 1 on SQLite, else 2 x CPUs up to 8)")
    serve.add_argument("--worker-class", choices=sorted(WORKER_CLASSES), default="connection",
                       help="gunicorn worker: 'connection' (default: a thread per kept-alive connection, "
                            "referee.service.worker) or 'gthread' (a poller and a thread pool)")
    serve.add_argument("--threads", type=int, default=8,
                       help="per worker: requests answered at once, first come first served (connection), or the "
                            "thread pool's size (gthread); default 8")
    serve.add_argument("--database-url", help="overrides DATABASE_URL (default ./referee.sqlite)")
    serve.set_defaults(func=cmd_serve)
    for name in ("verify", "verify-dice"):        # verify-dice: the earlier name, kept as an alias
        verify = subparsers.add_parser(name, help="check a hosted game's export whole: dice, every ruling re-run, "
                                                  "the hash chain, completeness")
        verify.add_argument("export", help="the JSON of GET /api/v1/games/<id>/export")
        verify.add_argument("--head", help="the last chain head your side was given: the export must contain it")
        verify.set_defaults(func=cmd_verify)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    workers = args.workers or default_workers(os.environ.get("DATABASE_URL"))
    if importlib.util.find_spec("gunicorn") is not None:
        # exec, so that signals (Ctrl-C, a service manager's TERM) reach gunicorn's master directly.
        argv = [sys.executable, "-m", "gunicorn", "--bind", f"{args.host}:{args.port}", "--workers", str(workers),
                "--worker-class", WORKER_CLASSES[args.worker_class], "--threads", str(args.threads),
                *no_control_socket(), "referee.service.wsgi:app"]
        os.execv(sys.executable, argv)
    from werkzeug.serving import run_simple
    from referee.service import create_app
    print("referee: gunicorn is not installed; serving with werkzeug's development server", file=sys.stderr)
    run_simple(args.host, args.port, create_app(), threaded=True)
    return 0


def no_control_socket() -> list[str]:
    """gunicorn >= 25 opens a control socket at one fixed path per user (~/.gunicorn/gunicorn.ctl): a second
    server on the machine takes it from the first.  The service uses none, so it asks for none."""
    from gunicorn.config import KNOWN_SETTINGS
    return ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []


def default_workers(database_url: str | None) -> int:
    """One process on SQLite: it has one writer at a time, and writers in different processes wait for each
    other in SQLite's busy handler (sleeps of up to 100 ms), where one process's threads share its group
    commit instead (bench_service: p99 ~1 s with two processes, ~0.3 s with one, same throughput).
    PostgreSQL takes concurrent writers: a process per CPU and then some."""
    if not database_url or database_url.startswith("sqlite:"):
        return 1
    return min(8, 2 * (os.cpu_count() or 1))


def cmd_verify(args: argparse.Namespace) -> int:
    from modulebuilder.input_files import read_text
    from referee.service.verify import verify_export
    try:
        export = json.loads(read_text(args.export))     # a regular file within the size cap (input_files)
    except OSError as exc:
        print(f"{args.export}: cannot read ({exc.strerror or exc})", file=sys.stderr)
        return 1
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        print(f"{args.export}: not a JSON game export ({type(exc).__name__}: {exc})", file=sys.stderr)
        return 1
    if not isinstance(export, dict):
        print(f"{args.export}: not a JSON game export (expected an object)", file=sys.stderr)
        return 1
    report = verify_export(export, args.head, base_dir=os.path.dirname(os.path.abspath(args.export)))
    for p in report.problems:
        print(f"{args.export}: {p}", file=sys.stderr)
    if report.problems:
        return 1
    print(f"{args.export}: verified: {report.events} events and {report.rolls} rolls ruled again identically, "
          "the hash chain is whole"
          + (" and holds the head you kept" if args.head else "")
          + (f" (ruled again on {report.scenario})" if report.scenario else ""))
    print(f"{args.export}: dice: {dice_verified(export)}")
    return 0


def dice_verified(export: Mapping[str, Any]) -> str:
    """What ``verify`` checked of the game's dice, by kind: the referee's verifiable dice, or the players' own."""
    mode = (export.get("dice") or {}).get("mode") if isinstance(export.get("dice"), Mapping) else None
    if mode == "referee":
        return ("the referee rolled them: the server's seed matches the commitment published when the game was "
                "created, every side's seed matches the commitment it sent before any was revealed, and every roll "
                "is the one those seeds give")
    return ("the players rolled them (VASSAL's die button, or typed) and the referee took each roll as sent: the "
            "rulings were re-run with those rolls, but no seed or commitment exists to check the rolls themselves "
            "(a .vlog's rolls are checked against the die's own record when it is read, referee check)")


cmd_verify_dice = cmd_verify
