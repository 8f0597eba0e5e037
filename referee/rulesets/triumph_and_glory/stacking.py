"""Stacking (6.21–6.24, BOR-STACK, BOR-MILITIA, the Borodino artillery-reserve set-up note).  Main digest §7.

6.21 limits, judged at the end of a move (DESIGN §5: on the ``move`` that would break them) and in combat;
units passing through are not checked; CinCs and markers never count:

1. at most 3 combat units;
2. infantry and cavalry never share a hex — skirmishers count as infantry;
3. 3 infantry (or 3 cavalry) only if all three are of one brigade;
4. at most one artillery unit with infantry/cavalry, and an artillery unit joins *two* of them only if
   those two are of one brigade;
5. an all-artillery hex: at most 2 units, of one AG, with combined fire ≤ 6 — ≤ 8 under BOR-STACK
   (switch ``artillery_cap``; digest default A-11: the two-unit and same-AG limits still apply; A-19: the cap
   is tested on two-unit artillery stacks only, so one big battery alone is legal);
6. BOR-MILITIA: a militia unit stands alone;
7. Borodino set-up note (``BOR-ART-RESERVE``): a hex holding only artillery-reserve batteries that have not
   yet moved or fired may hold 3 of them (engine default: the fire cap does not apply to such a hex — the
   set-up would otherwise break it).

6.22: never enter or pass through a hex with an enemy combat unit.
6.24: a unit ending its move in an occupied hex goes to the bottom (``Board.move``); a stack is re-ordered only
at the start or end of the activation of its AG, and never while the hex is in an enemy ZOC (gaps §2).
"""
from __future__ import annotations

from typing import Iterable, Iterator, Sequence

from modulebuilder.model import Leader

from .board import Board, RuleSwitches, UnitState
from referee.engine.ruling import Error
from .zoc import in_enemy_zoc

__all__ = ["stacking_errors", "stacking_errors_entering", "stack_is_legal", "may_end_entering", "stacking_rules", "stack_after_entering", "enemy_hex_error", "stack_order_errors", "line_kind"]

MAX_UNITS = 3          # 6.21
MAX_ARTILLERY = 2      # 6.21


def line_kind(u: UnitState) -> str:
    """Stacking class of a unit: skirmishers count as infantry (6.21)."""
    return "infantry" if "skirmisher" in u.flags else u.kind


def _same_brigade(units: Sequence[UnitState]) -> bool:
    """6.21: all of one multi-counter brigade (a unit without a brigade letter matches nobody)."""
    b = units[0].brigade
    return b is not None and all(u.brigade == b for u in units)


def _names(units: Iterable[UnitState]) -> str:
    return ", ".join(u.defn.name for u in units)


def _breaks(units: Sequence[UnitState], rules: RuleSwitches) -> Iterator[tuple[str, str, str, Sequence[UnitState]]]:
    """Each 6.21 / BOR limit the combat units ``units`` (one hex) break, in the order the rules are read, as
    (rule, code, what it says, the counters it names).  A generator, so that the yes/no (``stack_is_legal``)
    stops at the first break and builds no message: the legal-move listing asks it of every stack a search
    could end in."""
    # One pass over the printed counters (``defn``) rather than UnitState's properties: this runs for every
    # stack a movement search could end in.
    combat: list[UnitState] = []
    art: list[UnitState] = []
    line: list[UnitState] = []
    sides = set()
    militia = False
    for u in units:
        d = u.defn
        if isinstance(d, Leader):
            continue                                        # CinCs never count (6.21)
        combat.append(u)
        sides.add(d.side)
        militia = militia or "militia" in d.flags
        (art if d.kind == "artillery" else line).append(u)
    units = combat
    if len(units) <= 1:
        return
    if len(sides) > 1:
        yield "6.22", "enemy_in_hex", "units of both sides in one hex", units
        return
    if rules.militia_alone and militia:
        yield "BOR-MILITIA", "militia_stacked", "militia never stack with another unit", units
        return
    if not line and all(u.overstack for u in art):
        if len(art) > rules.overstack_max:
            yield ("BOR-ART-RESERVE", "stack_too_many", f"at most {rules.overstack_max} reserve batteries per hex",
                   art)
        return
    if len(units) > MAX_UNITS:
        yield "6.21", "stack_too_many", f"more than {MAX_UNITS} units in a hex", units
    if line:
        if len({line_kind(u) for u in line}) > 1:
            yield ("6.21", "stack_infantry_cavalry", "infantry (skirmishers included) and cavalry never stack",
                   line)
        if len(art) > 1:
            yield "6.21", "stack_artillery_with_line", "at most one artillery unit with infantry or cavalry", art
        if len(line) >= 3 and not _same_brigade(line):
            yield ("6.21", "stack_three_not_brigade", f"three {line[0].kind} units stack only if of one brigade",
                   line)
        if len(line) == 2 and art and not _same_brigade(line):
            yield ("6.21", "stack_artillery_brigade", "artillery joins two units only if they are of one brigade",
                   line)
        return
    if len(art) > MAX_ARTILLERY:
        yield "6.21", "stack_artillery_count", f"at most {MAX_ARTILLERY} artillery units in a hex", art
    if len({u.ag for u in art}) > 1:
        yield "6.21", "stack_artillery_ag", "stacked artillery must belong to one activation group", art
    total = sum(u.fire for u in art)
    if total > rules.artillery_cap:
        rule = "BOR-STACK" if rules.artillery_cap != 6 else "6.21"
        yield rule, "stack_artillery_fire", f"stacked artillery fire {total} exceeds {rules.artillery_cap}", art


