"""VASSAL facts (``vassal_steps``) in the game's terms: referee events (DESIGN §5), in the order they happened.

* A unit's piece dragged to another hex is a ``move`` (a commander-in-chief's a ``cinc_move``) whose
  destination is known but whose path is not: VASSAL records where a piece ended.  The event is returned
  with its ``destination`` and the path is found later against the game state (``vassal_paths``).  A move
  announced in the chat first (``!retreat psk-a``, ``!move ney-a extended``) takes the board move as its
  destination instead.
* A turn of the Facing rotator is the unit's new facing: folded into the unit's move just before it (a unit
  turns as part of its move, 6.12), else a ``face`` event.
* A d10 button's report is a ``roll`` event: the engine's roll protocol gives it to the roll owed next.
* A ``!`` chat line is a declaration (``chat``).  Other chat is conversation.
* The engine's Undo takes its step back: neither the Undo nor the step undone is read (``vassal_steps``).
* Bookkeeping the referee works out itself -- the Disorder layer flipped, a piece put in a holding box, a
  marker moved -- is kept as a note, never as an event.

Whatever cannot be understood is a problem naming its log step; nothing is dropped silently.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, MutableMapping

from modulebuilder.vassal.facing import facing_hour
from modulebuilder.vassal.pieces import DISORDER_LAYER
from modulebuilder.vassal.savefile import PieceInfo

from . import chat
from .vassal_board import BoardGeometry, Location, box_key
from .vassal_steps import Drawn, Fact, PieceChange, Reported, Returned, Rolled, Said, Undone, Unreadable, moved_to

FACING_PROPERTY = "Facing_Facing"          # FreeRotator "Facing": state + 1 (modulebuilder.vassal.facing)
DISORDER_PROPERTY = f"{DISORDER_LAYER}_Active"
ROLL_DIE = "d10"


UNREADABLE = "unreadable"           # the engine rules it illegal and changes nothing (referee.engine.replay)


@dataclass
class ReadEvent:
    """One event and the log step it came from; ``destination`` is set while a move's path is unknown."""
    step: int
    event: dict[str, Any]
    destination: str | None = None
    mover: str | None = None            # the unit whose path is wanted (the CinC for ``cinc_move``)
    line: str | None = None             # the chat line it was read from
    markers: tuple[tuple[str, str], ...] = ()   # (marker, side): a first marker the initiative holder settles
    drawn: bool = False                 # drawn from a deck on the board (the notation may make it a first pick)
    dice: dict[str, Any] | None = None  # where its roll came from (:func:`dice_source`), when it has one
    side_from_state: bool = False       # no side typed nor known: the side that may act when it is ruled
    file: str | None = None             # the file it was read from (one of several turn files)


def unreadable(step: int, line: str, why: str) -> ReadEvent:
    """A line the reader could not read: a ruling of its own (``unreadable``, with the line and why), so that
    one typo does not cost the rest of the game its rulings."""
    return ReadEvent(step, {"type": UNREADABLE, "step": step, "line": line, "why": why}, line=line)


@dataclass
class Reading:
    events: list[ReadEvent] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)     # ruled anyway, but a player should know


@dataclass
class _Context:
    roster: chat.Roster
    board: BoardGeometry
    orientation: str
    leaders: frozenset[str]
    declared_side: MutableMapping[str, str] = field(default_factory=dict)  # player -> side of their last '!side'
    moved_side: MutableMapping[str, str] = field(default_factory=dict)     # player -> side of the last unit moved
    # unit -> step, claim, line, file
    claims: MutableMapping[str, tuple[int, chat.Claim, str, str | None]] = field(default_factory=dict)
    file: str | None = None                                    # the file being read
    reports: list[Reported] = field(default_factory=list)      # this step's engine reports
    out: Reading = field(default_factory=Reading)


def read_events(facts: Iterable[Fact], scenario: Any, board: BoardGeometry) -> Reading:
    return read_files([(None, facts)], scenario, board)


