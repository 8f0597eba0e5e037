"""The chat notation: declarations players type in VASSAL's chat, read as referee events (docs/chat-notation.md).

A declaration is a chat line starting with ``!``: ``!orders ney-a davout-b barrage``, ``!draw i-corps``,
``!assault dumon-a dumon-b > 2313``, ``!end``.  Everything else in the chat is conversation and is ignored.
Every act that has no board action in VASSAL (orders, markers, declarations, ends of phases) has a command;
acts that *are* board actions (a move, a retreat) may be announced first, and the unit's next move on the
board then supplies the destination (:class:`Claim`).

Names are forgiving but never ambiguous: a unit is its id, a unique id suffix after a ``-`` (``damas-b`` for
``fr-th-damas-b``) or its printed name with ``-`` for spaces; a side is a unique prefix of its name; an
activation marker is an AG id or a unique suffix of one.  Anything else is a :class:`ChatError` whose message
says what was not understood.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union

ARROW = ">"


class ChatError(ValueError):
    """A declaration that cannot be read; the message says why (the caller adds step and text)."""


# --------------------------------------------------------------------------------------------- what names mean

def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Roster:
    """The scenario's names: units and their sides, sides, markers, Schevardino commands, hex digits."""
    sides: tuple[str, ...]
    unit_side: Mapping[str, str]
    unit_names: Mapping[str, tuple[str, ...]]       # slug of the printed name -> unit ids
    markers: tuple[str, ...]
    commands: tuple[str, ...] = ()
    cincs: Mapping[str, str] = field(default_factory=dict)   # side -> commander-in-chief id
    digits: int = 2
    ag_side: Mapping[str, str] = field(default_factory=dict)  # activation group id -> side
    command_side: Mapping[str, str] = field(default_factory=dict)  # Schevardino command id -> side

    @classmethod
    def from_scenario(cls, scenario: Any) -> "Roster":
        sides = tuple(s.name for s in scenario.sides)
        people = list(scenario.counters.units) + list(scenario.counters.leaders)
        names: dict[str, tuple[str, ...]] = {}
        for p in people:
            names[_slug(p.name)] = names.get(_slug(p.name), ()) + (p.id,)
        markers = tuple(a.id for a in scenario.counters.activation_groups) + ("destruction",) + tuple(
            f"{k}:{s}" for k in ("barrage", "cga") for s in sides)
        commands: tuple[str, ...] = ()
        command_side: dict[str, str] = {}
        try:
            from referee.rulesets.triumph_and_glory import scenario_rules
            rules = scenario_rules.parse(scenario)
            if rules.cavalry_reserve is not None:
                markers += (rules.cavalry_reserve.marker,)
            if rules.command_activation is not None:
                commands = tuple(rules.command_activation.commands)
                command_side = {c: side for c, (side, _) in rules.command_activation.commands.items()}
        except (ImportError, AttributeError):
            pass    # another ruleset: the scenario's own markers are all there is
        return cls(sides, {p.id: p.side for p in people}, names, markers, commands,
                   {s.name: s.cinc for s in scenario.sides if getattr(s, "cinc", None)},
                   scenario.map.grid.digits, {a.id: a.side for a in scenario.counters.activation_groups},
                   command_side)

    def unit(self, token: str) -> str:
        low = token.lower()
        if low in self.unit_side:
            return low
        found = [u for u in self.unit_side if u.endswith("-" + low)] or list(self.unit_names.get(_slug(low), ()))
        return _one(found, token, "unit")

    def side(self, token: str) -> str | None:
        """The side ``token`` names, or None when it is not a side name."""
        low = token.lower()
        found = [s for s in self.sides if s.lower().startswith(low)]
        return found[0] if len(found) == 1 and len(low) >= 2 else None

    def marker(self, token: str, side: str | None = None) -> str:
        """An activation marker; ``side`` settles a suffix both sides share (``viii-corps``)."""
        low = token.lower()
        if low in self.markers:
            return low
        if ":" in low:
            kind, side = low.split(":", 1)
            named = self.side(side)
            if named and f"{kind}:{named}" in self.markers:
                return f"{kind}:{named}"
        found = [m for m in self.markers if m.endswith("-" + low)]
        if len(found) > 1 and side is not None:
            found = [m for m in found if self.ag_side.get(m) == side] or found
        return _one(found, token, "activation marker")

    def command(self, token: str) -> str:
        """A Schevardino command: its id, a unique end of it (``ii-cav-corps``) or a unique part (``cav``)."""
        low = _slug(token)
        if low in self.commands:
            return low
        found = [c for c in self.commands if c.endswith("-" + low)] or [c for c in self.commands if low in c]
        return _one(found, token, "command")

    def marker_side(self, marker: str) -> str | None:
        """The side an activation marker belongs to (an AG's side, ``barrage:French``'s French), if any."""
        if marker in self.ag_side:
            return self.ag_side[marker]
        return marker.split(":", 1)[1] if ":" in marker and marker.split(":", 1)[1] in self.sides else None

    def marker_candidates(self, token: str) -> list[str]:
        """Every marker ``token`` may name (one when it is unambiguous)."""
        low = token.lower()
        if low in self.markers:
            return [low]
        return sorted(m for m in self.markers if m.endswith("-" + low))


