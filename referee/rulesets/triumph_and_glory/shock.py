"""Shock (assault): who may shock whom (9.1–9.3, 9.44), the resolution DRMs (9.51–9.55) and the results
(9.6).  Main digest §8.2–8.3, gaps digest §6–§8.  Positive DRMs favour the attacker.

Declaration (``declaration_errors``): 9.21 only active, committed, non-Disordered infantry/cavalry shock,
against enemies in their front hexes (6.13; attacking cavalry uses its two standard front hexes) and not across
an impassable hexside; cavalry shocks without charging only an enemy it was adjacent to when its activation
began; 9.24 nobody stacked under a Disordered infantry/cavalry unit; 9.25 artillery never; BOR-MILITIA never;
6.23 / 9.41 the top unit of each attacking hex belongs to the active AG; 5.28 a group that failed its IO roll
may only rally.  9.22 a unit must attack every enemy hex in its front unless a friend attacks it
(``unattacked_frontal_hexes``).  9.23 infantry, charging and non-charging cavalry never combine
(``shock_group``, resolution order charge → cavalry → infantry).

DRMs (``shock_modifiers`` per target hex):

* 9.51 odds — assault strength (face now up) summed per side; artillery adds nothing (9.25).  Engine default
  (``ShockOptions.odds_per_hex``): against several hexes the defenders of all target hexes are summed.
* 9.52 best attacker cohesion − best defender cohesion, artillery excluded; a side without infantry/cavalry
  contributes 0 (A-17).
* 9.53 one terrain DRM: candidates are the defender hex's row and each hexside an attacker crosses
  (``tables['shock_terrain']``).  If any candidate is −1 or worse for the attacker the defender chooses (the
  engine takes his best, the lowest); otherwise the attacker does (the highest).  The clear-terrain +1 holds
  only under ``open_ground_applies``.
* [9.54] +2 rear / +3 front-and-rear, at most one (``positional_modifier``).
* 9.55 charge, square, counter-charge and pursuit DRMs come from charge.py and are passed in as ``extra``.

Results (9.6, ``tables['shock_results']``): ``shock_outcome`` turns a result code into Disorder effects
(disorder.py), the retreat checks (one per hex, its top infantry/cavalry unit: A-4), automatic retreats and the
secondary shocks the result opens (9.73).
"""
from __future__ import annotations

from typing import Iterable, Literal, Mapping, Sequence

from modulebuilder.records import record
from .board import Board, UnitState
from .combat import ShockDetail, natural_bands
from .combat_tables import OddsTable, ShockTerrain, tables_of
from .commitment import defender_front
from .disorder import ELIMINATED, Effect, disorder_effect
from referee.engine.ruling import Error
from .facing import flank_positions, is_front
from .rolls import Modifier, TableRoll, TargetRoll, nonzero
from .zoc import zoc_sources

__all__ = ["ShockOptions", "ShockGroup", "GROUP_ORDER", "shock_group", "declaration_errors",
           "frontal_enemy_hexes", "unattacked_frontal_hexes", "artillery_only", "lone_artillery_effects",
           "assault_strength", "odds_modifier", "cohesion_modifier", "facing_unit", "open_ground_applies",
           "terrain_candidates", "terrain_modifier", "positional_modifier", "shock_modifiers", "shock_roll",
           "ResultSpec", "RESULTS", "ShockOutcome", "shock_outcome", "impassable_between"]

ShockGroup = Literal["charge", "cavalry", "infantry"]
GROUP_ORDER: tuple[ShockGroup, ...] = ("charge", "cavalry", "infantry")      # 9.23


@record(frozen=True, slots=True)
class ShockOptions:
    """Engine defaults where the rules are silent (main digest §12, gaps digest).

    ``odds_per_hex``      False (default): a shock against several hexes compares the attackers with all the
                          defenders together; True: each hex's own defenders.
    ``open_ground_terrain``  terrain ids whose shock DRM is the conditional clear-terrain +1 (9.53).
    """
    odds_per_hex: bool = False
    open_ground_terrain: frozenset[str] = frozenset({"clear"})


DEFAULT_OPTIONS = ShockOptions()


# --------------------------------------------------------------------------------------------- who may shock

def shock_group(unit: UnitState, charging: bool) -> ShockGroup:
    """9.23: the group a unit shocks with."""
    if unit.kind == "cavalry":
        return "charge" if charging else "cavalry"
    return "infantry"