def read_files(files: Iterable[tuple[str | None, Iterable[Fact]]], scenario: Any, board: BoardGeometry) -> Reading:
    """The events of one game's files, in order, read with one context: a side a player announced or played
    in one turn's file is still theirs in the next.  Every event, note, problem and warning names its file."""
    reader = Reader(scenario, board)
    ctx = reader.ctx
    for label, file_facts in files:
        out = ctx.out
        marks = len(out.events), len(out.notes), len(out.problems), len(out.warnings)
        ctx.file = label
        for step_facts in _by_step(file_facts):
            reader.step(step_facts)
        for r in out.events[marks[0]:]:
            r.file = label
        if label is not None:
            for lines, mark in zip((out.notes, out.problems, out.warnings), marks[1:]):
                lines[mark:] = [f"{label} {line}" for line in lines[mark:]]
    for unit, (step, claim, line, label) in ctx.claims.items():
        at = next((i for i, r in enumerate(ctx.out.events) if r.file == label and r.step > step),
                  next((i + 1 for i in range(len(ctx.out.events) - 1, -1, -1) if ctx.out.events[i].file == label),
                       len(ctx.out.events)))
        lost = unreadable(step, line, f"'{claim.event['type']}' for {unit} waits for {unit} to move on the board, "
                                      "and it never did")
        lost.file = label
        ctx.out.events.insert(at, lost)
    return ctx.out


class Reader:
    """The reading of one game's facts, a step at a time (what :func:`read_files` does over a whole file; the
    live route feeds it steps as they arrive).  ``mapping`` makes the reading's own tables (the players' sides,
    the moves announced and waiting), so that a caller may record their changes and take them back."""

    def __init__(self, scenario: Any, board: BoardGeometry,
                 mapping: Callable[[], MutableMapping[Any, Any]] = dict) -> None:
        leaders = frozenset(ldr.id for ldr in scenario.counters.leaders)
        self.ctx = _Context(chat.Roster.from_scenario(scenario), board, scenario.map.grid.orientation, leaders,
                            declared_side=mapping(), moved_side=mapping(), claims=mapping())

    @property
    def out(self) -> Reading:
        return self.ctx.out

    def step(self, step_facts: list[Fact]) -> None:
        """Read the facts of one step, in order."""
        self.ctx.reports = [f for f in step_facts if isinstance(f, Reported)]
        for f in step_facts:
            _fact(self.ctx, f)


def _by_step(facts: Iterable[Fact]) -> Iterable[list[Fact]]:
    group: list[Fact] = []
    for f in facts:
        if group and group[0].step != f.step:
            yield group
            group = []
        group.append(f)
    if group:
        yield group


def _fact(ctx: _Context, f: Fact) -> None:
    if isinstance(f, PieceChange):
        _piece_change(ctx, f)
    elif isinstance(f, Said):
        _said(ctx, f)
    elif isinstance(f, Rolled):
        _rolled(ctx, f)
    elif isinstance(f, Unreadable):
        if f.line is not None:
            ctx.out.events.append(unreadable(f.step, f.line, f.message))
        else:
            ctx.out.problems.append(f"step {f.step}: {f.message}")
    elif isinstance(f, Undone):
        ctx.out.notes.append(f"step {f.step}: Undo of step {f.undone}; neither is ruled")
    elif isinstance(f, Drawn):
        _drawn(ctx, f)
    elif isinstance(f, Returned):
        ctx.out.notes.append(f"step {f.step}: {f.piece.name or f.piece.id} back in the {f.deck}; the referee "
                             "returns markers by the rules")


def _drawn(ctx: _Context, f: Drawn) -> None:
    """A piece drawn from a deck: the event the notation says it is (an AM from the cup is a ``draw``)."""
    event = ctx.roster.notation.drawn(ctx.roster, f.piece.properties)
    if event is None:
        ctx.out.notes.append(f"step {f.step}: {f.piece.name or f.piece.id} drawn from the {f.deck}; nothing "
                             "to rule on")
    else:
        # Quoted like a chat line, so a marker the scenario lacks is a ruling of its own, not a refused log.
        ctx.out.events.append(ReadEvent(f.step, event, line=f"{f.piece.name or f.piece.id} drawn from the {f.deck}",
                                        drawn=True))


# --------------------------------------------------------------------------------------------- pieces

def _piece_change(ctx: _Context, f: PieceChange) -> None:
    piece = f.after or f.before
    assert piece is not None
    uid = piece.unit_id
    if uid is None:
        ctx.out.notes.append(f"step {f.step}: {piece.name or piece.id} (not a unit) changed; nothing to rule on")
        return
    if uid not in ctx.roster.unit_side:
        ctx.out.problems.append(f"step {f.step}: piece {piece.name!r} is unit '{uid}', which the scenario does "
                                "not have (wrong module or scenario?)")
        return
    if f.before is None or f.after is None:
        what = "appeared" if f.before is None else "was deleted"
        ctx.out.notes.append(f"step {f.step}: {uid} {what}; the referee keeps its own count of units")
        return
    _relocated(ctx, f, uid, f.before, f.after)
    _turned(ctx, f, uid, f.before, f.after)
    _flipped(ctx, f, uid, f.before, f.after)