def stacking_errors(units: Sequence[UnitState], rules: RuleSwitches) -> list[Error]:
    """Every 6.21 / BOR limit that the combat units ``units`` (one hex) break; [] when the stack is legal."""
    return [Error(rule, code, f"{says}: {_names(named)}") for rule, code, says, named in _breaks(units, rules)]


def stack_is_legal(units: Sequence[UnitState], rules: RuleSwitches) -> bool:
    """``not stacking_errors(units, rules)``, stopping at the first break and building no message."""
    return next(_breaks(units, rules), None) is None


def may_end_entering(board: Board, unit: UnitState, hex_id: str) -> bool:
    """``not stacking_errors_entering(board, unit, hex_id)``, without the messages."""
    ids = board._stacks.get(hex_id)                                         # noqa: SLF001 — see Board._stacks
    if not ids or ids == (unit.id,):
        return True
    return (not board.has_enemy(hex_id, unit.side)
            and stack_is_legal(stack_after_entering(board, unit, hex_id), board.rules))


def stacking_rules(units: Sequence[UnitState], rules: RuleSwitches) -> tuple[str, ...]:
    """The rules a stacking check of ``units`` (one hex) applies, whether it passes or fails:
    6.21 for any stack of two or more, and the scenario's rule where it is the one that decides — BOR-STACK for an
    all-artillery hex under its cap, BOR-MILITIA with a militia unit, BOR-ART-RESERVE for reserve batteries."""
    units = [u for u in units if u.is_combat]
    if len(units) <= 1:
        return ()
    out = ["6.21"]
    art = [u for u in units if u.kind == "artillery"]
    if rules.militia_alone and any("militia" in u.flags for u in units):
        out.append("BOR-MILITIA")
    if len(art) == len(units):
        if all(u.overstack for u in art):
            out.append("BOR-ART-RESERVE")
        elif rules.artillery_cap != 6:
            out.append("BOR-STACK")
    return tuple(out)


def enemy_hex_error(board: Board, unit: UnitState, hex_id: str) -> Error | None:
    """6.22 (7.32): a unit may never enter or pass through a hex holding an enemy combat unit."""
    if board.has_enemy(hex_id, unit.side):
        return Error("6.22", "enemy_occupied", f"{unit.defn.name} may not enter {hex_id}: enemy units there")
    return None


def stack_after_entering(board: Board, unit: UnitState, hex_id: str) -> tuple[UnitState, ...]:
    """The stack ``hex_id`` would hold with ``unit`` at its bottom (a battery that moves loses its allowance)."""
    mover = unit.evolve(overstack=False) if unit.overstack else unit
    return tuple(u for u in board.stack(hex_id) if u.id != unit.id) + (mover,)


def stacking_errors_entering(board: Board, unit: UnitState, hex_id: str) -> list[Error]:
    """6.21 / 6.22 for ``unit`` ending its move in ``hex_id`` (where it goes to the bottom, 6.24)."""
    ids = board.stacks.get(hex_id)
    if not ids or ids == (unit.id,):
        return []           # most moves end alone: no enemy there (6.22) and one unit is a legal stack (6.21)
    err = enemy_hex_error(board, unit, hex_id)
    if err:
        return [err]
    return stacking_errors(stack_after_entering(board, unit, hex_id), board.rules)


def stack_order_errors(board: Board, hex_id: str, order: Sequence[str], side: str,
                       active_ag: str | None, at_activation_edge: bool) -> list[Error]:
    """6.24: may ``side`` re-order the stack in ``hex_id`` to ``order`` (unit ids, top first) now?

    ``active_ag`` is the AG whose activation starts or ends; ``at_activation_edge`` says whether this is the
    start or end of that activation (the only times a stack may be re-ordered)."""
    current = board.stacks.get(hex_id, ())
    if sorted(order) != sorted(current):
        return [Error("6.24", "stack_order_units",
                          f"{list(order)} is not an ordering of the units in {hex_id}", (tuple(current),))]
    if not current or board.units[current[0]].side != side:
        return [Error("6.24", "stack_order_owner", f"{side} has no stack in {hex_id}")]
    errors: list[Error] = []
    if not at_activation_edge or active_ag not in {board.units[u].ag for u in current}:
        errors.append(Error("6.24", "stack_order_timing",
                                "a stack is re-ordered only at the start or end of the activation of its units"))
    if in_enemy_zoc(board, hex_id, side):
        errors.append(Error("6.24", "stack_order_zoc", f"{hex_id} is in an enemy ZOC: its stack order is fixed"))
    return errors
