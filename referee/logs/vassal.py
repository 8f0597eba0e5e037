"""Reading a VASSAL ``.vlog`` or ``.vsav`` from a module this project built, as a referee log (DESIGN §5).

``read_vassal(data, module=None, scenario=None)`` is what the CLI and the web service call; ``read_log(path,
module=None)`` is the CLI's spelling.  The pipeline, one module per concept:

1. decode the file (``modulebuilder.vassal.savefile``: a zip read as a stream with bounds, ``!VCSK``, the
   command tree); with ``module``, the game's own ``moduledata`` must name the same module (another version
   is ruled with a warning, :func:`same_game`);
2. the steps as facts -- pieces changed, chat, dice, draws from a deck; steps taken back by the engine's Undo
   are left out (``vassal_steps``);
3. the scenario: the ``scenario`` argument, else a ``!scenario ID`` chat line, else the module's
   PredefinedSetup whose pieces stand where the log's starting position has them, else the save's
   description naming a scenario file (:func:`find_scenario_id`);
4. the board geometry: the module's own grid and boxes when ``module`` is given, else the grid the module
   writer derives from the scenario's map (``vassal_board``);
5. facts -> events with step numbers (``vassal_events``; the chat through the ruleset's notation, ``chat`` and
   ``notation``), checked like a JSON log (``jsonlog.check_events``);
6. each event completed against the live game state by the ruleset's notation: move paths and the like
   (``vassal_paths``).

A ``.vsav`` has no steps: it is read as the difference between the scenario's set-up and the saved position
(a move per unit that stands elsewhere, a facing per unit that turned).  A line that cannot be read is an
``unreadable`` event, ruled as such; every other problem -- a corrupt or hostile file, another game, an unknown
piece -- is an :class:`InputError` line, never a traceback.  Several turn files of one game: ``pbem``.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, NamedTuple

from lxml import etree

from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.facing import rotator_state
from modulebuilder.vassal.gridmap import centre_point
from modulebuilder.vassal.modulefile import MAX_MODULE_ENTRIES, ModuleData, read_module, read_moduledata
from modulebuilder.vassal.savefile import GameFile, read_game
from modulebuilder.vassal.xmlread import parse_xml
from modulebuilder.vassal.zipio import read_entries
from referee.engine import registry
from referee.logs import chat
from referee.logs.jsonlog import PROJECT_ROOT, Log, check_events, find_scenario, load_scenario
from referee.logs.problems import InputError

from .vassal_board import BoardGeometry, from_build_file, from_scenario, module_build_file
from .vassal_events import UNREADABLE, Reading, ReadEvent, read_events, unreadable
from .vassal_paths import resolve
from .vassal_steps import Fact, PieceChange, Said, facts
from modulebuilder.vassal.about import module_version

DICE = "players"           # rolls come from the players' d10 button, in the log


def read_log(path: str | Path, module: str | Path | None = None) -> Log:
    """The CLI's entry point: ``referee check GAME.vlog [--module M.vmod]``."""
    return read_vassal(Path(path), None if module is None else Path(module))


def read_vassal(data: Path | bytes, module: Path | bytes | None = None, scenario: Any = None,
                file: str | None = None, from_setup: bool = True) -> Log:
    """The referee log a VASSAL log or save describes.

    ``scenario``: an id, a resolved scenario (mapping) or a loaded ``model.Scenario``; or a callable that
    loads the scenario id found in the game (a service passes its per-process cache, e.g.
    ``referee.service.scenarios.resolve``); when None or callable, the id is found as the module docstring
    says.  Files are read as streams (``zipio``): only the entries needed, each size-capped.  ``file``: the file's
    name for the rulings' sources when ``data`` is bytes (an upload's name).

    A ``.vlog`` is ruled from the scenario's set-up, so it must start there (``from_setup``): one that starts
    where units stand elsewhere is a later file of a longer game, refused with a sentence saying what to give
    (:func:`later_file`).  ``from_setup=False``: the caller rules it on a game already under way (a hosted
    game's next turn, ``referee check --from``) and checks where it starts itself."""
    return read_opened(open_game(data, module, scenario, from_setup), data.name if isinstance(data, Path) else file)


def read_opened(opened: "OpenedGame", label: str | None) -> Log:
    """The log of an opened game (:func:`open_game`); ``label``: its file's name for the rulings' sources."""
    log = to_log(read_events(opened.facts, opened.scenario, opened.board), opened.scenario, label)
    log.warnings[:0] = opened.warnings
    return log


class OpenedGame(NamedTuple):
    """A VASSAL file opened for reading: its scenario, game, board and facts, and the module's warnings."""
    scenario: Any
    game: GameFile
    board: BoardGeometry
    facts: list[Fact]
    warnings: list[str]