def _where(ctx: _Context, p: PieceInfo) -> Location:
    loc = ctx.board.locate(p.map, p.x, p.y)
    if loc.hex is None and loc.box is None and p.map is not None and p.map not in ctx.board.game_maps():
        # Without the module there are no box outlines: the engine's own move report names the box.
        named = moved_to(ctx.reports, p.name)
        if named:
            return Location(box=box_key(named), where=named)
    return loc


def _relocated(ctx: _Context, f: PieceChange, uid: str, before: PieceInfo, after: PieceInfo) -> None:
    if (before.map, before.x, before.y) == (after.map, after.x, after.y):
        return
    src, dst = _where(ctx, before), _where(ctx, after)
    if f.player and dst.hex is not None:
        # A unit moved on the map tells whose side its mover plays; one put in a box does not (a player puts the
        # enemy's eliminated units on the dead pile, and the referee link its results).
        ctx.moved_side[f.player] = ctx.roster.unit_side[uid]
    if dst.hex is not None and dst.hex == src.hex:
        ctx.out.notes.append(f"step {f.step}: {uid} re-stacked within {dst.hex}; not a move (declare a stack "
                             f"order with '!stack {dst.hex} UNIT...')")
        return
    if dst.hex is None:
        place = f"the {dst.where} box" if dst.box else dst.where
        ctx.out.notes.append(f"step {f.step}: {uid} put in {place}; the referee moves units off the map itself")
        return
    side = ctx.roster.unit_side[uid]
    claim = ctx.claims.pop(uid, None)
    if claim is not None:
        _fill_claim(ctx, f.step, claim[1], side, dst.hex, claim[2])
    else:
        event = ctx.roster.notation.board_move(uid, side, uid in ctx.leaders)
        ctx.out.events.append(ReadEvent(f.step, event, dst.hex, uid))


def _fill_claim(ctx: _Context, step: int, claim: chat.Claim, side: str, hex_: str, line: str) -> None:
    event = {"side": side, **claim.event}
    dice = dice_source(event, line)
    if claim.field == "to" and event["type"] != "move":
        ctx.out.events.append(ReadEvent(step, {**event, "to": hex_}, dice=dice))
    else:
        ctx.out.events.append(ReadEvent(step, event, hex_, claim.unit, dice=dice))


def _facing(ctx: _Context, p: PieceInfo) -> int | None:
    value = p.get(FACING_PROPERTY)
    return facing_hour(ctx.orientation, int(value) - 1) if value and value.isdigit() else None


def _turned(ctx: _Context, f: PieceChange, uid: str, before: PieceInfo, after: PieceInfo) -> None:
    new = _facing(ctx, after)
    if new is None or new == _facing(ctx, before):
        return
    last = ctx.out.events[-1] if ctx.out.events else None
    if last is not None and last.mover == uid and last.event["type"] == "move":
        last.event["facing"] = new          # 6.12: the turn at the end of a move is part of it
        return
    ctx.out.events.append(ReadEvent(f.step, {"type": "face", "side": ctx.roster.unit_side[uid], "unit": uid,
                                             "facing": new}))


def _flipped(ctx: _Context, f: PieceChange, uid: str, before: PieceInfo, after: PieceInfo) -> None:
    was, now = before.get(DISORDER_PROPERTY), after.get(DISORDER_PROPERTY)
    if was != now and now is not None:
        state = "disordered" if now == "true" else "good order"
        ctx.out.notes.append(f"step {f.step}: {uid} flipped to {state}; the referee applies disorder and "
                             "rallies by the rules")


# --------------------------------------------------------------------------------------------- chat and dice

