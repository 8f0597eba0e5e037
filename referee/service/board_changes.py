"""The board changes of a live answer: what the referee link may do to the VASSAL pieces so that the board shows
the results the referee ruled (``POST /games/<id>/vassal``, ``"changes"``).

For each unit a ruling's result changes (disordered, rallied, routed, eliminated, destroyed, shaken, reduced...),
the change is worked out from the referee's position after the answer's rulings, not from the result's words:

* the unit on a hex for the referee: its counter shows the side the ruleset's ``shows_back`` hook says (T&G's
  Disordered side, Musket & Pike's Shaken side, a game's own ``back_side`` such as Reduced).  The module gives
  every two-sided unit one layer for its back (``modulebuilder.vassal.pieces``: ``Disorder``, or the game's
  back side), worked by Ctrl+F, with the property ``<layer>_Active``: the change is ``{"do": "layer", "layer",
  "active", "key"}`` when the piece shows the other side.  Where the unit stands is not changed: retreats and
  advances are the players' to make (the chat names them).
* the unit in a box for the referee (eliminated, withdrawn, recovery...): its piece goes to the holding box of
  that name on the module's "Holding" map (``modulebuilder.vassal.holding``; the Eliminated box is the dead
  pile), ``{"do": "box", "box": "Eliminated"}``; ``"dead": true`` when the unit is out of the game, so that a
  module without the box removes the piece instead.

The piece is the one the board has for the unit (the reading's piece table: a set-up's piece id is
``modulebuilder.vassal.ids.piece_id(scenario, unit)``).  Nothing is changed for a unit whose piece already
agrees, so a change applied twice (or by both players' links) changes nothing the second time.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable, Mapping

from modulebuilder.vassal.holding import STANDARD_BOXES, box_label
from modulebuilder.vassal.pieces import DISORDER_LAYER, flip_layer
from modulebuilder.vassal.savefile import PieceInfo
from modulebuilder.vassal.traits import CTRL_F

# The results whose unit's counter the referee's ruling changes (status or box).  Retreats, advances and
# recoveries to a hex move a counter: the players make those moves (the chat names them).
CHANGING = ("disorder", "rout", "eliminat", "destroy", "rallied", "shatter", "removed", "captured", "withdraw",
            "shaken", "broken", "reduced", "flipped", "collapsed")
# Boxes of units out of the game: their piece goes to the dead pile, or off the board when the module has none.
DEAD = {"eliminated", "destroyed", "captured"}
DEAD_PILE = "eliminated"


def back_layer(scenario: Any) -> str:
    """The layer of a unit's back in the module the builder writes for ``scenario``."""
    back_side = getattr(getattr(scenario, "game", None), "back_side", None)
    return flip_layer(back_side) if back_side else DISORDER_LAYER


def box_name(scenario: Any, box: str) -> str:
    """The label of the holding box the module has for the referee's box ``box`` (the dead pile for a
    destroyed unit)."""
    key = DEAD_PILE if box in DEAD else box
    labels = {**dict(STANDARD_BOXES), **dict(getattr(getattr(scenario, "map", None), "boxes", {}) or {})}
    return box_label(key, labels)


def changed_units(rulings: Iterable[Mapping[str, Any]]) -> list[str]:
    """The units, in order, whose counter a result of ``rulings`` changes."""
    out: list[str] = []
    for ruling in rulings:
        for res in ruling.get("results", ()):
            uid, effect = res.get("unit"), str(res.get("effect", ""))
            if isinstance(uid, str) and any(k in effect for k in CHANGING) and uid not in out:
                out.append(uid)
    return out


def unit_pieces(pieces: Mapping[str, PieceInfo], game_maps: Iterable[str]) -> dict[str, PieceInfo]:
    """The board's piece of each unit (one on a game map first, when a unit has two)."""
    maps = set(game_maps)
    out: dict[str, PieceInfo] = {}
    for p in pieces.values():
        uid = p.unit_id
        if uid is not None and (uid not in out or out[uid].map not in maps and p.map in maps):
            out[uid] = p
    return out


