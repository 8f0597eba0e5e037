"""Activation markers and the cup (5.31–5.35, BOR-BARRAGE, BOR-GUARD, BOR-5's marker), the draw, the start and
end of an activation, and *Schevardino*'s command activation (gaps §13.1).

Marker ids (DESIGN §5): an AG id, ``barrage:<side>``, ``cga:<side>``, ``destruction``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from referee.engine.dice import EventDice
from referee.engine.verbs import Illegal, check, refuse
from referee.engine.ruling import Error, Result, Ruling, legal, result

from .movement import begin_activation
from .state import ACTIVATION, COMMAND, INITIATIVE, SIDE_TURN, Activation, TGState
from .verbs import VERBS

DESTRUCTION = "destruction"


def barrage_marker(side: str) -> str:
    return f"barrage:{side}"


def murat(state: TGState):
    """BOR-MURAT's data when it applies (Murat's AM activates every cavalry-reserve AG)."""
    cav = state.rules.cavalry_reserve
    return cav if cav is not None and cav.ags else None


def marker_ags(state: TGState, marker: str) -> frozenset[str]:
    """The AGs a marker activates: its own AG, both AGs of a CGA (5.34), or the cavalry reserve for Murat's AM
    (BOR-MURAT)."""
    if marker.startswith("cga:"):
        return frozenset(state.cga.get(marker.split(":", 1)[1], ()))
    cav = murat(state)
    if cav is not None and marker == cav.marker:
        return cav.ags
    return frozenset({marker}) if marker in state.static.ags else frozenset()


def marker_io_rating(state: TGState, marker: str, ag_id: str) -> int | None:
    """5.28: the IO rating printed on the AM just drawn (Murat's: 5)."""
    cav = murat(state)
    if cav is not None and marker == cav.marker:
        return cav.io_rating
    return state.static.ags[ag_id].io_rating


def marker_rules(state: TGState, marker: str) -> tuple[str, ...]:
    """The rules that say what drawing ``marker`` does, cited with the draw: an AG's AM 5.31,
    a CGA 5.34, a barrage 5.33, Murat's AM BOR-2, the Destruction marker BOR-5."""
    if marker in state.static.ags:             # most draws: an AG's own marker
        return ()
    if marker.startswith("cga:"):
        return ("5.34",)
    if marker.startswith("barrage:"):
        return ("5.33",)
    if marker == DESTRUCTION:
        return ("BOR-5",)
    cav = murat(state)
    if cav is not None and marker == cav.marker:
        return ("BOR-2",)
    return ()


def marker_side(state: TGState, marker: str) -> str | None:
    cav = murat(state)
    if cav is not None and marker == cav.marker:
        return cav.side
    if marker.startswith(("barrage:", "cga:")):
        return marker.split(":", 1)[1]
    if marker == DESTRUCTION:
        return "Russian"
    ag = state.static.ags.get(marker)
    return ag.side if ag else None


def ags_in_play(state: TGState) -> list[str]:
    """5.32: AGs with a unit on the map, or whose reinforcements arrive this turn."""
    on_map = state.board.on_map_ags()
    arriving = {ag for ag, t in state.static.reinforcement_turn.items() if t == state.turn}
    return [a for a in state.static.ags if a in on_map or a in arriving]


def markers_of(state: TGState, ag_id: str) -> int:
    """5.31/5.32: two AMs per AG (the AG's ``markers``); some reinforcements get one on their entry turn."""
    ag = state.static.ags[ag_id]
    if ag_id in state.rules.one_marker_on_entry and state.static.reinforcement_turn.get(ag_id) == state.turn:
        return 1
    return ag.markers


def guard_marker_allowed(state: TGState, ag_id: str) -> bool:
    """BOR-GUARD [inferred]: an un-ordered Guard AM does not go into the cup (so no reserve activation, 5.57)."""
    if ag_id not in state.rules.guard_ags:
        return True
    o = state.orders[state.static.ags[ag_id].side]
    return any(state.unit(o.groups[g][0]).ag == ag_id for g in o.under_orders)


def cup_markers(state: TGState) -> tuple[str, ...]:
    """Every marker that goes into the cup this turn (5.32, 5.33, BOR-5), sorted."""
    out: list[str] = []
    cav = murat(state)
    in_play = ags_in_play(state)
    for ag in in_play:
        if cav is not None and ag in cav.ags:
            continue                       # BOR-MURAT: activated by Murat's AM instead
        if guard_marker_allowed(state, ag):
            out += [ag] * markers_of(state, ag)
    if cav is not None and cav.ags & set(in_play):
        out += [cav.marker] * cav.markers
    for side, o in state.orders.items():
        if o.barrage:
            out.append(barrage_marker(side))
    if state.rules.destruction_marker:
        out.append(DESTRUCTION)            # BOR-5: compulsory, every turn, no orders cost
    for side, pair in state.cga.items():   # 5.34: one AM of each AG held back, the CGA marker instead
        for a in pair:
            if a in out:
                out.remove(a)
        out.append(f"cga:{side}")
    return tuple(sorted(out))


def fill_cup(state: TGState, held_back: str | None = None) -> TGState:
    """5.32/5.35: all markers into the cup, except the one the initiative holder picked to go first."""
    markers = cup_markers(state)
    cup = list(markers)
    if held_back is not None:
        cup.remove(held_back)
    ags = frozenset(a for m in set(markers) for a in marker_ags(state, m))
    return replace(state, cup=tuple(cup), cup_ags=ags, phase=ACTIVATION)


def begin(state: TGState, marker: str) -> tuple[TGState, list[Result]]:
    """5.31: drawing a marker activates every unit of its AG; the AG's order statuses are revealed at its
    first draw this turn (5.23)."""
    side = marker_side(state, marker)
    results: list[Result] = []
    ags = marker_ags(state, marker)
    if ags:
        # 7.41: an AG's reinforcements due by this turn are activated with it and enter the map by moving
        arrived = {a for a in ags if state.static.reinforcement_turn.get(a, state.turn + 1) <= state.turn}
        units = frozenset(uid for a in ags for uid in state.static.ag_units.get(a, ())
                          if state.board.units[uid].hex is not None
                          or (a in arrived and state.board.units[uid].box == "reinforcement"))
        o = state.orders[side]  # type: ignore[index]
        units_at = state.board.units
        for i, g in enumerate(o.groups if not ags <= state.revealed else ()):    # 5.23: first draw only
            ag = units_at[g[0]].ag
            if ag in ags and ag not in state.revealed:
                effect = "under_orders" if i in o.under_orders else "no_orders"
                results.append(result(effect, "5.23", g[0], units=list(g)))
        act = Activation(marker=marker, side=side, ags=ags, units=units,
                         start_hexes={u: units_at[u].hex for u in units})
        # one copy of the state for the reveal, the activation and the reset flags together
        return replace(state, revealed=state.revealed | ags, activation=act,
                       board=reset_activation_flags(state, units)), results
    # barrage (fire_events) / destruction (destruction.py): the draw owes a roll per burning village;
    # no unit is activated, so there are no start hexes and no flags to reset.
    act = Activation(marker=marker, side=side,
                     fires_owed=tuple(sorted(state.board.on_fire)) if marker == DESTRUCTION else ())
    return replace(state, activation=act, board=reset_activation_flags(state, ())), results


def reset_activation_flags(state: TGState, units: Iterable[str]):
    """Per-activation unit flags start clean (moved, fired, mode, MP; 6.34 notes who starts in enemy ZOC)."""
    return begin_activation(state.board, list(units))


# --------------------------------------------------------------------------------------------- events


def holder_picks_first(state: TGState) -> bool:
    """4.0: the initiative holder picks the first AM — if he has one going into the cup."""
    holder = state.initiative
    return holder is not None and any(marker_side(state, m) == holder for m in cup_markers(state))


def cga_pending(state: TGState) -> list[str]:
    """5.35: sides that still have to decide on a CGA this turn (they have uses left)."""
    if not state.initiative_decided:
        return []
    return [s for s in state.static.sides
            if state.rules.cga_uses.get(s, 0) > state.cga_used.get(s, 0) and s not in state.cga_decided]


def cga_errors(state: TGState, side: str, ags: list[str]) -> list[Error]:
    """5.34: two different AGs of the side, each with an AM going into the cup this turn, uses left."""
    if state.rules.cga_uses.get(side, 0) <= state.cga_used.get(side, 0):
        return [Error("5.34", "no_cga", f"{side} has no Combined Group Activation left in this scenario")]
    markers = cup_markers(state)
    errors = []
    if len(set(ags)) != 2:
        errors.append(Error("5.34", "two_ags", "a CGA combines two different activation groups"))
    for a in ags:
        ag = state.static.ags.get(a)
        if ag is None or ag.side != side or a not in markers:
            errors.append(Error("5.34", "ag_not_available", f"'{a}' is not a {side} AG with an AM in the cup",
                                alternatives=tuple(sorted({m for m in markers if m in state.static.ags
                                                           and state.static.ags[m].side == side}))))
    return errors


@VERBS.verb("cga", steps=(INITIATIVE,), rules=("5.34", "5.35"),
             refs={"side": "side", "ags": "ags"}, actor=False,
             not_now=Error("5.35", "wrong_time", "a CGA is declared after the initiative is decided and before the first marker is chosen, once per turn"))
def cga(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """5.34/5.35: after initiative, before the first AM is chosen, a side holds back one AM of each of two AGs
    and puts its CGA marker in the cup; when it is drawn both AGs act as one."""
    side, ags = event["side"], list(event["ags"])
    if state.phase != INITIATIVE or side not in cga_pending(state):
        refuse("5.35", "wrong_time", "a CGA is declared after the initiative is decided and before "
               "the first marker is chosen, once per turn")
    errors = cga_errors(state, side, ags)
    check(errors)
    new = replace(state, cga={**state.cga, side: (ags[0], ags[1])}, cga_decided=state.cga_decided | {side},
                  cga_used={**state.cga_used, side: state.cga_used.get(side, 0) + 1})
    return legal("cga", ["5.34", "5.35"]), new


def no_cga(state: TGState, side: str) -> tuple[Ruling, TGState]:
    """5.35: the side declines a CGA this turn (its ``end_phase`` in the Initiative Phase)."""
    if side not in cga_pending(state):
        refuse("3.0", "wrong_phase", "nothing to decline now")
    return legal("end_phase", ["5.35"]), replace(state, cga_decided=state.cga_decided | {side})


@VERBS.verb("first_marker", steps=(INITIATIVE,), rules=("4.0", "5.31"),
             refs={"side": "side", "marker": "marker"}, actor=False,
             not_now=Error("3.0", "wrong_phase", "the first marker is chosen in the Initiative Phase, after the initiative roll"))
def first_marker(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    """4.0 / 5.35: the initiative holder picks one AM (either order status, or a special marker) to go first."""
    side, marker = event["side"], event["marker"]
    if state.phase != INITIATIVE or not state.initiative_decided:
        refuse("3.0", "wrong_phase",
               "the first marker is chosen in the Initiative Phase, after the initiative roll")
    if cga_pending(state):
        refuse("5.35", "cga_decision_first",
               f"{', '.join(cga_pending(state))} must first declare or decline a CGA")
    if state.initiative != side:
        refuse("4.0", "no_initiative",
               f"{side} does not have the initiative" + ("" if state.initiative else
               " (nobody has: every AM goes into the cup)"))
    available = cup_markers(state)
    own = sorted({m for m in available if marker_side(state, m) == side})
    if marker not in own:
        raise Illegal(_not_pickable(state, side, marker, own))
    rules = ["4.0", "5.35", "5.31", *marker_rules(state, marker)]
    state = fill_cup(state, held_back=marker)
    state, res = begin(state, marker)
    return legal("first_marker", rules, results=res), state


def _not_pickable(state: TGState, side: str, marker: str, own: list[str]) -> Error:
    """Why the initiative holder may not pick ``marker`` first, under the rule that forbids it: an AG's markers
    all held back for a CGA (5.34), a CGA not declared (5.35), a barrage not ordered (5.33 / BOR-BARRAGE), the
    Guard not ordered (BOR-GUARD), another side's marker (4.0)."""
    held = state.cga.get(side, ())
    if marker in held:
        return Error("5.34", "held_back_for_cga", f"the AMs of {marker} left are held back for the Combined Group "
                     "Activation: the CGA marker activates it", alternatives=tuple(own))
    if marker == f"cga:{side}":
        return Error("5.35", "cga_not_declared", f"{side} declared no Combined Group Activation this turn",
                     alternatives=tuple(own))
    return _not_in_cup(state, marker, own, "4.0")


@VERBS.verb("draw", steps=(ACTIVATION,), rules=("5.31",),
             refs={"marker": "marker", "side": "side"}, actor=False,
             not_now=Error("3.0", "wrong_phase", "markers are drawn in the Activation Phase"))
def draw(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    marker = event["marker"]
    if state.phase != ACTIVATION:
        refuse("3.0", "wrong_phase", "markers are drawn in the Activation Phase")
    if state.activation is not None:
        refuse("5.31", "activation_in_progress",
               f"the activation of {state.activation.marker} has not ended")
    if marker not in state.cup:
        raise Illegal(_not_in_cup(state, marker, sorted(set(state.cup)), "5.31"))
    cup = list(state.cup)
    cup.remove(marker)
    rules = ["5.31", *marker_rules(state, marker)]
    state, res = begin(replace(state, cup=tuple(cup)), marker)
    return legal("draw", rules + (["5.23"] if res else []), results=res), state


def _not_in_cup(state: TGState, marker: str, alternatives: list[str], rule: str) -> Error:
    side = marker_side(state, marker)
    if marker.startswith("barrage:") and side and not state.orders[side].barrage:
        # 5.33 + BOR-BARRAGE: a barrage marker is in the cup only if it was ordered (and paid for).
        why_rule = "BOR-BARRAGE" if state.rules.barrage_must_be_ordered else "5.33"
        return Error(why_rule, "barrage_not_ordered", f"{side} did not order the barrage in the Orders Phase",
                     alternatives=tuple(alternatives))
    if marker in state.rules.guard_ags:
        return Error("BOR-GUARD", "guard_not_ordered", "the Guard's AM is in the cup only when Napoleon "
                     "gave the Guard orders", alternatives=tuple(alternatives))
    return Error(rule, "not_in_cup", f"marker '{marker}' is not in the cup", alternatives=tuple(alternatives))


@VERBS.verb("end_activation", steps=(ACTIVATION,), rules=("3.0", "5.31"),
             refs={"side": "side"}, actor=False,
             not_now=Error("3.0", "no_activation", "no activation is in progress"))
def end_activation(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    act = state.activation
    if state.phase != ACTIVATION or act is None or act.reserve:
        refuse("3.0", "no_activation", "no activation is in progress")
    side = event.get("side")
    if side is not None and act.side is not None and side != act.side:
        refuse("5.31", "not_your_activation", f"the activation is {act.side}'s")
    if act.fires_owed:
        refuse("BOR-5", "fire_rolls_first", "roll for the burning villages first")
    return legal("end_activation", ["3.0", "5.31"]), replace(state, activation=None)


# --------------------------------------------------------------------------------------------- Schevardino


def command_choices(state: TGState) -> list[str]:
    """Schevardino: the inactive commands the chooser may activate this turn (not before their earliest turn)."""
    cmd = state.rules.command_activation
    if cmd is None:
        return []
    return [c for c, (side, _) in cmd.commands.items()
            if side == cmd.chooser and c not in state.active_commands and cmd.earliest.get(c, 0) <= state.turn]


@VERBS.verb("activate_command", steps=(COMMAND,), rules=("SCH-COMMAND",),
             refs={"side": "side", "command": "command"}, actor=False,
             not_now=Error("SCH-COMMAND", "wrong_phase", "commands are activated at the start of a Schevardino turn"))
def activate_command(state: TGState, event: Mapping[str, Any], dice: EventDice) -> tuple[Ruling, TGState]:
    cmd = state.rules.command_activation
    side, ag = event["side"], event["command"]
    if cmd is None or state.phase != COMMAND:
        refuse("SCH-COMMAND", "wrong_phase",
               "commands are activated at the start of a Schevardino turn")
    if side != cmd.chooser:
        refuse("SCH-COMMAND", "not_chooser", f"only the {cmd.chooser} activate commands")
    choices = command_choices(state)
    if ag not in choices:
        why = ("is already active" if ag in state.active_commands else
               f"may not be activated before turn {cmd.earliest.get(ag)}" if ag in cmd.earliest else
               "is not one of the chooser's commands")
        refuse("SCH-COMMAND", "cannot_activate", f"command '{ag}' {why}", tuple(choices))
    new = replace(state, active_commands=state.active_commands | {ag}, command_chosen=True)
    return legal("activate_command", ["SCH-COMMAND"], results=[result("activated", "SCH-COMMAND", None, command=ag)]), new


def begin_side_turn(state: TGState, side: str) -> TGState:
    """Schevardino: the side moves and fights with every unit of its active commands, all Under Orders."""
    cmd = state.rules.command_activation
    members = {uid for c in state.active_commands for uid in (cmd.commands[c][1] if cmd and c in cmd.commands else ())}
    units = frozenset(uid for uid in members if uid in state.board.units and state.unit(uid).side == side
                      and (state.unit(uid).hex is not None or state.unit(uid).box == "reinforcement"))
    act = Activation(marker=f"side:{side}", side=side, units=units)
    act = replace(act, start_hexes={u: state.unit(u).hex for u in units})
    return replace(state, phase=SIDE_TURN, side_turn=side, activation=act,
                   board=reset_activation_flags(state, units))


def commands_active_now(state: TGState) -> frozenset[str]:
    """Schevardino: the chooser's commands active from the start or chosen; every other side's commands are
    active except those that wait for a later turn (the Russian 2nd Grenadiers: turn 2)."""
    cmd = state.rules.command_activation
    if cmd is None:
        return state.active_commands
    others = {c for c, (side, _) in cmd.commands.items()
              if side != cmd.chooser and cmd.from_turn.get(c, 0) <= state.turn}
    return state.active_commands | cmd.active | others