def _rolled(ctx: _Context, f: Rolled) -> None:
    if f.die != ROLL_DIE:
        ctx.out.notes.append(f"step {f.step}: a {f.die} roll ({f.value}); the rules roll only the d10")
        return
    if f.value is None:
        ctx.out.problems.append(f"step {f.step}: the d10 report shows no number")
        return
    if not 0 <= f.value <= 9:
        ctx.out.problems.append(f"step {f.step}: a d10 roll is 0-9, not {f.value}")
        return
    dice: dict[str, Any] = {"by": "die", "recorded": f.recorded}
    if f.reported is not None:
        dice["chat"] = f.reported
        ctx.out.warnings.append(f"step {f.step}: the chat says d10 = {f.reported}, but the die recorded "
                                f"{f.recorded}: ruled on {f.recorded}, the die's own record")
    elif f.recorded is None:
        ctx.out.warnings.append(f"step {f.step}: the d10 report ({f.value}) has no record of the die in its step "
                                "(no d10_total or d10_result): ruled on the report's words")
    side = _player_side(ctx, f.player)
    ctx.out.events.append(ReadEvent(f.step, {"type": "roll", "roll": f.value, **({"side": side} if side else {})},
                                    dice=dice))


def dice_source(event: dict[str, Any], line: str | None) -> dict[str, Any] | None:
    """``{"by": "typed", "line": ...}`` for an event whose roll was typed in the chat, else None."""
    return {"by": "typed", "line": line} if "roll" in event or "rolls" in event else None


def _said(ctx: _Context, f: Said) -> None:
    if not chat.is_declaration(f.text) or chat.scenario_of(f.text):
        return
    try:
        meaning = chat.read(f.text, ctx.roster, _player_side(ctx, f.player))
        if isinstance(meaning, (chat.Claim, chat.Declared)):
            event = _sided(ctx, f, meaning.event, getattr(meaning, "markers", ()))
    except chat.ChatError as e:
        ctx.out.events.append(unreadable(f.step, f.text, str(e)))
        return
    if isinstance(meaning, chat.SetSide):
        ctx.declared_side[f.player] = meaning.side
    elif isinstance(meaning, chat.Claim):
        ctx.claims[meaning.unit] = (f.step, chat.Claim(meaning.unit, meaning.field, event), f.text, ctx.file)
    elif isinstance(meaning, chat.Declared):
        markers = tuple((m, ctx.roster.marker_side(m) or "") for m in meaning.markers)
        ctx.out.events.append(ReadEvent(f.step, event, line=f.text, markers=markers, dice=dice_source(event, f.text),
                                        side_from_state=not markers and _unsided(ctx, event)))


def _sided(ctx: _Context, f: Said, event: dict[str, Any], markers: tuple[str, ...] = ()) -> dict[str, Any]:
    """The event with its side: typed, else that of what it names (the notation's ``event_side``: units, a
    marker...), else the player's.  Some events belong to nobody in particular (the notation's ``sideless``:
    a draw from the cup): they get no side unless typed.
    """
    notation = ctx.roster.notation
    if "side" in event or event["type"] in notation.sideless:
        return event
    if event["type"] in notation.side_optional:
        # Only an announced '!side' says whose it is; else the ruleset's completion finds it in the state
        # (the side of the activation in progress), which a player's last move cannot.
        side = ctx.declared_side.get(f.player)
        return {**event, "side": side} if side else event
    side = notation.event_side(ctx.roster, event) or _player_side(ctx, f.player)
    if side is not None:
        return {**event, "side": side}
    # A first marker both sides name alike is the initiative holder's (chat.Declared).  Else nothing typed or
    # done says whose it is (a file of a later turn begins with it): the side that may act when it is ruled
    # (``vassal_paths.side_from_state``: only the French may shock in their Movement and Combat step).
    return event


def _unsided(ctx: _Context, event: dict[str, Any]) -> bool:
    """True for a declaration whose side neither the line nor the player's acts tell (see :func:`_sided`)."""
    notation = ctx.roster.notation
    return "side" not in event and event["type"] not in notation.sideless \
        and event["type"] not in notation.side_optional


def no_side(line: str, sides: tuple[str, ...] | list[str]) -> str:
    """Why a declaration is unreadable when even the game state cannot tell whose it is."""
    return (f"cannot tell which side it is for: add the side (e.g. '!{line.lstrip()[1:].split()[0]} "
            f"{sides[0].lower()}') or type '!side {sides[0]}' first")


def _player_side(ctx: _Context, player: str | None) -> str | None:
    """The side a player last announced with ``!side``, else that of the last unit they moved."""
    if player is None:
        return None
    return ctx.declared_side.get(player) or ctx.moved_side.get(player)
