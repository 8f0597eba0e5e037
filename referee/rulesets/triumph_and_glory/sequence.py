"""The sequence of play (3.0) as a state machine: which phase follows which, and what happens by itself at each
change.  Phases end by themselves when the rules leave nothing to do (DESIGN §5): Orders once both sides have
given orders, Initiative once it is decided (and the holder has picked his first marker), Activation when the
cup is empty and the last activation has ended, Morale (nothing to do until the part-2 rules: collapse and
recovery, morale_events.py); Reserve and CinC Movement end with ``end_phase`` from each side.
The CinC Movement Phase is the last phase of the turn (gaps §1; the main digest's A-14 is superseded).

*Schevardino* (SCH-COMMAND) runs its own short turn: command activation, then each side in turn.
"""
from __future__ import annotations

from dataclasses import replace

from referee.engine.ruling import Awaiting, Result, result

from . import activation, initiative, morale_events, orders, scenario_rules
from .board import Board
from .state import (ACTIVATION, CINC, COMMAND, INITIATIVE, MORALE, ORDERS, OVER, PHASE_TITLES, PHASES, RESERVE,
                    SIDE_TURN, SideOrders, Static, TGState, TwoSided)


def initial_state(static: Static, board: Board) -> TGState:
    start = static.scenario.start or {}
    turn = int(start.get("turn", static.scenario.turns.first))
    state = TGState(static=static, board=board, turn=turn, phase=ORDERS,
                    orders={s: SideOrders() for s in static.sides})
    state = start_turn(state, turn, first=True)
    phase = start.get("phase")
    if phase is not None and phase != state.phase:
        state = begin_at(state, str(phase), start.get("side"))
    state, _ = advance(state)
    return state


# DESIGN §4 ``start: {turn, phase}``: every phase is a starting point.  What the skipped phases of that turn
# would have decided is decided as if nobody did anything in them: no orders given (every group No Orders, no
# barrage, no orders-delay roll), the initiative as the scenario says (option ``start_initiative``: a side, or
# ``none``), else as BOR-INITIATIVE gives it, else nobody holds it (as after a tie, 4.0: every AM goes into the
# cup, the two-sided phases begin with a ``go_first`` roll); no CGA declared and no first marker picked; an
# Activation Phase skipped leaves its markers undrawn (their AGs count as having had an AM in the cup, 5.57).
STARTS = {False: PHASES, True: (COMMAND, SIDE_TURN)}


def start_errors(scenario) -> list[str]:  # type: ignore[no-untyped-def]
    """The scenario's ``start`` and ``start_initiative`` must name a phase and a side this ruleset knows."""
    start = scenario.start or {}
    out = []
    turns = scenario.turns
    turn = start.get("turn", turns.first)
    if not isinstance(turn, int) or not turns.first <= turn <= turns.last:
        out.append(f"scenario.start.turn: {turn!r} is not a turn of the scenario ({turns.first}–{turns.last})")
    schevardino = scenario_rules.parse(scenario).command_activation is not None
    phase = start.get("phase")
    allowed = STARTS[schevardino]
    if phase is not None and phase not in allowed:
        out.append(f"scenario.start.phase: {phase!r} is not a phase this scenario may begin at "
                   f"({', '.join(allowed)})")
    side = start.get("side")
    if side is not None:
        order = scenario_rules.parse(scenario).command_activation.order if schevardino else ()
        if phase != SIDE_TURN or side not in order:
            out.append(f"scenario.start.side: {side!r} names whose {SIDE_TURN} it is"
                       + (f" ({', '.join(order)})" if order else ", which only a Schevardino start has"))
    who = scenario.options.get("start_initiative")
    sides = [s.name for s in scenario.sides]
    if who is not None and who != "none" and who not in sides:
        out.append(f"scenario.options.start_initiative: {who!r} is not a side ({', '.join(sides)}) or none")
    return out


def start_at(scenario, turn: int, phase: str | None) -> tuple[dict[str, object], str] | None:  # type: ignore[no-untyped-def]
    """The ``start`` for ``turn`` and the phase a turn track shows, named as :meth:`TGState.label` names it
    ("Orders Phase", Schevardino's "Russian Movement and Combat"), and the sentence saying what beginning there
    takes as done (what a track cannot show, in the scenario's words); None when the phase is not a start."""
    cmd = scenario_rules.parse(scenario).command_activation
    if phase is None:
        return None
    if cmd is not None:
        named = {PHASE_TITLES[COMMAND]: (COMMAND, None)}
        named.update({f"{side} {PHASE_TITLES[SIDE_TURN]}": (SIDE_TURN, side) for side in cmd.order})
        if phase not in named:
            return None
        which, side = named[phase]
        start: dict[str, object] = {"turn": turn, "phase": which} | ({"side": side} if side else {})
        return start, _schevardino_assumes(scenario, cmd, turn, phase, which)
    titles = {PHASE_TITLES[p]: p for p in PHASES}
    if phase not in titles:
        return None
    target = PHASES.index(titles[phase])
    done = [what for at, what in _SKIPPED if target >= PHASES.index(at)]
    return ({"turn": turn, "phase": titles[phase]},
            "; ".join(done + [f"the {phase} is ruled as if it had just begun"]))