def impassable_between(board: Board, a: str, b: str) -> bool:
    """9.21: an impassable hexside (every movement column prohibited) separates ``a`` and ``b``."""
    return any(board.table.impassable(f) for f in board.static.features(a, b))


def frontal_enemy_hexes(board: Board, unit: UnitState) -> tuple[str, ...]:
    """9.22: enemy-occupied hexes in ``unit``'s front (attacker role), not behind an impassable hexside."""
    if unit.hex is None:
        return ()
    return tuple(h for h in board.grid.neighbours(unit.hex).values()
                 if board.has_enemy(h, unit.side) and is_front(board, unit, h, "attacker")
                 and not impassable_between(board, unit.hex, h))


def unattacked_frontal_hexes(board: Board, unit: UnitState, targets: Iterable[str],
                             attacked_by_friends: Iterable[str]) -> tuple[str, ...]:
    """9.22: frontal enemy hexes ``unit`` leaves alone although no friend attacks them (each is an error)."""
    covered = set(targets) | set(attacked_by_friends)
    return tuple(h for h in frontal_enemy_hexes(board, unit) if h not in covered)


def _under_disordered(board: Board, unit: UnitState) -> bool:
    """9.24: is ``unit`` stacked beneath a Disordered infantry or cavalry unit?"""
    for other in board.stack(unit.hex):  # type: ignore[arg-type]
        if other.id == unit.id:
            return False
        if other.disordered and other.kind in ("infantry", "cavalry"):
            return True
    return False


def declaration_errors(board: Board, attackers: Sequence[UnitState], targets: Sequence[str], *,
                       active_ag: str | None, charge: bool = False,
                       start_hexes: Mapping[str, str] | None = None, io_failed: bool = False,
                       disordered_by_reaction_fire: Iterable[str] = ()) -> list[Error]:
    """Every reason the declared shock ``attackers`` → ``targets`` is illegal (9.21–9.25, 9.41, 9.44, 6.13,
    6.23, 5.28, BOR-MILITIA).  ``start_hexes`` maps a cavalry unit to its hex when the activation began
    (9.21); a charge's position checks are charge.py's (the charger is not adjacent yet)."""
    errors: list[Error] = []
    if io_failed:
        errors.append(Error("5.28", "io_failed", "an order group that failed its individual order may only rally"))
    if not attackers:
        return errors + [Error("9.44", "no_attackers", "an assault needs at least one attacking unit")]
    if not targets:
        return errors + [Error("9.44", "no_targets", "an assault needs at least one target hex")]
    exempt = set(disordered_by_reaction_fire)
    groups = {shock_group(u, charge) for u in attackers if u.kind != "artillery"}
    if len(groups) > 1:
        errors.append(Error("9.23", "mixed_groups",
                                "infantry, charging cavalry and non-charging cavalry shock separately"))
    for h in targets:
        if not board.has_enemy(h, attackers[0].side):
            errors.append(Error("9.21", "no_enemy_target", f"{h} holds no enemy unit"))
    for u in attackers:
        name = u.defn.name
        if u.hex is None:
            errors.append(Error("9.21", "not_on_map", f"{name} is not on the map"))
            continue
        top = board.top(u.hex)
        if top is not None and top.ag != active_ag:
            errors.append(Error("6.23", "top_not_active",
                                    f"the top unit in {u.hex} ({top.defn.name}) is not of the active group"))
        if u.kind == "artillery":
            errors.append(Error("9.25", "artillery_shock", f"{name} is artillery: artillery never shocks"))
            continue
        if "militia" in u.flags and board.rules.militia_alone:
            errors.append(Error("BOR-MILITIA", "militia_attack", f"{name} is militia: militia never attack"))
        if u.disordered and not (charge and u.id in exempt):
            errors.append(Error("9.61", "disordered_attack", f"{name} is Disordered and may not shock"))
        elif _under_disordered(board, u):
            errors.append(Error("9.24", "under_disordered", f"{name} is stacked under a Disordered unit"))
        if charge:
            continue
        for h in targets:
            if not board.grid.adjacent(u.hex, h) or not is_front(board, u, h, "attacker"):
                errors.append(Error("6.13", "target_not_front", f"{h} is not a front hex of {name}",
                                        frontal_enemy_hexes(board, u)))
            elif impassable_between(board, u.hex, h):
                errors.append(Error("9.21", "impassable_hexside", f"{name} may not shock across an impassable hexside"))
            elif u.kind == "cavalry":
                start = (start_hexes or {}).get(u.id, u.hex)
                if not board.grid.adjacent(start, h):
                    errors.append(Error("9.21", "cavalry_not_adjacent_at_start",
                                            f"{name} was not adjacent to {h} when its activation began: it may only charge"))
    return errors


