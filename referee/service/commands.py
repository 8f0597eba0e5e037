"""``referee serve`` and ``referee verify`` (alias ``verify-dice``) (wired into referee.cli through ``register``)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Mapping

from modulebuilder.input_files import read_text
from referee.service import create_app


def register(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="run the HTTP service (waitress; gunicorn for --workers > 1)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=int, default=1,
                       help="processes (default 1: waitress, which reads every request whole before the application "
                            "sees it; more: gunicorn's gthread workers, which need a buffering reverse proxy in "
                            "front, docs/service.md)")
    serve.add_argument("--threads", type=int, default=8, help="requests answered at once per process (default 8)")
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
    os.environ["REFEREE_SERVED_HOST"] = args.host           # a served host name (browser_policy.trusted_hosts)
    if args.workers > 1:
        # exec, so that signals (Ctrl-C, a service manager's TERM) reach gunicorn's master directly.
        argv = [sys.executable, "-m", "gunicorn", "--bind", f"{args.host}:{args.port}", "--workers", str(args.workers),
                "--worker-class", "gthread", "--threads", str(args.threads), *no_control_socket(),
                "referee.service.wsgi:app"]
        os.execv(sys.executable, argv)
    import threading

    from referee.service import cpus, scenarios, server
    app = create_app()
    placed = _placement(app.config)
    if len(placed) > 1:        # one CPU for waitress's I/O thread and the application's: measured slower
        cpus.place(placed)
    if os.environ.get("REFEREE_PRELOAD", "1") != "0":
        threading.Thread(target=scenarios.preload, name="referee-preload", daemon=True).start()
    server.serve(app, args.host, args.port, args.threads)
    return 0


def _placement(config: Any) -> frozenset[int]:
    """The CPUs the checking workers leave to the server's process (cpus.py): without it a flood of /check
    multiplies the hosted games' p99 latency (docs/service.md, Performance)."""
    from referee.service import cpus
    try:
        placed = cpus.of_config(config)
    except ValueError as exc:
        print(f"referee: {exc}; the server's process is not placed", file=sys.stderr)
        return frozenset()
    return placed[0] if placed else frozenset()


def no_control_socket() -> list[str]:
    """gunicorn >= 25 opens a control socket at one fixed path per user (~/.gunicorn/gunicorn.ctl): a second
    server on the machine takes it from the first.  The service uses none, so it asks for none."""
    from gunicorn.config import KNOWN_SETTINGS
    return ["--no-control-socket"] if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS) else []


def cmd_verify(args: argparse.Namespace) -> int:
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
