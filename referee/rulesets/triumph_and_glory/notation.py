"""The chat notation of Triumph & Glory (docs/chat-notation.md): its ``!`` commands, its marker and command
names, and the completion of VASSAL board moves -- the ruleset's side of the log reader's hook
(:mod:`referee.logs.notation`; registered by the ``notation`` attribute of :class:`TriumphAndGlory`).

* Commands: one reader per word after ``!``, each consuming its words left to right (``chat.Tokens``) and
  returning the event it declares.
* Names: every activation group's marker with its side, ``destruction``, ``barrage:<side>``, ``cga:<side>``,
  Murat's marker when the cavalry reserve rule is in force, and *Schevardino*'s commands with their sides.
* Draws from the module's cup (docs/vassal-module.md): the drawn AM's ``AG`` property is the marker drawn,
  or its ``MarkerId`` for the special AMs (``murat``, ``destruction``, ``barrage-french`` -> ``barrage:French``).
* Completion, against the state just before the event is ruled: an AM taken from the cup in the Initiative
  Phase, once the initiative is decided, is the holder's first marker (4.0, 5.32 step 3), else a draw; a
  dragged unit's path is the cheapest legal path (``movement.cheapest_path``) in the first of normal / limited / extended movement that reaches the
  hex, else the cheapest ignoring movement points, else the straight line, so that the ruling says why the
  move is illegal; ``!first viii-corps`` with no side typed is the marker of the side holding the initiative
  (4.0: the holder picks the first marker); ``!end`` with no side typed or announced ends the activation in
  progress, whoever's it is.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

# The log reader's objects (referee.logs: a line's words, the names, a read event) arrive as arguments and are
# used by their methods and fields only: a ruleset imports no front end (.importlinter).  A reader makes its
# meaning with ``t.declared(event)`` / ``t.claim(unit, field, event)`` and refuses a line with
# ``raise t.error(why)``.
Tokens = Meaning = Roster = ReadEvent = Any


from . import movement, moves, scenario_rules
from .state import INITIATIVE


def _side(side: str | None) -> dict[str, str]:
    """``{"side": side}`` when a side was typed, else nothing (the reader supplies it)."""
    return {"side": side} if side else {}


FLAGS = frozenset(("barrage", "nocinc", "normal", "limited", "extended", "charge", "assault"))


def _cinc(t: Tokens) -> dict[str, bool]:
    return {"use_cinc": False} if t.flag("nocinc") else {}


def _unit_roll(type_: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        side = t.side()
        return t.declared({"type": type_, **_side(side), "unit": t.unit(), **t.roll()})
    return read


def _counter_charge(t: Tokens) -> Meaning:
    """``UNIT [ROLL] [> HEX]``: the hex names the chargers aimed at when they charge from several (9.86)."""
    side = t.side()
    unit = t.unit()
    roll = t.roll()
    aim = t.arrow_hexes(required=False)
    roll = roll or t.roll()
    at = {"at": aim[0]} if aim else {}
    return t.declared({"type": "counter_charge", **_side(side), "unit": unit, **at, **roll})


def _orders(t: Tokens) -> Meaning:
    side = t.side()
    # "!orders french" alone: no group under orders (5.21 allows it); the side must then be typed.
    units = t.units() if side is None or (t.words and t.peek() not in FLAGS and "=" not in t.peek()) else []
    extra: dict[str, Any] = {"barrage": True} if t.flag("barrage") else {}
    extra.update(t.option("army"))
    return t.declared({"type": "orders", **_side(side), "under_orders": units, **extra})


def _initiative(t: Tokens) -> Meaning:
    rolls: dict[str, int] = {}
    for side in t.roster.sides:
        if t.peek() is None:
            break
        rolls[side] = t.number("a roll")
    if rolls and len(rolls) != len(t.roster.sides) or any(r > 9 for r in rolls.values()):
        raise t.error(f"give one d10 roll (0-9) per side, in the order {', '.join(t.roster.sides)}")
    return t.declared({"type": "initiative", **({"rolls": rolls} if rolls else {})})


def _go_first(t: Tokens) -> Meaning:
    side = t.side()
    if side:
        return t.declared({"type": "go_first", "first": side})
    initiative = _initiative(t)
    return t.declared({"type": "go_first", **{k: v for k, v in initiative.event.items() if k == "rolls"}})


def _first(t: Tokens) -> Meaning:
    side = t.side()
    if not t.words:
        raise t.error("which marker goes first?")
    token = t.take()
    settled_by = side or t.player_side
    candidates = t.roster.marker_candidates(token)
    if settled_by is None and len(candidates) > 1 and len({t.roster.marker_side(m) for m in candidates}) == len(
            candidates):
        # One marker of that name per side: the initiative holder's (4.0), known only when it is ruled.
        return t.declared({"type": "first_marker", "marker": candidates[0]}, markers=tuple(candidates))
    marker = t.roster.marker(token, settled_by)
    return t.declared({"type": "first_marker", **_side(side), "marker": marker})


def _draw(t: Tokens) -> Meaning:
    if not t.words:
        raise t.error("which marker was drawn?")
    return t.declared({"type": "draw", "marker": t.roster.marker(t.take())})


def _io(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    roll = t.roll()
    return t.declared({"type": "individual_order", **_side(side), "unit": unit, **roll, **_cinc(t)})


def _commit(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    roll = t.roll()
    return t.declared({"type": "commitment", **_side(side), "unit": unit, **roll, **_cinc(t)})


def _move(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    mode = next(({"mode": m} for m in ("normal", "limited", "extended") if t.flag(m)), {})
    path = t.arrow_hexes(required=False)
    event = {"type": "move", **_side(side), "unit": unit, **mode}
    return t.declared({**event, "path": path}) if path else t.claim(unit, "to", event)


def _claimed(type_: str, fld: str) -> Callable[[Tokens], Meaning]:
    """Retreat, advance, fall back: the board move of the (first) unit gives ``to`` unless typed."""
    def read(t: Tokens) -> Meaning:
        side = t.side()
        units = t.units() if type_ == "advance" else [t.unit()]
        hexes = t.arrow_hexes(required=False)
        event = {"type": type_, **_side(side), **({"units": units} if type_ == "advance" else {"unit": units[0]})}
        if type_ == "fall_back":
            event.update(t.roll())                    # 9.31: from charging heavy cavalry
        elif type_ == "advance":
            event.update(_hour(t))                    # 9.71: re-facing on entering (no breakthrough then)
        if hexes:
            return t.declared({**event, fld: hexes[0] if len(hexes) == 1 else hexes})
        return t.claim(units[0], fld, event)
    return read


def _cinc_move(t: Tokens) -> Meaning:
    side = t.side()
    roll = t.roll()
    path = t.arrow_hexes(required=False)
    if side is None:
        raise t.error("say whose commander-in-chief moves (e.g. '!cinc french')")
    event = {"type": "cinc_move", "side": side, **roll}
    if path:
        return t.declared({**event, "path": path})
    if side not in t.roster.cincs:
        raise t.error(f"{side} has no commander-in-chief")
    return t.claim(t.roster.cincs[side], "path", event)


def _face(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    hour = t.number("the facing (a clock hour)")
    if not 1 <= hour <= 12:
        raise t.error(f"a facing is a clock hour 1-12, not {hour}")
    return t.declared({"type": "face", **_side(side), "unit": unit, "facing": hour})


def _stack(t: Tokens) -> Meaning:
    side = t.side()
    hex_ = t.hex()
    return t.declared({"type": "stack_order", **_side(side), "hex": hex_, "order": t.units()})


def _fire(t: Tokens) -> Meaning:
    side = t.side()
    units = t.units()
    target = t.arrow_hexes(required=True)[0]
    return t.declared({"type": "fire", **_side(side), "units": units, "target": target, **t.roll()})


def _one_battery_fire(kind: str) -> Callable[[Tokens], Meaning]:
    """``UNIT > HEX [ROLL]``: reaction fire (8.6) and counter-battery fire (8.7) name one battery."""
    def parse(t: Tokens) -> Meaning:
        side = t.side()
        unit = t.unit()
        target = t.arrow_hexes(required=True)[0]
        return t.declared({"type": kind, **_side(side), "unit": unit, "target": target, **t.roll()})
    return parse


def _assault_entries(t: Tokens, charge: bool) -> list[dict[str, Any]]:
    """``A B > 2313 [2314]`` pieces separated by ``;``; each may start with ``charge``/``assault``."""
    entries: list[dict[str, Any]] = []
    while True:
        if t.flag("charge"):
            charge = True
        elif t.flag("assault"):
            charge = False
        attackers = t.units()
        targets = t.arrow_hexes(required=True)
        entries.append({"attackers": attackers, "target": targets, "charge": charge})
        if not t.flag(";"):
            return entries


def _assaults(charge: bool) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        side = t.side()
        return t.declared({"type": "assaults", **_side(side), "assaults": _assault_entries(t, charge)})
    return read


def _hour(t: Tokens) -> dict[str, int]:
    """An optional facing written ``@HOUR`` (a clock hour 1-12)."""
    w = t.peek()
    if w is None or not w.startswith("@"):
        return {}
    t.take()
    if not w[1:].isdigit() or not 1 <= int(w[1:]) <= 12:
        raise t.error(f"a facing is @ and a clock hour 1-12, not {w!r}")
    return {"facing": int(w[1:])}


def _charge_to(t: Tokens) -> Meaning:
    """``!chargeto UNIT HEX [HEX] > TARGET [@HOUR]``: the charge move through one or two hexes (9.81)."""
    side = t.side()
    unit = t.unit()
    path = []
    while t.is_hex(t.peek()):
        path.append(t.take())
    if not 1 <= len(path) <= 2:
        raise t.error("name the one or two hexes charged through, then '> target hex'")
    target = t.arrow_hexes(required=True)
    if len(target) != 1:
        raise t.error("a charge has one target hex")
    return t.declared({"type": "charge", **_side(side), "unit": unit, "path": path, "target": target[0], **_hour(t)})


def _pursue(t: Tokens) -> Meaning:
    """``!pursue UNIT... > HEX [TARGET] [@HOUR] [stop]``: the pursuers enter the vacated hex (9.87); ``stop``
    ends the pursuit there when another enemy is also in their front."""
    side = t.side()
    units = t.units()
    hexes = t.arrow_hexes(required=True)
    if len(hexes) > 2:
        raise t.error("give the vacated hex and, optionally, the hex charged again")
    target = {"target": hexes[1]} if len(hexes) == 2 else {}
    hour = _hour(t)
    stop = {"stop": True} if t.flag("stop") else {}
    return t.declared({"type": "pursuit", **_side(side), "units": units, "to": hexes[0], **target, **hour, **stop})


def _recall(t: Tokens) -> Meaning:
    side = t.side()
    return t.declared({"type": "recall", **_side(side), "unit": t.unit(), **t.roll(), **_hour(t)})


def _breakthrough(t: Tokens) -> Meaning:
    """``!breakthrough UNIT... > HEX...``: the infantry that advanced shocks again (9.73)."""
    side = t.side()
    units = t.units()
    return t.declared({"type": "breakthrough", **_side(side), "units": units, "target": t.arrow_hexes(required=True)})


def _counter_shock(t: Tokens) -> Meaning:
    """``!countershock UNIT... [HEX] > HEX...``: the defender's counter-shock (9.73); a hex before ``>`` is its
    one-hex move."""
    side = t.side()
    units = t.units()
    to = {"to": t.take()} if t.is_hex(t.peek()) else {}
    return t.declared({"type": "counter_shock", **_side(side), "units": units, **to,
                     "target": t.arrow_hexes(required=True)})


def _shock(t: Tokens) -> Meaning:
    side = t.side()
    n = t.number("which assault (1 = the first declared)")
    if n < 1:
        raise t.error("assaults are counted from 1")
    return t.declared({"type": "shock", **_side(side), "assault": n - 1, **t.roll()})


def _village(type_: str, what: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        side = t.side()
        unit = t.unit()
        place: Any = [t.hex(), t.hex()] if what == "bridge" else t.hex()
        to = t.arrow_hexes(required=True)[0]
        return t.declared({"type": type_, **_side(side), "unit": unit, what: place, "to": to, **t.roll()})
    return read


def _side_only(type_: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        return t.declared({"type": type_, **_side(t.side())})
    return read


def _command(t: Tokens) -> Meaning:
    side = t.side()
    if not t.words:
        raise t.error("which command?")
    name = "-".join(t.words)
    t.words.clear()
    return t.declared({"type": "activate_command", **_side(side), "command": t.roster.command(name)})


def _delay(t: Tokens) -> Meaning:
    return t.declared({"type": "orders_delay", **_side(t.side()), **t.roll()})


def _reserve(t: Tokens) -> Meaning:
    side = t.side()
    return t.declared({"type": "reserve", **_side(side), "unit": t.unit()})


VERBS: Mapping[str, Callable[[Tokens], Meaning]] = {
    "delay": _delay,
    "orders": _orders,
    "initiative": _initiative,
    "first": _first,
    "draw": _draw,
    "io": _io,
    "move": _move,
    "face": _face,
    "stack": _stack,
    "fire": _fire,
    "reactionfire": _one_battery_fire("reaction_fire"),
    "counterbattery": _one_battery_fire("counter_battery"),
    "assault": _assaults(charge=False),
    "charge": _assaults(charge=True),
    "commit": _commit,
    "shock": _shock,
    "cohesion": _unit_roll("cohesion_check"),
    "retreat": _claimed("retreat", "to"),
    "advance": _claimed("advance", "to"),
    "fallback": _claimed("fall_back", "to"),
    "breakthrough": _breakthrough,
    "countershock": _counter_shock,
    "rally": _unit_roll("rally"),
    "recover": _unit_roll("recovery"),
    "square": _unit_roll("square"),
    "countercharge": _counter_charge,
    "recall": _recall,
    "chargeto": _charge_to,
    "leavesquare": _unit_roll("leave_square"),
    "pursue": _pursue,
    "reserve": _reserve,
    "cinc": _cinc_move,
    "gofirst": _go_first,
    "command": _command,
    "burn": _village("burn_village", "village"),
    "fireout": _village("fire_out", "village"),
    "destroybridge": _village("destroy_bridge", "bridge"),
    "end": _side_only("end_activation"),
    "endphase": _side_only("end_phase"),
}


# --------------------------------------------------------------------------------------------- names

def names(scenario: Any) -> dict[str, Mapping[str, Any]]:
    """Markers (AGs, destruction, barrage and CGA per side, Murat's) and Schevardino's commands, with sides."""
    sides = [s.name for s in scenario.sides]
    markers: dict[str, str | None] = {a.id: a.side for a in scenario.counters.activation_groups}
    markers["destruction"] = None
    markers.update({f"{k}:{s}": s for k in ("barrage", "cga") for s in sides})
    rules = scenario_rules.parse(scenario)
    if rules.cavalry_reserve is not None:
        markers.setdefault(rules.cavalry_reserve.marker, None)
    commands = {} if rules.command_activation is None else {
        c: side for c, (side, _) in rules.command_activation.commands.items()}
    return {"markers": markers, "commands": commands}


def event_side(roster: Roster, event: Mapping[str, Any]) -> str | None:
    """The side of the first unit the event names, else of the marker or command it names (``fr-viii-corps``,
    ``morand``)."""
    named: list[str] = [event[k] for k in ("unit",) if k in event]
    for k in ("units", "under_orders", "order"):
        named += list(event.get(k, ()))
    for a in event.get("assaults", ()):
        named += a["attackers"]
    if named:
        return roster.unit_side.get(named[0])
    if event.get("type") == "activate_command":
        return roster.command_side.get(event["command"])
    return roster.marker_side(event["marker"]) if event.get("type") == "first_marker" else None


def drawn(roster: Roster, properties: Mapping[str, str]) -> dict[str, Any] | None:
    """The marker an AM drawn from the cup is: its activation group, else its special marker's id."""
    ag, mid = properties.get("AG") or "", properties.get("MarkerId") or ""
    if ag:
        return {"type": "draw", "marker": ag}
    kind, _, side = mid.partition("-")
    if kind in ("barrage", "cga") and roster.side(side):
        return {"type": "draw", "marker": f"{kind}:{roster.side(side)}"}
    return {"type": "draw", "marker": mid} if mid else None


def board_move(uid: str, side: str, leader: bool) -> dict[str, Any]:
    """A unit dragged is a ``move``; the commander-in-chief dragged is his ``cinc_move`` (5.62)."""
    return {"type": "cinc_move", "side": side} if leader else {"type": "move", "side": side, "unit": uid}


# --------------------------------------------------------------------------------------------- completion

MODES = (None, "limited", "extended")   # None: the default (normal) movement
REINFORCEMENT = "reinforcement"
UNLIMITED = 999                          # an allowance no map needs: "cheapest ignoring MP"


def complete(state: Any, read: ReadEvent) -> dict[str, Any]:
    if read.drawn and read.event["type"] == "draw" and first_pick_now(state):
        return {"type": "first_marker", "side": state.initiative, "marker": read.event["marker"]}
    if read.markers:
        return with_first_marker(state, read)
    if read.event["type"] == "end_activation" and "side" not in read.event:
        act = getattr(state, "activation", None)        # '!end' with no side typed: the activation's side
        return {**read.event, "side": act.side} if act is not None and act.side else read.event
    if read.destination is None:
        return read.event
    return with_path(state, read)


def first_pick_now(state: Any) -> bool:
    """The Initiative Phase after the initiative roll, before any activation: the holder picks the first AM."""
    return (getattr(state, "phase", None) == INITIATIVE and getattr(state, "initiative_decided", False)
            and getattr(state, "initiative", None) is not None and getattr(state, "activation", None) is None)


def with_first_marker(state: Any, read: ReadEvent) -> dict[str, Any]:
    """``!first viii-corps`` with no side typed: the marker of that name of the side holding the initiative,
    who picks the first marker (4.0); unreadable when nobody holds it."""
    holder = getattr(state, "initiative", None)
    mine = [m for m, side in read.markers if side == holder]
    if holder is None or len(mine) != 1:
        names_ = ", ".join(m for m, _ in read.markers)
        return {"type": "unreadable", "step": read.step, "line": read.line or "",
                "why": f"activation marker {names_} could be either side's, and no side holds the initiative to "
                       "pick it: type the side (e.g. '!first french ...')"}
    return {**read.event, "side": holder, "marker": mine[0]}


def with_path(state: Any, read: ReadEvent) -> dict[str, Any]:
    assert read.destination is not None and read.mover is not None
    path, mode = tg_path(state, read.mover, read.destination, read.event.get("mode"), read.event.get("facing"))
    event = {**read.event, "path": path}
    if mode is not None and "mode" not in event and read.event["type"] == "move":
        event["mode"] = mode
    return event


def tg_path(state: Any, uid: str, dest: str, mode: str | None, facing: int | None) -> tuple[list[str], str | None]:
    """(path, mode): the cheapest legal path in the first mode that reaches ``dest``, else the cheapest path
    ignoring the allowance, else the straight line (the ruling then lists the hexes it could reach)."""
    board = state.board
    unit = board.units.get(uid)
    if unit is None:
        return [dest], None
    ctx = _context(state, uid)
    for m in (mode,) if mode is not None else _modes(unit):
        path = movement.cheapest_path(board, uid, dest, m, ctx)
        if path and movement.check_move(board, uid, path, m, ctx, facing=facing, alternatives=False).legal:
            return path, m
    unlimited = movement.cheapest_path(board, uid, dest, mode, replace(ctx, allowance=UNLIMITED))
    if unlimited:
        return unlimited, None
    return straight_line(board, unit.hex, dest), None


def _modes(unit: Any) -> tuple[str | None, ...]:
    # A unit waiting in the reinforcement box enters the map in the reinforcement mode (7.4x).
    return (REINFORCEMENT,) + MODES if getattr(unit, "box", None) == REINFORCEMENT else MODES


def _context(state: Any, uid: str) -> Any:
    """The mover's activation context when it is activated now; the default context otherwise."""
    act = getattr(state, "activation", None)
    if act is not None and uid in act.units:
        return moves.move_context(state, uid)
    return movement.MoveContext()


def straight_line(board: Any, start: str | None, dest: str) -> list[str]:
    """The hexes a straight line from ``start`` to ``dest`` enters (just ``dest`` when there is no start)."""
    grid = getattr(board, "grid", None)
    if start is None or grid is None or start == dest:
        return [dest]
    cells = [c[0] for c in grid.line(start, dest)]
    return [h for h in cells[1:] if grid.contains(h)] or [dest]


NOTATION = dict(verbs=VERBS, flags=FLAGS, names=names, event_side=event_side,
                    sideless=frozenset(("draw", "initiative", "go_first")),
                    side_optional=frozenset(("end_activation",)), board_move=board_move, drawn=drawn,
                    complete=complete)