def artillery_only(board: Board, hex_id: str) -> bool:
    """9.25: the hex holds only artillery (which is eliminated when shocked, without a roll)."""
    stack = board.stack(hex_id)
    return bool(stack) and all(u.kind == "artillery" for u in stack)


def lone_artillery_effects(board: Board, hex_id: str) -> tuple[Effect, ...]:
    """9.25: artillery shocked alone is eliminated at once — guns are not captured."""
    return tuple(Effect(u.id, "eliminated", "9.25", ELIMINATED) for u in board.stack(hex_id))


# --------------------------------------------------------------------------------------------- DRMs

def assault_strength(units: Iterable[UnitState]) -> int:
    """9.51 / 9.25: the assault strength of the face now up, artillery adding nothing."""
    return sum(u.value("assault") or 0 for u in units if u.kind != "artillery")


def odds_modifier(attacker: int, defender: int, table: OddsTable) -> Modifier:
    """9.51: odds rounded in the defender's favour (9:5 → 3:2 → +1; 14:5 → 2:1 → +2)."""
    ratio, drm = table.row(attacker, defender)
    return Modifier(drm, "9.51", f"odds {attacker}:{defender} -> {ratio.numerator}:{ratio.denominator}")


def cohesion_modifier(attackers: Iterable[UnitState], defenders: Iterable[UnitState]) -> Modifier:
    """9.52: best attacking cohesion − best defending cohesion; artillery ignored, an empty side 0 (A-17)."""
    def best(units: Iterable[UnitState]) -> int | None:
        vals = [u.value("cohesion") or 0 for u in units if u.kind != "artillery"]
        return max(vals) if vals else None
    a, d = best(attackers), best(defenders)
    value = 0 if a is None or d is None else a - d
    return Modifier(value, "9.52", f"cohesion {a} against {d}")


def facing_unit(board: Board, hex_id: str) -> UnitState | None:
    """6.14: for facing-dependent DRMs the facing of the infantry/cavalry in the hex counts (artillery may face
    elsewhere); a hex of artillery alone uses its top unit."""
    stack = board.stack(hex_id)
    return next((u for u in stack if u.kind != "artillery"), stack[0] if stack else None)


def open_ground_applies(board: Board, defender_hex: str, attackers: Sequence[UnitState]) -> bool:
    """9.53 clear-terrain +1: (1) a participating attacker stands in a front hex of the defender; (2) one of the
    defender's two flank positions is free (no combat unit, A-7) and not in the ZOC of another unit of the
    defender's side (its own ZOC does not count; Disordered units and militia have none).  Never when infantry
    assaults cavalry (A-7: any attacker infantry, defender cavalry)."""
    d = facing_unit(board, defender_hex)
    if d is None or not attackers:
        return False
    if d.kind == "cavalry" and any(a.kind == "infantry" for a in attackers):
        return False
    if not any(a.hex and defender_front(board, d, a.hex) for a in attackers):
        return False
    own = set(board.stacks.get(defender_hex, ()))
    attacker_side = attackers[0].side
    for h in flank_positions(board, d):
        if board.stack(h):
            continue
        if not any(u.id not in own for u in zoc_sources(board, h, attacker_side)):
            return True
    return False


def terrain_candidates(board: Board, defender_hex: str, attackers: Sequence[UnitState], table: ShockTerrain,
                       options: ShockOptions = DEFAULT_OPTIONS) -> tuple[Modifier, ...]:
    """9.53: every terrain DRM that could apply: the defender hex's row (the conditional clear +1 counted as 0
    when its conditions fail) and each listed hexside feature an attacker shocks across."""
    terrain = "rubble" if defender_hex in board.rubble else board.static.terrain(defender_hex)
    out: list[Modifier] = []
    if terrain in table.rows:
        value = table.rows[terrain]
        if terrain in options.open_ground_terrain and not open_ground_applies(board, defender_hex, attackers):
            value = 0
        out.append(Modifier(value, "9.53", f"defender in {terrain}"))
    for a in attackers:
        if a.hex is None:
            continue
        for f in board.static.features(a.hex, defender_hex):
            if f in table.hexsides:
                out.append(Modifier(table.hexsides[f], "9.53", f"{f} hexside {a.hex}|{defender_hex}"))
    return tuple(out)


