"""The ``move`` event: who may move (6.3.2a Hedgehog, unlimbered guns, morale-broken units) and the walk
itself (``movement``), with an optional final facing ruled as a ``face``."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.ruling import Error, Ruling, illegal, legal, result

from .activation import acted, actor_error
from .facing import footprint, has_facing
from .movement import walk
from .profile import Arm
from .state import HEDGEHOG, MPState
from .turning import face


def move(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    bad = actor_error(state, event, "move")
    if bad:
        return bad, state
    uid = event["unit"]
    p, u = state.profile(uid), state.unit(uid)
    if u.morale_broken:
        return illegal("move", [Error("12.4.3", "morale_broken",
                                      "a morale-broken unit moves only as 12.4.3 (not in the excerpt) says")]), state
    if u.formation == HEDGEHOG:
        return illegal("move", [Error("6.3.2", "hedgehog_no_move", "a Hedgehog may not move voluntarily")]), state
    if p.arm is Arm.ARTILLERY and not u.limbered:
        return illegal("move", [Error("G-M10", "unlimbered", "unlimbered artillery does not move")]), state
    out = walk(state, uid, event["path"])
    if isinstance(out, tuple):
        code, msg, alts = out
        return illegal("move", [Error("6.3.1" if code == "not_enough_mp" else "G-M3", code, msg,
                                      alternatives=tuple(alts) if alts else None)]), state
    new = acted(replace(state, units={**state.units, uid: out.unit}))
    results = [result("moved", "G-M3", uid, to=out.unit.hex, hexes=list(footprint(state.static.grid, p, out.unit)),
                      mp=out.cost)]
    results += [result(effect, "6.3.1", uid, hex=h, cause="movement") for h, effect in out.hits]
    ruling = legal("move", ["G-M3", "6.3.1"] if out.hits else ["G-M3"], results=results)
    if "facing" in event and event["facing"] != out.unit.facing and has_facing(p, out.unit):
        # DESIGN §5: a move may end with a facing change, ruled exactly as a face event after the path.
        fr, new2 = face(new, {"type": "face", "side": event.get("side"), "unit": uid, "facing": event["facing"]})
        if not fr.legal:
            return illegal("move", fr.errors), state
        return replace(ruling, rules=ruling.rules + fr.rules, results=ruling.results + fr.results,
                       awaiting=fr.awaiting), new2
    return ruling, new