def _one(found: list[str], token: str, what: str) -> str:
    if len(found) == 1:
        return found[0]
    if not found:
        raise ChatError(f"no {what} {token!r}")
    raise ChatError(f"{what} {token!r} is ambiguous ({', '.join(sorted(found)[:5])})")


# --------------------------------------------------------------------------------------------- what a line says

@dataclass(frozen=True)
class Declared:
    """A complete event, except perhaps its ``side`` (the reader knows who typed it).

    ``markers``: a ``first_marker`` whose name both sides share (``viii-corps``) and whose side nothing typed
    says; the side holding the initiative when it is ruled settles it (4.0: the holder picks the first AM)."""
    event: dict[str, Any]
    markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """An event that waits for ``unit``'s next move on the board to give it ``field`` (``to`` or ``path``)."""
    unit: str
    field: str
    event: dict[str, Any]


@dataclass(frozen=True)
class SetSide:
    side: str


@dataclass(frozen=True)
class SetScenario:
    scenario: str


Meaning = Union[Declared, Claim, SetSide, SetScenario]


class Tokens:
    """The words after the command, consumed left to right by the command's reader."""

    def __init__(self, words: list[str], roster: Roster, player_side: str | None = None) -> None:
        self.words, self.roster, self.player_side = words, roster, player_side

    def peek(self) -> str | None:
        return self.words[0] if self.words else None

    def take(self) -> str:
        return self.words.pop(0)

    def side(self) -> str | None:
        w = self.peek()
        if w is not None and not w.isdigit() and self.roster.side(w):
            self.take()
            return self.roster.side(w)
        return None

    def unit(self) -> str:
        if not self.words or self.peek() == ARROW:
            raise ChatError("a unit is missing")
        return self.roster.unit(self.take())

    def units(self) -> list[str]:
        out = [self.unit()]
        while self.words and self.peek() not in (ARROW, ";") and not self.peek().isdigit() and not self._keyword():
            out.append(self.unit())
        return out

    def _keyword(self) -> bool:
        w = self.peek() or ""
        return w in FLAGS or "=" in w

    def is_hex(self, w: str | None) -> bool:
        return w is not None and w.isdigit() and len(w) == 2 * self.roster.digits

    def hex(self) -> str:
        w = self.peek()
        if not self.is_hex(w):
            raise ChatError(f"expected a hex number ({'0' * 2 * self.roster.digits} style), not {w!r}"
                            if w else "a hex number is missing")
        return self.take()

    def arrow_hexes(self, required: bool) -> list[str]:
        if self.peek() != ARROW:
            if required:
                raise ChatError("'> hex' is missing")
            return []
        self.take()
        out = [self.hex()]
        while self.is_hex(self.peek()):
            out.append(self.take())
        return out

    def roll(self) -> dict[str, int]:
        w = self.peek()
        if w is not None and w.isdigit() and len(w) == 1:
            return {"roll": int(self.take())}
        return {}

    def number(self, what: str) -> int:
        w = self.peek()
        if w is None or not w.isdigit():
            raise ChatError(f"{what} is missing")
        return int(self.take())

    def flag(self, word: str) -> bool:
        if self.peek() == word:
            self.take()
            return True
        return False

    def option(self, key: str) -> dict[str, str]:
        w = self.peek()
        if w is not None and w.startswith(key + "="):
            self.take()
            return {key: w.split("=", 1)[1]}
        return {}

    def done(self) -> None:
        if self.words:
            raise ChatError(f"did not understand {' '.join(self.words)!r}")


