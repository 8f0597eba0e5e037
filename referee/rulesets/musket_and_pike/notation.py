"""The chat notation of Musket & Pike: the ``!`` commands a player types in VASSAL for the acts that have no
board action -- the ruleset's side of the log reader's hook (:mod:`referee.logs.notation`; registered by the
``notation`` attribute of :class:`MusketAndPike`).

| command | event |
|---|---|
| ``!draw WING`` | ``draw`` (G-M1: the wing activated next; a wing is its id or a unique end of it) |
| ``!move UNIT [> HEX...]`` | ``move``: that exact path; without hexes the unit's next drag gives it |
| ``!face UNIT HOUR``, ``!wheel UNIT HOUR`` | ``face`` (6.2.1-6.2.3), ``wheel`` (6.2.1) |
| ``!countermarch UNIT`` | ``counter_march`` (6.2.2) |
| ``!reform UNIT FORMATION [@HOUR]`` | ``reform`` ([6.4]: normal, shaken, broken, open_order) |
| ``!formation UNIT FORMATION [reaction]`` | ``change_formation`` (6.3.2b: hedgehog, column, open_order...) |
| ``!pass``, ``!end`` | ``pass``, ``end_activation`` |

A dragged unit's path is the destination itself: this ruleset has no path finder yet, and it rules on the move
as typed (the straight line of the drop).  A draw belongs to nobody in particular; every other declaration
is the side of the unit it names.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

# The log reader's objects (referee.logs: a line's words, the names, a read event) arrive as arguments and are
# used by their methods and fields only: a ruleset imports no front end (.importlinter).  A reader makes its
# meaning with ``t.declared(event)`` / ``t.claim(unit, field, event)`` and refuses a line with
# ``raise t.error(why)``.
Tokens = Meaning = Roster = ReadEvent = Any


def _side(side: str | None) -> dict[str, str]:
    """``{"side": side}`` when a side was typed, else nothing (the reader supplies it)."""
    return {"side": side} if side else {}


REFORM_TO = ("normal", "shaken", "broken", "open_order")                          # [6.4]
FORMATIONS = ("hedgehog", "column", "open_order", "normal", "shaken", "broken")   # 6.3.2b


def names(scenario: Any) -> dict[str, Mapping[str, Any]]:
    """The wings (the scenario's activation groups) are the markers a ``!draw`` names."""
    return {"markers": {a.id: a.side for a in scenario.counters.activation_groups}}


def _draw(t: Tokens) -> Meaning:
    if not t.words:
        raise t.error("which wing was drawn?")
    return t.declared({"type": "draw", "wing": t.roster.marker(t.take())})


def _move(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    path = t.arrow_hexes(required=False)
    event = {"type": "move", **_side(side), "unit": unit}
    return t.declared({**event, "path": path}) if path else t.claim(unit, "path", event)


def _turn(type_: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        side = t.side()
        unit = t.unit()
        hour = t.number("the facing (a clock hour)")
        if not 1 <= hour <= 12:
            raise t.error(f"a facing is a clock hour 1-12, not {hour}")
        return t.declared({"type": type_, **_side(side), "unit": unit, "facing": hour})
    return read


def _counter_march(t: Tokens) -> Meaning:
    side = t.side()
    return t.declared({"type": "counter_march", **_side(side), "unit": t.unit()})


def _formation_word(t: Tokens, allowed: tuple[str, ...]) -> str:
    w = (t.peek() or "").lower().replace("-", "_")
    if w not in allowed:
        raise t.error(f"name the formation ({', '.join(allowed)})" if not w else
                        f"no formation {t.peek()!r} here ({', '.join(allowed)})")
    t.take()
    return w


def _reform(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    to = _formation_word(t, REFORM_TO)
    w = t.peek()
    facing: dict[str, int] = {}
    if w is not None and w.startswith("@"):
        t.take()
        if not w[1:].isdigit() or not 1 <= int(w[1:]) <= 12:
            raise t.error(f"a facing is @ and a clock hour 1-12, not {w!r}")
        facing = {"facing": int(w[1:])}
    return t.declared({"type": "reform", **_side(side), "unit": unit, "to": to, **facing})


def _change_formation(t: Tokens) -> Meaning:
    side = t.side()
    unit = t.unit()
    to = _formation_word(t, FORMATIONS)
    reaction = {"reaction": True} if t.flag("reaction") else {}
    return t.declared({"type": "change_formation", **_side(side), "unit": unit, "to": to, **reaction})


def _side_only(type_: str) -> Callable[[Tokens], Meaning]:
    def read(t: Tokens) -> Meaning:
        return t.declared({"type": type_, **_side(t.side())})
    return read


VERBS: Mapping[str, Callable[[Tokens], Meaning]] = {
    "draw": _draw,
    "move": _move,
    "face": _turn("face"),
    "wheel": _turn("wheel"),
    "countermarch": _counter_march,
    "reform": _reform,
    "formation": _change_formation,
    "pass": _side_only("pass"),
    "end": _side_only("end_activation"),
}

def drawn(roster: Any, properties: Mapping[str, str]) -> dict[str, Any] | None:
    """A wing's marker drawn from a deck: its ``AG`` property names the wing (G-M1)."""
    wing = properties.get("AG")
    return {"type": "draw", "wing": wing} if wing else None


NOTATION = dict(verbs=VERBS, flags=frozenset(("reaction",)), names=names, drawn=drawn,
                    sideless=frozenset(("draw",)),
                    side_optional=frozenset(("end_activation", "pass")))