def changes(rulings: Iterable[Mapping[str, Any]], pieces: Mapping[str, PieceInfo], units: Iterable[Mapping[str, Any]],
            shows_back: Callable[[Mapping[str, Any]], bool] | None, scenario: Any, game_maps: Iterable[str],
            name: Callable[[str], str]) -> list[dict[str, Any]]:
    """The changes that make the board's pieces show the results of ``rulings``: ``units`` is the referee's view
    of the units after them (the ruleset's ``view``: ``id``, ``hex`` or ``box``, status fields)."""
    view = {u.get("id"): u for u in units}
    maps = list(game_maps)
    board = unit_pieces(pieces, maps)
    layer = back_layer(scenario)
    effects: dict[str, Mapping[str, Any]] = {}
    for ruling in rulings:
        for res in ruling.get("results", ()):
            if isinstance(res.get("unit"), str):
                effects[res["unit"]] = res
    out: list[dict[str, Any]] = []
    for uid in changed_units(rulings):
        unit, piece = view.get(uid), board.get(uid)
        if unit is None or piece is None:
            continue
        said = effects[uid]
        base = {"unit": uid, "name": name(uid), "piece": piece.id, "result": said.get("effect"),
                "rule": said.get("rule")}
        if unit.get("hex") is None and unit.get("box"):
            if piece.map in maps:               # still on the map: to the box (a piece in a box is left there)
                box = str(unit["box"])
                out.append({**base, "do": "box", "box": box_name(scenario, box), "dead": box in DEAD})
            continue
        active = piece.get(f"{layer}_Active")
        if shows_back is None or active is None:
            continue                            # no back to show (a leader, a one-sided counter)
        wanted = bool(shows_back(unit))
        if (active == "true") != wanted:
            out.append({**base, "do": "layer", "layer": layer, "active": wanted, "key": CTRL_F})
    return out


def applied(pieces: Mapping[str, PieceInfo], done: Iterable[Mapping[str, Any]]) -> dict[str, PieceInfo]:
    """The pieces as the board has them once the link has applied ``done`` (for the comparison said with the
    same answer): a piece sent to a box is off the map's hexes, a flipped layer shows its new side."""
    out = dict(pieces)
    for c in done:
        p = out.get(str(c.get("piece")))
        if p is None:
            continue
        if c.get("do") == "box":
            out[p.id] = replace(p, map=None)
        elif c.get("do") == "layer":
            out[p.id] = replace(p, properties={**p.properties, f"{c['layer']}_Active": "true" if c["active"] else
                                               "false"})
    return out


def status_differences(pieces: Mapping[str, PieceInfo], units: Iterable[Mapping[str, Any]],
                       shows_back: Callable[[Mapping[str, Any]], bool] | None, scenario: Any,
                       game_maps: Iterable[str], name: Callable[[str], str],
                       hexes: Mapping[str, str]) -> dict[str, str]:
    """"on the board:" lines for the units on a hex whose counter shows another side than the referee's status
    (``hexes``: unit -> the hex the board has it on), keyed ``<unit> side``."""
    if shows_back is None:
        return {}
    layer = back_layer(scenario)
    board = unit_pieces(pieces, game_maps)
    out: dict[str, str] = {}
    for unit in units:
        uid = unit.get("id")
        if not isinstance(uid, str) or unit.get("hex") is None or uid not in hexes:
            continue
        piece = board.get(uid)
        active = piece.get(f"{layer}_Active") if piece is not None else None
        if active is None:
            continue
        wanted = bool(shows_back(unit))
        if (active == "true") != wanted:
            shown, referee = (f"its {layer} side", "its front") if active == "true" else \
                ("its front", f"its {layer} side")
            out[f"{uid} side"] = (f"on the board: {name(uid)} on {hexes[uid]} shows {shown}, the referee has it on "
                                  f"{referee}")
    return out