def open_game(data: Path | bytes, module: Path | bytes | None = None, scenario: Any = None,
              from_setup: bool = True) -> OpenedGame:
    """What :func:`read_vassal` knows before it reads the events: the game's scenario (found as it says), its
    board and facts, the module's warnings; the same refusals.  The files of one game ask it of their first
    file for the scenario, and then read all of them together."""
    label = data.name if isinstance(data, Path) else "the uploaded game"
    mod_label = module.name if isinstance(module, Path) else "the module"
    warnings: list[str] = []
    try:
        origin = read_moduledata(data, label)
        if module is not None:
            warnings += same_game(label, origin, read_module(module), mod_label)
        try:
            game = read_game(data, what=label)
        except VassalFileError as e:
            raise VassalFileError(_foreign(label, origin) or str(e)) from None
        board = None if module is None else from_build_file(module_build_file(module, mod_label), mod_label)
        fact_list = list(facts(game))
        scen = _scenario(scenario, fact_list, game, module, board, data, label, origin)
        board = board or from_scenario(scen)
        if not game.steps:
            fact_list = list(position_facts(game, scen, board))
        elif from_setup and (sentence := later_file(label, game, scen, board)):
            raise InputError([sentence])
    except VassalFileError as e:
        raise InputError([str(e)]) from None
    return OpenedGame(scen, game, board, fact_list, warnings)


SHOWN_UNITS = 3          # units named in the sentence for a file that starts mid-game


def later_file(label: str, game: GameFile, scenario: Any, board: BoardGeometry) -> str | None:
    """None when the log starts at the scenario's set-up (every unit set up on a hex is on it); else the sentence
    saying it does not, naming the first units that stand elsewhere and what to give instead."""
    setup = {p.unit: p.hex for p in scenario.setup if p.hex is not None}
    moved = [(uid, setup[uid], at) for uid, piece in sorted(game.by_unit().items()) if uid in setup
             and (at := board.locate(piece.map, piece.x, piece.y).hex) != setup[uid]]
    if not moved:
        return None
    names = {u.id: u.name for u in list(scenario.counters.units) + list(scenario.counters.leaders)}
    shown = "; ".join(f"{names.get(u, u)} on {at or 'no hex'}, set up on {hex_}" for u, hex_, at in moved[:SHOWN_UNITS])
    more = f" and {len(moved) - SHOWN_UNITS} more" if len(moved) > SHOWN_UNITS else ""
    return (f"{label} does not start at the set-up of {scenario.name}: {len(moved)} "
            f"{'unit stands' if len(moved) == 1 else 'units stand'} elsewhere ({shown}{more}), so it is a later "
            f"file of a longer game. Give the earlier files first, in order (referee check TURN1.vlog ... {label}), "
            f"or the save it starts from (referee check --from SAVE.vsav {label})")


def same_game(label: str, played: ModuleData | None, given: Any, mod_label: str) -> list[str]:
    """The game's own ``moduledata`` against ``--module``: another game is refused in one sentence naming both,
    another version of the same game is ruled with a warning (as the engine itself does, vassal.md 1.1)."""
    if played is None or not played.name:
        return []
    if played.name != given.name:
        raise VassalFileError(f"{label} is a game of {played}, but {mod_label} is {given.name} {given.version}: "
                              "check it with the module it was played with")
    if played.version != given.version:
        return [f"{label} was played with {played}; ruled with {mod_label}, version {given.version or '(none)'}"]
    return []


def _foreign(label: str, origin: ModuleData | None) -> str | None:
    """'this save is from MODULE VERSION' for a game of a module the referee has no scenario for, naming the
    bundled scenarios tried and the module each is built into."""
    if origin is None or not origin.name or find_scenario_id([origin.name]) is not None:
        return None
    tried = "; ".join(f"{ref} ({mod})" for ref, mod in bundled_modules())
    return (f"{label}: this save is from {origin}, which is not a game the referee has a scenario for: no bundled "
            f"scenario is built into that module (tried {tried or 'none'}); give the scenario with '!scenario ID' "
            "in the chat")


def bundled_scenarios() -> list[str]:
    """The scenario files that come with the project: ``scenarios/*.yaml`` and ``examples/*/scenario.yaml``."""
    root = Path(PROJECT_ROOT)
    return [str(p) for p in sorted((root / "scenarios").glob("*.yaml"))] + \
        [str(p) for p in sorted((root / "examples").glob("*/scenario.yaml"))]


def bundled_modules() -> list[tuple[str, ModuleData]]:
    """(scenario file's id, the module modulebuilder builds it into: its map's title and the game's version), for
    each bundled scenario that loads."""
    out = []
    for path in bundled_scenarios():
        try:
            scen = load_scenario(path)
        except InputError:
            continue
        out.append((_ref_of(path), ModuleData(scen.map.title or scen.map.id, module_version([scen]))))
    return out