def terrain_modifier(candidates: Sequence[Modifier]) -> Modifier | None:
    """9.53: one terrain DRM per shock.  A candidate of −1 or worse gives the choice to the defender (who takes
    the lowest); otherwise the attacker chooses (the highest)."""
    if not candidates:
        return None
    if any(c.value <= -1 for c in candidates):
        c = min(candidates, key=lambda m: m.value)
        return Modifier(c.value, c.rule, f"{c.reason} (defender's choice)")
    c = max(candidates, key=lambda m: m.value)
    return Modifier(c.value, c.rule, c.reason if len(candidates) == 1 else f"{c.reason} (attacker's choice)")


def _in_front_of_other_enemy(board: Board, attacker: UnitState, defenders: set[str]) -> bool:
    """[9.54]: does ``attacker`` stand in a front hex of an enemy unit that is not a defender of this shock?"""
    for h in board.neighbours(attacker.hex):  # type: ignore[arg-type]
        for u in board.stack(h):
            if u.side != attacker.side and u.id not in defenders and is_front(board, u, attacker.hex, "zoc"):  # type: ignore[arg-type]
                return True
    return False


def positional_modifier(board: Board, target_hexes: Sequence[str], attackers: Sequence[UnitState]) -> Modifier | None:
    """[9.54]: +2 when every participating attacker engages every target through its rear; +3 when every
    target is engaged from a front hex and from a rear hex (participating attackers only, A-6).  Either needs an
    attacker in a rear hex that is not in a front hex of another enemy unit.  Village infantry and squares have
    no rear, cavalry in Good Order defends with its flank as front."""
    defenders = {u for h in target_hexes for u in board.stacks.get(h, ())}
    rear_attackers: list[UnitState] = []
    all_rear, all_both = True, True
    for h in target_hexes:
        d = facing_unit(board, h)
        if d is None:
            return None
        near = [a for a in attackers if a.hex and board.grid.adjacent(a.hex, h)]
        front = [a for a in near if defender_front(board, d, a.hex)]  # type: ignore[arg-type]
        rear = [a for a in near if a not in front]
        rear_attackers += rear
        all_rear &= bool(near) and not front
        all_both &= bool(front) and bool(rear)
    if not (all_rear or all_both):
        return None
    if all(_in_front_of_other_enemy(board, a, defenders) for a in rear_attackers):
        return None
    if all_both:
        return Modifier(3, "9.54", "assaulted from front and rear")
    return Modifier(2, "9.54", "assaulted through the rear")


def shock_modifiers(board: Board, attackers: Sequence[UnitState], target_hexes: Sequence[str], target: str,
                    extra: Sequence[Modifier] = (), options: ShockOptions = DEFAULT_OPTIONS) -> tuple[Modifier, ...]:
    """Every DRM of the shock on ``target`` (one of ``target_hexes``): 9.51 + 9.52 + 9.53 + [9.54] + ``extra``
    (the 9.55 charge/square/counter-charge/pursuit DRMs, from charge.py)."""
    t = tables_of(board)
    near = [a for a in attackers if a.hex and board.grid.adjacent(a.hex, target)] or list(attackers)
    defenders = [u for h in ((target,) if options.odds_per_hex else target_hexes) for u in board.stack(h)]
    return nonzero((odds_modifier(assault_strength(attackers), assault_strength(defenders), t.odds),
                    cohesion_modifier(attackers, defenders),
                    terrain_modifier(terrain_candidates(board, target, near, t.shock_terrain, options)),
                    positional_modifier(board, target_hexes, attackers), *extra))


def shock_roll(board: Board, attackers: Sequence[UnitState], target_hexes: Sequence[str],
               extra: Mapping[str, Sequence[Modifier]] | None = None,
               options: ShockOptions = DEFAULT_OPTIONS) -> TableRoll:
    """The shock roll (9.5): one natural d10, modified separately for each target hex (9.22)."""
    extra = extra or {}
    targets = tuple(TargetRoll(h, shock_modifiers(board, attackers, target_hexes, h, extra.get(h, ()), options))
                    for h in target_hexes)
    return TableRoll("shock", tables_of(board).shock_results, targets)


