"""The procedure of Triumph & Glory on the engine's dispatcher (``referee.engine.procedure``): the pending
decision as a :class:`Step`, the guards that hold for every verb, and what follows a legal, complete ruling.

* :func:`step` — the phase of 3.0 pending, who must act in it and what to tell them (the step's name is the
  phase; the verbs say in which phases they are allowed, ``verbs``);
* :func:`combat_step` — while fire or shock owes acts (checks, retreats, advances, charges: ``owed``) or leaves
  assaults to resolve, the step names the act owed and who owes it, and refuses the acts that must wait for it
  (9.44, 9.6, 3.0) — once, in the dispatcher, for every verb;
* :data:`GUARDS` — a side the scenario does not have (3.0), an act of a procedure the scenario replaces;
* :func:`after` — the automatic transitions of the sequence of play (``sequence.advance``), the victory when
  the game ends, and the rolls the sequence of play now requires (its ``awaiting``);
* :func:`cite_what_decided` — the last touch on every ruling: it cites every rule that decided it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.engine.procedure import OVER, Step
from referee.engine.ruling import Error, Ruling

from . import sequence
from .activation import cga_pending
from .combat import NO_COMBAT, Combat
from .owed import awaiting
from .state import ACTIVATION, CINC, COMMAND, INITIATIVE, MORALE, ORDERS, RESERVE, SIDE_TURN, TGState
from .timing import two_sided_turn
from .morale_events import victory_results

_GAME_OVER = Step(OVER, "the game is over", rule="3.0")


def step(state: TGState) -> Step:
    """The decision pending: the phase, who must act, and the prompt; while fire or shock in an activation
    owes acts or leaves assaults to resolve, those (``combat_step``): who owes them, and the acts they hold up."""
    act = state.activation
    if act is None or act.combat is NO_COMBAT:          # most events: nothing fired or declared in the activation
        return phase_step(state)
    return combat_step(phase_step(state), state, act.combat, act.side)


def phase_step(state: TGState) -> Step:
    """The phase of 3.0 pending, who must act in it and what to tell them (the step's name is the phase; the
    verbs say in which phases they are allowed)."""
    p = state.phase
    if p == OVER:
        return _GAME_OVER
    sides = state.static.sides
    if p == ACTIVATION or p == SIDE_TURN:                  # most events: one Step per (marker, side), kept
        act = state.activation
        key = (p, sides, None, None) if act is None else (p, sides, act.marker, act.side)
        hit = _ACTING_STEPS.get(key)
        if hit is None:
            if len(_ACTING_STEPS) > 1024:
                _ACTING_STEPS.clear()
            hit = _ACTING_STEPS[key] = _acting_step(p, sides, act)
        return hit
    if p == ORDERS:
        return Step(p, "give orders", tuple(s for s in sides if not state.orders[s].given), "5.21")
    if p == INITIATIVE:
        if not state.initiative_decided:
            return Step(p, "both sides roll for the initiative", sides, "4.0")
        pending = cga_pending(state)
        if pending:
            return Step(p, "declare or decline a CGA", (pending[0],), "5.35")
        holder = state.initiative
        return Step(p, "pick the first activation marker", (holder,) if holder else sides, "4.0")
    if p == RESERVE or p == CINC:
        ts = state.two_sided
        if ts is None or ts.order is None:
            holder = state.initiative
            return Step(p, "decide who goes first", (holder,) if holder else sides, "5.51" if p == RESERVE else "4.0")
        current = two_sided_turn(ts)
        what = "activate a reserve order group, or end the phase" if p == RESERVE else "move the CinC, or end the phase"
        return Step(p, what, (current,) if current else (), "5.51" if p == RESERVE else "5.62")
    if p == MORALE:
        return Step(p, "roll for recovery", tuple(dict.fromkeys(state.unit(u).side for u in state.recovery_owed)),
                    "10.2")
    if p == COMMAND:
        cmd = state.rules.command_activation
        return Step(p, "activate a command, or end the step", (cmd.chooser,) if cmd else sides, "SCH-COMMAND")
    return Step(p, p, sides, "3.0")


_ACTING_STEPS: dict[tuple[Any, ...], Step] = {}


def _acting_step(p: str, sides: tuple[str, ...], act: Any) -> Step:
    if act is None:
        return Step(p, "draw the next activation marker from the cup", sides, "5.31")
    who = (act.side,) if act.side is not None else sides
    if p == SIDE_TURN:                    # Schevardino: the side's turn, not a marker (SCH-COMMAND)
        return Step(p, f"move and fight with {act.side}'s active commands, or end the step", who, "SCH-COMMAND")
    return Step(p, f"act with {act.marker}, or end its activation", who, "5.31")


# ------------------------------------------------------------------------- the acts fire and shock leave owed

_ACTS_OWED = Error("9.6", "acts_owed", "the owed checks, retreats and advances come first")
_AFTER_DECLARATION = Error("9.44", "after_declaration", "movement ends when the assaults are declared")
_COMBAT_OPEN = Error("3.0", "combat_open", "the declared assaults and the acts they owe come first")
#: 9.44: the acts of movement, over once the assaults are declared (a rally is not movement, 10.1)
_MOVEMENT = ("move", "face", "stack_order", "individual_order", "leave_square")
#: 3.0: what ends an activation or a side's part of a phase, held up while its combat is open
_ENDINGS = ("end_activation", "end_phase")


def combat_refusals(state: TGState, c: Combat, side: str | None) -> dict[str, Error]:
    """The acts an activation of ``side`` whose fire and shock so far are ``c`` holds up, and why: every act of
    movement and rally while checks, retreats, advances or charges are owed (9.6); movement once the assaults
    are declared (9.44); its end while an APC, an assault or an owed act is left (3.0)."""
    held: dict[str, Error] = {}
    if c.owes:
        held.update(dict.fromkeys(_MOVEMENT + ("rally",), _ACTS_OWED))
    elif c.declared:
        held.update(dict.fromkeys(_MOVEMENT, _AFTER_DECLARATION))
    if c.is_open(state.board, side):
        held.update(dict.fromkeys(_ENDINGS, _COMBAT_OPEN))
    return held


def combat_step(base: Step, state: TGState, c: Combat, side: str | None) -> Step:
    """``base`` (the phase's step) while combat is under way in the activation: the first act owed (a cohesion
    check, a retreat, an advance, a charge move or pursuit: ``owed.awaiting``), else the APCs or the assaults
    left, with who must act and the acts held up until then."""
    held = combat_refusals(state, c, side)
    if not held:
        return base
    owed = awaiting(c)
    if owed:
        first = owed[0]
        return base._replace(prompt=f"{first.type} owed" + (f" by {first.unit}" if first.unit else ""),
                             actors=tuple(dict.fromkeys(a.side for a in owed if a.side)), rule=first.rule,
                             refusals=held)
    if c.commit_owed:
        return base._replace(prompt="roll the Assault Probability Checks", rule="9.41", refusals=held)
    if c.declared and side is not None and c.shocks_left(state.board, side):
        return base._replace(prompt="resolve the declared assaults", rule="9.5", refusals=held)
    return base._replace(prompt=base.prompt + " (the assaults are declared: no more movement)", rule="9.44",
                         refusals=held)


# ------------------------------------------------------------------------------------ guards for every verb

def unknown_side(state: TGState, event: Mapping[str, Any]) -> Error | None:
    side = event.get("side")
    if side is not None and side not in state.static.sides:
        return Error("3.0", "unknown_side", f"no side '{side}'", alternatives=state.static.sides)
    return None


# Schevardino (SCH-COMMAND): the acts of a procedure the scenario does not have, and what it has instead.
_NO_ORDERS = "has no orders: every unit of an active command is Under Orders"
_NO_MARKERS = ("has no activation markers: each turn the commands are chosen in the Command Activation step, "
               "then each side in turn moves and fights with its active commands")
_NOT_IN_COMMAND_SCENARIOS = {
    "orders": _NO_ORDERS, "orders_delay": _NO_ORDERS, "individual_order": _NO_ORDERS,
    "initiative": _NO_MARKERS, "first_marker": _NO_MARKERS, "cga": _NO_MARKERS, "draw": _NO_MARKERS,
    "end_activation": _NO_MARKERS + " (a side's Movement and Combat step ends with end_phase)",
    "reserve": "has no Reserve Activation Phase", "go_first": "has no Reserve or CinC Movement Phase",
    "cinc_move": "has no commanders-in-chief", "recovery": "has no Morale Phase",
}


def scenario_procedure(state: TGState, event: Mapping[str, Any]) -> Error | None:
    """An act of the Borodino sequence of play in a scenario that replaces it (Schevardino's command activation):
    refused in the scenario's own words, citing the scenario rule, rather than as out of phase (3.0)."""
    if state.rules.command_activation is None:
        return None
    why = _NOT_IN_COMMAND_SCENARIOS.get(event.get("type"))   # type: ignore[arg-type]
    if why is None:
        return None
    return Error("SCH-COMMAND", "not_in_this_scenario", f"{state.static.scenario.name} {why}")


GUARDS = (unknown_side, scenario_procedure)


# ------------------------------------------------------------------------- after a legal, complete ruling

def after(ruling: Ruling, new: TGState) -> tuple[Ruling, TGState]:
    """The automatic transitions of the sequence of play, whose results join the ruling (DESIGN §5); the
    victory when the game ends; the rolls the sequence of play now requires."""
    act = new.activation
    if new.phase == ACTIVATION and act is not None and not act.fires_owed:
        # Most events (a move, a fire, a face in an activation): the phase waits for the activation's end
        # (``sequence._next``), the game goes on, and the sequence of play owes no roll (``rolls_owed``), so
        # ``advance_sequence`` would change nothing (tests/tg/test_replay_fastpaths.py holds it to that).
        return ruling, new
    return advance_sequence(ruling, new)


def advance_sequence(ruling: Ruling, new: TGState) -> tuple[Ruling, TGState]:
    """``after`` without its shortcut: the sequence of play advanced, its results and owed rolls joined to the
    ruling, the victory when the game ends."""
    new, results = sequence.advance(new)
    if new.over and new.victory is not None:
        results = list(results) + victory_results(new.victory)
    if results:
        ruling = replace(ruling, results=ruling.results + tuple(results))
    owed = sequence.rolls_owed(new)
    if owed:                                         # 10.2 & co: what the sequence of play now requires
        have = set(ruling.awaiting)
        ruling = replace(ruling, awaiting=ruling.awaiting + tuple(a for a in owed if a not in have))
    return ruling, new


def cite_what_decided(ruling: Ruling) -> Ruling:
    """A ruling cites every rule that decided it, structurally: besides the rules the rule
    function named, the rule of every result it produced (a CinC displaced by 5.63, a collapse by 10.5) and of
    every roll's target and modifier.  Errors cite themselves (``illegal``); the acts a ruling says are owed
    next carry their own rules in ``awaiting`` (they decide what comes next, not this act)."""
    results, rolls = ruling.results, ruling.rolls
    if not results and not rolls:               # most rulings: a move, a draw, an end of activation
        return ruling
    extra = [r.rule for r in results]
    for roll in rolls:
        if roll.base_rule:
            extra.append(roll.base_rule)
        extra += [m.rule for m in roll.modifiers]
    have = ruling.rules
    if not extra or all(x in have for x in extra):
        return ruling
    return replace(ruling, rules=tuple(dict.fromkeys(have + tuple(extra))))