# What beginning at a phase takes as decided by the phases before it (``begin_at``), in the rules' words.
_SKIPPED = ((INITIATIVE, "no orders were given in the Orders Phase (5.2x)"),
            (ACTIVATION, "the initiative is as the scenario gives it (4.0) and every activation marker is in the "
                         "cup (5.3x)"),
            (RESERVE, "the cup is drawn out"))


def _schevardino_assumes(scenario, cmd, turn: int, phase: str, which: str) -> str:  # type: ignore[no-untyped-def]
    """What a Schevardino start cannot know: the commands the chooser activated before it (SCH-COMMAND)."""
    when = [w for w, unknown in (("in earlier turns", turn > scenario.turns.first), ("this turn", which == SIDE_TURN))
            if unknown]
    said = []
    if when:
        named = {str(k): str(v.get("name", k)) for k, v in dict(scenario.options.get("commands", {})).items()
                 if hasattr(v, "get")}
        own = [named.get(c, c) for c in sorted(cmd.active) if cmd.commands.get(c, ("",))[0] == cmd.chooser]
        said.append(f"which {cmd.chooser} commands were activated {' or '.join(when)} is not in a save "
                    f"(SCH-COMMAND): only {' and '.join(own) or 'none'} {'is' if len(own) == 1 else 'are'} taken as "
                    "active")
    if which == SIDE_TURN:
        said.append(f"the {phase} is ruled as if it had just begun")
    return "; ".join(said)


def begin_at(state: TGState, phase: str, side: str | None = None) -> TGState:
    """The state at the start of ``phase`` of the turn, the earlier phases decided as above; ``side``: whose
    turn a Schevardino side turn is (the first in ``side_order`` when None)."""
    if state.rules.command_activation is not None:
        if phase == SIDE_TURN:                        # Schevardino: no command chosen beyond those active
            chosen = replace(state, command_chosen=True)
            return chosen if side is None else activation.begin_side_turn(chosen, side)
        raise ValueError(f"start.phase: {phase!r} is not a phase of this scenario")
    target = PHASES.index(phase)
    if target >= PHASES.index(INITIATIVE):            # 5.2x: no orders given, no delay roll
        state = replace(state, orders={s: replace(o, given=True, delay="none") for s, o in state.orders.items()})
        state = replace(state, phase=INITIATIVE)
    if target >= PHASES.index(ACTIVATION):            # 4.0, 5.35: the initiative decided, no CGA, no first pick
        who = state.static.scenario.options.get("start_initiative")
        holder = initiative.automatic_initiative(state) if who is None else (None if who == "none" else str(who))
        state = replace(state, initiative=holder, initiative_decided=True,
                        cga_decided=frozenset(state.static.sides))
        state = activation.fill_cup(state)
    if target >= PHASES.index(RESERVE):               # the cup drawn out, nobody activated
        state = replace(state, cup=(), phase=RESERVE, two_sided=TwoSided())
    if target >= PHASES.index(MORALE):
        state = replace(state, phase=MORALE, two_sided=None)
    if target >= PHASES.index(CINC):                  # the Morale Phase as if it had nothing to do
        state = _begin_cinc(replace(state, morale_started=True, recovery_owed=()))
    return state


def start_turn(state: TGState, turn: int, first: bool = False) -> TGState:
    """3.0 A (or Schevardino's command step): per-turn records cleared, order groups formed (5.12), who must
    roll for orders delay (5.29); last turn's Under-Orders groups remembered for a failed delay roll."""
    if state.rules.command_activation is not None:
        s = replace(state, turn=turn, phase=COMMAND, command_chosen=False, activation=None, side_turn=None)
        return replace(s, active_commands=activation.commands_active_now(s))
    new_orders = {}
    base = replace(state, turn=turn, phase=ORDERS, initiative=None, initiative_decided=False, cup=(),
                   cup_ags=frozenset(), revealed=frozenset(), activation=None, two_sided=None, cga={},
                   cga_decided=frozenset())
    for side in state.static.sides:
        old = state.orders[side]
        groups = orders.order_groups(state.board, side)
        prev = tuple(frozenset(old.groups[g]) for g in sorted(old.under_orders)) if not first else ()
        new_orders[side] = SideOrders(
            delay="owed" if orders.delay_required(base, side) else "none", failures=old.failures,
            groups=groups, group_of=orders.group_index(groups), previous_uo=prev,
            previous_army=old.army or old.previous_army)
    return replace(base, orders=new_orders)


def _cinc_sides(state: TGState) -> tuple[str, ...]:
    return tuple(s for s in state.static.sides
                 if (c := state.cinc_of(s)) is not None and c.hex is not None)


