"""*Borodino* special rule 5 (BOR-5): the Russian Destruction activation marker — ``burn_village``,
``destroy_bridge`` and ``fire_out``.

When the marker is drawn each On Fire village owes one fire roll (A-9: one per marker, 0–3 → the fire is out
and the village is Rubble, 4–9 → still burning), and the Russian player may do *one* of: burn a village or
destroy a bridge (never both).  Nothing else happens in this activation.

* Burn: a Russian infantry unit in the village, no enemy adjacent to the village; the unit moves (free, need not
  be activated nor Under Orders) to an adjacent hex it could enter normally that is not adjacent to any enemy
  (A-28: no such hex → no burning); then the On Fire marker.  No unit may enter an On Fire hex (movement).
* Destroy a bridge: a Russian infantry unit adjacent to the bridge (in one of its two hexes); no enemy adjacent
  to that unit or to the bridge; the unit outside the effective range of every enemy battery.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.procedure import need
from referee.engine.ruling import Error, Ruling, legal, result
from referee.engine.verbs import Illegal, check

from .activation import DESTRUCTION
from .board import Board, UnitState
from .combat import engine_roll
from .entering import barrier, enter
from .rolls import PassRoll
from .stacking import stacking_errors
from .state import ACTIVATION, TGState
from .timing import activation_of
from .verbs import VERBS

FIRE_OUT_MAX = 3          # BOR-5: 0–3 the fire is out
VILLAGES = frozenset({"village"})


def _activation_error(state: TGState, side: str) -> Error | None:
    act = state.activation
    if state.phase != ACTIVATION or act is None or act.marker != DESTRUCTION:
        return Error("BOR-5", "not_destruction", "only when the Destruction marker is drawn")
    if side != act.side:
        return Error("BOR-5", "not_your_marker", f"the Destruction marker is {act.side}'s")
    return None


def _enterable(board: Board, unit: UnitState, frm: str, to: str) -> bool:
    """Could ``unit`` enter ``to`` from ``frm`` by normal movement (terrain, hexside, On Fire, stacking)?"""
    if not board.on_map(to) or barrier(board, (unit,), frm, to) is not None:
        return False
    return not stacking_errors(tuple(board.friendly_units_at(to, unit.side)) + (unit,), board.rules)


def burn_hexes(board: Board, unit: UnitState) -> tuple[str, ...]:
    """Where the unit leaving a village it burns may go (BOR-5, A-28)."""
    h = unit.hex
    if h is None:
        return ()
    return tuple(n for n in board.neighbours(h)
                 if _enterable(board, unit, h, n) and not board.adjacent_to_enemy(n, unit.side))


def burn_errors(state: TGState, side: str, uid: str, village: str, to: str | None) -> list[Error]:
    board = state.board
    u = board.units[uid]
    errors: list[Error] = []
    if u.side != side or u.kind != "infantry" or u.hex != village:
        errors.append(Error("BOR-5", "no_infantry_in_village", f"{uid} is not {side}'s infantry in {village}"))
    if board.static.terrain(village) not in VILLAGES or village in board.on_fire or village in board.rubble:
        errors.append(Error("BOR-5", "not_a_village", f"{village} is not a village that can burn"))
    if board.adjacent_to_enemy(village, side):
        errors.append(Error("BOR-5", "enemy_adjacent", f"an enemy unit is adjacent to {village}"))
    if not errors:
        allowed = burn_hexes(board, u)
        if not allowed:
            errors.append(Error("BOR-5", "nowhere_to_go", f"{uid} has no hex to leave {village} for (A-28)"))
        elif to not in allowed:
            errors.append(Error("BOR-5", "bad_exit", f"{uid} may leave {village} for {', '.join(allowed)}", allowed))
    return errors


@VERBS.verb("burn_village", rules=("BOR-5",),
             refs={"side": "side", "unit": "unit", "village": "hex?", "to": "hex?"}, actor=False)
def burn_village(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid, village, to = event["side"], event["unit"], event["village"], event.get("to")
    err = _activation_error(state, side) or _used_error(state)
    errors = [err] if err else burn_errors(state, side, uid, village, to)
    check(errors)
    act = state.activation
    assert act is not None and to is not None
    board, displaced = enter(state.board, uid, to)
    board = board.set_marker("on_fire", village)
    res = [result("moved", "BOR-5", uid, to=to), *displaced, result("on_fire", "BOR-5", None, hex=village)]
    return (legal("burn_village", ["BOR-5"], results=res),
            replace(state, board=board, activation=replace(act, destruction_used=True)))


def bridge_errors(state: TGState, side: str, uid: str, bridge: list[str]) -> list[Error]:
    board = state.board
    u = board.units[uid]
    if len(bridge) != 2 or not board.bridge_intact(bridge[0], bridge[1]):
        return [Error("BOR-5", "no_bridge", f"no intact bridge between {'-'.join(bridge)}")]
    errors: list[Error] = []
    if u.side != side or u.kind != "infantry" or u.hex not in bridge:
        errors.append(Error("BOR-5", "no_infantry_at_bridge", f"{uid} is not {side}'s infantry at the bridge"))
    elif any(board.adjacent_to_enemy(h, side) or board.has_enemy(h, side) for h in {u.hex, *bridge}):
        errors.append(Error("BOR-5", "enemy_adjacent", "an enemy unit is adjacent to the unit or the bridge"))
    elif in_enemy_effective_range(board, u):
        errors.append(Error("BOR-5", "under_artillery", f"{uid} is within the effective range of enemy artillery"))
    return errors


def in_enemy_effective_range(board: Board, u: UnitState) -> bool:
    grid = board.grid
    return any(a.kind == "artillery" and a.hex is not None and a.side != u.side
               and grid.distance(a.hex, u.hex) <= (a.value("eff_range") or 0)  # type: ignore[arg-type]
               for a in board.on_map_units())


@VERBS.verb("destroy_bridge", rules=("BOR-5",),
             refs={"side": "side", "unit": "unit", "bridge": "hex?"}, actor=False)
def destroy_bridge(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side, uid, bridge = event["side"], event["unit"], list(event["bridge"])
    err = _activation_error(state, side) or _used_error(state)
    errors = [err] if err else bridge_errors(state, side, uid, bridge)
    check(errors)
    act = activation_of(state)
    board = state.board.set_marker("bridges_destroyed", bridge)
    return (legal("destroy_bridge", ["BOR-5"], results=[result("bridge_destroyed", "BOR-5", None, hexes=bridge)]),
            replace(state, board=board, activation=replace(act, destruction_used=True)))


def _used_error(state: TGState) -> Error | None:
    act = state.activation
    if act is not None and act.fires_owed:
        return Error("BOR-5", "fire_rolls_first", "roll for the burning villages first", act.fires_owed)
    if act is not None and act.destruction_used:
        return Error("BOR-5", "one_destruction", "one village burnt or one bridge destroyed per draw, never both")
    return None


def fire_out_roll(village: str) -> PassRoll:
    return PassRoll("fire_out", FIRE_OUT_MAX, "BOR-5", f"fire in {village} goes out on", (), None)


@VERBS.verb("fire_out", rules=("BOR-5",),
             refs={"side": "side", "unit": "unit", "village": "hex?"}, actor=False)
def fire_out(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    side = event["side"]
    err = _activation_error(state, side)
    act = state.activation
    village = event.get("village") or (act.fires_owed[0] if act is not None and act.fires_owed else None)
    if err is None and (act is None or village not in act.fires_owed):
        err = Error("BOR-5", "no_fire_roll_owed", f"no fire roll is owed for {village}",
                    act.fires_owed if act else ())
    if err is not None:
        raise Illegal(err)
    assert act is not None and village is not None
    natural = need(dice, "roll", engine_roll(fire_out_roll(village), None, side), ("BOR-5",), purpose="fire_out")
    roll = engine_roll(fire_out_roll(village), natural, side)
    owed = tuple(v for v in act.fires_owed if v != village)
    board, res = state.board, []
    if roll.passed:
        board = board.set_marker("on_fire", village, present=False).set_marker("rubble", village)
        res.append(result("rubble", "BOR-5", None, hex=village))
    return (legal("fire_out", ["BOR-5"], rolls=[roll], results=res),
            replace(state, board=board, activation=replace(act, fires_owed=owed)))


def destruction_actions(state: TGState) -> list[dict[str, Any]]:
    """Owed fire rolls first; then every village that may burn (with its first exit) and every bridge that may
    go; the activation may end at any time after the fire rolls."""
    act = activation_of(state)
    side = act.side
    if act.fires_owed:
        return [{"type": "fire_out", "side": side, "village": act.fires_owed[0]}]
    out: list[dict[str, Any]] = []
    if not act.destruction_used and side is not None:
        board = state.board
        for u in board.on_map_units():
            if u.side != side or u.kind != "infantry":
                continue
            h = u.hex
            if board.static.terrain(h) in VILLAGES:  # type: ignore[arg-type]
                exits = burn_hexes(board, u)
                if exits and not burn_errors(state, side, u.id, h, exits[0]):  # type: ignore[arg-type]
                    out.append({"type": "burn_village", "side": side, "unit": u.id, "village": h, "to": exits[0]})
            for n in board.neighbours(h):  # type: ignore[arg-type]
                if board.bridge_intact(h, n) and not bridge_errors(state, side, u.id, [h, n]):  # type: ignore[list-item]
                    out.append({"type": "destroy_bridge", "side": side, "unit": u.id, "bridge": [h, n]})
    return out[:4]
