"""``referee`` command line (DESIGN §6): ``referee check LOG [--module M.vmod] [--format json|text] [--strict]``.

``referee check turn1.vlog turn2.vlog ...``: one game played by e-mail, a log per turn; each part is ruled on
the state the earlier ones left, after checking that it starts where the last one ended (``referee.logs.pbem``).

Exit codes: 0 ruled on the whole log (illegal moves are rulings); 3 with ``--strict`` when a move was illegal;
1 when the input cannot be ruled on (problems on stderr, one line each, never a traceback); 2 usage.
"""
from __future__ import annotations

import gc
import os
import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    import argparse

from referee.engine import registry
from referee.logs import InputError, read_log
from referee.logs.jsonlog import spelled_as_pathlib

VASSAL_SUFFIXES = (".vlog", ".vsav")
OWN_COMMANDS = ("check", "rulesets", "new-ruleset")    # the commands defined here; the others are the service's
CHUNK = 256                             # rulings encoded to UTF-8 at a time (write_json)
SPOOL_BYTES = 32 << 20                  # output held in memory before it goes to a temporary file
COPY_BYTES = 1 << 20                    # copied to stdout at a time


def build_parser(service: bool = True) -> argparse.ArgumentParser:
    """The whole command line; ``service=False`` leaves out ``serve`` and ``verify``, whose registration imports
    the service package and with it Flask (a large share of a ``check``'s start-up, docs/speed.md)."""
    import argparse
    parser = argparse.ArgumentParser(prog="referee", description="Replay a game log under its ruleset and rule "
                                                                 "on every move.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="rule on every event of a log")
    check.add_argument("log", nargs="+", help="a JSON/YAML log (DESIGN §5), or a VASSAL .vlog/.vsav; several "
                                              ".vlog files: the turns of one game played by e-mail, in order")
    check.add_argument("--module", help="the VASSAL module the .vlog/.vsav was played with")
    check.add_argument("--from", dest="from_save", metavar="SAVE.vsav",
                       help="the saved game the .vlog files start from (a game under way): ruled from its position")
    check.add_argument("--format", choices=("json", "text"), default="json")
    check.add_argument("--strict", action="store_true", help="exit 3 if any move was illegal")
    check.add_argument("--strict-dice", action="store_true",
                       help="refuse a VASSAL log with a roll typed in the chat (e.g. '!shock 1 9'): every roll must "
                            "come from VASSAL's die button")
    check.add_argument("--dice-seed", metavar="SEED",
                       help="the .vlog files were played in a hosted game with the referee's dice: rule them with "
                            "the game's seed (its export's log.seed, revealed when the game ends)")
    check.add_argument("--no-cache", action="store_true",
                       help="parse the scenario afresh, neither reading nor writing the parsed-scenario cache "
                            "(as HEXWARGAME_CACHE=off does; docs/speed.md)")
    check.set_defaults(func=cmd_check)
    rulesets = sub.add_parser("rulesets", help="list the installed rulesets")
    rulesets.set_defaults(func=cmd_rulesets)
    new = sub.add_parser("new-ruleset", help="write the skeleton of a new ruleset, as its own distribution "
                                             "(docs/writing-a-ruleset.md)")
    new.add_argument("name", help="the ruleset id, lower-case words joined by hyphens (e.g. my-game)")
    new.add_argument("--out", help="the folder to write it into (default: ./NAME); it must be new or empty")
    new.set_defaults(func=cmd_new_ruleset)
    if service:
        from referee.service.commands import register as register_service
        register_service(sub)  # serve --host H --port P; verify GAME_EXPORT [--head H] (alias verify-dice)
    return parser


CHECK_FORMATS = ("json", "text")
CHECK_FLAGS = {"--strict": "strict", "--no-cache": "no_cache", "--strict-dice": "strict_dice"}
CHECK_VALUES = {"--format": "format", "--module": "module", "--from": "from_save", "--dice-seed": "dice_seed"}


def plain_check(argv: Sequence[str]) -> SimpleNamespace | None:
    """What ``build_parser(service=False).parse_args(argv)`` gives for a plain ``check`` command line, without
    argparse, whose import and parser cost a visible share of a one-event check (docs/speed.md §1).

    Only the plain spellings are taken: the full option names (``--format json`` or ``--format=json``,
    ``--module M``, ``--strict``, ``--no-cache``) and log names that do not start with ``-``, given together.
    Anything else — help, an abbreviation, ``--``, an unknown option or format, a missing value, log names
    split by options, which argparse refuses — returns None, and argparse parses it and words its errors.
    tests/test_cli_args.py holds the two to the same answers on generated command lines."""
    if not argv or argv[0] != "check":
        return None
    args = {"command": "check", "log": [], "module": None, "format": "json", "strict": False, "no_cache": False,
            "strict_dice": False, "from_save": None, "dice_seed": None}
    logs_ended = False
    i = 1
    while i < len(argv):
        word = argv[i]
        if not word.startswith("-"):
            if logs_ended:
                return None                  # argparse takes one run of log names only
            args["log"].append(word)
            i += 1
            continue
        if args["log"]:
            logs_ended = True
        name, eq, value = word.partition("=")
        if name in CHECK_FLAGS and not eq:
            args[CHECK_FLAGS[name]] = True
            i += 1
        elif name in CHECK_VALUES:
            if not eq:
                if i + 1 >= len(argv) or argv[i + 1].startswith("-"):
                    return None
                value = argv[i + 1]
                i += 1
            if name == "--format" and value not in CHECK_FORMATS:
                return None
            args[CHECK_VALUES[name]] = value
            i += 1
        else:
            return None
    if not args["log"]:
        return None
    return SimpleNamespace(**args, func=cmd_check)


def _command(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def read_any_log(path: str, module: str | None):
    """A JSON/YAML log, or a VASSAL .vlog/.vsav (read with the module's own grid when ``module`` is given)."""
    if _suffix(path) in VASSAL_SUFFIXES:
        from referee.logs import vassal
        return vassal.read_log(path, module=module)
    return read_log(path)


def read_logs(paths: Sequence[str], module: str | None, from_save: str | None = None):
    """One log, or the turn files of one game played by e-mail; ``from_save``: the save they start from."""
    if from_save is not None:
        if _suffix(from_save) != ".vsav" or any(_suffix(p) != ".vlog" for p in paths):
            raise InputError([f"--from {from_save}: give the saved game (.vsav) the .vlog files start from, then "
                              "the .vlog files, in order"])
        from pathlib import Path
        from referee.logs.pbem import read_from_save
        return read_from_save(Path(from_save), [Path(p) for p in paths], None if module is None else Path(module))
    if len(paths) == 1:
        return read_any_log(paths[0], module)
    not_vassal = [p for p in paths if _suffix(p) not in VASSAL_SUFFIXES]
    if not_vassal:
        raise InputError([f"{p}: several logs are the turns of one VASSAL game: give only .vlog files"
                          for p in not_vassal])
    from pathlib import Path
    from referee.logs.pbem import read_parts
    return read_parts([Path(p) for p in paths], None if module is None else Path(module))


def _name(path: str) -> str:
    """``Path(path).name``, from the name pathlib gives the path (``jsonlog.spelled_as_pathlib``): a JSON check
    imports no pathlib.  The path ``.`` (what ``""`` and ``./`` are spelled) has no name."""
    name = os.path.basename(spelled_as_pathlib(path))
    return "" if name == "." else name


def _suffix(path: str) -> str:
    """``Path(path).suffix``, lower-cased (``..vlog`` has one, ``x.`` and ``..`` none)."""
    name = _name(path)
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def cmd_check(args: argparse.Namespace | SimpleNamespace) -> int:
    if args.no_cache:
        os.environ["HEXWARGAME_CACHE"] = "off"
    log = read_logs(args.log, args.module, args.from_save)
    if args.dice_seed is not None:
        log = with_referee_dice(log, args.dice_seed, args.log)
    if args.strict_dice and log.sources:
        from referee.logs.vassal import typed_rolls
        if typed := typed_rolls(log):
            raise InputError(typed)
    for warning in log.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if args.format == "json":
        any_illegal = write_json(log)
    else:
        from referee.engine.replay import replay
        from referee.report import render, words_for
        result = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed, places=True)
        title = f"{log.scenario.name} — {log.ruleset.name} — {', '.join(_name(p) for p in args.log)}"
        sys.stdout.write(render(result.rulings, result.played, result.places, title,
                                log.ruleset.progress(result.game.state), words_for(log.scenario, log.ruleset),
                                log.sources or None))
        any_illegal = result.any_illegal
    return 3 if args.strict and any_illegal else 0


def with_referee_dice(log, seed: str, paths: Sequence[str]):
    """A VASSAL game played with a hosted game's referee dice: its files hold no rolls (the referee rolled them,
    its chat lines are not read), so they are ruled with the game's seed, which the game reveals when it ends.
    A JSON log carries its own dice and seed."""
    from dataclasses import replace
    if not log.sources:
        raise InputError([f"--dice-seed: {', '.join(paths)} is not a VASSAL game; a JSON log gives its own dice "
                          "and seed"])
    if not seed.strip() or len(seed) > 256:
        raise InputError(["--dice-seed: expected the game's seed (its export's log.seed), at most 256 characters"])
    return replace(log, dice="referee", seed=seed)


def write_json(log) -> bool:
    """Rule on every event and write ``{"rulings": [...], "state": {...}}`` to stdout, the bytes of
    ``json.dump(body, indent=1)`` and a newline; returns whether a move was illegal.

    Each ruling is written as it is made, by ``referee.jsonout.ruling_text`` (no ``to_dict``, no orjson: its
    import costs more than it saves, and to_dict plus orjson plus the indent passes cost more per ruling than
    ruling_text; docs/speed.md §1), ``CHUNK`` rulings encoded to UTF-8 at a time into
    a ``_Spool`` (memory up to ``SPOOL_BYTES``, then a temporary file) that is copied to stdout at the end: a
    check holds neither the whole list of rulings nor their dicts, and nothing reaches stdout if the replay
    fails half-way.  The loop is the engine's (``referee.engine.replay.rule_each``)."""
    from referee.engine.replay import final_state, new_game, rule_each
    from referee.jsonout import any_text, ruling_text, with_source
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    sources = log.sources
    any_illegal = False
    with _Spool() as spool:
        spool.write(b'{\n "rulings": [')
        batch: list[str] = []
        for i, (ruling, game, _) in enumerate(rule_each(game, log.events)):
            any_illegal = any_illegal or not ruling.legal
            text = ruling_text(ruling, "\n  ")
            batch.append(with_source(text, sources[i], "\n  ") if sources else text)
            if len(batch) == CHUNK:
                spool.write(("," if i >= CHUNK else "") + "\n  " + ",\n  ".join(batch))
                batch = []
        if batch:
            spool.write(("," if len(log.events) > CHUNK else "") + "\n  " + ",\n  ".join(batch))
        spool.write(b"\n ]" if log.events else b"]")
        spool.write(',\n "state": ' + any_text(final_state(game), "\n ") + "\n}\n")
        sys.stdout.flush()
        spool.copy_to(sys.stdout.buffer)
    return any_illegal


class _Spool:
    """Bytes held in memory up to ``SPOOL_BYTES``, then in a temporary file (``tempfile``, which brings shutil and
    random, imported only then); str is written as UTF-8."""

    def __init__(self) -> None:
        self.blocks: list[bytes] = []
        self.size = 0
        self.file = None

    def __enter__(self) -> "_Spool":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()

    def write(self, data: str | bytes) -> None:
        block = data.encode("utf-8") if isinstance(data, str) else data
        if self.file is not None:
            self.file.write(block)
            return
        self.blocks.append(block)
        self.size += len(block)
        if self.size > SPOOL_BYTES:
            import tempfile
            self.file = tempfile.TemporaryFile()
            for b in self.blocks:
                self.file.write(b)
            self.blocks = []

    def copy_to(self, out) -> None:
        if self.file is None:
            for block in self.blocks:
                out.write(block)
            return
        self.file.seek(0)
        while block := self.file.read(COPY_BYTES):
            out.write(block)


def cmd_rulesets(args: argparse.Namespace) -> int:
    for rid in registry.available():
        print(f"{rid}\t{registry.get(rid).name}")
    return 0


def cmd_new_ruleset(args: argparse.Namespace) -> int:
    from referee.new_ruleset import BadName, names, write_skeleton
    folder = args.out or args.name
    try:
        written = write_skeleton(args.name, folder)
    except BadName as exc:
        print(f"new-ruleset: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"new-ruleset: {folder}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return 1
    n = names(args.name)
    print(f"wrote the ruleset '{n['id']}' ({len(written)} files) in {folder}:")
    for path in written:
        print(f"  {path}")
    print(f"next: cd {folder} && pip install -e . && python -m pytest -q && "
          "referee check sample-game.json --format text  (then docs/writing-a-ruleset.md)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = plain_check(argv)
    if args is None:
        # Help, usage errors and the service's commands get the whole parser; check and rulesets need none of it.
        args = build_parser(service=_command(argv) not in OWN_COMMANDS).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        for line in exc.problems:
            print(line, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 — the contract is "never a traceback" (DESIGN §6)
        print(f"referee: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2


def run() -> int:
    """The ``referee`` console script and ``python -m referee``: :func:`main`, for a process that ends with it.

    Before the process ends its objects are moved to the collector's permanent generation (``gc.freeze``):
    the interpreter's last collection then leaves them alone instead of traversing the game's whole heap
    (the scenario, the ruleset's tables, the states) only to find that refcounting frees it anyway — an eighth
    of a one-event check's start-up (docs/speed.md).  Nothing is lost: output is
    flushed and files are closed by then, as before.  :func:`main` itself does not freeze: a caller that
    goes on (the tests, a host program) keeps its collector."""
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(run())
