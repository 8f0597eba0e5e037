"""Play by e-mail: a game sent as one ``.vlog`` per turn, each begun where the last one ended.

In VASSAL a player loads the opponent's log, steps through it, and begins a new logfile: the new file's
starting position (``begin_save ... end_save``) is the board as the last file left it.  ``read_parts`` reads
the files of one game in order and rules each new part only -- its own steps, on the state the earlier parts
left -- after checking that it starts from the position the last one ended on.  Positions are compared in
the game's terms: every unit's hex (or box) and facing, as the module's grid names them.  A part that starts
from an earlier position of the previous one *rewinds* it (the sentence says from which step); one that
starts from a position the previous part never had *forks* the game (the sentence names the first units that
differ and where each file has them).

``read_from_save`` rules them from a save instead (``referee check --from``, the page's series with a ``.vsav``):
``from_save`` begins the scenario where the save stands, units and turn track, and says what a save does not hold.

``board_position`` gives the same position from a hosted game's stored events, for the service's turn upload
(``referee/service/pbem.py``): the referee's state, except that a move the referee ruled illegal still left the
piece where the player dropped it, since VASSAL keeps it there.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from modulebuilder.vassal.errors import VassalFileError
from modulebuilder.vassal.facing import facing_hour
from modulebuilder.vassal.modulefile import ModuleData, read_module, read_moduledata
from modulebuilder.vassal.savefile import GameFile, PieceInfo, read_game
from modulebuilder.vassal.turns import track_shown, tracker_state
from referee.engine import registry
from referee.engine.replay import new_game, step

from .jsonlog import Log
from .problems import InputError
from .vassal_board import BoardGeometry, from_build_file, from_scenario, module_build_file
from .vassal_events import FACING_PROPERTY, UNREADABLE, read_files
from .vassal_steps import facts
from modulebuilder.vassal.pieces import DISORDER_LAYER
from .vassal import open_game, same_game, to_log

Place = tuple[str | None, int | None]          # (hex or box, facing clock hour)
Position = dict[str, Place]                    # unit id -> place
SHOWN = 3                                      # units named in a fork's sentence


@dataclass(frozen=True)
class Part:
    label: str
    game: GameFile
    origin: ModuleData | None


def read_parts(paths: Sequence[Path], module: Path | None = None, scenario: Any = None,
               before: Part | None = None) -> Log:
    """One game from its turn files, in order: each part's steps ruled on the state the earlier ones left.

    ``scenario`` and ``before``: the scenario positioned as a save (``before``) has it, which the first file must
    start from (:func:`read_from_save`)."""
    if not paths:
        raise InputError(["give at least one .vlog"])
    if scenario is None:
        scenario = open_game(paths[0], module).scenario     # the scenario, module checks; starts at the set-up
    mod_label = module.name if module is not None else "the module"
    try:
        board = from_build_file(module_build_file(module, mod_label), mod_label) if module else \
            from_scenario(scenario)
        parts = [Part(p.name, read_game(p, what=p.name), read_moduledata(p, p.name)) for p in paths]
        warnings: list[str] = []
        if module is not None:
            given = read_module(module)
            for part in parts:
                warnings += same_game(part.label, part.origin, given, mod_label)
    except VassalFileError as e:
        raise InputError([str(e)]) from None
    chain = ([before] if before is not None else []) + parts
    problems = [sentence for prev, part in zip(chain, chain[1:])
                if (sentence := _same_module(prev, part)) is not None]
    orientation = scenario.map.grid.orientation
    for prev, part in zip(chain, chain[1:]):
        sentence = continues(prev.label, positions(prev.game, board, orientation), part.label,
                             position(part.game.pieces().values(), board, orientation), _names(scenario))
        if sentence is not None:
            problems.append(sentence)
    if problems:
        raise InputError(problems)
    reading = read_files([(part.label, facts(part.game)) for part in parts], scenario, board)
    for r in reading.events:
        if r.event.get("type") == "unreadable":
            r.event["log"] = r.file
    log = to_log(reading, scenario)
    log.warnings[:0] = warnings
    return log


def read_from_save(save: Path, paths: Sequence[Path], module: Path | None = None) -> Log:
    """The turn files of a game under way, ruled from the save they start from (``referee check --from
    SAVE.vsav TURN.vlog ...``): the units where the save has them and the sequence of play where its turn track
    stands (:func:`from_save`).  The first file must start where the save stands, units and turn track, each next
    file where the last one ended (as :func:`read_parts`)."""
    if not paths:
        raise InputError(["give the .vlog files that follow the save"])
    first = open_game(paths[0], module, from_setup=False)        # the scenario and the module checks
    mod_label = module.name if module is not None else "the module"
    try:
        board = from_build_file(module_build_file(module, mod_label), mod_label) if module else \
            from_scenario(first.scenario)
        saved = Part(save.name, read_game(save, what=save.name), read_moduledata(save, save.name))
    except VassalFileError as e:
        raise InputError([str(e)]) from None
    if saved.game.steps:
        raise InputError([f"{save.name}: --from takes a saved game (.vsav), the position a file starts from; "
                          "give a .vlog as one of the files instead"])
    scenario, warning = from_save(first.scenario, saved.game, board, save.name)
    log = read_parts(paths, module, scenario=scenario, before=saved)
    track_continues(save.name, saved.game, paths[0].name, first.game, first.scenario)
    log.warnings.append(warning)
    if scenario.start and (sentence := first_act(log, save.name)) is not None:
        log.warnings.append(sentence)
    return log


def from_save(scenario: Any, game: GameFile, board: BoardGeometry, label: str) -> tuple[Any, str]:
    """``scenario`` begun where a save stands -- each unit where it has it (:func:`positioned`) and the sequence
    of play where its turn track stands (the ruleset's ``start_at``) -- and the warning saying so, with what a
    save does not hold in the scenario's words.  A turn track that does not fit the scenario is refused."""
    placed = positioned(scenario, game, board)
    units = "each unit on its hex, with its facing and disorder"
    state = tracker_state(game.setup_commands)
    if state is None:
        return placed, (f"ruled from the position of {label} ({units}); it holds no turn track, so the sequence "
                        "of play is ruled from the scenario's start")
    try:
        shown = track_shown(state, scenario, label)
    except VassalFileError as e:
        raise InputError([str(e)]) from None
    ruleset = registry.get(scenario.ruleset)
    start_at = getattr(ruleset, "start_at", None)
    begun = start_at(scenario, shown.turn, shown.phase) if start_at is not None else None
    if begun is None:
        return placed, (f"ruled from the position of {label} ({units}); its turn track shows {shown}, where "
                        f"{ruleset.name} cannot begin, so the sequence of play is ruled from the scenario's start")
    start, assumed = begun
    return replace(placed, start=start), (f"ruled from {label} as it stands: {shown} on its turn track, {units}"
                                          + (f"; {assumed}" if assumed else ""))


def first_act(log: Log, label: str) -> str | None:
    """The warning when the files' first act is illegal where the save's turn track began the game: the track
    and the acts disagree, and the reader says so rather than guess which one is right."""
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    for i, event in enumerate(log.events):
        if event.get("type") in (UNREADABLE, "roll"):
            continue
        ruling, _, _ = step(game, i, event)
        if ruling.legal:
            return None
        turn, phase = log.ruleset.progress(game.state)
        source = log.sources[i] if i < len(log.sources) else {}
        where = f" (VASSAL step {source['step']} of {source['file']})" if source else ""
        why = f": {ruling.errors[0].message}" if ruling.errors else ""
        return (f"the first act{where}, {event.get('type')}, is illegal at {turn}: {phase}, where the turn track "
                f"of {label} stands{why}; if the game stood elsewhere in its sequence of play, move the track there "
                "in VASSAL and save again")
    return None


def track_continues(save_label: str, save: GameFile, label: str, game: GameFile, scenario: Any) -> None:
    """A file must start with the turn track where the save has it: a track moved between the save and the
    file's start is refused, naming both, rather than ruled from either."""
    saved, begun = tracker_state(save.setup_commands), tracker_state(game.setup_commands)
    if saved is None or begun is None:
        return
    try:
        at_save, at_start = track_shown(saved, scenario, save_label), track_shown(begun, scenario, label)
    except VassalFileError as e:
        raise InputError([str(e)]) from None
    if at_save != at_start:
        raise InputError([f"{label} starts with the turn track at {at_start}, but {save_label} has it at "
                          f"{at_save}: give the save the file was begun from"])


def positioned(scenario: Any, game: GameFile, board: BoardGeometry) -> Any:
    """``scenario`` with each unit set up on a hex placed where ``game``'s position has it (a unit the position
    has on no hex is left out: routed, eliminated or off the map)."""
    orientation = scenario.map.grid.orientation
    pieces = {p.unit_id: p for p in game.pieces().values() if p.unit_id}
    setup = []
    for p in scenario.setup:
        piece = pieces.get(p.unit)
        if p.hex is None or piece is None:
            setup.append(p)
            continue
        at, facing = place(piece, board, orientation)
        if at is None or not at.isdigit():
            continue
        disordered = piece.get(f"{DISORDER_LAYER}_Active") == "true"
        setup.append(replace(p, hex=at, facing=p.facing if facing is None else facing,
                                status="disordered" if disordered else "good"))
    return replace(scenario, setup=tuple(setup))


def track_differs(label: str, game: GameFile, scenario: Any, place: tuple[str, str]) -> str | None:
    """The warning when the turn track a file begins with is not where a hosted game is (``place``: its ruleset's
    ``progress``), naming both: the game's own sequence of play is the one ruled on."""
    state = tracker_state(game.setup_commands)
    if state is None:
        return None
    try:
        shown = track_shown(state, scenario, label)
    except VassalFileError as e:
        return str(e)
    turn, phase = place
    if shown.label == turn and (shown.phase is None or phase.split(" — ")[0] == shown.phase):
        return None
    return (f"{label} begins with the turn track at {shown}, but the game is at {turn}: {phase}: ruled where the "
            "game is")


def _same_module(prev: Part, part: Part) -> str | None:
    if prev.origin and part.origin and prev.origin.name != part.origin.name:
        return (f"{part.label} is a game of {part.origin}, but {prev.label} is a game of {prev.origin}: they are "
                "not turns of one game")
    return None


def _names(scenario: Any) -> Mapping[str, str]:
    return {u.id: u.name for u in list(scenario.counters.units) + list(scenario.counters.leaders)}


# --------------------------------------------------------------------------------------------- positions

def place(piece: PieceInfo, board: BoardGeometry, orientation: str) -> Place:
    loc = board.locate(piece.map, piece.x, piece.y)
    value = piece.get(FACING_PROPERTY)
    facing = facing_hour(orientation, int(value) - 1) if value and value.isdigit() else None
    return (loc.hex or loc.box or loc.where, facing)


def position(pieces: Iterable[PieceInfo], board: BoardGeometry, orientation: str) -> Position:
    return {p.unit_id: place(p, board, orientation) for p in pieces if p.unit_id}


def positions(game: GameFile, board: BoardGeometry, orientation: str) -> list[Position]:
    """The position at the start of a file and after each of its steps (index = step number)."""
    out = [position(game.pieces().values(), board, orientation)]
    out += [position(pieces.values(), board, orientation) for _, pieces in game.replay()]
    return out


def continues(prev_label: str, prev: Sequence[Position], label: str, start: Position,
              names: Mapping[str, str]) -> str | None:
    """None when ``start`` is where the previous part ended; else the sentence saying where it starts."""
    end = len(prev) - 1
    if start == prev[end]:
        return None
    earlier = [i for i in range(end - 1, -1, -1) if prev[i] == start]
    if earlier:
        k = earlier[0]
        where = "its start" if k == 0 else f"step {k}"
        return (f"{label} starts from the position of {prev_label} at {where}, not where it ended (step {end}): "
                f"it rewinds {'step' if end - k == 1 else 'steps'} {k + 1}{'' if end - k == 1 else f'-{end}'}")
    return forks(prev_label, prev[end], end, label, start, names)


def forks(prev_label: str, ended: Position, end: int, label: str, start: Position,
          names: Mapping[str, str]) -> str:
    differ = sorted(u for u in set(ended) | set(start) if ended.get(u) != start.get(u))
    shown = "; ".join(f"{names.get(u, u)} is {_say(ended.get(u))} there and {_say(start.get(u))} here"
                      for u in differ[:SHOWN])
    more = f" (and {len(differ) - SHOWN} more units)" if len(differ) > SHOWN else ""
    return (f"{label} does not start where {prev_label} ended (step {end}), nor from any earlier position of "
            f"it: it forks the game. {shown}{more}")


def _say(p: Place | None) -> str:
    if p is None:
        return "not on the board"
    where, facing = p
    return f"on {where}" + (f" facing {facing}" if facing is not None else "")


# --------------------------------------------------------------------------------------------- hosted games

BOARD_MOVES = ("move", "cinc_move", "face")


def board_position(ruleset_state: Any, stored: Iterable[tuple[Mapping[str, Any], Mapping[str, Any]]],
                   cincs: Mapping[str, str]) -> Position:
    """The board a hosted game's players have: the referee's units (hex, facing) after the stored events,
    except where a move or turn the referee ruled illegal left a piece where the player dropped it."""
    board = getattr(ruleset_state, "board", None)
    units = getattr(board, "units", {})
    out: Position = {uid: (u.hex if u.hex is not None else getattr(u, "box", None), getattr(u, "facing", None))
                     for uid, u in units.items()}
    dropped: Position = {}
    for event, ruling in stored:
        uid = event.get("unit") or (cincs.get(event.get("side", "")) if event.get("type") == "cinc_move" else None)
        if uid is None or event.get("type") not in BOARD_MOVES:
            continue
        if ruling.get("verdict") == "illegal":
            hex_, facing = dropped.get(uid, out.get(uid, (None, None)))
            path = event.get("path") or []
            dropped[uid] = (path[-1] if path else hex_, event.get("facing", facing))
        else:
            dropped.pop(uid, None)          # moved legally since: the referee's place is the board's again
    return {**out, **dropped}


def on_hexes(p: Position) -> Position:
    """The units of a position that stand on a map hex (boxes are the referee's business, not the board's)."""
    return {u: pl for u, pl in p.items() if pl[0] is not None and pl[0].isdigit()}
