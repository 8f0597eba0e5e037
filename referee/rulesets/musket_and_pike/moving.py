"""The ``move`` event: who may move (6.3.2a Hedgehog, unlimbered guns, morale-broken units) and the walk
itself (``movement``), with an optional final facing ruled as a ``face``."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.ruling import Ruling, legal, result
from referee.engine.verbs import Illegal, refuse

from .activation import acted, require_actor
from .facing import footprint, has_facing
from .formations import allowance_rule
from .movement import next_positions, walk
from .profile import Arm
from .state import HEDGEHOG, MPState
from .turning import face
from .verbs import ACTIVATION, VERBS


@VERBS.verb("move", steps=(ACTIVATION,), rules=("G-M3",), refs={"unit": "unit", "path": "hexes"})
def move(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    uid = event["unit"]
    require_actor(state, uid)
    p, u = state.profile(uid), state.unit(uid)
    if u.morale_broken:
        refuse("12.4.3", "morale_broken", "a morale-broken unit moves only as 12.4.3 (not in the excerpt) says")
    if u.formation == HEDGEHOG:
        refuse("6.3.2", "hedgehog_no_move", "a Hedgehog may not move voluntarily")
    if p.arm is Arm.ARTILLERY and not u.limbered:
        refuse("G-M10", "unlimbered", "unlimbered artillery does not move")
    # The rule that sets the allowance the path is checked against (6.3.4: a Column has 2 MP more; 6.3.1: a
    # Shaken unit half), cited whether or not the path needed the difference: it sets the allowance checked.
    ma_rule = allowance_rule(u)
    out = walk(state, uid, event["path"])
    if isinstance(out, tuple):
        code, msg, alts = out
        refuse((ma_rule or "6.3.1") if code == "not_enough_mp" else "G-M3", code, msg, tuple(alts) if alts else None)
    new = acted(replace(state, units={**state.units, uid: out.unit}))
    results = [result("moved", "G-M3", uid, to=out.unit.hex, hexes=list(footprint(state.static.grid, p, out.unit)),
                      mp=out.cost)]
    results += [result(effect, "6.3.1", uid, hex=h, cause="movement") for h, effect in out.hits]
    # 6.3.1: the path entered terrain that gives formation hits, so the hit rule was applied (with 6.3.3 or
    # 6.3.4 when the formation ignores movement hits), whether or not a hit changed the formation.
    rules = ["G-M3", *([ma_rule] if ma_rule else []), *out.hit_rules]
    ruling = legal("move", rules, results=results)
    if "facing" in event and event["facing"] != out.unit.facing and has_facing(p, out.unit):
        # DESIGN §5: a move may end with a facing change, ruled exactly as a face event after the path.
        fr, new2 = face(new, {"type": "face", "side": event.get("side"), "unit": uid, "facing": event["facing"]})
        if not fr.legal:
            raise Illegal(*fr.errors)
        return replace(ruling, rules=tuple(dict.fromkeys(ruling.rules + fr.rules)),
                       results=ruling.results + fr.results, awaiting=fr.awaiting), new2
    return ruling, new


@VERBS.candidates("move")
def _moves(state: MPState):
    st, side = state.static, state.active.side
    return [{"type": "move", "side": side, "unit": uid, "path": [h]}
            for uid in st.wing_units.get(state.active.wing, ()) if state.unit(uid).on_map
            for h in next_positions(st.grid, state.profile(uid), state.unit(uid))]