def _ref_of(path: str) -> str:
    """``scenarios/borodino.yaml`` -> ``borodino``; ``examples/tiny/scenario.yaml`` -> ``tiny``."""
    p = Path(path)
    return p.parent.name if p.name == "scenario.yaml" else p.stem


def scenario_from_module(game: GameFile, origin: ModuleData | None) -> str | None:
    """The bundled scenario whose module is the one the game was played with (same name and version) and whose
    set-up has most units where the game started; None when no bundled scenario is built into that module."""
    if origin is None or not origin.name:
        return None
    same = [ref for ref, mod in bundled_modules() if (mod.name, mod.version) == (origin.name, origin.version)]
    if len(same) <= 1:
        return same[0] if same else None
    start = game.by_unit()
    best, score = None, -1
    for ref in same:
        scen = load_scenario(_example_path(ref))
        board = from_scenario(scen)
        at = {p.unit: p.hex for p in scen.setup if p.hex is not None}
        hits = sum(1 for uid, piece in start.items()
                   if uid in at and board.locate(piece.map, piece.x, piece.y).hex == at[uid])
        if hits > score:
            best, score = ref, hits
    return best


def to_log(reading: Reading, scenario: Any, label: str | None = None) -> Log:
    """Check the events as a JSON log's are checked, then find their paths.

    ``label``: the file the events were read from (each event's own ``file`` when several were read); the
    log's ``sources`` say, beside each event, its file, its VASSAL step and where its roll came from.

    A declaration typed in the chat that fails the check (a hex the map does not have...) becomes an
    ``unreadable`` ruling with the line and why; any other problem refuses the log, each naming its step."""
    try:
        ruleset = registry.get(scenario.ruleset)
    except registry.UnknownRuleset as exc:
        raise InputError([f"scenario.ruleset: {exc}"]) from None
    events = list(reading.events)
    problems = list(reading.problems)
    checked = [(i, r) for i, r in enumerate(events) if r.event["type"] != UNREADABLE]
    first_side = scenario.sides[0].name if scenario.sides else ""
    found = check_events(ruleset, scenario, [provisional(r, first_side) for _, r in checked])
    for problem in found:
        i, where = _event_of(problem, checked)
        if where is not None and where.line is not None and events[i] is where:
            events[i] = unreadable(where.step, where.line, _without_index(problem))
        elif where is not None and events[i] is where:
            problems.append(f"step {where.step}: {problem}")
        elif where is None:
            problems.append(problem)
    if problems:
        raise InputError(problems)
    return Log(scenario=scenario, ruleset=ruleset, dice=DICE, seed=None,
               events=resolve(ruleset, scenario, events, DICE), warnings=list(reading.warnings),
               sources=[source_of(r, label) for r in events])


def source_of(r: ReadEvent, label: str | None) -> dict[str, Any]:
    """Where an event comes from: its file, its VASSAL step, and its roll's source when it has one."""
    out: dict[str, Any] = {"file": r.file or label, "step": r.step}
    if r.dice is not None:
        out["roll"] = dict(r.dice)
    return out


def typed_rolls(log: Log) -> list[str]:
    """One sentence per roll typed in the chat rather than rolled with the die button (``--strict-dice``)."""
    return [f"{s['file']}, step {s['step']}: {s['roll'].get('line') or 'a roll'!r} types its roll in the chat; "
            "with strict dice every roll must come from VASSAL's die button"
            for s in log.sources if s.get("roll", {}).get("by") == "typed"]


def provisional(r: ReadEvent, first_side: str) -> dict[str, Any]:
    """The event as checked before its path is known (the .vlog reader, the live route): the destination stands
    in for the path (same hexes, same unit); before its side is known, the first side stands in for it (the
    names are checked, not whose act it is)."""
    if r.side_from_state:
        return {**r.event, "side": first_side}
    if r.markers:
        return {**r.event, "side": r.markers[0][1]}
    return r.event if r.destination is None else {**r.event, "path": [r.destination]}


def _event_of(problem: str, checked: list[tuple[int, ReadEvent]]) -> tuple[int, ReadEvent | None]:
    """``events[3].unit: ...`` -> the read event it is about (and its index among all events)."""
    if problem.startswith("events["):
        k = int(problem[7:problem.index("]")])
        if 0 <= k < len(checked):
            return checked[k]
    return -1, None


def _without_index(problem: str) -> str:
    """``events[3].target: no hex '9999'`` -> ``target: no hex '9999'`` (the line is quoted beside it)."""
    head, _, rest = problem.partition("]")
    return rest.lstrip(".") if head.startswith("events[") else problem


# --------------------------------------------------------------------------------------------- the scenario

