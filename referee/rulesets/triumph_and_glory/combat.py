"""The combat records of an activation and the small helpers the fire, shock and morale events share.

An activation's combat is a little state machine of its own (9.4–9.7): assaults are declared all at once
(9.44), every attacking hex rolls its Assault Probability Check (9.41–9.46), then each assault is resolved by
one shock roll (9.5–9.6).  Fire (8.x) and shock leave *owed* acts behind — per-unit cohesion checks (8.5,
9.62, 9.65), retreats whose hex the owner chooses (9.62–9.65), mandatory advances (9.71) — and nothing else
happens until they are done.  :class:`Combat` records exactly that, so ``legal_actions`` can list the owed
acts and ``end_activation`` can refuse while any is open.

The part-2 rule functions (fire.py, shock.py, retreat.py, ...) return ``Effect`` records and roll
specifications; :func:`apply_effects` turns effects into a new Board, :func:`engine_roll` turns a roll
specification into the ruling's roll (DESIGN §5).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from modulebuilder.records import field, record
from referee.engine.ruling import Roll, Result, pass_fail_roll, result, table_roll

from .board import Board
from .disorder import Effect
from .entering import enter
from .rolls import PassRoll, TableRoll


@record(frozen=True)
class Assault:
    """One declared assault (9.44): attacking units, the target hex(es), a cavalry charge or not."""
    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    charge: bool = False
    # Secondary shocks (9.73, 9.87) are appended to the activation's assaults as they open: ``kind`` says which
    # ("declared", "pursuit", "breakthrough", "counter_shock"), ``side`` who makes it when that is not the
    # active side (a counter-shock is the defender's), ``nth`` the pursuit charge's number (9.87: -nth).
    kind: str = "declared"
    side: str | None = None
    nth: int = 0


@record(frozen=True)
class OwedCheck:
    """A cohesion check somebody must roll: 8.5 (fire 9–12), 9.62 (retreat check), 9.65 (passed through).
    ``sources``: the hexes a failed 9.62 check retreats away from."""
    unit: str
    side: str
    rule: str
    sources: tuple[str, ...] = ()


@record(frozen=True)
class OwedRetreat:
    """The stack in ``hex`` must retreat one hex away from ``sources`` and its owner chooses where (9.62)."""
    hex: str
    side: str
    sources: tuple[str, ...]
    rule: str


@record(frozen=True)
class ForcedRetreat:
    """A retreat the rules applied at once, leaving the owner no choice ([9.63]: only a rout or destruction was
    open): the units that went, the hexes the retreat led to and the outcome.  A logged ``retreat`` of one of
    these units to one of these hexes is the same act, already done, not an error."""
    units: tuple[str, ...]
    hexes: tuple[str, ...]
    outcome: str


@record(frozen=True)
class OwedAdvance:
    """9.71: a stack of ``hexes`` (the attacker picks among ties) advances into the vacated ``into``."""
    into: str
    hexes: tuple[str, ...]
    attackers: tuple[str, ...]
    side: str


@record(frozen=True)
class Combat:
    """Fire and shock in the activation so far (see the module docstring)."""
    declared: bool = False
    assaults: tuple[Assault, ...] = ()
    commit_owed: tuple[str, ...] = ()                  # top units of attacking hexes still to roll 9.41
    committed: Mapping[str, bool] = field(default_factory=dict)   # attacking hex -> its APC passed
    resolved: frozenset[int] = frozenset()
    shocked: frozenset[str] = frozenset()              # 10.1: units that shocked may not rally
    checks: tuple[OwedCheck, ...] = ()
    retreats: tuple[OwedRetreat, ...] = ()
    forced: tuple[ForcedRetreat, ...] = ()             # [9.63] retreats applied at once (no choice was open)
    advances: tuple[OwedAdvance, ...] = ()
    fired_at_by: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # 8.7: target hex -> firing units
    counter_fired: frozenset[str] = frozenset()        # 8.7: batteries that made their counter-battery fire
    reacted: frozenset[str] = frozenset()              # 8.6: batteries that made their reaction fire
    # 9.31, 9.72–9.73 (secondary_events.py): optional advances after a retreat before shock; hexes where no 9.71
    # advance opens any more (left by a retreat before shock or a counter-shock move, or advanced into); hexes a
    # result >= 10 emptied; infantry that advanced into one without turning (may break through); units that
    # may counter-shock (result < 0).
    optional_advances: tuple[OwedAdvance, ...] = ()
    no_advance: frozenset[str] = frozenset()
    breakthrough_hexes: frozenset[str] = frozenset()
    breakthrough_ready: frozenset[str] = frozenset()
    counter_shock_open: frozenset[str] = frozenset()
    charging: Any = None                               # 9.81–9.87: charge_events.Charging (None: no charge)

    @property
    def owes(self) -> bool:
        """Something must be rolled or chosen before the activation goes on."""
        return bool(self.checks or self.retreats or self.advances or (self.charging is not None and self.charging.owes))

    def shocks_left(self, board: Board, side: str) -> tuple[int, ...]:
        """Declared assaults still to resolve: some attacker passed its APC and an enemy is still in a target
        (of the side making it: ``side``, the active side, unless the assault names its own)."""
        return tuple(i for i in range(len(self.assaults))
                     if i not in self.resolved and self.attackers_of(i, board)
                     and any(board.has_enemy(h, self.assaults[i].side or side) for h in self.assaults[i].targets))

    def is_open(self, board: Board, side: str | None) -> bool:
        """Owed acts, APCs still to roll or assaults still to resolve: the activation may not end (3.0)."""
        return self.owes or bool(self.commit_owed) or (side is not None and bool(self.shocks_left(board, side)))

    def attackers_of(self, i: int, board: Board | None = None) -> tuple[str, ...]:
        """9.45: the declared attackers of assault ``i`` whose hex passed its APC."""
        a = self.assaults[i]
        if board is None:
            return a.attackers
        if a.kind in ("breakthrough", "counter_shock"):
            # 9.73: no APC; a hex whose attacker was Disordered since (reaction fire, 8.6 / 9.24) drops out.
            gone = {x.hex for u in a.attackers if (x := board.units[u]).hex is not None and x.disordered}
            return tuple(u for u in a.attackers if (h := board.units[u].hex) is not None and h not in gone)
        return tuple(u for u in a.attackers
                     if (h := board.units[u].hex) is not None and self.committed.get(h) is True)


NO_COMBAT = Combat()


# --------------------------------------------------------------------------------------------- rolls

@record(frozen=True)
class ShockDetail:
    """Who fought whom, for the text report (not part of the ruling's JSON): attacking units with their hexes,
    each target hex's defenders, and per target the natural rolls that give each table result."""
    attackers: tuple[tuple[str, str, str], ...]                  # (id, name, hex)
    defenders: Mapping[str, tuple[tuple[str, str], ...]]         # hex -> ((id, name), ...)
    bands: Mapping[str, tuple[tuple[str, int, int], ...]]        # hex -> ((result, lowest, highest natural), ...)
    label: str = "shock"                                         # "charge", "pursuit charge 1" (9.8x)
    odds: str = ""                                               # "odds 5:5 -> 1:1" (9.51), shown even at ±0


@record(frozen=True)
class TargetsRoll(Roll):
    """A table roll with per-target modifiers (DESIGN §5: a shock against several hexes carries one natural roll
    and, per target hex, its own ``modifiers``, ``modified`` and ``result`` under ``targets``; against one hex
    the roll is flat).  ``detail`` feeds the text report."""
    targets: tuple[Mapping[str, Any], ...] = ()
    detail: ShockDetail | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        if len(self.targets) == 1:
            d.update({k: v for k, v in self.targets[0].items() if k != "hex"})
            return d
        for k in ("modifiers", "modified", "result"):
            d.pop(k, None)
        d["targets"] = [dict(t) for t in self.targets]
        return d


def natural_bands(table: Any, total_modifier: int) -> tuple[tuple[str, int, int], ...]:
    """Which natural rolls (0–9) give which result, for a table roll with ``total_modifier``."""
    out: list[list[Any]] = []
    for n in range(10):
        res = table.lookup(n + total_modifier)
        if out and out[-1][0] == res:
            out[-1][2] = n
        else:
            out.append([res, n, n])
    return tuple((r, lo, hi) for r, lo, hi in out)


def engine_roll(spec: PassRoll | TableRoll, natural: int | None, side: str | None = None,
                detail: ShockDetail | None = None) -> Roll:
    """The ruling's roll for a part-2 roll specification."""
    if isinstance(spec, PassRoll):
        return pass_fail_roll(spec.purpose, natural, spec.base, base_label=spec.base_label,
                              base_rule=spec.base_rule, modifiers=tuple(spec.modifiers), unit=spec.unit, side=side)
    if len(spec.targets) == 1 and detail is None:
        res = spec.result(natural) if natural is not None else None
        return table_roll(spec.purpose, natural, res, modifiers=tuple(spec.modifiers), unit=spec.unit, side=side)
    d = spec.to_dict(natural)
    per = d["targets"] if "targets" in d else [{"hex": spec.targets[0].hex, "modifiers": d["modifiers"],
                                                "modified": d["modified"], "result": d["result"]}]
    first = spec.targets[0]
    return TargetsRoll(purpose=spec.purpose, natural=natural, unit=spec.unit, side=side, table=True,
                       modifiers=tuple(first.modifiers), targets=tuple(per), detail=detail,
                       modified=None if natural is None else natural + first.total_modifier,
                       result=None if natural is None else spec.result(natural))


# --------------------------------------------------------------------------------------------- effects

def apply_effects(board: Board, effects: Sequence[Effect]) -> tuple[Board, list[Result]]:
    """Apply part-2 effects in order; each becomes a ruling result (DESIGN §5 effect names)."""
    out: list[Result] = []
    for e in effects:
        u = board.units.get(e.unit)
        if u is None:
            continue
        # 9.85: a Disorder (or the unit leaving the map) ends its stack's square
        if u.square and u.hex is not None and e.effect in ("disordered", "routed", "eliminated", "destroyed"):
            board = board.update_many({x: {"square": False} for x in board.stacks.get(u.hex, ())})
        if e.effect == "disordered":
            board = board.update(e.unit, status="disordered")
            out.append(result("disordered", e.rule, e.unit))
        elif e.effect == "rallied":
            board = board.update(e.unit, status="good")
            out.append(result("rallied", e.rule, e.unit))
        elif e.effect in ("routed", "eliminated", "destroyed"):
            box = e.box or ("withdrawn" if e.effect == "routed" else "eliminated")
            if e.effect == "destroyed":
                box = "destroyed"            # artillery, for good (9.66): never counted as recoverable
            board = board.remove(e.unit, box)
            extra = {"to": "withdrawn"} if e.effect == "routed" else {}
            out.append(result(e.effect, e.rule, e.unit, **extra))
        elif e.effect in ("retreated", "advanced") and e.to is not None:
            board, displaced = enter(board, e.unit, e.to)          # 5.63 and the rest of entering a hex
            out.append(result(e.effect, e.rule, e.unit, to=e.to))
            out += displaced
        else:
            out.append(result(e.effect, e.rule, e.unit))
    return board, out


def sides_of(board: Board, hexes: Iterable[str]) -> dict[str, str]:
    """hex -> the side holding it (for owed acts: the owner rolls and chooses)."""
    return {h: s for h in hexes if (s := board.side_at(h)) is not None}