FLAGS = ("barrage", "nocinc", "normal", "limited", "extended", "charge", "assault")


def _side(side: str | None) -> dict[str, str]:
    return {"side": side} if side else {}


def _cinc(t: Tokens) -> dict[str, bool]:
    return {"use_cinc": False} if t.flag("nocinc") else {}


def _unit_roll(type_: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        side = t.side()
        return Declared({"type": type_, **_side(side), "unit": t.unit(), **t.roll()})
    return read


def _counter_charge(t: Tokens) -> Meaning:
    """``UNIT [ROLL] [> HEX]``: the hex names the chargers aimed at when they charge from several (9.86)."""
    side = t.side()
    unit = t.unit()
    roll = t.roll()
    aim = t.arrow_hexes(required=False)
    roll = roll or t.roll()
    return Declared({"type": "counter_charge", **_side(side), "unit": unit, **({"at": aim[0]} if aim else {}), **roll})


def _orders(t: Tokens) -> Meaning:
    side = t.side()
    # "!orders french" alone: no group under orders (5.21 allows it); the side must then be typed.
    units = t.units() if side is None or (t.words and t.peek() not in FLAGS and "=" not in t.peek()) else []
    extra: dict[str, Any] = {"barrage": True} if t.flag("barrage") else {}
    extra.update(t.option("army"))
    return Declared({"type": "orders", **_side(side), "under_orders": units, **extra})


def _initiative(t: Tokens) -> Meaning:
    rolls: dict[str, int] = {}
    for side in t.roster.sides:
        if t.peek() is None:
            break
        rolls[side] = t.number("a roll")
    if rolls and len(rolls) != len(t.roster.sides) or any(r > 9 for r in rolls.values()):
        raise ChatError(f"give one d10 roll (0-9) per side, in the order {', '.join(t.roster.sides)}")
    return Declared({"type": "initiative", **({"rolls": rolls} if rolls else {})})


def _go_first(t: Tokens) -> Meaning:
    side = t.side()
    if side:
        return Declared({"type": "go_first", "first": side})
    initiative = _initiative(t)
    assert isinstance(initiative, Declared)
    return Declared({"type": "go_first", **{k: v for k, v in initiative.event.items() if k == "rolls"}})


def _first(t: Tokens) -> Meaning:
    side = t.side()
    if not t.words:
        raise ChatError("which marker goes first?")
    token = t.take()
    settled_by = side or t.player_side
    candidates = t.roster.marker_candidates(token)
    if settled_by is None and len(candidates) > 1 and len({t.roster.marker_side(m) for m in candidates}) == len(
            candidates):
        # One marker of that name per side: the initiative holder's (4.0), known only when it is ruled.
        return Declared({"type": "first_marker", "marker": candidates[0]}, markers=tuple(candidates))
    marker = t.roster.marker(token, settled_by)
    return Declared({"type": "first_marker", **_side(side), "marker": marker})


def _draw(t: Tokens) -> Meaning:
    if not t.words:
        raise ChatError("which marker was drawn?")
    return Declared({"type": "draw", "marker": t.roster.marker(t.take())})


def _io(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    roll = t.roll()
    return Declared({"type": "individual_order", **_side(side), "unit": unit, **roll, **_cinc(t)})


def _commit(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    roll = t.roll()
    return Declared({"type": "commitment", **_side(side), "unit": unit, **roll, **_cinc(t)})


def _move(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    mode = next(({"mode": m} for m in ("normal", "limited", "extended") if t.flag(m)), {})
    path = t.arrow_hexes(required=False)
    event = {"type": "move", **_side(side), "unit": unit, **mode}
    return Declared({**event, "path": path}) if path else Claim(unit, "to", event)


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
            return Declared({**event, fld: hexes[0] if len(hexes) == 1 else hexes})
        return Claim(units[0], fld, event)
    return read


def _cinc_move(t: Tokens) -> Meaning:
    side = t.side()
    roll = t.roll()
    path = t.arrow_hexes(required=False)
    if side is None:
        raise ChatError("say whose commander-in-chief moves (e.g. '!cinc french')")
    event = {"type": "cinc_move", "side": side, **roll}
    if path:
        return Declared({**event, "path": path})
    if side not in t.roster.cincs:
        raise ChatError(f"{side} has no commander-in-chief")
    return Claim(t.roster.cincs[side], "path", event)


def _face(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    hour = t.number("the facing (a clock hour)")
    if not 1 <= hour <= 12:
        raise ChatError(f"a facing is a clock hour 1-12, not {hour}")
    return Declared({"type": "face", **_side(side), "unit": unit, "facing": hour})


def _stack(t: Tokens) -> Meaning:
    side = t.side()
    hex_ = t.hex()
    return Declared({"type": "stack_order", **_side(side), "hex": hex_, "order": t.units()})


def _fire(t: Tokens) -> Meaning:
    side = t.side()
    units = t.units()
    target = t.arrow_hexes(required=True)[0]
    return Declared({"type": "fire", **_side(side), "units": units, "target": target, **t.roll()})


def _one_battery_fire(kind: str) -> Callable[[Tokens], Meaning]:
    """``UNIT > HEX [ROLL]``: reaction fire (8.6) and counter-battery fire (8.7) name one battery."""
    def parse(t: Tokens) -> Meaning:
        side = t.side()
        unit = t.unit()
        target = t.arrow_hexes(required=True)[0]
        return Declared({"type": kind, **_side(side), "unit": unit, "target": target, **t.roll()})
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
        return Declared({"type": "assaults", **_side(side), "assaults": _assault_entries(t, charge)})
    return read


def _hour(t: Tokens) -> dict[str, int]:
    """An optional facing written ``@HOUR`` (a clock hour 1-12)."""
    w = t.peek()
    if w is None or not w.startswith("@"):
        return {}
    t.take()
    if not w[1:].isdigit() or not 1 <= int(w[1:]) <= 12:
        raise ChatError(f"a facing is @ and a clock hour 1-12, not {w!r}")
    return {"facing": int(w[1:])}


def _charge_to(t: Tokens) -> Meaning:
    """``!chargeto UNIT HEX [HEX] > TARGET [@HOUR]``: the charge move through one or two hexes (9.81)."""
    side = t.side()
    unit = t.unit()
    path = []
    while t.is_hex(t.peek()):
        path.append(t.take())
    if not 1 <= len(path) <= 2:
        raise ChatError("name the one or two hexes charged through, then '> target hex'")
    target = t.arrow_hexes(required=True)
    if len(target) != 1:
        raise ChatError("a charge has one target hex")
    return Declared({"type": "charge", **_side(side), "unit": unit, "path": path, "target": target[0], **_hour(t)})


def _pursue(t: Tokens) -> Meaning:
    """``!pursue UNIT... > HEX [TARGET] [@HOUR] [stop]``: the pursuers enter the vacated hex (9.87); ``stop``
    ends the pursuit there when another enemy is also in their front."""
    side = t.side()
    units = t.units()
    hexes = t.arrow_hexes(required=True)
    if len(hexes) > 2:
        raise ChatError("give the vacated hex and, optionally, the hex charged again")
    target = {"target": hexes[1]} if len(hexes) == 2 else {}
    hour = _hour(t)
    stop = {"stop": True} if t.flag("stop") else {}
    return Declared({"type": "pursuit", **_side(side), "units": units, "to": hexes[0], **target, **hour, **stop})


def _recall(t: Tokens) -> Meaning:
    side = t.side()
    return Declared({"type": "recall", **_side(side), "unit": t.unit(), **t.roll(), **_hour(t)})


def _breakthrough(t: Tokens) -> Meaning:
    """``!breakthrough UNIT... > HEX...``: the infantry that advanced shocks again (9.73)."""
    side = t.side()
    units = t.units()
    return Declared({"type": "breakthrough", **_side(side), "units": units, "target": t.arrow_hexes(required=True)})


def _counter_shock(t: Tokens) -> Meaning:
    """``!countershock UNIT... [HEX] > HEX...``: the defender's counter-shock (9.73); a hex before ``>`` is its
    one-hex move."""
    side = t.side()
    units = t.units()
    to = {"to": t.take()} if t.is_hex(t.peek()) else {}
    return Declared({"type": "counter_shock", **_side(side), "units": units, **to,
                     "target": t.arrow_hexes(required=True)})


def _shock(t: Tokens) -> Meaning:
    side = t.side()
    n = t.number("which assault (1 = the first declared)")
    if n < 1:
        raise ChatError("assaults are counted from 1")
    return Declared({"type": "shock", **_side(side), "assault": n - 1, **t.roll()})


def _village(type_: str, what: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        side = t.side()
        unit = t.unit()
        place: Any = [t.hex(), t.hex()] if what == "bridge" else t.hex()
        to = t.arrow_hexes(required=True)[0]
        return Declared({"type": type_, **_side(side), "unit": unit, what: place, "to": to, **t.roll()})
    return read


def _side_only(type_: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        return Declared({"type": type_, **_side(t.side())})
    return read


def _command(t: Tokens) -> Meaning:
    side = t.side()
    if not t.words:
        raise ChatError("which command?")
    name = "-".join(t.words)
    t.words.clear()
    return Declared({"type": "activate_command", **_side(side), "command": t.roster.command(name)})


def _set_side(t: Tokens) -> Meaning:
    side = t.side()
    if side is None:
        raise ChatError(f"name a side ({', '.join(t.roster.sides)})")
    return SetSide(side)


def _delay(t: Tokens) -> Meaning:
    return Declared({"type": "orders_delay", **_side(t.side()), **t.roll()})


def _reserve(t: Tokens) -> Meaning:
    side = t.side()
    return Declared({"type": "reserve", **_side(side), "unit": t.unit()})


COMMANDS: Mapping[str, Callable[[Tokens], Meaning]] = {
    "side": _set_side,
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


def is_declaration(text: str) -> bool:
    return text.lstrip().startswith("!")


def words(text: str) -> list[str]:
    """Split on blanks, keeping ``>`` and ``;`` as words of their own (``>2313`` and ``a;b`` work too)."""
    return re.sub(r"([>;])", r" \1 ", text).split()


def read(text: str, roster: Roster, player_side: str | None = None) -> Meaning:
    """What the declaration ``text`` (starting with ``!``) means; ChatError if it cannot be read.

    ``player_side``: the side the typing player plays, if known; it only settles a marker name both sides
    share (the side of the event itself is the reader's business)."""
    ws = words(text.lstrip()[1:])
    if not ws:
        raise ChatError("an empty declaration")
    name = ws[0].lower()
    if name == "scenario":
        if len(ws) != 2:
            raise ChatError("give one scenario id, e.g. '!scenario borodino'")
        return SetScenario(ws[1])
    reader = COMMANDS.get(name)
    if reader is None:
        raise ChatError(f"unknown command {ws[0]!r}")
    t = Tokens(ws[1:], roster, player_side)
    meaning = reader(t)
    t.done()
    return meaning


def scenario_of(text: str) -> str | None:
    """The id a ``!scenario ID`` line names (read before the scenario, hence before any roster exists)."""
    ws = words(text.lstrip()[1:]) if is_declaration(text) else []
    return ws[1] if len(ws) == 2 and ws[0].lower() == "scenario" else None