def _scenario(given: Any, fact_list: list[Fact], game: GameFile, module: Path | bytes | None,
              board: BoardGeometry | None, source: Path | bytes, label: str, origin: ModuleData | None) -> Any:
    if given is not None and hasattr(given, "ruleset") and hasattr(given, "counters"):
        return given                              # already a model.Scenario
    load = given if callable(given) else load_scenario
    ref = given if given is not None and not callable(given) else scenario_from_chat(fact_list)
    if ref is None and module is not None and board is not None:
        ref = scenario_from_setups(game, module, board)
    if ref is None:
        ref = find_scenario_id(_descriptions(source, label))
    if ref is None:
        ref = scenario_from_module(game, origin)
    if ref is None:
        how = "type '!scenario <id>' in the VASSAL chat" + (
            "" if module is not None else ", or give the module (--module) it was played with")
        raise InputError([_foreign(label, origin) or f"{label}: cannot tell which scenario this game is: {how}"])
    return load(_example_path(ref) if isinstance(ref, str) and load is load_scenario else ref)


def _example_path(ref: str) -> str:
    """``scenarios/<id>.yaml`` as the JSON reader looks it up, else the project's ``examples/<id>/scenario.yaml``
    (the tiny example module's set-up is named ``tiny``)."""
    example = Path(PROJECT_ROOT) / "examples" / ref / "scenario.yaml"
    return str(example) if find_scenario(ref) is None and "/" not in ref and example.is_file() else ref


def scenario_from_chat(fact_list: Iterable[Fact]) -> str | None:
    """The first ``!scenario ID`` typed in the chat."""
    return next((s for f in fact_list if isinstance(f, Said) and (s := chat.scenario_of(f.text))), None)


def scenario_from_setups(game: GameFile, module: Path | bytes, board: BoardGeometry) -> str | None:
    """The module's set-up (our writer names the file ``<scenario id>.vsav``) with most units where the
    game started; None when no set-up shares a single position with it."""
    start = _positions(game)
    files = [f for f in board.setups.values() if f.endswith(".vsav")]
    entries = read_entries(module, files, what="the module", max_entries=MAX_MODULE_ENTRIES)
    best, score = None, 0
    for name, data in entries.items():
        try:
            setup = _positions(read_game(data, what=name))
        except VassalFileError:
            continue                               # a broken set-up cannot be the one that was played
        same = sum(1 for uid, pos in setup.items() if start.get(uid) == pos)
        if same > score:
            best, score = name[:-len(".vsav")], same
    return best


def _positions(game: GameFile) -> dict[str, tuple[str | None, int, int]]:
    return {uid: (p.map, p.x, p.y) for uid, p in game.by_unit().items()}


def _descriptions(source: Path | bytes, label: str) -> list[str]:
    """The save's own description and the module name (``savedata``/``moduledata``), as scenario candidates."""
    entries = read_entries(source, ["savedata", "moduledata"], what=label, max_bytes=1024 * 1024)
    out = []
    for name in ("savedata", "moduledata"):
        try:
            root = parse_xml(entries[name], f"{label}'s {name}") if name in entries else None
        except etree.XMLSyntaxError:
            continue
        for tag in ("description", "name"):
            text = root.findtext(tag) if root is not None else None
            if text and text.strip():
                out.append(text.strip())
    return out


def find_scenario_id(candidates: Iterable[str]) -> str | None:
    """The first candidate that names a scenario file, as is or as a slug (``Borodino`` -> ``borodino``)."""
    for c in candidates:
        for ref in (c, c.lower().replace(" ", "-"), c.lower().split()[0] if c.split() else c):
            if "/" not in ref and find_scenario(_example_path(ref)) is not None:
                return ref
    return None


# --------------------------------------------------------------------------------------------- a .vsav

def position_facts(game: GameFile, scenario: Any, board: BoardGeometry) -> Iterable[Fact]:
    """A save as one step that takes every unit from the scenario's set-up to where the save has it."""
    set_up = {p.unit: p for p in scenario.setup if p.hex is not None}
    main = next(iter(m for m in board.maps.values() if m.grid is not None), None)
    for uid, piece in sorted(game.by_unit().items()):
        p = set_up.get(uid)
        if p is None or main is None:
            continue
        x, y = centre_point(main.grid, p.hex, scenario.map.grid.digits)
        start_props = dict(piece.properties)
        if p.facing is not None:
                start_props["Facing_Facing"] = str(rotator_state(scenario.map.grid.orientation, p.facing) + 1)
        before = replace(piece, map=main.name, x=x + main.edge[0], y=y + main.edge[1], properties=start_props)
        if (before.map, before.x, before.y, before.properties) != (piece.map, piece.x, piece.y, piece.properties):
            yield PieceChange(1, before, piece)