def _begin_cinc(state: TGState) -> TGState:
    """The CinC Movement Phase begins (or the turn ends when no CinC is on the map)."""
    sides = _cinc_sides(state)
    if not sides:
        return end_turn(state)
    order = sides if len(sides) == 1 else None    # one CinC on the map: nobody to go first against
    leaders = [state.cinc_of(s).id for s in sides]  # type: ignore[union-attr]
    board = activation.reset_activation_flags(state, leaders)   # the MP count starts afresh (5.62)
    return replace(state, phase=CINC, two_sided=TwoSided(order=order), board=board)


def end_turn(state: TGState) -> TGState:
    if state.turn >= state.static.scenario.turns.last:
        # The game ends: the scenario's victory conditions are judged on the final position.
        over = replace(state, phase=OVER, activation=None, two_sided=None)
        return replace(over, victory=morale_events.victory(over))
    return start_turn(state, state.turn + 1)


def _next(state: TGState, results: list[Result]) -> TGState | None:
    """One automatic transition, or None when the current phase waits for an event."""
    p = state.phase
    if p == ORDERS:
        if all(o.given for o in state.orders.values()):
            auto = initiative.automatic_initiative(state)
            if auto is not None:
                results.append(result("initiative", "BOR-INITIATIVE", None, side=auto))
                return replace(state, phase=INITIATIVE, initiative=auto, initiative_decided=True)
            return replace(state, phase=INITIATIVE)
        return None
    if p == INITIATIVE:
        if state.initiative_decided and not activation.cga_pending(state) \
                and not activation.holder_picks_first(state):
            return activation.fill_cup(state)          # nobody to pick a first marker (4.0)
        return None
    if p == ACTIVATION:
        if state.activation is None and not state.cup:
            return replace(state, phase=RESERVE, two_sided=TwoSided())
        return None
    if p == RESERVE:
        ts = state.two_sided
        if ts is not None and ts.order is not None and ts.current is None:
            return replace(state, phase=MORALE, two_sided=None, activation=None)
        return None
    if p == MORALE:
        if not state.morale_started:                  # 10.5 collapse, then the recovery rolls owed (10.2)
            state, res = morale_events.enter_morale(state)
            results.extend(res)
            return state
        if state.recovery_owed:
            return None
        state, res = morale_events.leave_morale(state)   # 10.4
        results.extend(res)
        return _begin_cinc(state)
    if p == CINC:
        ts = state.two_sided
        if ts is not None and ts.order is not None and ts.current is None:
            return end_turn(state)
        return None
    if p == COMMAND:
        cmd = state.rules.command_activation
        if state.command_chosen or not activation.command_choices(state):
            return activation.begin_side_turn(state, cmd.order[0])  # type: ignore[union-attr]
        return None
    if p == SIDE_TURN:
        return None
    return None


def advance(state: TGState) -> tuple[TGState, list[Result]]:
    """Every automatic transition from ``state`` until a phase waits for an event; the results of rules that act
    without an event (the automatic initiative) are reported on the event that triggered them."""
    results: list[Result] = []
    for _ in range(64):                       # a turn has fewer transitions than this; guards a cycle
        nxt = _next(state, results)
        if nxt is None:
            return state, results
        state = nxt
    raise RuntimeError("sequence of play does not settle")


def end_side_turn(state: TGState) -> TGState:
    """Schevardino: the next side moves, or the turn ends."""
    cmd = state.rules.command_activation
    order = cmd.order if cmd else state.static.sides
    i = order.index(state.side_turn) if state.side_turn in order else len(order)
    if i + 1 < len(order):
        return activation.begin_side_turn(state, order[i + 1])
    return end_turn(replace(state, activation=None, side_turn=None))


def rolls_owed(state: TGState) -> tuple[Awaiting, ...]:
    """The rolls the sequence of play requires now, outside fire and shock (whose owed acts combat.py lists), each
    for the side that rolls it, with its rule: the orders delay of a side whose CinC rolls
    (5.29), both sides' initiative rolls (4.0), one fire roll per burning village when the Destruction marker is
    drawn (BOR-5, A-9), one recovery roll per eligible unit in the Morale Phase (10.2), and the two-sided roll
    for who goes first in the Reserve and CinC Movement phases when nobody holds the initiative (5.51, 4.0)."""
    p = state.phase
    if p == ACTIVATION:                               # most events: nothing but a Destruction draw owes here
        act = state.activation
        if act is not None and act.fires_owed:
            return tuple(Awaiting("fire_out", act.side, "BOR-5") for _ in act.fires_owed)
        return ()
    if p == ORDERS:
        return tuple(Awaiting("orders_delay", side, "5.29") for side, o in state.orders.items() if o.delay == "owed")
    if p == INITIATIVE:
        if state.initiative_decided:
            return ()
        return tuple(Awaiting("initiative", side, "4.0") for side in state.static.sides)
    if p == MORALE:
        return tuple(Awaiting("recovery", state.unit(u).side, "10.2", u) for u in state.recovery_owed)
    if p in (RESERVE, CINC):                          # nobody holds the initiative: both roll to go first
        ts = state.two_sided
        if ts is not None and ts.order is None and state.initiative is None:
            return (Awaiting("go_first", None, "5.51" if p == RESERVE else "4.0"),)
    return ()