# --------------------------------------------------------------------------------------------- results

@record(frozen=True, slots=True)
class ResultSpec:
    """What a Shock Results Table line does (gaps §8 / §18.4)."""
    disorder: Literal["attacker", "defender"]
    retreat_check: bool          # 9.62: the Disordered side checks for retreat
    retreat: bool                # automatic one-hex retreat, no check
    counter_shock: bool          # 9.73: the defender may counter-shock
    secondary: bool              # 9.73: breakthrough (infantry) / pursuit (charging cavalry)


RESULTS: dict[str, ResultSpec] = {
    # < 0: the attackers' retreat check is [inferred] as for 0–4 (gaps §8, §15).
    "attacker_disordered_counter_shock": ResultSpec("attacker", True, False, True, False),
    "attacker_disordered_check": ResultSpec("attacker", True, False, False, False),
    "defender_disordered_check": ResultSpec("defender", True, False, False, False),
    "defender_disordered_retreat": ResultSpec("defender", False, True, False, True),
}
# The spellings of the Borodino tables file (tables/borodino.yaml) for the same lines.
RESULTS.update({
    "attacker_disordered_retreat_check_counter_shock": RESULTS["attacker_disordered_counter_shock"],
    "attacker_disordered_retreat_check": RESULTS["attacker_disordered_check"],
    "defender_disordered_retreat_check": RESULTS["defender_disordered_check"],
})


@record(frozen=True, slots=True)
class ShockOutcome:
    """The consequences of one result on one target hex.  ``checks``: (hex, unit) retreat cohesion checks to
    roll (9.62, one per hex by its top infantry/cavalry unit, A-4); ``retreats``: hexes whose units retreat one
    hex without a check; ``breakthrough`` / ``pursuit`` / ``counter_shock``: the secondary shock now open."""
    result: str
    effects: tuple[Effect, ...]
    checks: tuple[tuple[str, str], ...]
    retreats: tuple[str, ...]
    counter_shock: bool
    breakthrough: bool
    pursuit: bool


def shock_outcome(board: Board, result: str, attackers: Sequence[UnitState], target: str,
                  charging: bool = False) -> ShockOutcome:
    """9.61–9.62, 9.66, 9.73: apply a Shock Results Table line.  The printed result first (every unit of the
    side is Disordered; one already Disordered routs or, artillery, is destroyed), then its consequences: only
    units still on the map check or retreat."""
    spec = RESULTS.get(result)
    if spec is None:
        raise ValueError(f"unknown shock result {result!r}; known: {sorted(RESULTS)}")
    hit = list(board.stack(target)) if spec.disorder == "defender" else list(attackers)
    effects = tuple(disorder_effect(u, board.rules) for u in hit)
    staying = {e.unit for e in effects if e.box is None}
    hexes = list(dict.fromkeys(u.hex for u in hit if u.id in staying and u.hex))
    checks: list[tuple[str, str]] = []
    retreats: list[str] = []
    for h in hexes:
        line = [u for u in hit if u.hex == h and u.id in staying and u.kind != "artillery"]
        if spec.retreat:
            retreats.append(h)
        elif spec.retreat_check and line:
            checks.append((h, line[0].id))
    infantry = any(a.kind == "infantry" for a in attackers)
    return ShockOutcome(result, effects, tuple(checks), tuple(retreats), spec.counter_shock,
                        spec.secondary and infantry and not charging, spec.secondary and charging)


# --------------------------------------------------------------------------------------------- the report

def shock_detail(board: Board, attackers: list[UnitState], spec: TableRoll, label: str = "shock") -> ShockDetail:
    """Attackers, defenders and the natural rolls per result, for the text report (3: a shock as a player reads it)."""
    defenders = [u for t in spec.targets for u in board.stack(t.hex)]       # 9.51: summed over the targets
    odds = odds_modifier(assault_strength(attackers), assault_strength(defenders), tables_of(board).odds)
    return ShockDetail(
        attackers=tuple((u.id, u.defn.name, u.hex or "") for u in attackers),
        defenders={t.hex: tuple((u.id, u.defn.name) for u in board.stack(t.hex)) for t in spec.targets},
        bands={t.hex: natural_bands(spec.table, t.total_modifier) for t in spec.targets}, label=label,
        odds=odds.reason)
